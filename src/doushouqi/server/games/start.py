"""Starting a game between two chosen players: the one way features do it (quick pairing,
challenges, tournaments), so that every such game is seated, stored and announced alike."""

from __future__ import annotations

import random
from typing import Any, Literal

from doushouqi.core.clock import TimeControl
from doushouqi.core.speed import speed_of
from doushouqi.server.context import AppContext
from doushouqi.server.domain import Game, GameSpec, Mode, PlayerSlot, new_game
from doushouqi.server.live.actors import new_game_id
from doushouqi.server.notifications.service import push

_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)

__all__ = ["start_game_between"]


async def start_game_between(
    ctx: AppContext,
    first: PlayerSlot,
    second: PlayerSlot,
    *,
    game_key: str,
    rules: Any,
    time_control: TimeControl | None,
    rated: bool,
    first_color: Literal["red", "blue", "random"] = "random",
    tournament_id: str | None = None,
    message: dict[str, Any] | None = None,
    game_id: str | None = None,
    public: bool = True,
) -> Game:
    """Create an online game of ``game_key`` with ``first`` and ``second`` seated (``first`` at
    ``first_color``: ``red`` is seat 0; the seats carry each player's standing in that game),
    store it, run it here, and push ``{"type": "paired", "game_id": ...}``
    (plus ``message``'s fields) to both players' open tabs. The game starts when both are at
    the board. ``rated`` counts only between two accounts and with a clock (ratings are per
    speed; a challenge stored before that rule may ask otherwise): it is dropped otherwise;
    ``game_id`` is the new game's id when the caller chose it (a claim recorded it first);
    ``tournament_id`` makes it that tournament's game (its page links back to the tournament).
    A game between people is ``public`` (on Watch and TV, as on lichess) unless a player
    chose it private (a challenge's ``private``)."""
    color = {"red": 0, "blue": 1, "random": _rng.randrange(2)}[first_color]
    seats: list[PlayerSlot | None] = [None, None]
    seats[color], seats[1 - color] = first, second
    both_accounts = all(p is not None and p.identity.kind == "account" for p in (first, second))
    spec = GameSpec(
        mode=Mode.ONLINE,
        players=(seats[0], seats[1]),
        rules=rules,
        time_control=time_control,
        rated=rated and both_accounts and speed_of(time_control) is not None,
        tournament=tournament_id is not None,
        tournament_id=tournament_id,
        grace_period=ctx.settings.grace_period,
        lobby_wait=ctx.settings.lobby_wait,
        game_key=game_key,
    )
    game = new_game(spec, game_id=game_id or new_game_id(), now=ctx.time.now())
    await ctx.registry.create(game, public=public)
    for player in (first, second):
        key = _key(player)
        if key is not None:
            push(ctx, key, {**(message or {}), "type": "paired", "game_id": game.id})
    return game


def _key(player: PlayerSlot) -> str | None:
    identity = player.identity.to_dict()
    return f"{identity['kind']}:{identity.get('id', identity.get('level'))}"

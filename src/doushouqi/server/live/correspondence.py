"""Correspondence games (days per move): whose turn it is across every live game, and telling
the player to move when it becomes their turn.

A correspondence game is an online game whose time control is ``Nd`` (``doushouqi.core.clock``):
N days for each move, no main clock, and running out of days loses. Its deadline is an
ordinary clock deadline: the game's actor sleeps until it like any other (docs/server.md,
Correspondence).

* **Your turn.** :func:`my_turn` reads the player's games in progress from the database (the
  ``games`` rows name both players, ``seat0_key`` / ``seat1_key``), so it sees games owned by any
  node, and works out from each stored state whose turn it is and when the move is due. No
  column of its own is needed: the state already holds the clock.
* **Notifications.** :func:`install` adds a listener to the actors' commits: when a move (or
  a takeback, or the start) hands the turn to a player of a correspondence game, that player
  is notified (kind ``corr.your_turn``), stored and pushed to their open tabs on every node;
  when the game ends, both are (``corr.won``, ``corr.lost``, ``corr.drawn``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from doushouqi.core.clock import TimeControl
from doushouqi.server.context import AppContext
from doushouqi.server.db import repo
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain import Event, Game, GameStatus, Mode, next_deadline
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.notifications.service import notify

__all__ = [
    "CORRESPONDENCE_LOBBY_WAIT",
    "install",
    "is_correspondence",
    "lobby_wait_for",
    "my_games",
    "my_turn",
    "turn_entry",
]

log = logging.getLogger(__name__)

#: Events after which the side to move may be someone new.
_TURN_EVENTS = frozenset({"game_started", "move_made", "timeout_passed", "takeback_applied"})
#: Most games ``GET /api/games/my-turn`` lists.
MY_TURN_LIMIT = 200
#: How long an open correspondence game waits for an opponent (seconds): a week, as players
#: of games that last days look for one less often than those who play at one sitting.
CORRESPONDENCE_LOBBY_WAIT = 7 * 86400.0


def is_correspondence(game: Game) -> bool:
    return game.time_control is not None and game.time_control.is_correspondence


def lobby_wait_for(control: TimeControl | None, default: float) -> float:
    """How long a new online game with ``control`` waits for an opponent."""
    if control is not None and control.is_correspondence:
        return max(default, CORRESPONDENCE_LOBBY_WAIT)
    return default


def turn_entry(game: Game, color: int, now: float) -> dict[str, Any]:
    """One line of the lists for the player at ``color``: the game, the opponent, whose move
    it is, and when that move is due."""
    opponent = game.players[1 - color]
    deadline = next_deadline(game, now)
    return {
        "id": game.id,
        # Which game (its sides' names and tokens: 虎方 and 人方 in 老虎棋).
        "game_key": game.game_key,
        "color": color,
        "to_move": game.turn,
        "time_control": None if game.time_control is None else str(game.time_control),
        "correspondence": is_correspondence(game),
        "rated": game.rated,
        "rules": game.rules_name,
        "ply": len(game.moves),
        "opponent": None if opponent is None else opponent.to_dict(),
        "deadline": deadline,
        "last_move_at": game.moves[-1].at if game.moves else game.started_at,
    }


def _their_live_games(session: Session, key: str) -> list[Game]:
    query = (
        select(GameRow.state)
        .where(
            and_(
                GameRow.status == int(GameStatus.STARTED),
                GameRow.mode == Mode.ONLINE.value,
                or_(GameRow.seat0_key == key, GameRow.seat1_key == key),
            )
        )
        .limit(MY_TURN_LIMIT * 2)
    )
    return [game_from_storage(json.loads(state)) for state in session.scalars(query)]


def _by_urgency(entry: dict[str, Any]) -> tuple[float, float]:
    deadline = entry["deadline"]
    return (math.inf if deadline is None else deadline, entry["last_move_at"] or 0.0)


async def my_games(ctx: AppContext, player_key: str) -> dict[str, list[dict[str, Any]]]:
    """The player's online games in progress: ``mine`` where it is their move, ``theirs``
    where the opponent is to move; each most urgent deadline first (games without a deadline
    last, oldest move first)."""
    games = await ctx.db.read(lambda s: _their_live_games(s, player_key))
    now = ctx.time.now()
    lists: dict[str, list[dict[str, Any]]] = {"mine": [], "theirs": []}
    for game in games:
        seats = [c for c in (0, 1) if repo.player_key(game.players[c]) == player_key]
        if not seats:
            continue
        to_move = game.turn in seats
        entry = turn_entry(game, game.turn if to_move else seats[0], now)
        lists["mine" if to_move else "theirs"].append(entry)
    return {
        name: sorted(entries, key=_by_urgency)[:MY_TURN_LIMIT] for name, entries in lists.items()
    }


async def my_turn(ctx: AppContext, player_key: str) -> list[dict[str, Any]]:
    """The online games in progress where it is ``player_key``'s move, most urgent first."""
    return (await my_games(ctx, player_key))["mine"]


def _player_key(game: Game, color: int) -> str | None:
    player = game.players[color]
    return None if player is None or player.is_ai else repo.player_key(player)


def _your_turn(game: Game, now: float) -> list[tuple[str, str, dict[str, Any]]]:
    """The notification for the player whose turn it has become, if any."""
    key = _player_key(game, game.turn)
    if key is None:
        return []
    opponent = game.players[1 - game.turn]
    params = {
        "game_id": game.id,
        "opponent": None if opponent is None else opponent.name,
        "deadline": next_deadline(game, now),
    }
    return [(key, "corr.your_turn", params)]


def _game_over(game: Game) -> list[tuple[str, str, dict[str, Any]]]:
    """Both players are told how a correspondence game ended: they are rarely at the board."""
    told = []
    for color in (0, 1):
        key = _player_key(game, color)
        opponent = game.players[1 - color]
        if key is None or game.outcome is None or game.result == "*":  # aborted: no result
            continue
        kind = {None: "corr.drawn", color: "corr.won", 1 - color: "corr.lost"}[game.winner]
        params = {"game_id": game.id, "opponent": None if opponent is None else opponent.name}
        told.append((key, kind, params))
    return told


def install(ctx: AppContext) -> None:
    """Notify correspondence players when it becomes their turn, and when the game ends
    (after every commit)."""
    pending: set[asyncio.Task[None]] = set()

    def after_commit(game: Game, events: list[Event]) -> None:
        if not is_correspondence(game):
            return
        kinds = {e.type for e in events}
        if game.status is GameStatus.STARTED and kinds & _TURN_EVENTS:
            notes = _your_turn(game, ctx.time.now())
        elif "game_finished" in kinds:
            notes = _game_over(game)
        else:
            return
        for key, kind, params in notes:
            task = asyncio.create_task(_notify(ctx, key, kind, params))
            pending.add(task)
            task.add_done_callback(pending.discard)

    ctx.registry.commit_listeners.append(after_commit)


async def _notify(ctx: AppContext, key: str, kind: str, params: dict[str, Any]) -> None:
    game_id = params["game_id"]
    try:
        await notify(ctx, key, kind, params, link=f"#/game/{game_id}")
    except Exception:
        # The move is stored and told already; a lost reminder must not break the game.
        log.exception("could not notify %s about game %s", key, game_id)

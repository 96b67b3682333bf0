"""Correspondence games (days per move): whose turn it is across every live game, and telling
the player to move when it becomes their turn.

A correspondence game is an online game whose time control is ``Nd`` (``doushouqi.clock``):
N days for each move, no main clock, and running out of days loses. Its deadline is an
ordinary clock deadline: the game's actor sleeps until it like any other (docs/server.md,
Correspondence).

* **Your turn.** :func:`my_turn` reads the player's games in progress from the database (the
  ``games`` rows name both players, ``red_key`` / ``blue_key``), so it sees games owned by any
  node, and works out from each stored state whose turn it is and when the move is due. No
  column of its own is needed: the state already holds the clock.
* **Notifications.** :func:`install` adds a listener to the actors' commits: when a move (or
  a takeback, or the start) hands the turn to a player of a correspondence game, that player
  is notified (kind ``corr.your_turn``), stored and pushed to their open tabs on every node.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from doushouqi.clock import TimeControl
from doushouqi.server.domain import Event, Game, GameStatus, Mode, next_deadline
from doushouqi.server.domain.storage import game_from_storage

from .context import AppContext
from .db import repo
from .db.models import GameRow
from .notifications import notify

__all__ = [
    "CORRESPONDENCE_LOBBY_WAIT",
    "install",
    "is_correspondence",
    "lobby_wait_for",
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


def turn_entry(game: Game, now: float) -> dict[str, Any]:
    """One line of the your-turn list: the game, the opponent, and when the move is due."""
    turn = game.turn
    opponent = game.players[1 - turn]
    deadline = next_deadline(game, now)
    return {
        "id": game.id,
        "color": turn,
        "time_control": None if game.time_control is None else str(game.time_control),
        "correspondence": is_correspondence(game),
        "rated": game.rated,
        "rules": game.rules.name,
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
                or_(GameRow.red_key == key, GameRow.blue_key == key),
            )
        )
        .limit(MY_TURN_LIMIT * 2)
    )
    return [game_from_storage(json.loads(state)) for state in session.scalars(query)]


async def my_turn(ctx: AppContext, player_key: str) -> list[dict[str, Any]]:
    """The online games in progress where it is ``player_key``'s move, most urgent deadline
    first (games without a deadline last, oldest move first)."""
    games = await ctx.db.read(lambda s: _their_live_games(s, player_key))
    now = ctx.time.now()
    entries = [
        turn_entry(game, now)
        for game in games
        if repo.player_key(game.players[game.turn]) == player_key
    ]
    entries.sort(
        key=lambda e: (
            math.inf if e["deadline"] is None else e["deadline"],
            e["last_move_at"] or 0.0,
        )
    )
    return entries[:MY_TURN_LIMIT]


def install(ctx: AppContext) -> None:
    """Notify correspondence players when it becomes their turn (after every commit)."""
    pending: set[asyncio.Task[None]] = set()

    def after_commit(game: Game, events: list[Event]) -> None:
        if not is_correspondence(game) or game.status is not GameStatus.STARTED:
            return
        if not any(e.type in _TURN_EVENTS for e in events):
            return
        player = game.players[game.turn]
        key = repo.player_key(player)
        if player is None or player.is_ai or key is None:
            return
        opponent = game.players[1 - game.turn]
        params = {
            "game_id": game.id,
            "opponent": None if opponent is None else opponent.name,
            "deadline": next_deadline(game, ctx.time.now()),
        }
        task = asyncio.create_task(_notify(ctx, key, params, game.id))
        pending.add(task)
        task.add_done_callback(pending.discard)

    ctx.registry.commit_listeners.append(after_commit)


async def _notify(ctx: AppContext, key: str, params: dict[str, Any], game_id: str) -> None:
    try:
        await notify(ctx, key, "corr.your_turn", params, link=f"#/game/{game_id}")
    except Exception:
        # The move is stored and told already; a lost reminder must not break the game.
        log.exception("could not notify %s of their turn in game %s", key, game_id)

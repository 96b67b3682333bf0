"""Games to watch: ``GET /api/games/live`` lists the games in progress, best first.

Read from the database (games with status ``started``), so every node lists every node's
games; spectators come from ``watching.py`` (the owners' counts). Listed: public online games
between people. Order: tournament games first, then by the mean of the players' ratings
(accounts' current ratings in that game at its speed; a guest, or a game without a clock,
counts as 1500, unrated), then the newest.
The featured game ("TV") is the first one.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import desc, select
from sqlalchemy.orm import Session

from doushouqi.core.rating import Rating
from doushouqi.core.speed import Speed
from doushouqi.server.api.deps import READ_LIMITED, Ctx
from doushouqi.server.db.models import GameRow
from doushouqi.server.db.speed_ratings import as_rating, speed_ratings_for
from doushouqi.server.domain import Account, Game, GameStatus, Mode
from doushouqi.server.domain.storage import game_from_storage

router = APIRouter(prefix="/api", tags=["watch"])

#: The games in progress looked at, newest first (the list is sorted among them).
SCAN = 500
#: A guest's rating on the Watch page (guests are unrated).
GUEST_RATING = 1500.0


#: Accounts' current ratings, by (account id, game key, speed).
Ratings = dict[tuple[int, str, Speed], Rating]


def _live(session: Session) -> tuple[list[Game], Ratings]:
    query = (
        select(GameRow.state)
        .where(
            GameRow.status == int(GameStatus.STARTED),
            GameRow.mode == Mode.ONLINE.value,
            GameRow.public.is_(True),
        )
        .order_by(desc(GameRow.started_at))
        .limit(SCAN)
    )
    games = [game_from_storage(json.loads(state)) for state in session.scalars(query)]
    ratings: Ratings = {}
    groups = {(g.game_key, g.speed) for g in games if g.speed is not None}
    for key, speed in groups:
        ids = {
            p.identity.id
            for g in games
            if (g.game_key, g.speed) == (key, speed)
            for p in g.players
            if p and isinstance(p.identity, Account)
        }
        if ids:
            found = speed_ratings_for(session, ids, key, speed)
            ratings.update({(i, key, speed): as_rating(row) for i, row in found.items()})
    return games, ratings


def _player(game: Game, seat: int, ratings: Ratings) -> dict[str, Any] | None:
    player = game.players[seat]
    if player is None:
        return None
    identity = player.identity
    speed = game.speed
    key = None
    if isinstance(identity, Account) and speed is not None:
        key = (identity.id, game.game_key, speed)
    found = None if key is None else ratings.get(key)
    return {
        "name": player.name,
        "username": player.username,
        "avatar": player.avatar,
        "kind": identity.kind,
        "rating": round(GUEST_RATING if found is None else found.rating),
        "provisional": found is not None and found.provisional,
        "rated": found is not None,
    }


def live_entry(game: Game, ratings: Ratings, spectators: int) -> dict[str, Any]:
    players = [_player(game, c, ratings) for c in (0, 1)]
    mean = sum(p["rating"] if p else GUEST_RATING for p in players) / 2
    last = game.moves[-1].move if game.moves else None
    return {
        "id": game.id,
        "game_key": game.game_key,
        "players": players,
        "rating": round(mean),
        "tournament": game.tournament,
        "rated": game.rated,
        "rules": game.rules_name,
        # The options too: a game's board may depend on them (老虎棋's lines, its diagonals).
        "rule_options": game.rules_mapping,
        "time_control": None if game.time_control is None else str(game.time_control),
        "plies": len(game.moves),
        "spectators": spectators,
        "fen": game.fen,
        "turn": game.turn,
        "last_move": last,
        "started_at": game.started_at,
    }


@router.get("/games/live", dependencies=READ_LIMITED)
async def live_games(ctx: Ctx, limit: int = Query(20, ge=1, le=100)) -> dict[str, Any]:
    """Games in progress, tournament games first, then the highest rated."""
    games, ratings = await ctx.db.read(_live)
    counts = await ctx.registry.spectator_counts([g.id for g in games])
    entries = best_first([live_entry(g, ratings, counts.get(g.id, 0)) for g in games])
    return {"games": entries[:limit], "server_time": ctx.time.now()}


def best_first(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tournament games first, then the highest mean rating, then the newest."""
    return sorted(
        entries, key=lambda e: (not e["tournament"], -e["rating"], -(e["started_at"] or 0))
    )

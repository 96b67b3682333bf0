"""Games to watch: ``GET /api/games/live`` lists the games in progress, best first, and TV
features one (``GET /api/tv``, pushed on ``/ws/tv``).

Read from the database (games with status ``started``), so every node lists every node's
games; spectators come from ``watching.py`` (the owners' counts). Listed: public online games
between people (every game between people is public unless a player chose private; games
against the computer are never listed). Order: by the mean of the players' ratings (accounts'
current ratings in that game at its speed; a guest, or anyone in a game without a clock,
counts as 1500, unrated), then tournament games, then the newest. Filters: the game, the rule
set, the speed (``TimeControl.speed``; ``untimed`` for none) and rated or casual. TV features
the first game and keeps it until it ends (``live/tv.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from sqlalchemy import desc, select
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from doushouqi.core.rating import Rating
from doushouqi.core.speed import Speed
from doushouqi.server.api.deps import READ_LIMITED, Ctx, offered_game
from doushouqi.server.context import context_of
from doushouqi.server.db.models import GameRow
from doushouqi.server.db.speed_ratings import as_rating, speed_ratings_for
from doushouqi.server.domain import Account, Game, GameStatus, Mode
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.live.actors import dumps
from doushouqi.server.live.tv import Tv

router = APIRouter(prefix="/api", tags=["watch"])
#: TV's websocket, beside the game sockets (``/ws/...``).
socket_router = APIRouter(tags=["watch"])

#: The games in progress looked at, newest first (the list is sorted among them).
SCAN = 500
#: A guest's rating on the Watch page (guests are unrated).
GUEST_RATING = 1500.0
#: Seconds between TV's looks at the games in progress while anyone watches it (on a node).
TV_INTERVAL = 1.0


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
        "speed": "untimed" if game.speed is None else game.speed.value,
        "plies": len(game.moves),
        "spectators": spectators,
        "fen": game.fen,
        "turn": game.turn,
        "last_move": last,
        "started_at": game.started_at,
    }


#: The speeds the Watch page filters by (a game without a clock: ``untimed``).
SpeedFilter = Literal["bullet", "blitz", "rapid", "classical", "correspondence", "untimed"]


@dataclass(frozen=True)
class Filters:
    """What the Watch page's viewer wants to see (None: any)."""

    game: str | None = None
    rules: str | None = None
    speed: str | None = None
    rated: bool | None = None

    def admit(self, entry: dict[str, Any]) -> bool:
        wanted = (self.game, self.rules, self.speed, self.rated)
        found = (entry["game_key"], entry["rules"], entry["speed"], entry["rated"])
        return all(w is None or w == f for w, f in zip(wanted, found, strict=True))


async def _entries(ctx: Ctx, filters: Filters = Filters()) -> list[dict[str, Any]]:
    games, ratings = await ctx.db.read(_live)
    counts = await ctx.registry.spectator_counts([g.id for g in games])
    entries = [live_entry(g, ratings, counts.get(g.id, 0)) for g in games]
    return best_first([e for e in entries if filters.admit(e)])


@router.get("/games/live", dependencies=READ_LIMITED)
async def live_games(
    ctx: Ctx,
    limit: int = Query(20, ge=1, le=100),
    game: str | None = Query(None, max_length=16, description="a game's key: only its games"),
    rules: str | None = Query(None, max_length=40, description="only games of this rule set"),
    speed: Annotated[SpeedFilter | None, Query(description="only games of this speed")] = None,
    rated: bool | None = Query(None, description="only rated (true) or casual (false) games"),
) -> dict[str, Any]:
    """Games in progress, the highest rated first; filtered by game, rules, speed, rated."""
    if game is not None:
        offered_game(game)  # a game the site does not offer is a 422, not an empty list
    entries = await _entries(ctx, Filters(game, rules, speed, rated))
    return {"games": entries[:limit], "server_time": ctx.time.now()}


def best_first(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The highest mean rating first, then tournament games, then the newest."""
    return sorted(
        entries, key=lambda e: (-e["rating"], not e["tournament"], -(e["started_at"] or 0))
    )


def _tv(connection: HTTPConnection) -> Tv:
    """This node's TV, made at its first viewer."""
    state = connection.app.state
    if getattr(state, "tv", None) is None:
        ctx = context_of(connection)

        async def pick(current: str | None) -> dict[str, Any] | None:
            entries = await _entries(ctx)
            still = next((e for e in entries if e["id"] == current), None)
            return still or (entries[0] if entries else None)

        state.tv = Tv(pick, interval=TV_INTERVAL)
    tv: Tv = state.tv
    return tv


@router.get("/tv", dependencies=READ_LIMITED)
async def tv_game(request: Request, ctx: Ctx) -> dict[str, Any]:
    """The game TV features: the one featured until it ends, then the best in progress."""
    return {"game": await _tv(request).current(), "server_time": ctx.time.now()}


@socket_router.websocket("/ws/tv")
async def tv_socket(websocket: WebSocket) -> None:
    """``{"type": "featured", "game": ...}`` now and whenever TV features another game. Open to
    anyone (it tells what ``GET /api/tv`` tells); what the client sends is ignored."""
    await websocket.accept()
    tv = _tv(websocket)
    try:
        async with tv.watch() as queue:
            reader = asyncio.create_task(_drain(websocket))
            try:
                while not reader.done():
                    getter = asyncio.create_task(queue.get())
                    done, _ = await asyncio.wait(
                        {getter, reader}, return_when=asyncio.FIRST_COMPLETED
                    )
                    if getter not in done:
                        getter.cancel()
                        break
                    message = {"type": "featured", "game": getter.result()}
                    await websocket.send_text(dumps(message))
            finally:
                reader.cancel()
    except WebSocketDisconnect:
        pass
    except Exception:  # the database away: the client reconnects with back-off
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="try again")


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes."""
    with contextlib.suppress(WebSocketDisconnect):
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass

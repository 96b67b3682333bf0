"""``GET /api/tablebase?fen=…&rules=…[&game=…]``: the endgame tables' value of a position and of
every legal move (like lichess's tablebase API), from the game's tables: its
:class:`~doushouqi.server.games.capabilities.Tablebase` in the site's registry (Jungle's, and
the answer's fields, in server/games/jungle_tablebase.py). A game without tables is a 404.

Probing reads files only, so it runs in a thread; it is rate-limited with the analysis limit.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request

from doushouqi.core.game import PositionError
from doushouqi.server.api.deps import READ_LIMITED, Ctx, enforce_rate, offered_game
from doushouqi.server.db.repo import DEFAULT_GAME
from doushouqi.server.games.capabilities import TablesDamaged
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["tablebase"])


@router.get("/tablebase", dependencies=READ_LIMITED)
async def tablebase(
    request: Request,
    ctx: Ctx,
    fen: str = Query(..., max_length=200, description="the position"),
    rules: str | None = Query(None, max_length=40, description="none: the game's default"),
    game: str = Query(DEFAULT_GAME, max_length=16, description="the game's key"),
) -> dict[str, Any]:
    """The table value of the position and of each legal move (see the module docstring)."""
    enforce_rate(ctx.analysis_limiter, request)
    played, site = offered_game(game)
    if site.tablebase is None:
        raise Problem(
            404, "tablebase.none", f"there are no endgame tables for {played.key}", game=played.key
        )
    rule_set = chosen_rules(rules, played.key)
    try:
        position = played.new_position(rule_set, fen)
    except PositionError as exc:
        raise Problem(422, "tablebase.bad_fen", str(exc)) from None
    try:
        return await asyncio.to_thread(site.tablebase.probe, position)
    except TablesDamaged as exc:
        raise Problem(503, "tablebase.damaged", str(exc)) from None

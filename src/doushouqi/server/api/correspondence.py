"""The your-turn list: the caller's games in progress where it is their move
(docs/server.md, Correspondence)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..correspondence import my_turn
from ..db import repo
from .deps import Ctx, RequiredPrincipal

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games/my-turn")
async def games_my_turn(ctx: Ctx, principal: RequiredPrincipal) -> dict[str, Any]:
    """Online games in progress where it is your move, the most urgent deadline first; each
    with the opponent, the time control (``3d``: correspondence) and ``deadline`` (server
    epoch seconds; null: no clock). ``server_time`` is the server's clock."""
    key = repo.player_key(principal.slot())
    games = [] if key is None else await my_turn(ctx, key)
    return {"games": games, "server_time": ctx.time.now()}

"""The your-turn list: the caller's games in progress where it is their move
(docs/server.md, Correspondence)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import BOARD_PLAY
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.db import repo
from doushouqi.server.live.correspondence import my_games

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games/my-turn", dependencies=READ_LIMITED)
async def games_my_turn(
    ctx: Ctx, principal: Annotated[Principal, required_principal(BOARD_PLAY)]
) -> dict[str, Any]:
    """Online games in progress where it is your move (``games``), the most urgent deadline
    first; each with the opponent, the time control (``3d``: correspondence) and ``deadline``
    (server epoch seconds; null: no clock). ``waiting``: your other games in progress, where
    the opponent is to move. ``server_time`` is the server's clock."""
    key = repo.player_key(principal.slot())
    games = {"mine": [], "theirs": []} if key is None else await my_games(ctx, key)
    return {"games": games["mine"], "waiting": games["theirs"], "server_time": ctx.time.now()}

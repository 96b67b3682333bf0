"""Games' chat over REST: the rooms a reader may read, and reports of messages.

Messages are sent over the game's websocket (``{"type": "chat", ...}``, see ``chat.py``) or
``POST /api/games/{id}/commands`` with the same body.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import BOARD_PLAY
from doushouqi.server.api.deps import READ_LIMITED, Ctx, optional_principal, required_principal
from doushouqi.server.chat.service import history_for, report_message
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem
from doushouqi.server.live.actors import GAME_ID

router = APIRouter(prefix="/api", tags=["chat"])


class ReportBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Literal["spam", "abuse", "cheating", "other"] = "other"


def _game_id(game_id: str) -> str:
    if not GAME_ID.fullmatch(game_id):
        raise Problem(404, "game.not_found", "no such game")
    return game_id


@router.get("/games/{game_id}/chat", dependencies=READ_LIMITED)
async def game_chat(
    game_id: str, ctx: Ctx, principal: Annotated[Principal | None, optional_principal(BOARD_PLAY)]
) -> dict[str, Any]:
    """The rooms the caller may read now (a seated player: ``players``; anyone else:
    ``spectators``; both once the game is over) and their last 100 messages each."""
    identity = None if principal is None else principal.identity
    rooms, messages = await history_for(ctx, _game_id(game_id), identity)
    if not rooms:
        raise Problem(404, "game.not_found", "no such game")
    return {"game_id": game_id, "rooms": list(rooms), "messages": messages}


@router.post("/games/{game_id}/chat/{message_id}/report")
async def report_chat_message(
    game_id: str,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(BOARD_PLAY)],
    body: ReportBody | None = None,
    message_id: int = Path(ge=1, le=MAX_ID),
) -> dict[str, Any]:
    """Report a message the caller can read; once per reader (a second report changes
    nothing and answers the same)."""
    reason = "other" if body is None else body.reason
    stored = await report_message(ctx, _game_id(game_id), message_id, principal.identity, reason)
    if stored is None:
        raise Problem(404, "chat.message_not_found", "no such message")
    return {"reported": True, "message_id": message_id, "new": stored}

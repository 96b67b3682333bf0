"""Game records: upload one (PGN-like text) to replay it; fetch an uploaded one by id."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from sqlalchemy.orm import Session

from doushouqi.board import Board
from doushouqi.notation import move_to_readable
from doushouqi.record import GameRecord, RecordError, read_record

from ..context import client_address
from ..db import repo
from .deps import Ctx, OptionalPrincipal, enforce_rate

router = APIRouter(prefix="/api", tags=["records"])

MAX_RECORD_BYTES = 256 * 1024


def replay(record: GameRecord) -> dict[str, Any]:
    """Every position of the record, for stepping through it."""
    board = Board(record.start_fen, record.rules)
    plies = []
    for ply, move in enumerate(record.moves, 1):
        readable = move_to_readable(board, move, "en")
        readable_zh = move_to_readable(board, move, "zh")
        board.push(move)
        plies.append(
            {
                "ply": ply,
                "move": str(move),
                "readable": readable,
                "readable_zh": readable_zh,
                "fen": board.fen(),
                "comment": record.comments.get(ply),
            }
        )
    return {
        "tags": dict(record.tags),
        "rules": record.rules.to_mapping(),
        "result": record.result,
        "termination": None if record.termination is None else record.termination.value,
        "start_fen": record.start_fen,
        "plies": plies,
    }


@router.post("/records", status_code=201)
async def upload_record(request: Request, ctx: Ctx, principal: OptionalPrincipal) -> dict[str, Any]:
    """Upload a record (the text, as the request body) to replay it; it is kept under the
    returned id. Every move is checked by the rules library: a bad record gets a 422.

    Uploads are limited per address (``record_rate``), and each uploader (an account, else
    an address) may keep at most ``record_quota_bytes`` stored: beyond it, a 413 says so.
    Uploads without an account are deleted after ``record_days``."""
    enforce_rate(ctx.record_limiter, request)
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise HTTPException(413, "record too large")
    try:
        text = body.decode("utf-8")
        record = read_record(text)
    except UnicodeDecodeError:
        raise HTTPException(422, "a record is UTF-8 text") from None
    except RecordError as exc:
        raise HTTPException(422, f"not a valid record: {exc}") from None
    record_id = secrets.token_urlsafe(6)
    account_id = None if principal is None else principal.account_id
    uploader = f"account:{account_id}" if account_id else f"address:{client_address(request)}"
    quota = ctx.settings.record_quota_bytes
    now = ctx.time.now()

    def save(session: Session) -> bool:
        if repo.stored_record_bytes(session, uploader) + len(body) > quota:
            return False
        repo.save_record(session, record_id, text, account_id, now, uploader)
        return True

    if not await ctx.db.write(save):
        raise HTTPException(413, f"you have stored the most records allowed ({quota} bytes)")
    return {"id": record_id, **replay(record)}


@router.get("/records/{record_id}")
async def get_record(record_id: str, ctx: Ctx) -> dict[str, Any]:
    row = await ctx.db.read(lambda s: repo.get_record(s, record_id[:16]))
    if row is None:
        raise HTTPException(404, "no such record")
    return {"id": row.id, "text": row.text, **replay(read_record(row.text))}

"""Game records: upload one (PGN-like text) to replay it; fetch an uploaded one by id.

A record is a game's own format, reached through its site entry's ``records``
(:mod:`doushouqi.server.games.capabilities`); the replay goes through the game interface.
An upload names its game (``?game=tiger``; the default game, Jungle, when it names none) and is
read in that game's format; the stored record keeps its game, so that it is read the same way
when its link is opened.
"""

from __future__ import annotations

import re
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sqlalchemy.orm import Session

from doushouqi.core.game import get_game
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import RECORD_WRITE
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    enforce_rate,
    offered_game,
    optional_principal,
)
from doushouqi.server.context import client_address
from doushouqi.server.db import repo
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.capabilities import RecordData, RecordReadError, Records
from doushouqi.server.games.registry import site_game
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["records"])

MAX_RECORD_BYTES = 256 * 1024


def replay(record: RecordData) -> dict[str, Any]:
    """Every position of the record, for stepping through it."""
    game = get_game(record.game_key)
    start = game.start_position(record.rules) if record.start is None else record.start
    position = game.new_position(record.rules, start)
    plies = []
    for ply, move in enumerate(record.moves, 1):
        readable = position.move_text(move, "en")
        readable_zh = position.move_text(move, "zh")
        position.push(move)  # the record's reader checked every move
        plies.append(
            {
                "ply": ply,
                "move": move,
                "readable": readable,
                "readable_zh": readable_zh,
                "fen": position.position_string(),
                "comment": record.comments.get(ply),
            }
        )
    return {
        "game": record.game_key,
        "tags": dict(record.tags),
        "rules": game.rules_to_mapping(record.rules),
        "result": record.result,
        "termination": record.termination,
        "start_fen": record.start,
        "plies": plies,
    }


def records_or_problem(game_key: str) -> Records:
    """The record format of ``game_key``, or a 404 ``record.unsupported`` for a game that has
    none (the client hides records there; this answers a client that asks anyway)."""
    records = site_game(game_key).records
    if records is None:
        raise Problem(404, "record.unsupported", f"there are no game records for {game_key}")
    return records


def _invalid(exc: RecordReadError) -> Problem:
    """A 422 for a record that cannot be read: the line (and the ply, for a move the rules
    refuse) as params, so that the client says where in its own words; ``detail`` keeps the
    reader's English explanation."""
    ply = re.search(r"\bply (\d+)\b", exc.reason)
    move = re.match(r"illegal move (\S{1,12}):", exc.reason)  # the record's own token
    return Problem(
        422,
        "record.invalid",
        f"not a valid record: {exc}",
        line=exc.line,
        ply=int(ply.group(1)) if ply else None,
        move=move.group(1) if move else None,
    )


@router.post("/records", status_code=201)
async def upload_record(
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal | None, optional_principal(RECORD_WRITE)],
    game: str = Query(DEFAULT_GAME_KEY, max_length=16, description="the game's key"),
) -> dict[str, Any]:
    """Upload a record (the text, as the request body) to replay it; it is kept under the
    returned id. Every move is checked by the rules library: a bad record gets a 422.

    Uploads are limited per address (``record_rate``), and each uploader (an account, else
    an address) may keep at most ``record_quota_bytes`` stored: beyond it, a 413 says so.
    Uploads without an account are deleted after ``record_days``."""
    enforce_rate(ctx.record_limiter, request)
    played, _ = offered_game(game)
    records = records_or_problem(played.key)
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise Problem(413, "record.too_large", "record too large", kib=MAX_RECORD_BYTES // 1024)
    try:
        text = body.decode("utf-8")
        record = records.read(text)
    except UnicodeDecodeError:
        raise Problem(422, "record.not_text", "a record is UTF-8 text") from None
    except RecordReadError as exc:
        raise _invalid(exc) from None
    record_id = secrets.token_urlsafe(6)
    account_id = None if principal is None else principal.account_id
    uploader = f"account:{account_id}" if account_id else f"address:{client_address(request)}"
    quota = ctx.settings.record_quota_bytes
    now = ctx.time.now()

    def save(session: Session) -> bool:
        if repo.stored_record_bytes(session, uploader) + len(body) > quota:
            return False
        repo.save_record(session, record_id, text, account_id, now, uploader, played.key)
        return True

    if not await ctx.db.write(save):
        raise Problem(
            413,
            "record.quota",
            f"you have stored the most records allowed ({quota} bytes)",
            kib=quota // 1024,
        )
    return {"id": record_id, **replay(record)}


@router.get("/records/{record_id}", dependencies=READ_LIMITED)
async def get_record(record_id: str, ctx: Ctx) -> dict[str, Any]:
    row = await ctx.db.read(lambda s: repo.get_record(s, record_id[:16]))
    if row is None:
        raise Problem(404, "record.not_found", "no such record")
    records = records_or_problem(row.game)
    return {"id": row.id, "text": row.text, **replay(records.read(row.text))}

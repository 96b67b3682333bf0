"""Your data, to take away: ``GET /api/account/export``, one JSON file with the account (never
its password hash), its settings, its score and results per game with its rating at each
speed played, every game it played with the game's
record in that game's own notation, the records it uploaded, its chat messages (a removed
one with when it was removed), its puzzle history and its sessions' and API tokens' metadata
(never a token). A signed-in browser only: a token cannot
take it, whatever its scopes."""

from __future__ import annotations

import datetime
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from doushouqi.server.api.deps import READ_LIMITED, Ctx, SessionAccount
from doushouqi.server.api.games import record_date_and_tags
from doushouqi.server.api.security import session_dict, token_dict
from doushouqi.server.chat.models import ChatMessageRow
from doushouqi.server.db import repo, tokens
from doushouqi.server.db.models import (
    AccountRow,
    AuthTokenRow,
    GameRow,
    RatingRow,
    RecordRow,
    SpeedRatingRow,
)
from doushouqi.server.domain.storage import game_from_storage
from doushouqi.server.games.registry import site_game
from doushouqi.server.puzzles.models import PuzzleAttemptRow, PuzzlePlayerRow

router = APIRouter(prefix="/api", tags=["account"])

#: The export's format, for whoever reads it later (2: ratings per speed, under each game's
#: ``speeds``; 3: the account's chat messages, ``chat``).
EXPORT_VERSION = 3
#: Games read from the database at a time (an account may have played thousands).
GAMES_AT_A_TIME = 500


def _game(row: GameRow, base_url: str) -> dict[str, Any]:
    game = game_from_storage(json.loads(row.state))
    records = site_game(game.game_key).records
    record = None
    if records is not None:
        date, tags = record_date_and_tags(game, base_url)
        record = records.write(game, date, tags)
    return {
        "id": row.id,
        "game": row.game,
        "mode": row.mode,
        "rules": row.rules,
        "time_control": row.time_control,
        "rated": row.rated,
        "seats": [row.seat0_key, row.seat1_key],
        "result": row.result,
        "termination": row.termination,
        "created_at": row.created_at,
        "finished_at": row.finished_at,
        "record": record,
    }


def _export(session: Session, account_id: int, now: float, base_url: str) -> dict[str, Any]:
    account = session.get(AccountRow, account_id)
    assert account is not None  # the signed-in account
    key = f"account:{account_id}"
    ratings = session.scalars(select(RatingRow).where(RatingRow.account_id == account_id))
    speeds: dict[str, dict[str, dict[str, Any]]] = {}
    for row in session.scalars(
        select(SpeedRatingRow).where(SpeedRatingRow.account_id == account_id)
    ):
        speeds.setdefault(row.game, {})[row.speed] = {
            "rating": row.rating,
            "rd": row.rd,
            "volatility": row.volatility,
            "games": row.games,
        }
    games = []
    total, _ = repo.history(session, key, 1, 0)
    for offset in range(0, total, GAMES_AT_A_TIME):
        _, rows = repo.history(session, key, GAMES_AT_A_TIME, offset)
        games += [_game(row, base_url) for row in rows]
    uploaded = session.scalars(
        select(RecordRow).where(RecordRow.account_id == account_id).order_by(RecordRow.created_at)
    )
    puzzle_player = session.get(PuzzlePlayerRow, key)
    attempts = session.scalars(
        select(PuzzleAttemptRow)
        .where(PuzzleAttemptRow.player_key == key)
        .order_by(PuzzleAttemptRow.at, PuzzleAttemptRow.id)
    )
    messages = session.scalars(
        select(ChatMessageRow)
        .where(ChatMessageRow.author_key == key)
        .order_by(ChatMessageRow.at, ChatMessageRow.id)
    )
    keys = tokens.tokens_of(session, account_id, ("session", "api"), now)
    return {
        "export": {"version": EXPORT_VERSION, "made_at": now},
        "account": {
            "id": account.id,
            "username": account.username,
            "created_at": account.created_at,
            "is_bot": account.is_bot,
            "disconnects": account.disconnects,
            "timeouts": account.timeouts,
        },
        "settings": {"display_name": account.display_name, "avatar": account.avatar},
        "ratings": {
            row.game: {
                "score": row.score,
                "speeds": speeds.get(row.game, {}),
                "games": row.games,
                "wins": row.wins,
                "losses": row.losses,
                "draws": row.draws,
            }
            for row in ratings
        },
        "games": games,
        "records": [
            {"id": r.id, "game": r.game, "created_at": r.created_at, "text": r.text}
            for r in uploaded
        ],
        "chat": [
            {
                "game": m.game_id,
                "room": m.room,
                "at": m.at,
                "text": m.text,
                "phrase": m.phrase,
                "removed_at": m.removed_at,
            }
            for m in messages
        ],
        "puzzles": {
            "rating": None if puzzle_player is None else puzzle_player.rating,
            "rating_rd": None if puzzle_player is None else puzzle_player.rating_rd,
            "streak_best": None if puzzle_player is None else puzzle_player.streak_best,
            "attempts": [
                {
                    "puzzle": a.puzzle_id,
                    "at": a.at,
                    "solved": a.solved,
                    "rated": a.rated,
                    "mode": a.mode,
                    "rating_before": a.rating_before,
                    "rating_after": a.rating_after,
                }
                for a in attempts
            ],
        },
        "api_tokens": [token_dict(row) for row in keys if row.kind == "api"],
        "sessions": [_session(row) for row in keys if row.kind == "session"],
    }


def _session(row: AuthTokenRow) -> dict[str, Any]:
    listed = session_dict(row, None)
    del listed["current"]
    return listed


@router.get("/account/export", dependencies=READ_LIMITED)
async def export_account(request: Request, ctx: Ctx, principal: SessionAccount) -> JSONResponse:
    """Everything the site keeps of your account, as a JSON file to download."""
    account_id = principal.account_id
    assert account_id is not None
    now = ctx.time.now()
    base_url = str(request.base_url)
    data = await ctx.db.read(lambda s: _export(s, account_id, now, base_url))
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()
    name = f"doushouqi-{principal.username}-{day}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

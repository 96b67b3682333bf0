"""Quick pairing over REST: post a seek, cancel it, see how many wait for each time control.

* ``POST /api/seeks`` — ``{"game": "jungle", "time_control": "10+0/30s", "rules": "wango",
  "rated": false, "rating_range": 200}``; 201 with the seek (and ``game_id`` when it was paired
  at once). A seek pairs only with a seek of the same game, within the ratings of that game at
  the control's speed. ``rated`` left out: rated for an account, casual for a guest (as on
  lichess, an account plays for its rating unless it says otherwise).
  Otherwise the player's open tabs hear ``{"type": "paired", "game_id": ...}`` when it is.
* ``DELETE /api/seeks/{id}`` — cancel your seek.
* ``GET /api/seeks`` — the open seeks counted by game, rules, time control and rated; and
  yours.

Errors are ``Problem`` errors (server/errors.py): a code the client translates
(``error.pairing.…``) with its params, and an English ``detail``.
The matcher runs on every node (``pairing.run_matcher``), started with the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from doushouqi.core.clock import TimeControl
from doushouqi.core.speed import speed_of
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import ANY_TOKEN, BOARD_PLAY
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    enforce_rate,
    offered_game,
    optional_principal,
    required_principal,
)
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.choices import checked_time_control
from doushouqi.server.infra.bounds import MAX_NUMBER
from doushouqi.server.infra.errors import Problem
from doushouqi.server.notifications.service import player_key_of
from doushouqi.server.pairing.models import SeekRow
from doushouqi.server.pairing.service import SEEK_GRACE, Pairing, new_seek_id, run_matcher

__all__ = ["router"]

#: Open seeks one player may have at once.
MAX_SEEKS_PER_PLAYER = 3
MIN_RANGE, MAX_RANGE = 50, 1000


@contextlib.asynccontextmanager
async def _matcher(app: FastAPI) -> AsyncIterator[None]:
    ctx = app.state.ctx
    pairing = Pairing(ctx)
    app.state.pairing = pairing
    task = asyncio.create_task(run_matcher(pairing))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


router = APIRouter(prefix="/api", tags=["pairing"], lifespan=_matcher)


class PostSeek(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(default=DEFAULT_GAME_KEY, max_length=16, description="the game's key")
    time_control: str = Field(max_length=40, description="BASE+INC/PERs, e.g. 10+0/30s")
    rules: str | None = Field(
        default=None, max_length=40, description="a named rule set; none: the game's default"
    )
    rated: bool | None = Field(
        default=None, description="none: rated for an account, casual for a guest"
    )
    rating_range: int | None = Field(
        default=None,
        ge=-MAX_NUMBER,
        le=MAX_NUMBER,
        description=f"opponents within ± this many points ({MIN_RANGE}–{MAX_RANGE})",
    )


def seek_dict(row: SeekRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "rules": row.rules,
        "time_control": row.time_control,
        "rated": row.rated,
        "speed": speed_of(TimeControl.parse(row.time_control)),
        "rating": row.rating,
        "rating_min": row.rating_min,
        "rating_max": row.rating_max,
        "created_at": row.created_at,
        "game_id": row.game_id,
    }


def _live_time_control(text: str) -> TimeControl:
    """A live game's time control (correspondence is not paired here)."""
    control = checked_time_control(text)
    if control is None or control.is_correspondence:
        raise Problem(
            422,
            "pairing.bad_time_control",
            "only live games are paired",
            time_control=text[:40],
        )
    return control


@router.post("/seeks", status_code=201)
async def post_seek(
    body: PostSeek,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(BOARD_PLAY)],
) -> dict[str, Any]:
    """Wait for an opponent with the same wishes (kept while one of your tabs is open)."""
    enforce_rate(ctx.create_limiter, request)  # each seek may become a game
    played, _ = offered_game(body.game)
    rules = (body.rules or played.default_rule_set).strip().lower()
    if rules not in played.rule_set_names:
        raise Problem(422, "pairing.unknown_rules", "unknown rule set", rules=rules[:40])
    clock = _live_time_control(body.time_control)
    control = str(clock)
    is_account = principal.account_id is not None
    if body.rated and not is_account:
        raise Problem(403, "pairing.rated_needs_account", "rated games need an account")
    rated = is_account if body.rated is None else body.rated
    if body.rating_range is not None and not MIN_RANGE <= body.rating_range <= MAX_RANGE:
        raise Problem(
            422,
            "pairing.bad_rating_range",
            "rating range out of bounds",
            min=MIN_RANGE,
            max=MAX_RANGE,
        )
    key = player_key_of(principal)
    # Its standing in this game, and its rating at the control's speed.
    seeker = await ctx.auth.in_game(principal, played.key, speed_of(clock))
    rating = seeker.rating.rating
    now = ctx.time.now()
    spread = body.rating_range

    def write(session: Session) -> tuple[dict[str, Any], bool]:
        waiting = (SeekRow.player_key == key, SeekRow.game_id.is_(None))
        mine = session.scalars(select(SeekRow).where(*waiting)).all()
        wish = (played.key, rules, control, rated)
        for row in mine:
            if (row.game, row.rules, row.time_control, row.rated) == wish:
                row.rating_min = None if spread is None else rating - spread
                row.rating_max = None if spread is None else rating + spread
                row.alive_until = max(row.alive_until, now + SEEK_GRACE)
                return seek_dict(row), False
        if len(mine) >= MAX_SEEKS_PER_PLAYER:
            raise Problem(
                409, "pairing.too_many_seeks", "too many open seeks", max=MAX_SEEKS_PER_PLAYER
            )
        row = SeekRow(
            id=new_seek_id(),
            player_key=key,
            player=json.dumps(seeker.to_dict()),
            game=played.key,
            rules=rules,
            time_control=control,
            rated=rated,
            rating=rating,
            rating_min=None if spread is None else rating - spread,
            rating_max=None if spread is None else rating + spread,
            created_at=now,
            alive_until=now + SEEK_GRACE,
        )
        session.add(row)
        return seek_dict(row), True

    seek, _ = await ctx.db.write(write)
    pairing: Pairing = request.app.state.pairing
    made = await pairing.round()  # pair it at once when its opponent is already waiting
    game_id = next((g for a, b, g in made if seek["id"] in (a.id, b.id)), seek["game_id"])
    return {**seek, "game_id": game_id}


@router.delete("/seeks/{seek_id}")
async def cancel_seek(
    seek_id: str, ctx: Ctx, principal: Annotated[Principal, required_principal(BOARD_PLAY)]
) -> dict[str, Any]:
    """Stop waiting (only your own seek; a seek already paired is gone: 404)."""
    key = player_key_of(principal)

    def write(session: Session) -> int:
        result = session.execute(
            delete(SeekRow).where(
                SeekRow.id == seek_id[:16],
                SeekRow.player_key == key,
                SeekRow.game_id.is_(None),  # a paired seek is over: nothing to cancel
            )
        )
        return int(getattr(result, "rowcount", 0) or 0)

    if not await ctx.db.write(write):
        raise Problem(404, "pairing.no_such_seek", "no such seek")
    return {"cancelled": seek_id}


@router.get("/seeks", dependencies=READ_LIMITED)
async def list_seeks(
    ctx: Ctx, principal: Annotated[Principal | None, optional_principal(ANY_TOKEN)]
) -> dict[str, Any]:
    """How many seeks wait for each (game, rules, time control, rated), and your own (those
    paired in the last minute with their ``game_id``)."""
    key = None if principal is None else player_key_of(principal)
    now = ctx.time.now()

    def read(session: Session) -> dict[str, Any]:
        live = SeekRow.alive_until >= now
        wishes = (SeekRow.game, SeekRow.rules, SeekRow.time_control, SeekRow.rated)
        counts = session.execute(
            select(*wishes, func.count()).where(live, SeekRow.game_id.is_(None)).group_by(*wishes)
        ).all()
        # A seek is claimed a moment before its game is stored (pairing.match_once): it is
        # shown paired only once its game exists, so a tab that reads it never opens a game
        # that is not there yet (or never will be: a start that failed lets the seek wait
        # again).
        mine = (
            []
            if key is None
            else session.execute(
                select(SeekRow, GameRow.id)
                .outerjoin(GameRow, GameRow.id == SeekRow.game_id)
                .where(live, SeekRow.player_key == key)
            ).all()
        )
        return {
            "seeks": [
                {"game": g, "rules": r, "time_control": tc, "rated": rated, "count": n}
                for g, r, tc, rated, n in counts
            ],
            "mine": [seek_dict(row) | {"game_id": stored} for row, stored in mine],
        }

    return await ctx.db.read(read)

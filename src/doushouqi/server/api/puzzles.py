"""``/api/puzzles``: proved puzzles to solve (server/puzzles.py), with puzzle ratings.

``GET /api/puzzles/next?mode=&theme=&rules=`` a puzzle near the player's puzzle rating (streak:
rising), ``GET /api/puzzles/daily`` the day's puzzle, ``GET /api/puzzles/themes`` the themes
and their counts, ``GET /api/puzzles/me`` the player's puzzle rating, streak and history,
``GET /api/puzzles/{id}`` one puzzle; ``POST /api/puzzles/{id}/attempt`` judges the moves so
far, ``.../hint`` shows the piece to move then the move, ``.../solution`` gives up. Guests play
under their guest id (a guest session is made by the client first, as for games).

What a browser has seen of a solution (a finished try, a hint, giving up) is marked under all
its names (``service.mark_seen``): the player, its guest cookie, its device cookie; an account
signed in on it later gets no rated first try at that puzzle.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from doushouqi.server.accounts.auth import (
    GUEST_COOKIE,
    GUEST_SECRET,
    Principal,
    browser_keys,
    new_guest_secret,
    public_guest_id,
)
from doushouqi.server.accounts.scopes import PUZZLE_READ, PUZZLE_WRITE
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.context import AppContext
from doushouqi.server.infra.errors import Problem
from doushouqi.server.puzzles import service as puzzles

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])
T = TypeVar("T")

Mode = Literal["rated", "streak", "daily", "theme"]
_loaded: weakref.WeakKeyDictionary[object, asyncio.Lock | bool] = weakref.WeakKeyDictionary()
_rng = random.Random()


class Attempt(BaseModel):
    moves: list[str] = Field(max_length=12)
    mode: Mode = "rated"


class HintRequest(BaseModel):
    moves: list[str] = Field(default_factory=list, max_length=12)
    level: Literal[1, 2] = 1
    mode: Mode = "rated"


class GiveUp(BaseModel):
    mode: Mode = "rated"


def player_key(principal: Principal) -> str:
    """As games key their players: ``account:7``, ``guest:ID``."""
    data = principal.identity.to_dict()
    return f"{data['kind']}:{data.get('id')}"


def _browser(ctx: AppContext, request: Request, response: Response) -> list[str]:
    """The other names of the browser asking (:func:`browser_keys`), under which it is marked
    as having seen a solution. A browser signed in without a guest cookie gets one now: the
    cookie outlives signing out and in to another account, so what one account saw on this
    browser is seen for the next."""
    keys = browser_keys(request)
    if not GUEST_SECRET.fullmatch(request.cookies.get(GUEST_COOKIE, "")):
        secret = new_guest_secret()
        ctx.auth.set_cookie(response, request, GUEST_COOKIE, secret, ctx.auth.guest_cookie_age)
        keys.append(f"guest:{public_guest_id(secret)}")
    return keys


async def _ready(ctx: AppContext) -> None:
    """Load the shipped puzzles into the database once per node (idempotent by id)."""
    state = _loaded.get(ctx.db)
    if state is True:
        return
    if state is None:
        state = _loaded[ctx.db] = asyncio.Lock()
    assert isinstance(state, asyncio.Lock)
    async with state:
        if _loaded.get(ctx.db) is True:
            return
        shipped = puzzles.shipped()
        await ctx.db.write(lambda s: puzzles.load_safely(s, shipped))
        _loaded[ctx.db] = True


async def _run(ctx: AppContext, fn: Callable[[Session], T], *, write: bool = False) -> T:
    """``fn`` in a transaction (the writer's when it writes), its refusals as coded 4xx."""
    await _ready(ctx)
    try:
        if not write:
            return await ctx.db.read(fn)
        try:
            return await ctx.db.write(fn)
        except IntegrityError:
            # Another node wrote the same player's first try (or first row) at the same
            # moment, and the unique index kept it the only one: once more, now seeing it.
            return await ctx.db.write(fn)
    except puzzles.PuzzleError as exc:
        raise Problem(exc.status, exc.code, str(exc)) from None


def _check_moves(moves: list[str]) -> None:
    for text in moves:
        if not (isinstance(text, str) and 4 <= len(text) <= 5 and text.isascii()):
            raise Problem(422, "puzzle.bad_moves", "moves are like 'c3c4'")


def _check_id(puzzle_id: str) -> None:
    if not (1 <= len(puzzle_id) <= 16 and puzzle_id.isascii() and puzzle_id.isalnum()):
        raise Problem(404, "puzzle.not_found", "no such puzzle")


@router.get("/themes", dependencies=READ_LIMITED)
async def themes(ctx: Ctx) -> dict[str, Any]:
    return await _run(ctx, puzzles.theme_counts)


@router.get("/me", dependencies=READ_LIMITED)
async def me(
    ctx: Ctx, principal: Annotated[Principal, required_principal(PUZZLE_READ)]
) -> dict[str, Any]:
    key = player_key(principal)
    return await _run(ctx, lambda s: puzzles.player_view(s, key))


@router.get("/next", dependencies=READ_LIMITED)
async def next_puzzle(
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(PUZZLE_READ)],
    mode: Literal["rated", "streak", "theme"] = "rated",
    theme: str | None = Query(None, max_length=20),
    rules: str | None = Query(None, max_length=32),
) -> dict[str, Any]:
    if theme and theme not in puzzles.THEMES:
        raise Problem(422, "puzzle.bad_theme", "no such theme")
    key = player_key(principal)

    def pick(session: Session) -> dict[str, Any]:
        row = puzzles.choose(session, key, mode, theme or None, rules or None, _rng)
        return {
            "puzzle": puzzles.public_view(row),
            "player": puzzles.player_view(session, key),
            "mode": mode,
        }

    return await _run(ctx, pick)


@router.get("/daily", dependencies=READ_LIMITED)
async def daily(ctx: Ctx) -> dict[str, Any]:
    now = ctx.time.now()

    def pick(session: Session) -> dict[str, Any]:
        day, row = puzzles.daily(session, now)
        return {"day": day, "puzzle": puzzles.public_view(row), "mode": "daily"}

    return await _run(ctx, pick)


@router.get("/{puzzle_id}", dependencies=READ_LIMITED)
async def one(ctx: Ctx, puzzle_id: str) -> dict[str, Any]:
    _check_id(puzzle_id)
    return await _run(ctx, lambda s: {"puzzle": puzzles.public_view(puzzles.get(s, puzzle_id))})


@router.post("/{puzzle_id}/attempt")
async def attempt(
    ctx: Ctx,
    request: Request,
    response: Response,
    principal: Annotated[Principal, required_principal(PUZZLE_WRITE)],
    puzzle_id: str,
    body: Attempt,
) -> dict[str, Any]:
    """Judge the player's moves so far (the opponent's replies are the server's)."""
    _check_id(puzzle_id)
    _check_moves(body.moves)
    key = player_key(principal)
    also = _browser(ctx, request, response)
    now = ctx.time.now()

    def judge(session: Session) -> dict[str, Any]:
        row = puzzles.get(session, puzzle_id)
        answer = puzzles.judge(row, body.moves)
        if answer["result"] != "continue":
            solved = answer["result"] == "solved"
            answer["score"] = puzzles.finish(session, key, row, solved, body.mode, now, also)
        return answer

    return await _run(ctx, judge, write=True)


@router.post("/{puzzle_id}/hint")
async def hint(
    ctx: Ctx,
    request: Request,
    response: Response,
    principal: Annotated[Principal, required_principal(PUZZLE_WRITE)],
    puzzle_id: str,
    body: HintRequest,
) -> dict[str, Any]:
    """The piece to move (level 1) or the move (level 2). A first try becomes a miss."""
    _check_id(puzzle_id)
    _check_moves(body.moves)
    key = player_key(principal)
    also = _browser(ctx, request, response)
    now = ctx.time.now()

    def give(session: Session) -> dict[str, Any]:
        row = puzzles.get(session, puzzle_id)
        answer = puzzles.hint(row, body.moves, body.level)
        if not puzzles.already_finished(session, key, puzzle_id, 0.0):
            answer["score"] = puzzles.finish(session, key, row, False, body.mode, now, also)
        else:
            puzzles.mark_seen(session, (key, *also), puzzle_id, now)
        return answer

    return await _run(ctx, give, write=True)


@router.post("/{puzzle_id}/solution")
async def solution(
    ctx: Ctx,
    request: Request,
    response: Response,
    principal: Annotated[Principal, required_principal(PUZZLE_WRITE)],
    puzzle_id: str,
    body: GiveUp,
) -> dict[str, Any]:
    """Give up: the whole line, to be shown move by move. A first try becomes a miss."""
    _check_id(puzzle_id)
    key = player_key(principal)
    also = _browser(ctx, request, response)
    now = ctx.time.now()

    def reveal(session: Session) -> dict[str, Any]:
        row = puzzles.get(session, puzzle_id)
        answer: dict[str, Any] = {"solution": puzzles.solution(row)}
        if not puzzles.already_finished(session, key, puzzle_id, 0.0):
            answer["score"] = puzzles.finish(session, key, row, False, body.mode, now, also)
        else:
            puzzles.mark_seen(session, (key, *also), puzzle_id, now)
        return answer

    return await _run(ctx, reveal, write=True)

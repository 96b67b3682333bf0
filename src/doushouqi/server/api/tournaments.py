"""Tournaments over REST: create (accounts only), list, read (standings, pairings, your game),
join and withdraw. Refusals are ``Problem`` errors (server/errors.py): a code the
client translates (``error.tournament.full``) with its params, and an English ``detail``."""

from __future__ import annotations

import functools
import json
import re
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import ANY_TOKEN, TOURNAMENT_WRITE
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    account_principal,
    enforce_rate,
    offered_game,
    optional_principal,
)
from doushouqi.server.db.models import AccountRow
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.choices import checked_time_control, chosen_rules
from doushouqi.server.infra.bounds import MAX_NUMBER, MAX_SECONDS
from doushouqi.server.infra.errors import Problem, Refused
from doushouqi.server.tournaments import store
from doushouqi.server.tournaments.models import TournamentRow

router = APIRouter(prefix="/api", tags=["tournaments"])

TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
#: Limits on what a tournament may be made of.
MAX_NAME = 60
MAX_PLAYERS = 128
#: A Swiss round is one matching over all its players (O(n³): 0.2 s for 64 players, 3 s for
#: 128, on the development machine), made inside the director's transaction.
MAX_SWISS_PLAYERS = 64
MIN_ARENA_MINUTES, MAX_ARENA_MINUTES = 1, 240
MAX_ROUNDS = 15
#: A tournament starts within this long of its creation (seconds).
MAX_START_DELAY = 30 * 86400.0
#: Longest games allowed in a tournament (base time; a tournament should end the same day).
MAX_TOURNAMENT_BASE = 3600.0


class CreateTournament(BaseModel):
    kind: Literal["arena", "swiss"]
    name: str = Field(max_length=200)
    game: str = Field(default=DEFAULT_GAME_KEY, max_length=16, description="the game's key")
    rules: str | dict[str, Any] | None = Field(default=None, description="none: the default")
    time_control: str = Field(max_length=40, description="BASE+INC/PERs, e.g. 5+3")
    rated: bool = True
    # Wide bounds only: _checked answers a value out of its real range with a coded error.
    starts_at: float | None = Field(
        default=None, ge=0, le=MAX_SECONDS, description="epoch seconds (server clock)"
    )
    starts_in: float | None = Field(
        default=None, ge=-MAX_SECONDS, le=MAX_SECONDS, description="or: seconds from now"
    )
    duration_minutes: int | None = Field(
        default=None, ge=-MAX_NUMBER, le=MAX_NUMBER, description="arena: how long it lasts"
    )
    rounds: int | None = Field(
        default=None, ge=-MAX_NUMBER, le=MAX_NUMBER, description="swiss: how many rounds"
    )
    max_players: int = Field(default=64, ge=-MAX_NUMBER, le=MAX_NUMBER)
    min_rating: int | None = Field(default=None, ge=-MAX_NUMBER, le=MAX_NUMBER)


def _refusal(code: str) -> Problem:
    """The answer to a refusal code of ``store.join`` / ``store.withdraw``."""
    known = {
        "tournament.not_found": Problem(404, "tournament.not_found", "no such tournament"),
        "tournament.finished": Problem(409, "tournament.finished", "the tournament is over"),
        "tournament.already_started": Problem(
            409, "tournament.already_started", "a started Swiss cannot be joined"
        ),
        "tournament.rating_too_low": Problem(
            409, "tournament.rating_too_low", "your rating is below the tournament's lowest"
        ),
        "tournament.full": Problem(409, "tournament.full", "the tournament is full"),
        "tournament.not_joined": Problem(409, "tournament.not_joined", "you have not joined"),
    }
    return known.get(code) or Problem(409, code, code)


def _checked_control(text: str) -> str:
    control = checked_time_control(text)
    if control is None or control.is_correspondence or control.base > MAX_TOURNAMENT_BASE:
        raise Problem(
            422, "tournament.time_control_too_long", "time control too long", max_minutes=60
        )
    return str(control)


def _checked(body: CreateTournament, now: float) -> dict[str, Any]:
    name = " ".join(body.name.split())
    if not name:
        raise Problem(422, "tournament.name_empty", "empty name")
    if len(name) > MAX_NAME:
        raise Problem(422, "tournament.name_too_long", "name too long", max=MAX_NAME)
    if not name.isprintable():
        raise Problem(422, "tournament.name_bad_characters", "name has unprintable characters")
    played, _ = offered_game(body.game)
    try:
        rules = chosen_rules(body.rules, played.key)
    except Refused as exc:
        reason = exc.detail[:300]
        raise Problem(422, "tournament.bad_rules", reason, reason=reason) from None
    control = _checked_control(body.time_control)
    starts_at = body.starts_at if body.starts_at is not None else now + (body.starts_in or 0.0)
    if not (now - 60 <= starts_at <= now + MAX_START_DELAY):
        raise Problem(422, "tournament.bad_start", "starts too late or in the past", max_days=30)
    starts_at = max(starts_at, now)
    most = MAX_SWISS_PLAYERS if body.kind == "swiss" else MAX_PLAYERS
    if not (2 <= body.max_players <= most):
        raise Problem(422, "tournament.bad_max_players", "bad max_players", min=2, max=most)
    if body.min_rating is not None and not (0 <= body.min_rating <= 3500):
        raise Problem(422, "tournament.bad_min_rating", "bad min_rating", min=0, max=3500)
    duration = rounds = None
    if body.kind == "arena":
        minutes = body.duration_minutes
        if minutes is None or not (MIN_ARENA_MINUTES <= minutes <= MAX_ARENA_MINUTES):
            raise Problem(
                422,
                "tournament.bad_duration",
                "bad duration_minutes",
                min=MIN_ARENA_MINUTES,
                max=MAX_ARENA_MINUTES,
            )
        duration = minutes * 60.0
    else:
        if body.rounds is None or not (1 <= body.rounds <= MAX_ROUNDS):
            raise Problem(422, "tournament.bad_rounds", "bad rounds", min=1, max=MAX_ROUNDS)
        rounds = body.rounds
    return {
        "kind": body.kind,
        "name": name,
        "game": played.key,
        "rules": json.dumps(played.rules_to_mapping(rules), ensure_ascii=False),
        "time_control": control,
        "rated": body.rated,
        "starts_at": starts_at,
        "duration": duration,
        "rounds": rounds,
        "max_players": body.max_players,
        "min_rating": body.min_rating,
    }


def _wake(request: Request) -> None:
    director = getattr(request.app.state, "tournament_director", None)
    if director is not None:
        director.wake()


@router.post("/tournaments", status_code=201)
async def create_tournament(
    body: CreateTournament,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, account_principal(TOURNAMENT_WRITE)],
) -> dict[str, Any]:
    """Create an arena or a Swiss tournament (signed-in accounts only); the creator joins it."""
    enforce_rate(ctx.create_limiter, request)
    now = ctx.time.now()
    fields = _checked(body, now)
    tournament_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    account_id = principal.account_id
    assert account_id is not None

    def write(session: Session) -> dict[str, Any] | None:
        row = TournamentRow(
            id=tournament_id,
            creator_id=account_id,
            status="created",
            current_round=0,
            created_at=now,
            **fields,
        )
        session.add(row)
        session.flush()
        account = session.get(AccountRow, account_id)
        if account is not None:
            store.join(session, tournament_id, account, now)
        session.flush()
        return store.tournament_view(session, tournament_id, account_id)

    view = await ctx.db.write(write)
    _wake(request)
    return {**(view or {}), "server_time": ctx.time.now()}


@router.get("/tournaments", dependencies=READ_LIMITED)
async def list_tournaments(ctx: Ctx) -> dict[str, Any]:
    """Upcoming (soonest first), running and recently finished tournaments."""
    groups = await ctx.db.read(store.listing)
    return {**groups, "server_time": ctx.time.now()}


def _checked_id(tournament_id: str) -> str:
    if not TOURNAMENT_ID.fullmatch(tournament_id):
        raise Problem(404, "tournament.not_found", "no such tournament")
    return tournament_id


@router.get("/tournaments/{tournament_id}", dependencies=READ_LIMITED)
async def get_tournament(
    tournament_id: str,
    ctx: Ctx,
    principal: Annotated[Principal | None, optional_principal(ANY_TOKEN)],
) -> dict[str, Any]:
    """The tournament: settings, standings with tie-breaks, pairings, and ``me`` (your state
    and current game) when you have joined."""
    _checked_id(tournament_id)
    account_id = None if principal is None else principal.account_id
    read = functools.partial(
        store.tournament_view, tournament_id=tournament_id, account_id=account_id
    )
    view = await ctx.db.read(read)
    if view is None:
        raise Problem(404, "tournament.not_found", "no such tournament")
    return {**view, "server_time": ctx.time.now()}


async def _change(
    tournament_id: str,
    request: Request,
    ctx: Ctx,
    principal: Principal,
    action: Literal["join", "withdraw"],
) -> dict[str, Any]:
    _checked_id(tournament_id)
    account_id = principal.account_id
    assert account_id is not None
    now = ctx.time.now()

    def write(session: Session) -> tuple[str | None, dict[str, Any] | None]:
        if action == "join":
            account = session.get(AccountRow, account_id)
            assert account is not None
            refused = store.join(session, tournament_id, account, now)
        else:
            refused = store.withdraw(session, tournament_id, account_id)
        if refused is not None:
            return refused, None
        session.flush()
        return None, store.tournament_view(session, tournament_id, account_id)

    refused, view = await ctx.db.write(write)
    if refused is not None:
        raise _refusal(refused)
    _wake(request)
    return {**(view or {}), "server_time": ctx.time.now()}


@router.post("/tournaments/{tournament_id}/join")
async def join_tournament(
    tournament_id: str,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, account_principal(TOURNAMENT_WRITE)],
) -> dict[str, Any]:
    """Join (or, absent or withdrawn from an arena, rejoin)."""
    return await _change(tournament_id, request, ctx, principal, "join")


@router.post("/tournaments/{tournament_id}/withdraw")
async def withdraw_from_tournament(
    tournament_id: str,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, account_principal(TOURNAMENT_WRITE)],
) -> dict[str, Any]:
    """Stop being paired: your results stand (before the start: leave the list)."""
    return await _change(tournament_id, request, ctx, principal, "withdraw")

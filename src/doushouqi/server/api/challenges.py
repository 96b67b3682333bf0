"""Challenges: one account invites another to a game with chosen rules, time control and colour.

* ``POST /api/challenges`` — ``{"to": "bob", "game": "jungle", "rules": "wango",
  "time_control": "10+5", "color": "red" | "blue" | "random", "rated": false, "private": false}``;
  201 with the challenge (``color`` is the challenger's seat: red seat 0, blue seat 1, whatever
  the game). Its game is public (on Watch and TV) unless the challenger chose ``private``.
  The recipient is notified (``challenge.received``, linking to ``#/challenge/ID``), live on
  every tab.
* ``GET /api/challenges`` — your pending ones, ``incoming`` and ``outgoing``.
* ``GET /api/challenges/{id}`` — one (its sender and recipient only).
* ``POST /api/challenges/{id}/accept`` — the recipient: the game is created
  (``games.start.start_game_between``) and both players are sent to it (``paired``).
* ``POST /api/challenges/{id}/decline`` — ``{"reason": "generic" | "later" | …}``.
* ``DELETE /api/challenges/{id}`` — the sender withdraws it; the recipient's notification
  of it goes too (``notification_withdrawn``).

One account may challenge another :data:`MAX_PER_RECIPIENT` times in :data:`RECIPIENT_WINDOW`
(withdrawn ones count): sending and withdrawing in a loop cannot ring someone's bell for ever
(``challenge.too_often``, a 429 that says when to try again).

A challenge moves on from ``pending`` exactly once: each step is an update that names the
status it expects, so two nodes (or two tabs) answering at once cannot both accept it. One
that nobody answered is ``expired`` after :data:`LIVE_TTL` (a week for correspondence).
Accounts only: a guest can neither send nor receive one (``challenge.accounts_only``).
Refusals are ``Problem`` errors (server/errors.py): a code the client translates
(``error.challenge.…``) with its params, and an English ``detail``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from doushouqi.core.clock import TimeControl
from doushouqi.core.speed import Speed, speed_of
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import CHALLENGE_READ, CHALLENGE_WRITE
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    enforce_rate,
    offered_game,
    required_principal,
)
from doushouqi.server.db.models import AccountRow
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.choices import checked_time_control, chosen_rules
from doushouqi.server.games.start import start_game_between
from doushouqi.server.infra.errors import Problem
from doushouqi.server.notifications.service import notify, player_key_of, push, withdraw
from doushouqi.server.pairing.models import ChallengeRow
from doushouqi.server.pairing.service import new_seek_id

__all__ = ["router"]

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api", tags=["challenges"])

#: Seconds a live game's challenge waits for an answer; a correspondence one waits a week.
LIVE_TTL = 15 * 60.0
CORRESPONDENCE_TTL = 7 * 86400.0
#: Pending challenges one account may have sent at once.
MAX_OUTGOING = 10
#: Challenges one account may send one recipient in a window of this many seconds, answered
#: or not: a few tries at settings the other likes, not a stream of pings.
MAX_PER_RECIPIENT = 5
RECIPIENT_WINDOW = 15 * 60.0
#: Why a challenge is declined (lichess's reasons, less its bot ones; ``rules`` stands for
#: its standard/variant: this site's games differ by rule set).
DECLINE_REASONS = (
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "rules",
)


def _account_only(principal: Principal) -> None:
    if principal.account_id is None:
        raise Problem(403, "challenge.accounts_only", "challenges are for accounts")


class NewChallenge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: str = Field(min_length=1, max_length=32, description="the recipient's username")
    game: str = Field(default=DEFAULT_GAME_KEY, max_length=16, description="the game's key")
    rules: str | None = Field(default=None, max_length=40, description="none: the default set")
    time_control: str | None = Field(default=None, max_length=40, description="none: untimed")
    color: Literal["red", "blue", "random"] = Field(default="random", description="yours")
    rated: bool = False
    private: bool = Field(default=False, description="keep the game off Watch and TV")


class Decline(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Literal[DECLINE_REASONS] = "generic"  # type: ignore[valid-type]


def _speed(control: str | None) -> Speed | None:
    """The speed of a stored control: whose rating the challenge is played for."""
    return None if control is None else speed_of(TimeControl.parse(control))


def _time_control(text: str | None) -> tuple[str | None, float]:
    """The control as stored (canonical) and how long the challenge waits."""
    control = checked_time_control(text)
    if control is None:
        return None, LIVE_TTL
    return str(control), CORRESPONDENCE_TTL if control.is_correspondence else LIVE_TTL


def challenge_dict(row: ChallengeRow, now: float) -> dict[str, Any]:
    sender = json.loads(row.from_player)
    status = "expired" if row.status == "pending" and row.expires_at <= now else row.status
    return {
        "id": row.id,
        "from": {
            "name": sender["name"],
            "username": sender["username"],
            "avatar": sender["avatar"],
        },
        "to_account": row.to_account,
        "game": row.game,
        "rules": row.rules,
        "time_control": row.time_control,
        "color": row.color,
        "rated": row.rated,
        "private": row.private,
        "status": status,
        "decline_reason": row.decline_reason,
        "game_id": row.game_id,
        "created_at": row.created_at,
        "expires_at": row.expires_at,
    }


def _recipient(session: Session, username: str) -> AccountRow | None:
    return session.scalars(
        select(AccountRow).where(AccountRow.username == username.strip().lower())
    ).first()


@router.post("/challenges", status_code=201)
async def create_challenge(
    body: NewChallenge,
    request: Request,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(CHALLENGE_WRITE)],
) -> dict[str, Any]:
    """Challenge an account to a game."""
    _account_only(principal)
    enforce_rate(ctx.create_limiter, request)  # each challenge may become a game
    played, _ = offered_game(body.game)
    rules = (body.rules or played.default_rule_set).strip().lower()
    if rules not in played.rule_set_names:
        raise Problem(422, "challenge.unknown_rules", "unknown rule set", rules=rules[:40])
    control, ttl = _time_control(body.time_control)
    if body.rated and control is None:
        raise Problem(
            422, "challenge.rated_needs_clock", "a rated game needs a clock (ratings are per speed)"
        )
    # Seated with its standing there, and its rating at the control's speed.
    sender = await ctx.auth.in_game(principal, played.key, _speed(control))
    now = ctx.time.now()
    sender_key = player_key_of(principal)

    def write(session: Session) -> tuple[dict[str, Any], int]:
        to = _recipient(session, body.to)
        if to is None:
            raise Problem(404, "challenge.no_such_player", "no such player", username=body.to[:32])
        if to.id == principal.account_id:
            raise Problem(422, "challenge.self", "you cannot challenge yourself")
        pending = session.scalar(
            select(func.count()).where(
                ChallengeRow.from_key == sender_key,
                ChallengeRow.status == "pending",
                ChallengeRow.expires_at > now,
            )
        )
        if (pending or 0) >= MAX_OUTGOING:
            raise Problem(409, "challenge.too_many", "too many pending", max=MAX_OUTGOING)
        _not_too_often(session, sender_key, to.id, now)
        row = ChallengeRow(
            id=new_seek_id(),
            from_key=sender_key,
            from_player=json.dumps(sender.to_dict()),
            to_account=to.id,
            game=played.key,
            rules=rules,
            time_control=control,
            color=body.color,
            rated=body.rated,
            private=body.private,
            status="pending",
            created_at=now,
            expires_at=now + ttl,
        )
        session.add(row)
        return challenge_dict(row, now), to.id

    challenge, to_id = await ctx.db.write(write)
    params = {"from": principal.name, "time_control": control or "", "id": challenge["id"]}
    link = f"#/challenge/{challenge['id']}"
    await notify(ctx, f"account:{to_id}", "challenge.received", params, link=link)
    return challenge


def _not_too_often(session: Session, sender_key: str, to_account: int, now: float) -> None:
    """Refuse (429) a challenge past :data:`MAX_PER_RECIPIENT` to one account in the window."""
    recent = session.scalars(
        select(ChallengeRow.created_at)
        .where(
            ChallengeRow.from_key == sender_key,
            ChallengeRow.to_account == to_account,
            ChallengeRow.created_at > now - RECIPIENT_WINDOW,
        )
        .order_by(ChallengeRow.created_at.desc())
        .limit(MAX_PER_RECIPIENT)
    ).all()
    if len(recent) < MAX_PER_RECIPIENT:
        return
    wait = max(1, math.ceil(min(recent) + RECIPIENT_WINDOW - now))
    raise Problem(
        429,
        "challenge.too_often",
        f"you challenged this player {MAX_PER_RECIPIENT} times lately; try again in {wait} s",
        headers={"Retry-After": str(wait)},
        max=MAX_PER_RECIPIENT,
        minutes=math.ceil(wait / 60),
    )


async def _load(ctx: Ctx, challenge_id: str) -> ChallengeRow:
    row = await ctx.db.read(lambda s: s.get(ChallengeRow, challenge_id[:16]))
    if row is None:
        raise Problem(404, "challenge.not_found", "no such challenge")
    return row


def _involves(row: ChallengeRow, principal: Principal) -> bool:
    return row.to_account == principal.account_id or row.from_key == player_key_of(principal)


def _not_yours(row: ChallengeRow, principal: Principal) -> Problem:
    """A stranger is told nothing exists (404); the other side that it is not theirs (403)."""
    if _involves(row, principal):
        return Problem(403, "challenge.not_yours", "not your challenge to answer")
    return Problem(404, "challenge.not_yours", "not your challenge to answer")


@router.get("/challenges", dependencies=READ_LIMITED)
async def my_challenges(
    ctx: Ctx, principal: Annotated[Principal, required_principal(CHALLENGE_READ)]
) -> dict[str, Any]:
    """Your pending challenges: to you (``incoming``) and from you (``outgoing``)."""
    _account_only(principal)
    now = ctx.time.now()
    key = player_key_of(principal)

    def read(session: Session) -> dict[str, Any]:
        pending = (ChallengeRow.status == "pending", ChallengeRow.expires_at > now)
        incoming = session.scalars(
            select(ChallengeRow).where(ChallengeRow.to_account == principal.account_id, *pending)
        ).all()
        outgoing = session.scalars(
            select(ChallengeRow).where(ChallengeRow.from_key == key, *pending)
        ).all()
        return {
            "incoming": [challenge_dict(r, now) for r in incoming],
            "outgoing": [challenge_dict(r, now) for r in outgoing],
        }

    return await ctx.db.read(read)


@router.get("/challenges/{challenge_id}", dependencies=READ_LIMITED)
async def get_challenge(
    challenge_id: str, ctx: Ctx, principal: Annotated[Principal, required_principal(CHALLENGE_READ)]
) -> dict[str, Any]:
    """One challenge, to its sender or recipient (anyone else: 404)."""
    _account_only(principal)
    row = await _load(ctx, challenge_id)
    if not _involves(row, principal):
        raise Problem(404, "challenge.not_found", "no such challenge")
    answer = challenge_dict(row, ctx.time.now())
    answer["yours"] = row.from_key == player_key_of(principal)
    return answer


async def _move_on(ctx: Ctx, challenge_id: str, status: str, **values: Any) -> bool:
    """Pending → ``status``, once: False when it was no longer pending (or had expired)."""
    now = ctx.time.now()

    def write(session: Session) -> int:
        result = session.execute(
            update(ChallengeRow)
            .where(
                ChallengeRow.id == challenge_id,
                ChallengeRow.status == "pending",
                ChallengeRow.expires_at > now,
            )
            .values(status=status, **values)
        )
        return int(getattr(result, "rowcount", 0) or 0)

    return bool(await ctx.db.write(write))


def _gone(row: ChallengeRow, now: float) -> Problem:
    status = challenge_dict(row, now)["status"]
    return Problem(409, "challenge.gone", "the challenge is no longer pending", status=status)


@router.post("/challenges/{challenge_id}/accept")
async def accept_challenge(
    challenge_id: str,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(CHALLENGE_WRITE)],
) -> dict[str, Any]:
    """Accept a challenge to you: the game is created and both players are sent to it."""
    _account_only(principal)
    row = await _load(ctx, challenge_id)
    if row.to_account != principal.account_id:
        raise _not_yours(row, principal)
    # Before the challenge moves on; at the speed it is played at.
    me = await ctx.auth.in_game(principal, row.game, _speed(row.time_control))
    if not await _move_on(ctx, row.id, "accepted"):
        raise _gone(await _load(ctx, row.id), ctx.time.now())
    sender = Principal.from_dict(json.loads(row.from_player))
    control = None if row.time_control is None else TimeControl.parse(row.time_control)
    color: Literal["red", "blue", "random"] = row.color  # type: ignore[assignment]
    try:
        game = await start_game_between(
            ctx,
            sender.slot(),
            me.slot(),
            game_key=row.game,
            rules=chosen_rules(row.rules, row.game),
            time_control=control,
            rated=row.rated,
            first_color=color,
            message={"challenge_id": row.id},
            public=not row.private,
        )
    except BaseException:
        # Not started (Redis or the database away: the answer says to try again): pending
        # again, so that accepting it again starts the game rather than finding it gone.
        with contextlib.suppress(Exception):
            await ctx.db.write(lambda s: _reopen(s, row.id))
        raise
    await ctx.db.write(lambda s: _set_game(s, row.id, game.id))
    params = {"by": principal.name, "game_id": game.id}
    await notify(ctx, row.from_key, "challenge.accepted", params, link=f"#/game/{game.id}")
    return {"game_id": game.id}


def _reopen(session: Session, challenge_id: str) -> None:
    session.execute(
        update(ChallengeRow)
        .where(
            ChallengeRow.id == challenge_id,
            ChallengeRow.status == "accepted",
            ChallengeRow.game_id.is_(None),
        )
        .values(status="pending")
    )


def _set_game(session: Session, challenge_id: str, game_id: str) -> None:
    session.execute(
        update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(game_id=game_id)
    )


@router.post("/challenges/{challenge_id}/decline")
async def decline_challenge(
    challenge_id: str,
    body: Decline,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(CHALLENGE_WRITE)],
) -> dict[str, Any]:
    """Decline a challenge to you, with a reason code the challenger sees in words."""
    _account_only(principal)
    row = await _load(ctx, challenge_id)
    if row.to_account != principal.account_id:
        raise _not_yours(row, principal)
    if not await _move_on(ctx, row.id, "declined", decline_reason=body.reason):
        raise _gone(await _load(ctx, row.id), ctx.time.now())
    params = {"by": principal.name, "reason": body.reason, "id": row.id}
    await notify(ctx, row.from_key, "challenge.declined", params, link=f"#/challenge/{row.id}")
    return {"status": "declined"}


@router.delete("/challenges/{challenge_id}")
async def cancel_challenge(
    challenge_id: str,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(CHALLENGE_WRITE)],
) -> dict[str, Any]:
    """Withdraw a challenge you sent (its recipient's open tabs are told)."""
    _account_only(principal)
    row = await _load(ctx, challenge_id)
    if row.from_key != player_key_of(principal):
        raise _not_yours(row, principal)
    if not await _move_on(ctx, row.id, "cancelled"):
        raise _gone(await _load(ctx, row.id), ctx.time.now())
    recipient = f"account:{row.to_account}"
    await withdraw(ctx, recipient, "challenge.received", f"#/challenge/{row.id}")
    update_message = {"type": "challenge_update", "id": row.id, "status": "cancelled"}
    push(ctx, recipient, update_message)
    return {"status": "cancelled"}

"""The moderators' API, ``/api/mod/...``: the report queue, removing messages, muting, banning
and closing accounts, the moderation log, and (admins only) who moderates.

Every route refuses anyone but a moderator or an admin with a 403 (``mod.forbidden``), before
it reads its input. A moderator acts on players only: a moderator's or an admin's account is
an admin's to act on, and nobody bans, mutes or closes their own from here. Reasons are
required for muting, banning, lifting a ban and closing; every action is logged in the same
transaction that makes it (``mod_log``).
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field
from redis.exceptions import RedisError
from sqlalchemy.orm import Session

from doushouqi.server.accounts import closing, roles
from doushouqi.server.accounts.auth import USERNAME, Principal
from doushouqi.server.accounts.scopes import SESSION_ONLY
from doushouqi.server.api.closing import account_key, shut_out, withdraw_and_log
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.chat import moderation as chat_mod
from doushouqi.server.context import AppContext
from doushouqi.server.db import repo
from doushouqi.server.db.models import AccountRow
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem
from doushouqi.server.live.cluster import ClusterUnavailable
from doushouqi.server.live.ws import Client
from doushouqi.server.moderation import log as modlog

__all__ = ["router"]

#: A player as chat keys them: an account or a guest.
PLAYER_KEY = re.compile(r"account:[0-9]{1,12}|guest:[0-9a-f]{20}")
#: The longest mute: 30 days (longer is a ban).
MAX_MUTE_MINUTES = 30 * 24 * 60


async def moderator(
    principal: Annotated[Principal, required_principal(SESSION_ONLY)],
) -> Principal:
    """The moderator asking, from a signed-in browser (no API token moderates)."""
    if principal.account_id is None or not roles.is_moderator(principal.role):
        raise Problem(403, "mod.forbidden", "this is for the site's moderators")
    return principal


async def admin(principal: Annotated[Principal, Depends(moderator)]) -> Principal:
    if not roles.is_admin(principal.role):
        raise Problem(403, "mod.admin_only", "only an admin may do this")
    return principal


Moderator = Annotated[Principal, Depends(moderator)]
Admin = Annotated[Principal, Depends(admin)]
# The router's own dependency runs before any route reads its input: a player learns nothing.
router = APIRouter(prefix="/api/mod", tags=["moderation"], dependencies=[Depends(moderator)])


MessageId = Annotated[int, Path(ge=1, le=MAX_ID)]
Username = Annotated[str, Path(min_length=1, max_length=32)]


class Reasoned(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=1, max_length=modlog.MAX_REASON)


class MaybeReasoned(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(default="", max_length=modlog.MAX_REASON)


class LiftMuteRequest(Reasoned):
    player: str = Field(max_length=80, description="account:ID or guest:ID, as chat names them")


class MuteRequest(LiftMuteRequest):
    minutes: int = Field(ge=1, le=MAX_MUTE_MINUTES)


def _chat_player(player: str) -> str:
    """A chat author's key as a mute names it; 422 ``mod.player_key`` for anything else."""
    if not PLAYER_KEY.fullmatch(player):
        raise Problem(422, "mod.player_key", "player is account:ID or guest:ID")
    return player


class RoleRequest(MaybeReasoned):
    role: str = Field(max_length=16, description=f"one of {', '.join(roles.ROLES)}")


def _reason(text: str) -> str:
    reason = text.strip()
    if not reason:
        raise Problem(422, "mod.reason_required", "say why")
    return reason


def _by(principal: Principal) -> dict[str, Any]:
    return {"moderator_id": principal.account_id, "moderator": principal.username or "?"}


def _target(session: Session, username: str, principal: Principal) -> AccountRow:
    """The account a moderator acts on: one they may act on (see this module)."""
    row = repo.account_by_username(session, username)
    if row is None or not USERNAME.fullmatch(username.lower()):
        raise Problem(404, "player.not_found", "no such player", name=username[:32])
    if row.id == principal.account_id:
        raise Problem(409, "mod.self", "not on your own account")
    if roles.is_moderator(row.role) and not roles.is_admin(principal.role):
        raise Problem(403, "mod.staff", "a moderator's account is an admin's to act on")
    return row


def account_state(session: Session, row: AccountRow, now: float) -> dict[str, Any]:
    return {
        "id": row.id,
        "key": account_key(row.id),
        "username": row.username,
        "name": row.display_name,
        "role": row.role,
        "banned_at": row.banned_at,
        "closed_at": row.closed_at,
        "muted_until": chat_mod.muted_until(session, account_key(row.id), now),
    }


# ---------------------------------------------------------------------- reports and messages


@router.get("/reports", dependencies=READ_LIMITED)
async def report_queue(ctx: Ctx) -> dict[str, Any]:
    """Reported messages nobody has dealt with, most reported first, each in its context."""
    return {"reports": await ctx.db.read(chat_mod.report_queue)}


@router.post("/reports/{message_id}/dismiss")
async def dismiss(
    message_id: MessageId, ctx: Ctx, principal: Moderator, body: MaybeReasoned | None = None
) -> dict[str, Any]:
    """Take a message's reports off the queue: the message stays."""
    reason = "" if body is None else body.reason.strip()

    def write(session: Session, now: float) -> int:
        row = chat_mod.reported_message(session, message_id)
        if row is None:
            raise Problem(404, "chat.message_not_found", "no such message")
        dismissed = chat_mod.dismiss_reports(session, message_id, now)
        entry = modlog.Entry(
            "dismiss",
            row.author_key,
            row.author_name,
            reason,
            {"message_id": message_id, "text": row.text, "phrase": row.phrase},
        )
        modlog.record(session, entry, **_by(principal), now=now)
        return dismissed

    dismissed = await ctx.db.write(functools.partial(write, now=ctx.time.now()))
    return {"dismissed": dismissed}


@router.post("/messages/{message_id}/remove")
async def remove_message(
    message_id: MessageId, ctx: Ctx, principal: Moderator, body: MaybeReasoned | None = None
) -> dict[str, Any]:
    """Remove a message: gone from every reader's screen at once (every node) and from the
    game's history; its reports are dealt with."""
    found = await ctx.db.read(lambda s: chat_mod.reported_message(s, message_id))
    if found is None:
        raise Problem(404, "chat.message_not_found", "no such message")
    try:
        handle = await ctx.registry.get(found.game_id)
    except (RedisError, ClusterUnavailable):
        handle = None
    if handle is None:
        raise Problem(503, "unavailable", "the game cannot be reached now; try again")
    replies = await chat_mod.handle_removal(
        Client(ctx, handle, principal),
        chat_mod.ChatRemoval(type="chat_remove", message_id=message_id),
    )
    answer: dict[str, Any] = replies[0] if replies else {"type": "error"}
    if answer.get("type") != "chat_removed":
        if answer.get("code") == "mod.forbidden":
            raise Problem(403, "mod.forbidden", "this is for the site's moderators")
        raise Problem(503, "unavailable", "the message could not be removed now; try again")
    removed = answer["message"]
    reason = "" if body is None else body.reason.strip()
    entry = modlog.Entry(
        "remove_message",
        removed["author"]["key"],
        removed["author"]["name"],
        reason,
        {
            "message_id": message_id,
            "game_id": found.game_id,
            "text": removed["text"],
            "phrase": removed["phrase"],
        },
    )
    now = ctx.time.now()
    await ctx.db.write(lambda s: modlog.record(s, entry, **_by(principal), now=now))
    return {"removed": True, "message_id": message_id}


# ---------------------------------------------------------------------- players


@router.get("/accounts/{username}", dependencies=READ_LIMITED)
async def account(username: Username, ctx: Ctx) -> dict[str, Any]:
    """An account as moderators see it: role, ban, closing, mute."""
    now = ctx.time.now()

    def read(session: Session) -> dict[str, Any] | None:
        row = repo.account_by_username(session, username)
        return None if row is None else account_state(session, row, now)

    found = await ctx.db.read(read)
    if found is None:
        raise Problem(404, "player.not_found", "no such player", name=username)
    return found


@router.post("/mutes")
async def mute(body: MuteRequest, ctx: Ctx, principal: Moderator) -> dict[str, Any]:
    """Refuse a player's chat messages (``chat.muted``) for ``minutes``."""
    reason, player = _reason(body.reason), _chat_player(body.player)
    now = ctx.time.now()
    until = now + body.minutes * 60

    def write(session: Session) -> dict[str, Any]:
        who = chat_mod.name_of(session, player)
        if player.startswith("account:"):
            if who["username"] is None:
                raise Problem(404, "player.not_found", "no such player")
            _target(session, who["username"], principal)
        chat_mod.mute(session, player, until, now)
        name = who["username"] or who["name"] or player
        entry = modlog.Entry("mute", player, name, reason, {"minutes": body.minutes})
        modlog.record(session, entry, **_by(principal), now=now)
        return who

    who = await ctx.db.write(write)
    return {"muted": who, "until": until}


@router.post("/mutes/lift")
async def lift_mute(body: LiftMuteRequest, ctx: Ctx, principal: Moderator) -> dict[str, Any]:
    """Let a muted player chat again before the mute is over (409 ``mod.not_muted`` when the
    player is not muted)."""
    reason, player = _reason(body.reason), _chat_player(body.player)
    now = ctx.time.now()

    def write(session: Session) -> dict[str, Any]:
        who = chat_mod.name_of(session, player)
        if player.startswith("account:") and who["username"] is not None:
            _target(session, who["username"], principal)
        if not chat_mod.unmute(session, player, now):
            raise Problem(409, "mod.not_muted", "the player is not muted")
        name = who["username"] or who["name"] or player
        modlog.record(session, modlog.Entry("unmute", player, name, reason), **_by(principal),
                      now=now)  # fmt: skip
        return who

    return {"unmuted": await ctx.db.write(write)}


async def _sanction(
    ctx: AppContext, principal: Principal, username: str, action: str, reason: str
) -> dict[str, Any]:
    now = ctx.time.now()

    def write(session: Session) -> dict[str, Any]:
        row = _target(session, username, principal)
        if action == "unban":
            closing.unban(row)
            entry = modlog.Entry(action, account_key(row.id), row.username, reason)
            modlog.record(session, entry, **_by(principal), now=now)
        else:
            (closing.ban if action == "ban" else closing.close)(session, row, now)
            entry = modlog.Entry(action, account_key(row.id), row.username, reason)
            withdraw_and_log(session, row, entry, **_by(principal), now=now)
        return account_state(session, row, now)

    state = await ctx.db.write(write)
    if action != "unban":
        await shut_out(ctx, state["id"])
    return state


@router.post("/accounts/{username}/ban")
async def ban(username: Username, body: Reasoned, ctx: Ctx, principal: Moderator) -> dict[str, Any]:
    """Ban an account: it cannot log in, its sessions and tokens stop working at once, its
    sockets are closed, its seeks and challenges withdrawn, its games in progress resigned
    (those not started aborted)."""
    return await _sanction(ctx, principal, username, "ban", _reason(body.reason))


@router.post("/accounts/{username}/unban")
async def unban(
    username: Username, body: Reasoned, ctx: Ctx, principal: Moderator
) -> dict[str, Any]:
    return await _sanction(ctx, principal, username, "unban", _reason(body.reason))


@router.post("/accounts/{username}/close")
async def close(
    username: Username, body: Reasoned, ctx: Ctx, principal: Moderator
) -> dict[str, Any]:
    """Close an account for good, as its owner could (its name stays taken, its games stay)."""
    return await _sanction(ctx, principal, username, "close", _reason(body.reason))


# ---------------------------------------------------------------------- the log and the staff


@router.get("/log", dependencies=READ_LIMITED)
async def mod_log(
    ctx: Ctx,
    limit: int = Query(50, ge=1, le=200),
    before: int | None = Query(None, ge=1, le=MAX_ID),
) -> dict[str, Any]:
    """The moderation log, newest first (``before``: the entries older than that id)."""
    entries = await ctx.db.read(lambda s: modlog.entries(s, limit, before))
    return {"entries": entries}


def _staff_dict(row: AccountRow) -> dict[str, Any]:
    return {"username": row.username, "name": row.display_name, "role": row.role}


@router.get("/staff", dependencies=READ_LIMITED)
async def staff(ctx: Ctx) -> dict[str, Any]:
    """The site's moderators and admins."""
    rows = await ctx.db.read(roles.staff)
    return {"staff": [_staff_dict(r) for r in rows]}


@router.put("/staff/{username}")
async def set_role(
    username: Username, body: RoleRequest, ctx: Ctx, principal: Admin
) -> dict[str, Any]:
    """Give an account a role (admins only; ``player`` takes a role away)."""
    now = ctx.time.now()

    def write(session: Session) -> dict[str, Any]:
        if username.lower() == principal.username and body.role != roles.ADMIN:
            raise Problem(409, "mod.self", "an admin does not step down from here")
        try:
            row, before = roles.set_role(session, username, body.role)
        except roles.RoleError as exc:
            status = 404 if exc.code == "role.unknown_account" else 422
            raise Problem(status, exc.code, str(exc)) from None
        action = "revoke" if body.role == roles.PLAYER else "grant"
        details = {"role": body.role, "before": before}
        entry = modlog.Entry(action, account_key(row.id), row.username, body.reason, details)
        modlog.record(session, entry, **_by(principal), now=now)
        return _staff_dict(row)

    return await ctx.db.write(write)

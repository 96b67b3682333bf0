"""An account's keys: API tokens (scoped, listed, revoked), its sessions (listed, ended one by
one or all but this one) and its password. A session cookie only: a token never reaches these
(``SESSION_ONLY``), whatever its scopes, so a leaked token cannot mint others, lock its owner
out or hide itself.

Ending a session or a token closes the sockets and bot streams opened with it, on every node
(``ActorRegistry.end_sessions``); no node caches a token, so its next request is refused too.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from doushouqi.server.accounts.auth import Caller, hash_token
from doushouqi.server.accounts.scopes import (
    SCOPES,
    SESSION_ONLY,
    UnknownScopeError,
    check_scopes,
    parse_scopes,
)
from doushouqi.server.api.auth import check_password
from doushouqi.server.api.deps import READ_LIMITED, Ctx, Who, too_many_requests
from doushouqi.server.context import client_address
from doushouqi.server.db.models import AccountRow, AuthTokenRow
from doushouqi.server.db.tokens import token_id
from doushouqi.server.infra.errors import Problem

router = APIRouter(tags=["auth"])

#: The signed-in browser asking (its session, to tell it from the others): never a token.
SessionCaller = Annotated[Caller, Depends(Who(SESSION_ONLY, "account", caller=True))]

#: Days an API token may be made to last, at most (none given: until it is revoked).
MAX_TOKEN_DAYS = 3650


class NewToken(BaseModel):
    label: str = Field(default="", max_length=64, description="what the token is for")
    scopes: list[str] = Field(
        default_factory=list,
        max_length=len(SCOPES),
        description=f"what it may do, of: {', '.join(SCOPES)}",
    )
    expires_days: int | None = Field(
        default=None, ge=1, le=MAX_TOKEN_DAYS, description="days it lasts; none: until revoked"
    )


class EndSessions(BaseModel):
    tokens: bool = Field(default=False, description="revoke the API tokens too")


class PasswordChange(BaseModel):
    old: str = Field(max_length=128)
    new: str = Field(min_length=8, max_length=128)


def token_dict(row: AuthTokenRow) -> dict[str, Any]:
    """An API token as its owner sees it listed: never the token (nor its hash)."""
    return {
        "id": token_id(row.token_hash),
        "label": row.label,
        "scopes": sorted(parse_scopes(row.scopes)),
        "created_at": row.created_at,
        "expires_at": row.expires_at,
        "last_used_at": row.last_used_at,
    }


def session_dict(row: AuthTokenRow, current: str | None) -> dict[str, Any]:
    session_id = token_id(row.token_hash)
    return {
        "id": session_id,
        "device": row.device,
        "address": row.address,
        "created_at": row.created_at,
        "last_seen_at": row.last_used_at or row.created_at,
        "expires_at": row.expires_at,
        "current": session_id == current,
    }


def _account_id(caller: Caller) -> int:
    account_id = caller.principal.account_id
    assert account_id is not None  # Who(..., "account") lets no guest through
    return account_id


# ---------------------------------------------------------------------------- API tokens


@router.post("/api/auth/tokens", status_code=201)
async def create_token(body: NewToken, ctx: Ctx, caller: SessionCaller) -> dict[str, Any]:
    """An API token (``Authorization: Bearer TOKEN``) that may do what its ``scopes`` say and
    nothing more; shown only once (the server keeps its hash)."""
    try:
        scopes = check_scopes(body.scopes)
    except UnknownScopeError as exc:
        known = ", ".join(SCOPES)
        raise Problem(
            422, "auth.scope.unknown", f"scopes are of: {known}", scope=str(exc)[:32]
        ) from None
    expires = None
    if body.expires_days is not None:
        expires = ctx.time.now() + body.expires_days * 86400
    token = await ctx.auth.issue_token(
        _account_id(caller), "api", body.label.strip(), scopes=scopes, expires_at=expires
    )
    mine = await ctx.auth.tokens_of(_account_id(caller), ("api",))
    made = next(row for row in mine if row.token_hash == hash_token(token))
    return {"token": token, **token_dict(made)}


@router.get("/api/auth/tokens", dependencies=READ_LIMITED)
async def list_tokens(ctx: Ctx, caller: SessionCaller) -> dict[str, Any]:
    """Your API tokens (not expired), newest first, with what they may do and when they were
    last used (recorded at most once a minute)."""
    rows = await ctx.auth.tokens_of(_account_id(caller), ("api",))
    return {"tokens": [token_dict(row) for row in rows], "scopes": SCOPES}


@router.delete("/api/auth/tokens/{token}")
async def revoke_token(token: str, ctx: Ctx, caller: SessionCaller) -> dict[str, bool]:
    """Revoke one of your API tokens (by its ``id``); its streams and sockets close."""
    ended = await ctx.auth.end_tokens(_account_id(caller), ("api",), ids=[token[:16]])
    if not ended:
        raise Problem(404, "auth.token.not_found", "you have no such token")
    ctx.registry.end_sessions(ended)
    return {"ok": True}


# ---------------------------------------------------------------------------- sessions


@router.get("/api/auth/sessions", dependencies=READ_LIMITED)
async def list_sessions(ctx: Ctx, caller: SessionCaller) -> dict[str, Any]:
    """Where you are signed in: each session's browser and system, address, when it started
    and was last seen (recorded at most once a minute); ``current`` marks this one."""
    rows = await ctx.auth.tokens_of(_account_id(caller), ("session",))
    return {"sessions": [session_dict(row, caller.token_id) for row in rows]}


@router.delete("/api/auth/sessions/{session}")
async def end_session(session: str, ctx: Ctx, caller: SessionCaller) -> dict[str, bool]:
    """Sign out one of your sessions (this one too: then it is a log-out); its sockets close."""
    ended = await ctx.auth.end_tokens(_account_id(caller), ("session",), ids=[session[:16]])
    if not ended:
        raise Problem(404, "auth.session.not_found", "you have no such session")
    ctx.registry.end_sessions(ended)
    return {"ok": True}


@router.post("/api/auth/sessions/logout-others")
async def end_other_sessions(
    ctx: Ctx, caller: SessionCaller, body: EndSessions | None = None
) -> dict[str, int]:
    """Sign out everywhere but here (every other session; with ``tokens``, every API token
    too); their sockets and streams close, on every node. Answers how many ended."""
    kinds = ("session", "api") if body is not None and body.tokens else ("session",)
    ended = await ctx.auth.end_tokens(_account_id(caller), kinds, keep=caller.token_id)
    ctx.registry.end_sessions(ended)
    return {"ended": len(ended)}


# ---------------------------------------------------------------------------- password


@router.post("/api/account/password")
async def change_password(
    body: PasswordChange, request: Request, ctx: Ctx, caller: SessionCaller
) -> dict[str, int]:
    """Change your password: the old one first (a 401 ``account.wrong``, slowed down as
    logins are), the new one as hard to guess as at sign-up. Every other session ends (and
    its sockets close); this one stays, as do API tokens (``logout-others`` ends them)."""
    account_id = _account_id(caller)
    row = await ctx.db.read(lambda s: s.get(AccountRow, account_id))
    if row is None:
        raise Problem(404, "player.not_found", "no such account")
    address = client_address(request)
    trusted = await ctx.auth.device_account(request) == account_id
    wait = ctx.login_throttle.wait(address, row.username, trusted)
    if wait is None:
        wait = ctx.login_limiter.wait(address)
    if wait is not None:
        raise too_many_requests(wait)
    if not await ctx.auth.verify_password(row.password_hash, body.old):
        ctx.login_throttle.failed(address, row.username, trusted)
        ctx.login_limiter.check(address)
        raise Problem(401, "account.wrong", "the old password is wrong")
    ctx.login_throttle.succeeded(address, row.username)
    await check_password(body.new, row.username, row.display_name)
    new_hash = await ctx.auth.hash_password(body.new)

    def store(session: Session) -> None:
        account = session.get(AccountRow, account_id)
        assert account is not None
        account.password_hash = new_hash

    await ctx.db.write(store)
    ended = await ctx.auth.end_tokens(account_id, ("session",), keep=caller.token_id)
    ctx.registry.end_sessions(ended)
    return {"ended": len(ended)}

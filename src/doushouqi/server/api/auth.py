"""Accounts and sessions: register, log in and out, guest sessions, who is asking. Tokens,
the list of sessions and the password are ``security.py``'s."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from doushouqi.server.accounts import passwords
from doushouqi.server.accounts.auth import (
    AVATARS,
    DEVICE_COOKIE,
    GUEST_COOKIE,
    NO_AVATAR,
    SESSION_COOKIE,
    USERNAME,
    Principal,
    new_guest_secret,
)
from doushouqi.server.accounts.closing import refuse_inactive
from doushouqi.server.accounts.devices import device_label
from doushouqi.server.accounts.scopes import ANY_TOKEN
from doushouqi.server.api.deps import (
    READ_LIMITED,
    Ctx,
    enforce_rate,
    optional_principal,
    required_principal,
    too_many_requests,
)
from doushouqi.server.context import client_address
from doushouqi.server.db import repo
from doushouqi.server.db.repo import UsernameTakenError
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api/auth", tags=["auth"])


class Register(BaseModel):
    username: str = Field(min_length=3, max_length=32, description="3-32 of a-z 0-9 _")
    password: str = Field(min_length=8, max_length=128)
    display_name: str | None = Field(default=None, min_length=1, max_length=40)
    avatar: str = Field(
        default=NO_AVATAR, description=f"one of {', '.join(AVATARS)}, or none (the default)"
    )
    bot: bool = Field(default=False, description="an account for an engine (bot API)")


class Login(BaseModel):
    username: str = Field(max_length=32)
    password: str = Field(max_length=128)


def principal_dict(principal: Principal) -> dict[str, Any]:
    return {
        "kind": principal.identity.kind,
        "id": principal.identity.id,
        "username": principal.username,
        "name": principal.name,
        "avatar": principal.avatar,
        "is_bot": principal.is_bot,
        "role": principal.role,
    }


async def check_password(password: str, *user_inputs: str) -> None:
    """Refuse a password that is easy to guess (422 ``account.password.<weakness>``): call it
    wherever a password is set. ``user_inputs``: the account's username and display name."""
    weak = await asyncio.to_thread(passwords.weakness, password, user_inputs)
    if weak is not None:
        raise Problem(
            422,
            f"account.password.{weak}",
            f"the password is too easy to guess ({weak}); a few uncommon words are better",
        )


def _set_device_cookie(ctx: Ctx, request: Request, response: Response, token: str) -> None:
    ctx.auth.set_cookie(response, request, DEVICE_COOKIE, token, ctx.settings.device_days * 86400)


async def start_session(ctx: Ctx, request: Request, response: Response, account_id: int) -> None:
    """A new session cookie, recording the browser and address it was started from."""
    device = await asyncio.to_thread(device_label, request.headers.get("user-agent", ""))
    address = client_address(request)
    token = await ctx.auth.issue_token(account_id, "session", device=device, address=address)
    max_age = ctx.settings.session_days * 86400
    ctx.auth.set_cookie(response, request, SESSION_COOKIE, token, max_age)


@router.post("/register", status_code=201)
async def register(
    body: Register, request: Request, response: Response, ctx: Ctx
) -> dict[str, Any]:
    enforce_rate(ctx.login_limiter, request)
    username = body.username.lower()
    if not USERNAME.fullmatch(username):
        raise Problem(422, "account.username", "a username is 3-32 letters a-z, digits or _")
    if body.avatar != NO_AVATAR and body.avatar not in AVATARS:
        raise Problem(422, "account.avatar", f"avatar must be one of {', '.join(AVATARS)}")
    name = (body.display_name or body.username).strip() or username
    await check_password(body.password, username, name)
    password_hash = await ctx.auth.hash_password(body.password)
    now = ctx.time.now()
    try:
        row = await ctx.db.write(
            lambda s: repo.create_account(
                s,
                username=username,
                display_name=name,
                password_hash=password_hash,
                avatar=body.avatar,
                now=now,
                is_bot=body.bot,
            )
        )
    except UsernameTakenError:
        raise Problem(409, "account.taken", "that username is taken") from None
    await start_session(ctx, request, response, row.id)
    # The browser that made the account is its owner's, as after a login: password guessing
    # from elsewhere must not lock it out (LoginThrottle).
    _set_device_cookie(ctx, request, response, await ctx.auth.issue_token(row.id, "device"))
    return principal_dict(Principal.from_account(row, repo.new_standing(row.id, repo.DEFAULT_GAME)))


@router.post("/login")
async def login(body: Login, request: Request, response: Response, ctx: Ctx) -> dict[str, Any]:
    """Log in. Failures slow down whoever makes them (see ``LoginThrottle``): a 429 says
    how long to wait, and a browser that has logged in to the account before is not held up
    by guessers elsewhere."""
    username = body.username.lower()
    address = client_address(request)
    row = await ctx.db.read(lambda s: repo.account_by_username(s, username))
    trusted = row is not None and await ctx.auth.device_account(request) == row.id
    wait = ctx.login_throttle.wait(address, username, trusted)
    if wait is None:
        wait = ctx.login_limiter.wait(address)
    if wait is not None:
        raise too_many_requests(wait)
    # Verify against a dummy hash when the name is unknown, so timing does not tell.
    stored = row.password_hash if row is not None else await ctx.auth.dummy_hash()
    if not await ctx.auth.verify_password(stored, body.password) or row is None:
        ctx.login_throttle.failed(address, username, trusted)
        ctx.login_limiter.check(address)
        raise Problem(401, "account.wrong", "wrong username or password")
    ctx.login_throttle.succeeded(address, username)
    refuse_inactive(row)  # said only to whoever knows the password
    await start_session(ctx, request, response, row.id)
    if not trusted:
        _set_device_cookie(ctx, request, response, await ctx.auth.issue_token(row.id, "device"))
    account_id = row.id
    standing = await ctx.db.read(lambda s: repo.standing(s, account_id, repo.DEFAULT_GAME))
    return principal_dict(Principal.from_account(row, standing))


@router.post("/logout")
async def logout(request: Request, response: Response, ctx: Ctx) -> dict[str, bool]:
    """End this session (its cookie), or, called with an API token, revoke that token; the
    sockets and bot streams opened with it close, on every node."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        bearer = header[7:].strip()
        if bearer and len(bearer) <= 128:
            ctx.registry.end_sessions([await ctx.auth.revoke(bearer)])
        return {"ok": True}
    if cookie := request.cookies.get(SESSION_COOKIE):
        ctx.registry.end_sessions([await ctx.auth.revoke(cookie)])
    ctx.auth.clear_cookie(response, request, SESSION_COOKIE)
    return {"ok": True}


@router.post("/guest")
async def guest(
    request: Request,
    response: Response,
    ctx: Ctx,
    principal: Annotated[Principal | None, optional_principal(ANY_TOKEN)],
) -> dict[str, Any]:
    """Play without signing up: a guest id kept in a cookie."""
    if principal is not None:
        return principal_dict(principal)
    secret = new_guest_secret()
    ctx.auth.set_cookie(response, request, GUEST_COOKIE, secret, ctx.auth.guest_cookie_age)
    return principal_dict(Principal.guest(secret))


@router.get("/me", dependencies=READ_LIMITED)
async def me(principal: Annotated[Principal, required_principal(ANY_TOKEN)]) -> dict[str, Any]:
    return principal_dict(principal)


@router.get("/session", dependencies=READ_LIMITED)
async def session(
    principal: Annotated[Principal | None, optional_principal(ANY_TOKEN)],
) -> dict[str, Any]:
    """Who this browser is, without making a guest: ``{"player": null}`` for a new visitor
    (unlike ``/me``, never a 401, which browsers log as an error)."""
    return {"player": None if principal is None else principal_dict(principal)}

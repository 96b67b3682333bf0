"""Shared dependencies of the REST routers: the app context and who is asking."""

from __future__ import annotations

import math
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from doushouqi.core.game import Game, UnknownGameError, get_game
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.context import AppContext, client_address, context_of
from doushouqi.server.games.registry import SITE_GAMES, SiteGame, site_game
from doushouqi.server.infra.errors import Problem
from doushouqi.server.infra.ratelimit import RateLimiter

__all__ = [
    "READ_LIMITED",
    "AccountPrincipal",
    "Ctx",
    "OptionalPrincipal",
    "RequiredPrincipal",
    "enforce_rate",
    "limit_reads",
    "offered_game",
    "too_many_requests",
]


def get_ctx(request: Request) -> AppContext:
    return context_of(request)


async def optional_principal(request: Request) -> Principal | None:
    return await context_of(request).auth.principal(request)


async def required_principal(request: Request) -> Principal:
    principal = await optional_principal(request)
    if principal is None:
        raise Problem(
            401, "auth.required", "sign in, or start a guest session (POST /api/auth/guest)"
        )
    return principal


async def account_principal(request: Request) -> Principal:
    principal = await required_principal(request)
    if principal.account_id is None:
        raise Problem(403, "auth.account", "this needs an account (guests cannot do it)")
    return principal


Ctx = Annotated[AppContext, Depends(get_ctx)]
OptionalPrincipal = Annotated[Principal | None, Depends(optional_principal)]
RequiredPrincipal = Annotated[Principal, Depends(required_principal)]
AccountPrincipal = Annotated[Principal, Depends(account_principal)]


def enforce_rate(limiter: RateLimiter, request: Request) -> None:
    """Raise 429 when the client's address is over the limit."""
    wait = limiter.check(client_address(request))
    if wait is not None:
        raise too_many_requests(wait)


def limit_reads(request: Request) -> None:
    """Count a read that costs the database a query against the address's read limit
    (``read_rate``); a 429 past it. Every ``GET /api/…`` route but the fixed data depends on
    it (``READ_LIMITED``; tests/server/infra/test_read_limits.py walks the routes)."""
    enforce_rate(context_of(request).read_limiter, request)


#: ``dependencies=`` of a route that reads the database.
READ_LIMITED = [Depends(limit_reads)]


def too_many_requests(wait: float) -> HTTPException:
    """A 429 that says when to try again (whole seconds, at least one)."""
    seconds = max(1, math.ceil(wait))
    return Problem(
        429,
        "rate_limited",
        f"too many requests; try again in {seconds} s",
        headers={"Retry-After": str(seconds)},
        seconds=seconds,
    )


def offered_game(key: str) -> tuple[Game[Any], SiteGame]:
    """The game a request names and the site's entry for it; a 422 (``game.unknown``) for a
    game the site does not offer."""
    try:
        return get_game(key), site_game(key)
    except UnknownGameError:
        known = ", ".join(SITE_GAMES)
        raise Problem(422, "game.unknown", f"game must be one of {known}", game=key[:16]) from None

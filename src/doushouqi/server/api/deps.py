"""Shared dependencies of the REST routers: the app context and who is asking."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends, HTTPException, Request

from doushouqi.core.game import Game, UnknownGameError, get_game
from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import SESSION_ONLY
from doushouqi.server.context import AppContext, client_address, context_of
from doushouqi.server.games.registry import SITE_GAMES, SiteGame, site_game
from doushouqi.server.infra.errors import Problem
from doushouqi.server.infra.ratelimit import RateLimiter

__all__ = [
    "READ_LIMITED",
    "Ctx",
    "SessionAccount",
    "Who",
    "account_principal",
    "enforce_rate",
    "limit_reads",
    "offered_game",
    "optional_principal",
    "required_principal",
    "scope_refusal",
    "too_many_requests",
]


def get_ctx(request: Request) -> AppContext:
    return context_of(request)


@dataclass(frozen=True)
class Who:
    """A dependency: who is asking, on a route that names the scope an API token needs there
    (``accounts/scopes.py``: a scope, ``ANY_TOKEN`` or ``SESSION_ONLY``). A token without it
    gets a 403 ``auth.scope`` naming the scope (``auth.session`` where only a session cookie
    will do); a session cookie has every scope. ``need``: ``optional`` (None for nobody),
    ``required`` (a 401 for nobody) or ``account`` (a 403 for a guest too). Gives the
    :class:`Principal`, or with ``caller=True`` the whole :class:`Caller` (how it asked).
    tests/server/accounts/test_token_scopes.py walks the routes for one that names none."""

    scope: str
    need: Literal["optional", "required", "account"] = "required"
    caller: bool = False

    async def __call__(self, request: Request) -> Any:
        caller = await context_of(request).auth.caller(request)
        if caller is not None and not caller.allows(self.scope):
            raise scope_refusal(self.scope)
        if caller is None and self.need != "optional":
            raise Problem(
                401, "auth.required", "sign in, or start a guest session (POST /api/auth/guest)"
            )
        if caller is not None and caller.via == "guest" and self.need == "account":
            raise Problem(403, "auth.account", "this needs an account (guests cannot do it)")
        if self.caller or caller is None:
            return caller
        return caller.principal


def scope_refusal(scope: str) -> Problem:
    """The 403 for an API token that lacks ``scope`` (or any token, for ``SESSION_ONLY``)."""
    if scope == SESSION_ONLY:
        return Problem(
            403, "auth.session", "only a signed-in browser may do this, never an API token"
        )
    return Problem(403, "auth.scope", f"this API token lacks the scope {scope}", scope=scope)


def optional_principal(scope: str) -> Any:
    """``Depends``: the principal, or None for nobody (a token needs ``scope``)."""
    return Depends(Who(scope, "optional"))


def required_principal(scope: str) -> Any:
    """``Depends``: the account or guest asking (a token needs ``scope``)."""
    return Depends(Who(scope, "required"))


def account_principal(scope: str) -> Any:
    """``Depends``: the account asking, never a guest (a token needs ``scope``)."""
    return Depends(Who(scope, "account"))


Ctx = Annotated[AppContext, Depends(get_ctx)]
#: The account of a signed-in browser (its session cookie); never an API token.
SessionAccount = Annotated[Principal, account_principal(SESSION_ONLY)]


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

"""What a request meets while a service the site depends on is away: Redis (a cluster's leases,
fan-out, counts) or the database. Such a failure is nobody's fault in the request and passes:
the answer is "try again" (HTTP 503 with Retry-After, a websocket's ``unavailable`` or close
1013), never the 500 of a bug. Free of the web framework, so that the live layer can raise
:class:`ServiceUnavailable` and ask :func:`is_outage`; ``errors.py`` answers both over HTTP."""

from __future__ import annotations

from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

__all__ = ["RETRY_AFTER_SECONDS", "ServiceUnavailable", "is_outage"]

#: What a client that met an outage is told to wait before trying again. Redis restarting or a
#: game changing owner takes a few seconds; the clients back off further on their own.
RETRY_AFTER_SECONDS = 2


class ServiceUnavailable(Exception):
    """A service the request needs (Redis, the database, a game's owner) cannot answer now."""


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says a service is away (try again later) rather than that something is
    wrong with the request or the code: Redis unreachable or failing, the database unreachable
    (a refused or broken connection, no pooled connection free in time)."""
    if isinstance(exc, ServiceUnavailable | RedisError | PoolTimeoutError):
        return True
    # A broken connection is an OperationalError or InterfaceError, or a DBAPIError that says it
    # invalidated its connection; IntegrityError and the like are bugs or bad input, not this.
    if isinstance(exc, DBAPIError):
        return exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError)
    return False

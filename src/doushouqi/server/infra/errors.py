"""HTTP errors with a machine code: the web client translates the code, API users read ``detail``.

The server never sends sentences meant for people in the web client's language: an error is
``{"detail": "<English, for API users and logs>", "code": "record.invalid", "params": {...}}``
and the client shows ``t("error.<code>", params)`` from its translation files
(``static/i18n/<lang>/errors.json``). ``detail`` stays what it always was, so programs that
read it keep working; ``code`` and ``params`` are added beside it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, cast

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.types import ExceptionHandler
from starlette.websockets import WebSocketState

from doushouqi.server.infra.outage import RETRY_AFTER_SECONDS, ServiceUnavailable, is_outage
from doushouqi.server.infra.refused import Refused

__all__ = ["Problem", "Refused", "install", "unavailable"]

log = logging.getLogger(__name__)


class Problem(HTTPException):
    """An HTTPException that also carries ``code`` (a translation key under ``error.``) and
    ``params`` (the values its text needs: numbers, names, never English words)."""

    def __init__(
        self,
        status_code: int,
        code: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **params: str | int | float | None,
    ) -> None:
        super().__init__(status_code, detail, headers)
        self.code = code
        self.params = {k: v for k, v in params.items() if v is not None}


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Refused)
    problem = Problem(422, exc.code, exc.detail)
    problem.params = exc.params
    return await _problem(request, problem)


async def _problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Problem)
    body: dict[str, Any] = {"detail": exc.detail, "code": exc.code, "params": exc.params}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def unavailable(detail: str, **extra: Any) -> JSONResponse:
    """The 503 a client meets while a service is away: the Problem body (code
    ``unavailable``), what ``extra`` adds beside it, and when to try again."""
    body: dict[str, Any] = {**extra, "detail": detail, "code": "unavailable", "params": {}}
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return JSONResponse(body, status_code=503, headers=headers)


async def _outage(connection: Request | WebSocket, exc: Exception) -> JSONResponse | None:
    """Redis or the database away (their errors are registered by class; one that is no
    outage, such as an IntegrityError, is a bug and stays a 500)."""
    if not is_outage(exc):
        raise exc
    log.warning("%s %s: a service is away (%r)", connection.scope["type"], connection.url, exc)
    if isinstance(connection, WebSocket):
        # Accepted first, so that the client sees the code (a socket closed before it is
        # accepted is a bare 403 to a browser, which cannot tell it from a refusal).
        with contextlib.suppress(RuntimeError):
            if connection.application_state is WebSocketState.CONNECTING:
                await connection.accept()
            if connection.application_state is WebSocketState.CONNECTED:
                await connection.close(code=1013, reason="try again")
        return None
    return unavailable("a service the site needs is away for a moment; try again")


def install(app: FastAPI) -> None:
    """Answer every :class:`Problem` and :class:`Refused` with its code and params beside
    ``detail``, and every outage with a 503 (a websocket's with 1013)."""
    app.add_exception_handler(Problem, _problem)
    app.add_exception_handler(Refused, _refused)
    # One handler for requests and websockets alike (Starlette calls it with either).
    handler = cast(ExceptionHandler, _outage)
    for outage in (ServiceUnavailable, RedisError, DBAPIError, PoolTimeoutError):
        app.add_exception_handler(outage, handler)

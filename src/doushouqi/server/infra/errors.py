"""HTTP errors with a machine code: the web client translates the code, API users read ``detail``.

The server never sends sentences meant for people in the web client's language: an error is
``{"detail": "<English, for API users and logs>", "code": "record.invalid", "params": {...}}``
and the client shows ``t("error.<code>", params)`` from its translation files
(``static/i18n/<lang>/errors.json``). ``detail`` stays what it always was, so programs that
read it keep working; ``code`` and ``params`` are added beside it.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse

from doushouqi.server.infra.refused import Refused

__all__ = ["Problem", "Refused", "install"]


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


def install(app: FastAPI) -> None:
    """Answer every :class:`Problem` and :class:`Refused` with its code and params beside
    ``detail``."""
    app.add_exception_handler(Problem, _problem)
    app.add_exception_handler(Refused, _refused)

"""The server's outer ASGI middleware: requests refused before any handler runs.

* :class:`CrossOriginGuard`, against cross-site request forgery. A browser attaches our cookies
  to any request that a page on another site makes to us, a ``text/plain`` form POST included
  (SameSite=Lax stops only some). So every unsafe request (POST, PUT, PATCH, DELETE) and every
  websocket handshake (checked by the socket itself) must come from our own pages. Browsers say
  where a request comes from, in ``Sec-Fetch-Site`` (every current browser) and ``Origin``; one
  whose headers name another origin gets a 403. Clients that are not browsers send neither
  header and hold their own credentials (bots, scripts), so they pass; a bearer token is never
  attached by a browser on its own, so a request carrying one is no forgery either.
* :class:`JsonBodyGuard`: a JSON request body must pass
  :func:`doushouqi.server.infra.json_input.parse_json` (depth, valid Unicode) and a size limit, or
  the client gets a 422 (413 when too large) that says why.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doushouqi.server.infra.json_input import BadJsonError, parse_json

__all__ = ["MAX_JSON_BODY_BYTES", "CrossOriginGuard", "JsonBodyGuard", "is_cross_origin"]

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: ``Sec-Fetch-Site`` values of requests our own pages make (``none``: typed by the user).
_OWN_SITES = frozenset({"same-origin", "none"})

#: The largest JSON request body accepted (the longest is a position query's move list:
#: 2,000 moves of a few characters).
MAX_JSON_BODY_BYTES = 64 * 1024


def is_cross_origin(headers: Mapping[str, str]) -> bool:
    """Whether a browser made this request for a page of another origin."""
    if headers.get("authorization", "").lower().startswith("bearer "):
        return False
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in _OWN_SITES:
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    # "null" (sandboxed frames, some redirects) has no host and is refused like any other.
    return urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


async def _refuse(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"detail": reason}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class CrossOriginGuard:
    """Unsafe HTTP requests made by pages of other origins get a 403."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in UNSAFE_METHODS
            and is_cross_origin(Headers(scope=scope))
        ):
            await _refuse(send, 403, "cross-origin request refused")
            return
        await self.app(scope, receive, send)


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            media = value.split(b";")[0].strip().lower()
            return bool(media == b"application/json" or media.endswith(b"+json"))
    return False


class JsonBodyGuard:
    """A request body sent as JSON must pass :func:`parse_json` and be at most
    :data:`MAX_JSON_BODY_BYTES` before the app reads it; it is then handed on unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                await self.app(scope, receive, send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_JSON_BODY_BYTES:
                await _refuse(send, 413, "request body too large")
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body:
            try:
                parse_json(body)
            except BadJsonError as exc:
                await _refuse(send, 422, f"bad JSON body: {exc}")
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

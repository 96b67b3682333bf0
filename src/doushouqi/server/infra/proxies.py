"""Requests through the configured reverse proxies (``DOUSHOUQI_TRUSTED_PROXIES``).

uvicorn's own ``ProxyHeadersMiddleware`` believes ``X-Forwarded-For`` and
``X-Forwarded-Proto`` from those addresses only, and replaces the peer's address with the
forwarded one: after it, nothing says whether a request came through a proxy at all. The
cluster needs to know (a header that only ``deploy/nginx.conf`` sets, ``X-Doushouqi-Affinity``,
must not be believed from anyone else), so the app runs uvicorn's middleware itself, inside
:class:`TrustedProxies`, which first marks each request with whether its peer is one of the
proxies (:func:`via_proxy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

__all__ = ["AFFINITY_HEADER", "TrustedProxies", "routed_by_game", "via_proxy"]

#: The scope key of the mark: whether the request's peer is a trusted proxy.
_VIA_PROXY = "doushouqi.via_proxy"
#: The header ``deploy/nginx.conf`` adds to the game sockets it routes by their game.
AFFINITY_HEADER = "x-doushouqi-affinity"


class TrustedProxies:
    """ASGI middleware: mark whether the peer is a trusted proxy, then believe its
    ``X-Forwarded-*`` headers as uvicorn does (the outermost layer of the app)."""

    def __init__(self, app: ASGIApp, trusted: Sequence[str]) -> None:
        self._forwarded = ProxyHeadersMiddleware(app, trusted_hosts=list(trusted))  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            scope[_VIA_PROXY] = client is not None and client[0] in self._forwarded.trusted_hosts
        await self._forwarded(scope, receive, send)  # type: ignore[arg-type]


def via_proxy(scope: Mapping[str, Any]) -> bool:
    """Whether the request came from a trusted proxy (False without :class:`TrustedProxies`)."""
    return bool(scope.get(_VIA_PROXY))


def routed_by_game(scope: Mapping[str, Any], headers: Mapping[str, str]) -> bool:
    """Whether a trusted proxy routed this game socket by its game (``X-Doushouqi-Affinity``);
    the same header from anyone else means nothing."""
    return via_proxy(scope) and headers.get(AFFINITY_HEADER) == "1"

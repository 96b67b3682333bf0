"""Security headers on every HTTP response: a strict Content-Security-Policy, no sniffing, no
framing, a referrer that stays on this site, no powerful browser features
(``Permissions-Policy``), and, when the site is served over TLS, HSTS (browsers then never try
it over plain http, where a network could change it).

HSTS goes on https responses only (the scheme uvicorn sees, or the one a trusted proxy
forwards, ``DOUSHOUQI_TRUSTED_PROXIES``): a header sent over plain http means nothing and could
be a forgery, so browsers ignore it there. It lasts a year and names no subdomains: those may
be other sites of whoever deploys this one. ``deploy/nginx.conf`` sends the same two headers
itself, over every answer of its own too.

The web client (``static/``) is ES modules, stylesheets and images of its own, with no inline
script or style, no ``style`` attribute written by script (it styles through the CSSOM, which
CSP allows) and no ``data:`` or ``blob:`` images (a record's download link is a ``blob:`` URL,
which CSP does not govern). So everything may come from this origin only. The live games'
websocket (``ws(s)://`` this host) is allowed by ``connect-src 'self'``: under CSP Level 3,
``'self'`` on an http(s) page also matches ``ws:`` and ``wss:`` of the same host and port
(the browser tests play online games under this policy in Chromium).

FastAPI's ``/docs`` (Swagger UI) and ``/redoc`` pages are FastAPI's own HTML: an inline script,
inline styles, and their scripts, styles and fonts from a CDN. They get a relaxed policy of their
own that allows exactly those, still with no framing; they show only the API's schema, not users'
content, so ``'unsafe-inline'`` there does not open the game pages to injected script.

A response that sets a header itself keeps it. Errors that Starlette's outermost error handler
turns into a plain-text 500 pass outside any middleware, so they carry none of these headers.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "APP_POLICY",
    "DOCS_POLICY",
    "HSTS",
    "PERMISSIONS_POLICY",
    "SecurityHeaders",
    "add_security_headers",
]


def _policy(**directives: str) -> str:
    return "; ".join(f"{name.replace('_', '-')} {value}" for name, value in directives.items())


# Shared by both policies: no plugins, no <base> elsewhere, forms post here, never framed.
_LOCKED = {
    "object_src": "'none'",
    "base_uri": "'self'",
    "form_action": "'self'",
    "frame_ancestors": "'none'",
}

APP_POLICY = _policy(
    default_src="'self'",
    script_src="'self'",
    style_src="'self'",
    img_src="'self'",
    connect_src="'self'",  # fetch, and the games' websocket (CSP3 'self' matches ws/wss)
    **_LOCKED,
)

_CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = _policy(
    default_src="'self'",
    script_src=f"'self' 'unsafe-inline' {_CDN}",
    style_src=f"'self' 'unsafe-inline' {_CDN} https://fonts.googleapis.com",
    font_src="'self' https://fonts.gstatic.com",
    # Swagger UI's icons are data: URLs; both pages show FastAPI's favicon.
    img_src="'self' data: https://fastapi.tiangolo.com",
    worker_src="'self' blob:",  # ReDoc parses the schema in a worker made from a blob
    connect_src="'self'",
    **_LOCKED,
)

#: Browser features the site never uses, refused to its pages and anything they could embed:
#: an injected script could not ask for the camera or the player's whereabouts.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)
#: Strict-Transport-Security on https responses: a year.
HSTS = "max-age=31536000"

_COMMON = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors 'none' for browsers without CSP Level 2
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
}


class SecurityHeaders:
    """ASGI middleware: adds the headers to each HTTP response; ``docs_paths`` get
    :data:`DOCS_POLICY`, every other path :data:`APP_POLICY`."""

    def __init__(self, app: ASGIApp, docs_paths: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.docs_paths = docs_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a websocket's handshake is no page
            await self.app(scope, receive, send)
            return
        path = scope["path"].removeprefix(scope.get("root_path", ""))
        policy = DOCS_POLICY if path in self.docs_paths else APP_POLICY
        tls = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])  # optional in ASGI
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for name, value in _COMMON.items():
                    headers.setdefault(name, value)
                if tls:
                    headers.setdefault("Strict-Transport-Security", HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def add_security_headers(app: FastAPI) -> None:
    """Install :class:`SecurityHeaders` on ``app``. Call it after the app's other middleware:
    added last, it runs outermost, so their own responses (a refused request) get the headers."""
    docs = {app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url}
    app.add_middleware(SecurityHeaders, docs_paths=frozenset(p for p in docs if p))

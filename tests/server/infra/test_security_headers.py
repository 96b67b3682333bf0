"""Security headers (``server/headers.py``) on the real app's responses, the docs pages' own
policy, and the web client's files holding nothing the strict policy would block."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

import httpx
import pytest
from starlette.types import Message, Receive, Scope, Send
from tests.support.live import LiveServer, ManualTime, make_settings, running
from tests.support.nginx import SITE, nginx_in_front, nginx_path

from doushouqi.server.infra.headers import (
    APP_POLICY,
    DOCS_POLICY,
    HSTS,
    PERMISSIONS_POLICY,
    SecurityHeaders,
)
from doushouqi.server.infra.settings import STATIC_DIR

needs_nginx = pytest.mark.skipif(nginx_path() is None, reason="nginx is not installed")


def directives(policy: str) -> dict[str, list[str]]:
    parts = (d.split() for d in policy.split(";") if d.strip())
    return {name: values for name, *values in parts}


def assert_secured(response: httpx.Response, policy: str = APP_POLICY) -> None:
    assert response.headers["content-security-policy"] == policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"
    assert response.headers["permissions-policy"] == PERMISSIONS_POLICY


@pytest.mark.parametrize(
    ("path", "status", "kind"),
    [
        ("/", 200, "text/html"),
        ("/app/main.js", 200, "javascript"),
        ("/app/shell/app.css", 200, "text/css"),
        ("/api/rules", 200, "application/json"),
        ("/openapi.json", 200, "application/json"),
        ("/no-such-page", 404, ""),
        ("/api/no-such-thing", 404, "application/json"),
        ("/api/lobby?limit=0", 422, "application/json"),
    ],
)
def test_every_response_is_secured(server: LiveServer, path: str, status: int, kind: str) -> None:
    response = server.player().get(path)
    assert response.status_code == status
    assert kind in response.headers.get("content-type", "")
    assert_secured(response)


def test_a_refused_write_is_secured(server: LiveServer) -> None:
    # A POST with a body the API refuses (whichever check refuses it) still carries the headers.
    response = server.player().post("/api/games", content=b"\xff", headers={"Content-Type": "x/y"})
    assert 400 <= response.status_code < 500
    assert_secured(response)


def test_the_app_policy_is_strict() -> None:
    policy = directives(APP_POLICY)
    for name in ("default-src", "script-src", "style-src", "img-src", "connect-src"):
        assert policy[name] == ["'self'"], name  # no 'unsafe-inline', no data:, no other host
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/docs/oauth2-redirect"])
def test_the_docs_pages_have_their_own_policy(server: LiveServer, path: str) -> None:
    response = server.player().get(path)
    assert response.status_code == 200
    assert_secured(response, DOCS_POLICY)
    policy = directives(DOCS_POLICY)
    # FastAPI's pages: an inline script, and Swagger UI / ReDoc from the hosts they name.
    hosts = set(re.findall(r'(?:src|href)="(https://[^/"]+)', response.text))
    assert hosts <= {value for values in policy.values() for value in values}
    assert "'unsafe-inline'" in policy["script-src"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]


def test_a_response_keeps_a_header_of_its_own() -> None:
    async def page(scope: Scope, receive: Receive, send: Send) -> None:
        own = [(b"content-security-policy", b"default-src 'none'")]
        await send({"type": "http.response.start", "status": 200, "headers": own})
        await send({"type": "http.response.body", "body": b""})

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    sent: list[Message] = []

    async def record(message: Message) -> None:
        sent.append(message)

    asyncio.run(SecurityHeaders(page)({"type": "http", "path": "/"}, nothing, record))
    headers = dict(sent[0]["headers"])
    assert headers[b"content-security-policy"] == b"default-src 'none'"
    assert headers[b"x-content-type-options"] == b"nosniff"


# What the strict policy blocks, as it would appear in the client's files.
_INLINE_HTML = [
    re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),  # an inline script
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle\s*=", re.I),  # a style attribute
    re.compile(r"\son[a-z]+\s*=", re.I),  # an inline event handler
    re.compile(r"javascript:", re.I),
    re.compile(r"""(?:src|href)=["']data:""", re.I),
]
_INLINE_JS = [
    re.compile(r"""setAttribute\(\s*['"]style['"]"""),
    re.compile(r"""['"]?style['"]?\s*:\s*['"`]"""),  # h('div', { style: '...' })
    re.compile(r"""\bstyle=\\?["']"""),  # style="..." in a string written as HTML
    re.compile(r"<style\b"),
    re.compile(r"\beval\(|new Function\("),
]


def test_the_client_has_no_inline_script_or_style() -> None:
    kinds = {".html": _INLINE_HTML, ".js": _INLINE_JS, ".svg": _INLINE_HTML[:2]}
    found = []
    for path in sorted(STATIC_DIR.rglob("*")):
        patterns = kinds.get(path.suffix, [])
        if not patterns:
            continue
        # Comments say what the code does not do; only code counts.
        text = re.sub(r"<!--.*?-->|^\s*//.*$", "", path.read_text("utf-8"), flags=re.S | re.M)
        found += [f"{path.name}: {p.pattern}" for p in patterns if p.search(text)]
    assert not found, found


def test_powerful_features_are_refused() -> None:
    refused = dict(part.split("=") for part in PERMISSIONS_POLICY.split(", "))
    assert {"camera", "microphone", "geolocation", "payment"} <= refused.keys()
    assert set(refused.values()) == {"()"}


def test_hsts_only_over_tls(tmp_path: Path) -> None:
    """HSTS when the request came over https, which a trusted proxy says with
    ``X-Forwarded-Proto``; never over plain http, nor on a client's own word."""
    https = {"X-Forwarded-Proto": "https"}
    trusted = make_settings(tmp_path / "behind", trusted_proxies=("127.0.0.1",))
    with running(trusted, ManualTime()) as server:
        client = server.player()
        for path in ("/", "/api/rules", "/no-such-page"):
            assert client.get(path, headers=https).headers["strict-transport-security"] == HSTS
        assert "strict-transport-security" not in client.get("/").headers
    with running(make_settings(tmp_path / "alone"), ManualTime()) as server:
        forged = server.player().get("/", headers=https)
        assert "strict-transport-security" not in forged.headers


def test_the_nginx_site_sends_both_headers_once() -> None:
    """deploy/nginx.conf's Permissions-Policy is the app's (each header sent once, by nginx)."""
    text = SITE.read_text()
    assert f'add_header Permissions-Policy "{PERMISSIONS_POLICY}" always;' in text
    assert f'https   "{HSTS}";' in text


@needs_nginx
def test_nginx_in_front_over_http(server: LiveServer) -> None:
    with nginx_in_front([server.port]) as url:
        page = httpx.get(url + "/", timeout=10)
        assert page.status_code == 200
        assert page.headers.get_list("permissions-policy") == [PERMISSIONS_POLICY]
        assert "strict-transport-security" not in page.headers
        assert page.headers["content-security-policy"] == APP_POLICY  # the node's, passed on


@needs_nginx
@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_nginx_in_front_over_tls(tmp_path: Path) -> None:
    """Over TLS each answer has HSTS once, both the node's (which nginx tells it came over
    https) and nginx's own (a 502 while no node answers)."""
    settings = make_settings(tmp_path, trusted_proxies=("127.0.0.1",))
    with running(settings, ManualTime()) as server:
        port = server.port
        with nginx_in_front([port], tls=True) as url:
            page = httpx.get(url + "/api/rules", verify=False, timeout=10)
            assert page.status_code == 200
            assert page.headers.get_list("strict-transport-security") == [HSTS]
            assert page.headers.get_list("permissions-policy") == [PERMISSIONS_POLICY]
    with nginx_in_front([port], tls=True) as url:  # the node is gone: nginx answers itself
        down = httpx.get(url + "/", verify=False, timeout=10)
        assert down.status_code == 502
        assert down.headers.get_list("strict-transport-security") == [HSTS]
        assert down.headers.get_list("permissions-policy") == [PERMISSIONS_POLICY]

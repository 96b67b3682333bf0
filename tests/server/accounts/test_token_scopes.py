"""API tokens do what their scopes say and nothing more. The app's routes are walked: each
that learns who is asking names the scope a token needs there, a token without it is refused
with a 403 ``auth.scope`` naming it (``auth.session`` where only a signed-in browser will do),
and a token with just that scope is let through. A new route that reads the caller without a
scope cannot be written (``api/deps.py``: the only way to the caller is ``Who``), and a new
websocket route fails here until its scope is listed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import BaseRoute
from tests.support.live import HOST, LiveServer, ManualTime, Player
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from doushouqi.server.accounts.scopes import ANY_TOKEN, SCOPES, SESSION_ONLY
from doushouqi.server.api.deps import Who

#: The routes a token never reaches: minting tokens, sessions, the password, the export.
SESSION_ROUTES = {
    ("POST", "/api/auth/tokens"),
    ("GET", "/api/auth/tokens"),
    ("DELETE", "/api/auth/tokens/{token}"),
    ("GET", "/api/auth/sessions"),
    ("DELETE", "/api/auth/sessions/{session}"),
    ("POST", "/api/auth/sessions/logout-others"),
    ("POST", "/api/account/password"),
    ("GET", "/api/account/export"),
    ("POST", "/api/account/close"),
}
#: The websockets and the scope a token needs to open each (they read the caller themselves).
SOCKET_SCOPES = {
    "/ws/games/{game_id}": "board:play",
    "/ws/site": "notification:read",
    "/ws/tv": ANY_TOKEN,  # public games only: it reads no caller
}


def app_routes(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route of the app, those of its included routers too."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from app_routes(included.routes)
        else:
            yield route


def whos(dependant: Dependant) -> Iterator[Who]:
    for sub in dependant.dependencies:
        if isinstance(sub.call, Who):
            yield sub.call
        yield from whos(sub)


def declared_scope(route: APIRoute) -> str | None:
    """The scope the route names for tokens (None: it never learns who is asking)."""
    scopes = {who.scope for who in whos(route.dependant)}
    assert len(scopes) <= 1, f"{route.path} names several scopes: {scopes}"
    return scopes.pop() if scopes else None


def http_routes(app: FastAPI) -> list[tuple[str, str, str | None]]:
    """(method, path, scope) of every HTTP route."""
    return [
        (method, route.path, declared_scope(route))
        for route in app_routes(app.router.routes)
        if isinstance(route, APIRoute)
        for method in sorted(route.methods - {"HEAD"})
    ]


def test_the_session_only_routes_are_those_that_mint_tokens_or_change_the_keys(
    server: LiveServer,
) -> None:
    routes = http_routes(server.app)
    session_only = {(m, p) for m, p, scope in routes if scope == SESSION_ONLY}
    # ...and moderation: no API token moderates.
    assert {(m, p) for m, p in session_only if not p.startswith("/api/mod/")} == SESSION_ROUTES
    assert {p for m, p, _ in routes if p.startswith("/api/mod/")} <= {p for _, p in session_only}
    scope_of = {(m, p): scope for m, p, scope in routes}
    assert scope_of["PATCH", "/api/account"] == "preference:write"
    assert {scope_of[m, p] for m, p, _ in routes if p.startswith("/api/bot/")} == {"bot:play"}
    sockets = {
        r.path for r in app_routes(server.app.router.routes) if isinstance(r, APIWebSocketRoute)
    }
    assert sockets == set(SOCKET_SCOPES), "a new websocket: list the scope it needs"
    # Every scope is needed somewhere, and no route names one that does not exist.
    named = {scope for _, _, scope in routes} | set(SOCKET_SCOPES.values())
    assert named - {None, ANY_TOKEN, SESSION_ONLY} == set(SCOPES)


def concrete(path: str) -> str:
    """``path`` with every parameter filled in (an id nothing has)."""
    return re.sub(r"\{[^}]+\}", "nosuch1", path)


def call(server: LiveServer, token: str, method: str, path: str) -> tuple[int, dict[str, Any]]:
    """The status and JSON error of ``method path`` with ``token``; a stream is closed after
    its status (a bot's event stream never ends by itself)."""
    headers = {"Authorization": f"Bearer {token}"}
    body = None if method == "GET" else {}
    with (
        httpx.Client(base_url=server.url, timeout=20) as client,
        client.stream(method, concrete(path), headers=headers, json=body) as response,
    ):
        if response.status_code < 400:
            return response.status_code, {}
        response.read()
        try:
            return response.status_code, response.json()
        except ValueError:
            return response.status_code, {}


def refused_for_scope(status: int, problem: dict[str, Any]) -> bool:
    return status == 403 and problem.get("code") in ("auth.scope", "auth.session")


def test_every_route_refuses_a_token_without_its_scope_and_admits_one_with_it(
    server: LiveServer,
) -> None:
    owner = server.player().register("scoped_owner")
    everything = list(SCOPES)
    checked = 0
    for method, path, scope in http_routes(server.app):
        where = f"{method} {path}"
        if scope is None or scope == ANY_TOKEN:
            # The route reads public things, or who you are: a token of no scope will do.
            status, problem = call(server, owner.api_token(), method, path)
            assert not refused_for_scope(status, problem), (where, problem)
        elif scope == SESSION_ONLY:
            status, problem = call(server, owner.api_token(*everything), method, path)
            assert (status, problem.get("code")) == (403, "auth.session"), (where, problem)
        else:
            others = [s for s in everything if s != scope]
            status, problem = call(server, owner.api_token(*others), method, path)
            assert (status, problem.get("code")) == (403, "auth.scope"), (where, problem)
            assert problem["params"] == {"scope": scope}, where
            status, problem = call(server, owner.api_token(scope), method, path)
            assert not refused_for_scope(status, problem), (where, problem)
        checked += 1
    assert checked > 60


def socket_close(player: Player, path: str) -> tuple[int | None, str]:
    """How the server closes ``path``'s socket opened as ``player``: code and reason (None:
    it stayed open and greeted)."""
    url = f"ws://{HOST}:{player.server.port}{concrete(path)}"
    with connect(url, additional_headers=player.headers(), open_timeout=10) as ws:
        try:
            ws.recv(timeout=5)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
        return None, ""


def test_sockets_refuse_a_token_without_their_scope(server: LiveServer) -> None:
    owner = server.player().register("socket_owner")
    game_id = owner.create(mode="online", color="red")["id"]
    for path, scope in SOCKET_SCOPES.items():
        if scope == ANY_TOKEN:
            continue  # nothing to refuse
        path = path.replace("{game_id}", game_id)
        bot = server.player()
        bot.token = owner.api_token(*[s for s in SCOPES if s != scope])
        assert socket_close(bot, path) == (4403, f"auth.scope {scope}")
        bot.token = owner.api_token(scope)
        assert socket_close(bot, path) == (None, "")  # a state, or the site socket's hello


def test_a_token_never_mints_a_token_nor_changes_the_keys(server: LiveServer) -> None:
    owner = server.player().register("keys_owner")
    bot = server.player()
    bot.token = owner.api_token(*SCOPES)
    for method, path, body in [
        ("POST", "/api/auth/tokens", {"scopes": list(SCOPES)}),
        ("GET", "/api/auth/tokens", None),
        ("GET", "/api/auth/sessions", None),
        ("POST", "/api/auth/sessions/logout-others", {"tokens": True}),
        ("POST", "/api/account/password", {"old": "x", "new": "a much longer passphrase"}),
        ("GET", "/api/account/export", None),
    ]:
        response = bot.request(method, path, json=body)
        assert (response.status_code, response.json()["code"]) == (403, "auth.session"), path
    # A token is no cookie: with both, the token decides (a page cannot borrow the cookie).
    bot.cookies = dict(owner.cookies)
    assert bot.post("/api/auth/tokens", json={}).json()["code"] == "auth.session"
    assert owner.get("/api/auth/tokens").json()["tokens"][0]["scopes"] == sorted(SCOPES)


def test_tokens_are_listed_without_their_secret_and_revoked(server: LiveServer) -> None:
    owner = server.player().register("token_owner")
    made = owner.post(
        "/api/auth/tokens",
        json={"label": " my engine ", "scopes": ["bot:play", "challenge:read", "bot:play"]},
    )
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    assert made.json()["label"] == "my engine" and made.json()["expires_at"] is None
    listed = owner.get("/api/auth/tokens").json()
    assert listed["scopes"] == SCOPES  # what each scope allows, for a form to show
    assert [t["scopes"] for t in listed["tokens"]] == [["bot:play", "challenge:read"]]
    assert token not in str(listed) and listed["tokens"][0]["last_used_at"] is None
    unknown = owner.post("/api/auth/tokens", json={"scopes": ["board:play", "web:mod"]})
    assert (unknown.status_code, unknown.json()["code"]) == (422, "auth.scope.unknown")
    assert unknown.json()["params"] == {"scope": "web:mod"}
    bot = server.player()
    bot.token = token
    assert bot.get("/api/challenges").status_code == 200
    assert bot.get("/api/auth/me").json()["username"] == "token_owner"
    token_id = listed["tokens"][0]["id"]
    assert owner.request("DELETE", f"/api/auth/tokens/{token_id}").json() == {"ok": True}
    assert bot.get("/api/auth/me").status_code == 401
    gone = owner.request("DELETE", f"/api/auth/tokens/{token_id}")
    assert (gone.status_code, gone.json()["code"]) == (404, "auth.token.not_found")
    # Another account cannot revoke it, nor even learn that it exists.
    again = owner.post("/api/auth/tokens", json={"scopes": []}).json()
    stranger = server.player().register("token_stranger")
    assert stranger.request("DELETE", f"/api/auth/tokens/{again['id']}").status_code == 404
    assert [t["id"] for t in owner.get("/api/auth/tokens").json()["tokens"]] == [again["id"]]


def test_a_token_expires_and_logging_out_with_it_revokes_it(
    server: LiveServer, clock: ManualTime
) -> None:
    owner = server.player().register("expiring_owner")
    bot = server.player()
    bot.token = owner.api_token(expires_days=2)
    assert bot.get("/api/auth/me").status_code == 200
    clock.advance(2 * 86400 + 1)
    assert bot.get("/api/auth/me").status_code == 401
    assert owner.get("/api/auth/tokens").json()["tokens"] == []  # an expired one is not listed
    too_long = owner.post("/api/auth/tokens", json={"expires_days": 3651})
    assert too_long.status_code == 422
    bot.token = owner.api_token()
    assert bot.post("/api/auth/logout").json() == {"ok": True}
    assert bot.get("/api/auth/me").status_code == 401
    assert owner.get("/api/auth/me").status_code == 200  # the owner's session is another key


def test_last_use_is_written_at_most_once_a_minute(server: LiveServer, clock: ManualTime) -> None:
    owner = server.player().register("busy_owner")
    bot = server.player()
    bot.token = owner.api_token()

    def last_used() -> float | None:
        return owner.get("/api/auth/tokens").json()["tokens"][0]["last_used_at"]  # type: ignore[no-any-return]

    bot.get("/api/auth/me")
    first = last_used()
    assert first == clock.now()
    clock.advance(30)
    for _ in range(5):
        bot.get("/api/auth/me")
    assert last_used() == first  # not a write per request
    clock.advance(31)
    bot.get("/api/auth/me")
    assert last_used() == clock.now()

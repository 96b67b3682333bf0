"""Sessions: each signed-in browser is listed with its device, address and times; one, or all
but this one, can be ended, and so can every session but this one by changing the password.
An ended session is refused at once, and its open sockets close (4401 "signed out")."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from tests.support.live import PASSWORD, GameSocket, LiveServer, ManualTime, Player
from tests.support.site_helpers import site_socket
from websockets.exceptions import ConnectionClosed

from doushouqi.server.live import ws

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0 Mobile Safari/537.36"
)


def signed_up(server: LiveServer, username: str, agent: str = IPHONE) -> Player:
    player = server.player()
    body = {"username": username, "password": PASSWORD}
    response = player.post("/api/auth/register", json=body, headers={"User-Agent": agent})
    assert response.status_code == 201, response.text
    player.me = response.json()
    return player


def logged_in(server: LiveServer, username: str, agent: str, password: str = PASSWORD) -> Player:
    """Another browser of the account's owner, signed in."""
    player = server.player()
    body = {"username": username, "password": password}
    response = player.post("/api/auth/login", json=body, headers={"User-Agent": agent})
    assert response.status_code == 200, response.text
    player.me = response.json()
    return player


def closed_with(sock: GameSocket, timeout: float = 10) -> tuple[int, str]:
    """The code and reason the server closes ``sock`` with (what arrives first is read past)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sock.recv(timeout=deadline - time.monotonic())
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame"
            return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError("the socket stayed open")


def sessions(player: Player) -> list[dict[str, object]]:
    response = player.get("/api/auth/sessions")
    assert response.status_code == 200, response.text
    return response.json()["sessions"]  # type: ignore[no-any-return]


def test_sessions_are_listed_with_their_device_and_the_current_one(
    server: LiveServer, clock: ManualTime
) -> None:
    phone = signed_up(server, "two_devices")
    clock.advance(60)
    tablet = logged_in(server, "two_devices", ANDROID)
    listed = sessions(phone)
    assert [s["device"] for s in listed] == ["Chrome on Android", "Mobile Safari on iOS"]
    assert [s["current"] for s in listed] == [False, True]
    assert {s["address"] for s in listed} == {"127.0.0.1"}
    assert listed[0]["created_at"] == listed[0]["last_seen_at"] == clock.now()
    assert [s["current"] for s in sessions(tablet)] == [True, False]
    # Last seen: recorded when the session is used, at most once a minute.
    clock.advance(120)
    phone.get("/api/auth/me")
    assert sessions(tablet)[1]["last_seen_at"] == clock.now()
    # Another account's session is not one's own to end.
    stranger = signed_up(server, "stranger")
    gone = stranger.request("DELETE", f"/api/auth/sessions/{listed[0]['id']}")
    assert (gone.status_code, gone.json()["code"]) == (404, "auth.session.not_found")


def test_ending_a_session_signs_it_out_and_closes_its_sockets(server: LiveServer) -> None:
    phone = signed_up(server, "lost_phone")
    laptop = logged_in(server, "lost_phone", ANDROID)
    game_id = phone.create(mode="online", color="red")["id"]
    with site_socket(phone) as site, phone.socket(game_id) as game, site_socket(laptop) as mine:
        assert site.recv()["type"] == "hello" and game.recv()["type"] == "state"
        assert mine.recv()["type"] == "hello"
        phone_session = next(s for s in sessions(laptop) if not s["current"])
        ended = laptop.request("DELETE", f"/api/auth/sessions/{phone_session['id']}")
        assert ended.json() == {"ok": True}
        assert closed_with(site) == (4401, "signed out")
        assert closed_with(game) == (4401, "signed out")
        assert phone.get("/api/auth/me").status_code == 401
        assert mine.drain() == []  # the laptop's own socket stays
    assert [s["current"] for s in sessions(laptop)] == [True]


def test_a_socket_still_opening_when_its_session_ends_closes(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's state is sent before the socket's greetings (chat history, …) are read; a
    session ended while they are read (seen in a loaded cluster) must still close it."""
    released = threading.Event()

    async def held(*_: object) -> list[str]:
        while not released.is_set():
            await asyncio.sleep(0.01)
        return []

    monkeypatch.setattr(ws, "_GREETINGS", [*ws._GREETINGS, held])
    home = signed_up(server, "slow_greeting")
    elsewhere = logged_in(server, "slow_greeting", ANDROID)
    game_id = home.create(mode="online", color="red")["id"]
    with elsewhere.socket(game_id) as game:
        assert game.recv()["type"] == "state"
        assert home.post("/api/auth/sessions/logout-others", json={}).json() == {"ended": 1}
        released.set()
        assert closed_with(game, timeout=5) == (4401, "signed out")


def test_logging_out_everywhere_else_keeps_this_session_and_tokens_if_asked(
    server: LiveServer,
) -> None:
    home = signed_up(server, "everywhere")
    others = [logged_in(server, "everywhere", agent) for agent in (ANDROID, IPHONE)]
    bot = server.player()
    bot.token = home.api_token("bot:play")
    with site_socket(others[0]) as elsewhere:
        assert elsewhere.recv()["type"] == "hello"
        answer = home.post("/api/auth/sessions/logout-others", json={})
        assert answer.json() == {"ended": 2}
        assert closed_with(elsewhere) == (4401, "signed out")
    assert [p.get("/api/auth/me").status_code for p in others] == [401, 401]
    assert home.get("/api/auth/me").status_code == 200
    assert bot.get("/api/auth/me").status_code == 200  # API tokens only when asked:
    assert home.post("/api/auth/sessions/logout-others", json={"tokens": True}).json() == {
        "ended": 1
    }
    assert bot.get("/api/auth/me").status_code == 401
    assert home.get("/api/auth/tokens").json()["tokens"] == []


def test_logging_out_closes_this_sessions_sockets(server: LiveServer) -> None:
    player = signed_up(server, "leaving")
    with site_socket(player) as site:
        assert site.recv()["type"] == "hello"
        assert player.post("/api/auth/logout").json() == {"ok": True}
        assert closed_with(site) == (4401, "signed out")
    assert sessions(logged_in(server, "leaving", ANDROID))[0]["current"]


def still_open(sock: GameSocket) -> bool:
    """Whether the server still answers on ``sock`` (a ping's pong)."""
    sock.send({"type": "ping", "id": "still-open"})
    return sock.wait_for("pong", lambda m: True)["type"] == "pong"


def test_sockets_close_when_their_token_or_session_expires(
    server: LiveServer, clock: ManualTime
) -> None:
    owner = signed_up(server, "expiring")
    bot = server.player()
    bot.token = owner.api_token("board:play", "notification:read", expires_days=1)
    game_id = owner.create(mode="online", color="red")["id"]
    with bot.socket(game_id) as game, site_socket(bot) as bot_site, site_socket(owner) as site:
        assert game.recv()["type"] == "state"
        assert bot_site.recv()["type"] == "hello" and site.recv()["type"] == "hello"
        clock.advance(86400 - 60)  # a minute before the token's end: all open
        assert still_open(game) and still_open(bot_site)
        clock.advance(120)
        assert closed_with(game) == (4401, "signed out")
        assert closed_with(bot_site) == (4401, "signed out")
        assert bot.get("/api/auth/me").status_code == 401
        assert still_open(site)  # the session lasts 30 days
        clock.advance(30 * 86400)
        assert closed_with(site) == (4401, "signed out")
        assert owner.get("/api/auth/me").status_code == 401


def test_changing_the_password(server: LiveServer) -> None:
    home = signed_up(server, "new_password")
    elsewhere = logged_in(server, "new_password", ANDROID)
    new = "seven otters juggle plums"
    wrong = home.post("/api/account/password", json={"old": "not it at all", "new": new})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "account.wrong")
    weak = home.post("/api/account/password", json={"old": PASSWORD, "new": "password"})
    assert (weak.status_code, weak.json()["code"]) == (422, "account.password.common")
    short = home.post("/api/account/password", json={"old": PASSWORD, "new": "x"})
    assert short.status_code == 422
    with site_socket(elsewhere) as theirs, site_socket(home) as mine:
        assert theirs.recv()["type"] == "hello" and mine.recv()["type"] == "hello"
        changed = home.post("/api/account/password", json={"old": PASSWORD, "new": new})
        assert changed.json() == {"ended": 1}, changed.text
        assert closed_with(theirs) == (4401, "signed out")
        assert mine.drain() == []
    assert elsewhere.get("/api/auth/me").status_code == 401
    assert home.get("/api/auth/me").json()["username"] == "new_password"
    old = server.player().post(
        "/api/auth/login", json={"username": "new_password", "password": PASSWORD}
    )
    assert old.status_code == 401
    logged_in(server, "new_password", IPHONE, password=new)


def test_guessing_the_old_password_is_slowed_as_logins_are(server: LiveServer) -> None:
    player = signed_up(server, "guessed")
    codes = [
        player.post("/api/account/password", json={"old": f"guess {i}", "new": "x" * 20})
        for i in range(4)
    ]
    assert [c.status_code for c in codes] == [401, 401, 401, 429]
    assert codes[-1].headers["Retry-After"] == "1"

"""Drive the real app: uvicorn on a free loopback port in a thread, httpx and websocket clients.

Tests talk HTTP and websockets to a real server exactly as a browser or a bot would; only the
clock (:class:`ManualTime`) and the AI (:class:`RandomAi`) are replaced where a test needs
them. Cookies are marked Secure on loopback, which httpx will not send over plain http, so
:class:`Player` carries its cookies in a header itself.
"""

from __future__ import annotations

import dataclasses
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from doushouqi.server.ai.pool import AiService, RandomAi
from doushouqi.server.app import create_app
from doushouqi.server.infra.settings import RateLimit, Settings
from doushouqi.server.infra.timesource import ManualTime, TimeSource
from doushouqi.server.main import uvicorn_options

HOST = "127.0.0.1"
#: The password test accounts get unless a test names one: hard enough to guess for the
#: server's check (accounts/passwords.py), as every password must be.
PASSWORD = "lantern river quietly"

# Den entry by Red in 33 plies (17 rounds: long enough to score, docs/rules.md 5.4).
_DEN_MOVES = """
    b2a2 b8c8 a1b1 a7a8 b1c1 g7g6 g3f3 g6g7 f3f4 f8g8 e3f3 g9f9 f3e3 g7f7 g1g2 c7d7 a2b2
    g8g7 c1c2 c8c9 c3d3 a9b9 c2c3 a8a7 c3c7 f9e9 c7d7 a7b7 f4f5 b9a9 d7d8 c9b9 d8d9
"""
DEN_GAME = _DEN_MOVES.split()


def make_settings(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for a test server: its own SQLite file, cheap password hashing, loose limits."""
    base = Settings(
        data_dir=tmp_path,
        argon2_time_cost=1,
        argon2_memory_kib=1024,
        heartbeat_interval=0.2,
        login_rate=RateLimit(1000, 60.0),
        create_rate=RateLimit(1000, 60.0),
        # Tests poll reads in loops from one address; test_read_limits.py sets its own.
        read_rate=RateLimit(1_000_000, 60.0),
        explorer_rate=RateLimit(1_000_000, 60.0),
        message_rate=RateLimit(1000, 1.0),
        ai_reply_pace=(0.0, 0.0),  # the computer answers at once: tests stay fast
    )
    return dataclasses.replace(base, **changes)


class LiveServer:
    def __init__(
        self,
        settings: Settings,
        time_source: TimeSource | None = None,
        ai: AiService | None = None,
    ) -> None:
        self.settings = settings
        self.app = create_app(settings, time=time_source, ai=ai)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((HOST, 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            **uvicorn_options(settings),
            lifespan="on",
            timeout_graceful_shutdown=2,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()

    def player(self) -> Player:
        return Player(self)


@contextmanager
def running(
    settings: Settings, time_source: TimeSource | None = None, ai: AiService | None = None
) -> Iterator[LiveServer]:
    server = LiveServer(settings, time_source, ai if ai is not None else RandomAi()).start()
    try:
        yield server
    finally:
        server.stop()


class Player:
    """One user agent: its own cookies, an HTTP client, and websockets to games."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.cookies: dict[str, str] = {}
        self.token: str | None = None
        self.me: dict[str, Any] = {}

    def headers(self) -> dict[str, str]:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        response = self.http.request(method, path, headers=headers, **kwargs)
        for cookie in response.cookies.jar:
            if cookie.value:
                self.cookies[cookie.name] = cookie.value
            else:
                self.cookies.pop(cookie.name, None)
        return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def guest(self) -> Player:
        response = self.post("/api/auth/guest")
        assert response.status_code == 200, response.text
        self.me = response.json()
        return self

    def register(self, username: str, password: str = PASSWORD, **extra: Any) -> Player:
        body = {"username": username, "password": password, **extra}
        response = self.post("/api/auth/register", json=body)
        assert response.status_code == 201, response.text
        self.me = response.json()
        return self

    def api_token(self, *scopes: str, **extra: Any) -> str:
        """A new API token of this player's account with ``scopes`` (made by its session)."""
        response = self.post("/api/auth/tokens", json={"scopes": list(scopes), **extra})
        assert response.status_code == 201, response.text
        return str(response.json()["token"])

    def create(self, **body: Any) -> dict[str, Any]:
        response = self.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        return response.json()  # type: ignore[no-any-return]

    def socket(self, game_id: str, since: int | None = None) -> GameSocket:
        url = f"ws://{HOST}:{self.server.port}/ws/games/{game_id}"
        if since is not None:
            url += f"?since={since}"
        stack = ExitStack()
        # No keepalive pings from the client (the server pings a silent peer): websockets
        # draws each ping's payload from the process-wide random generator, in its own
        # thread, which disturbs a Hypothesis test running beside a module's open sockets.
        ws = stack.enter_context(
            connect(
                url,
                additional_headers=self.headers(),
                open_timeout=10,
                max_size=2**22,
                ping_interval=None,
            )
        )
        return GameSocket(ws, stack)


class GameSocket:
    """A websocket to one game, with helpers to wait for messages."""

    def __init__(self, ws: ClientConnection, stack: ExitStack) -> None:
        self.ws = ws
        self._stack = stack
        self.seen: list[dict[str, Any]] = []
        self.version = -1

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        self.version = max(self.version, message.get("version", -1))
        return message

    def wait_for(
        self,
        kind: str,
        predicate: Callable[[dict[str, Any]], bool] = lambda m: True,
        timeout: float = 10,
    ) -> dict[str, Any]:
        """The next message of type ``kind`` that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind!r} message; saw {[m['type'] for m in self.seen]}")
            message = self.recv(timeout=left)
            if message["type"] == kind and predicate(message):
                return message

    def drain(self, quiet: float = 0.2) -> list[dict[str, Any]]:
        """Every message that arrives until none has for ``quiet`` seconds."""
        out = []
        while True:
            try:
                out.append(self.recv(timeout=quiet))
            except TimeoutError:
                return out

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> GameSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def answer_to(sock: GameSocket, message_id: str) -> dict[str, Any]:
    """The server's answer to the message sent under ``message_id``: its ack, rejection or
    error (events and notices on the way are read past)."""
    while True:
        message = sock.recv()
        if message.get("id") == message_id and message["type"] in ("ack", "rejected", "error"):
            return message


def move(sock: GameSocket, text: str, **extra: Any) -> dict[str, Any]:
    """Send a move and return the ``move_made`` event for it."""
    sock.send({"type": "move", "move": text, **extra})
    return sock.wait_for("move_made", lambda m: m["move"] == text)


def start_online(
    server: LiveServer, red: Player, blue: Player, **options: Any
) -> tuple[str, GameSocket, GameSocket]:
    """An online game with ``red`` (creator) and ``blue`` connected; returns once started."""
    created = red.create(mode="online", color="red", **options)
    game_id = created["id"]
    red_ws = red.socket(game_id)
    assert red_ws.recv()["type"] == "state"
    blue_ws = blue.socket(game_id)
    blue_ws.wait_for("state")
    blue_ws.send({"type": "join"})
    blue_ws.wait_for("game_started")
    red_ws.wait_for("game_started")
    return game_id, red_ws, blue_ws


def metric(server: LiveServer, name: str) -> float:
    """One value of the server's Prometheus metrics (the first sample of ``name``)."""
    text = server.player().get("/metrics").text
    found = re.search(rf"^{name}\{{[^}}]*\}} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in /metrics"
    return float(found.group(1))


def first_ai_replies(server: LiveServer, games: int) -> tuple[list[dict[str, Any]], int]:
    """Start ``games`` games against level 10 at once and play a3a4 in each: the computer's
    replies, and how many games were told the computer was busy."""
    sockets = []
    for _ in range(games):
        player = server.player().guest()
        game = player.create(mode="vs_ai", ai_level=10, color="red")
        ws = player.socket(game["id"])
        ws.wait_for("game_started")
        sockets.append(ws)
    for ws in sockets:
        ws.send({"type": "move", "move": "a3a4"})
    replies, busy = [], 0
    for ws in sockets:
        replies.append(ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=30))
        busy += any(m["type"] == "ai_busy" for m in ws.seen)
        ws.close()
    return replies, busy


__all__ = [
    "DEN_GAME",
    "PASSWORD",
    "GameSocket",
    "LiveServer",
    "ManualTime",
    "Player",
    "first_ai_replies",
    "make_settings",
    "metric",
    "move",
    "running",
    "start_online",
]

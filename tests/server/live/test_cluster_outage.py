"""Redis or the database away under a running cluster (all real: PostgreSQL, Redis, the nodes).

While a service is away every answer says "try again": a REST request a 503 (the Problem body,
code ``unavailable``, with Retry-After), never a 500; a websocket command an ``unavailable``
error with its id; a socket that cannot be served now is closed with 1013. A node that owns a
game goes on with it as long as it can store it. Once the service is back, everything works
again without restarting a node, and no acknowledged move is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import DEN_GAME, GameSocket, Player, move, running
from tests.support.postgres import create_database, stoppable_postgres
from tests.support.redis_server import RedisServer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

pytestmark = CLUSTER_MARKS


def walk(player: Player, game_id: str) -> dict[str, httpx.Response]:
    """What a player's pages ask of the REST API, one request each."""
    requests: list[tuple[str, str, Any]] = [
        ("GET", f"/api/games/{game_id}", None),
        ("GET", f"/api/games/{game_id}/events?since=0", None),
        ("GET", f"/api/games/{game_id}/chat", None),
        ("POST", f"/api/games/{game_id}/commands", {"type": "offer_draw", "id": "d1"}),
        ("POST", "/api/games", {"mode": "online"}),
        ("GET", "/api/lobby", None),
        ("GET", "/api/seeks", None),
        ("POST", "/api/seeks", {"time_control": "5+3"}),
        ("GET", "/api/games/live", None),
        ("GET", "/api/games/my-turn", None),
        ("GET", "/api/notifications", None),
        ("GET", "/api/auth/session", None),
    ]
    return {
        f"{method} {path}": player.request(method, path, json=body)
        for method, path, body in requests
    }


def assert_try_again(answers: dict[str, httpx.Response]) -> set[str]:
    """No answer is a 500, and every 503 says "unavailable, try again"; the requests so
    answered."""
    unavailable = set()
    for request, answer in answers.items():
        assert answer.status_code < 500 or answer.status_code == 503, (request, answer.text)
        if answer.status_code == 503:
            body = answer.json()
            assert body["code"] == "unavailable", (request, body)
            assert int(answer.headers["Retry-After"]) > 0, request
            unavailable.add(request)
    return unavailable


def answer_to(ws: GameSocket, message_id: str) -> dict[str, Any]:
    """The reply to the message sent with ``message_id`` (its ack, rejection or error)."""
    while True:
        message = ws.recv()
        if message.get("id") == message_id and message["type"] in ("ack", "rejected", "error"):
            return message


def site_socket(player: Player) -> Any:
    url = f"ws://127.0.0.1:{player.server.port}/ws/site"
    return connect(url, additional_headers=player.headers(), open_timeout=10)


def played(
    text: str, ws: Callable[[], GameSocket], deadline: float, socket: GameSocket | None = None
) -> GameSocket:
    """Play ``text`` as the web client does: send it with an id, and again (on a new socket if
    the old one was closed) while the answer is "unavailable"; the socket that saw it played."""
    while True:
        assert time.monotonic() < deadline, f"{text} was never played"
        try:
            socket = socket or ws()
            socket.send({"type": "move", "move": text, "id": f"again-{text}"})
            reply = answer_to(socket, f"again-{text}")
            if reply["type"] == "ack":
                return socket
            assert reply.get("code") == "unavailable", reply
        except ConnectionClosed as closed:
            assert closed.rcvd is None or closed.rcvd.code in (1013, 4408), closed
            socket = None
        time.sleep(0.2)  # the client's back-off between tries


def hears(ws: GameSocket, text: str) -> bool:
    """Whether the socket is told of the move ``text``: its event, or a state that holds it."""
    while True:
        message = ws.recv()
        if message["type"] == "move_made" and message["move"] == text:
            return True
        if message["type"] == "state" and text in [m[0] for m in message["game"]["moves"]]:
            return True


def moves_of(player: Player, game_id: str) -> list[str]:
    return [m[0] for m in player.get(f"/api/games/{game_id}").json()["game"]["moves"]]


def test_redis_away_every_answer_says_try_again_then_play_resumes(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    with (
        running(node_settings(tmp_path, database, redis, "a")) as a,
        running(node_settings(tmp_path, database, redis, "b")) as b,
    ):
        red, blue = a.player().register("outage_red"), b.player().register("outage_blue")
        game_id = red.create(mode="online", color="red")["id"]  # owned by a
        red_ws, blue_ws = red.socket(game_id), blue.socket(game_id)  # blue's on b
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        move(red_ws, DEN_GAME[0], id="m0")
        move(blue_ws, DEN_GAME[1], id="m1")

        redis.kill()
        try:
            on_b = assert_try_again(walk(blue, game_id))
            # b must ask Redis who owns the game, and leases new games there.
            assert {f"POST /api/games/{game_id}/commands", "POST /api/games"} <= on_b
            assert assert_try_again(walk(red, game_id)) == {"POST /api/games"}
            # The socket on b: commands and syncs answered "unavailable" with their ids.
            blue_ws.send({"type": "move", "move": DEN_GAME[3], "id": "b3"})
            assert answer_to(blue_ws, "b3")["code"] == "unavailable"
            blue_ws.send({"type": "sync", "version": 0, "id": "s1"})
            assert answer_to(blue_ws, "s1")["code"] == "unavailable"
            # The owner goes on with its game: it needs only the database to store it.
            move(red_ws, DEN_GAME[2], id="m2")
            # A new socket on b cannot be served now: closed with 1013, "try again".
            with pytest.raises(ConnectionClosed) as closed:
                blue.socket(game_id).ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            with site_socket(blue) as site:  # the site socket needs no Redis
                site.send('{"type": "ping"}')
                assert '"hello"' in site.recv(timeout=10)
            # A challenge accepted now cannot start its game: "try again", and it still can.
            challenge = red.post("/api/challenges", json={"to": "outage_blue"}).json()
            accept = f"/api/challenges/{challenge['id']}/accept"
            assert assert_try_again({accept: blue.post(accept)}) == {accept}
        finally:
            redis.start()

        # Back: blue's socket, which stayed open, hears the move made meanwhile (its channel
        # was silent: it is read from the database), and the refused move is played when the
        # client sends it again.
        try:
            assert hears(blue_ws, DEN_GAME[2])
        except TimeoutError:
            print("SEEN", [(m["type"], m.get("version"), m.get("code")) for m in blue_ws.seen])
            raise
        deadline = time.monotonic() + 30
        played(DEN_GAME[3], lambda: blue.socket(game_id), deadline, blue_ws)
        assert moves_of(blue, game_id) == DEN_GAME[:4]
        assert moves_of(red, game_id) == DEN_GAME[:4]
        assert blue.post("/api/games", json={"mode": "online"}).status_code == 201
        # The seeks both posted while Redis was away were matched then, but their game could
        # not be started: they waited again, and are paired into a game that exists now.
        seeks = red.get("/api/seeks").json()["mine"]
        while not seeks or seeks[0]["game_id"] is None:
            assert time.monotonic() < deadline, seeks
            time.sleep(0.1)
            seeks = red.get("/api/seeks").json()["mine"]
        assert red.get(f"/api/games/{seeks[0]['game_id']}").status_code == 200
        accepted = blue.post(accept)
        assert accepted.status_code == 200, accepted.text
        assert red.get(f"/api/games/{accepted.json()['game_id']}").status_code == 200
        red_ws.close()
        blue_ws.close()


def test_the_database_away_every_answer_says_try_again_then_play_resumes(
    tmp_path: Path, redis: RedisServer
) -> None:
    with stoppable_postgres() as postgres:
        database = create_database(postgres.url, "outage")
        with (
            running(node_settings(tmp_path, database, redis, "a")) as a,
            running(node_settings(tmp_path, database, redis, "b")) as b,
        ):
            red, blue = a.player().guest(), b.player().guest()
            game_id = red.create(mode="online", color="red")["id"]  # owned by a
            red_ws, blue_ws = red.socket(game_id), blue.socket(game_id)
            red_ws.wait_for("state")
            blue_ws.wait_for("state")
            blue_ws.send({"type": "join"})
            red_ws.wait_for("game_started")
            move(red_ws, DEN_GAME[0], id="m0")
            move(blue_ws, DEN_GAME[1], id="m1")

            postgres.stop()
            try:
                for player in (red, blue):
                    answers = walk(player, game_id)
                    assert assert_try_again(answers) == set(answers)  # everything needs it
                # Commands on both nodes, a chat message, a sync: "unavailable", with their ids.
                red_ws.send({"type": "move", "move": DEN_GAME[2], "id": "r2"})
                assert answer_to(red_ws, "r2")["code"] == "unavailable"
                blue_ws.send({"type": "offer_draw", "id": "d1"})
                assert answer_to(blue_ws, "d1")["code"] == "unavailable"
                for ws in (red_ws, blue_ws):
                    ws.send({"type": "chat", "text": "hello", "id": "c1"})
                    assert answer_to(ws, "c1")["code"] == "unavailable"
                    ws.send({"type": "sync", "version": 0, "id": "s1"})
                    assert answer_to(ws, "s1")["code"] == "unavailable"
                # New sockets, the game's and the site's, are told to try again.
                for opening in (lambda: red.socket(game_id), lambda: site_socket(blue)):
                    with pytest.raises(ConnectionClosed) as closed, opening() as socket:
                        socket.recv(timeout=10)
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            finally:
                postgres.start()

            # Back: the refused move is played when sent again, on the sockets that stayed.
            deadline = time.monotonic() + 30
            played(DEN_GAME[2], lambda: red.socket(game_id), deadline, red_ws)
            blue_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[2])
            assert moves_of(blue, game_id) == DEN_GAME[:3]
            with site_socket(blue) as site:
                assert '"hello"' in site.recv(timeout=10)
            red_ws.close()
            blue_ws.close()

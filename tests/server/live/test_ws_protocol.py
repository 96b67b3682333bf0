"""Bad input never breaks a game: every bad message gets a clear error and changes nothing."""

from __future__ import annotations

import json

import pytest
from tests.support.live import LiveServer, move, start_online
from websockets.exceptions import ConnectionClosed, InvalidStatus


@pytest.fixture
def game(server: LiveServer):  # type: ignore[no-untyped-def]
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    move(red_ws, "a3a4")
    blue_ws.wait_for("move_made")
    return game_id, red, blue, red_ws, blue_ws


def _version(server: LiveServer, game_id: str) -> int:
    return server.player().get(f"/api/games/{game_id}").json()["version"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json at all", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('{"type": "teleport"}', "bad_message"),
        ('{"type": "tick"}', "bad_message"),  # server-only commands are not messages
        ('{"type": "disconnected", "color": 0}', "bad_message"),
        ('{"type": "move"}', "bad_message"),
        ('{"type": "move", "move": 4}', "bad_message"),
        ('{"type": "move", "move": "a7a6", "actor": {"kind": "account", "id": 1}}', "bad_message"),
        ('{"type": "move", "move": "a7a6", "color": 7}', "bad_message"),
        ('{"type": "move", "move": "a7a6a7a6a7a6a7a6a7"}', "bad_message"),
        ('{"type": "resign", "version": -1}', "bad_message"),
        ("x" * 5000, "too_large"),
    ],
)
def test_malformed_messages_get_an_error(server: LiveServer, game, raw: str, code: str) -> None:  # type: ignore[no-untyped-def]
    game_id, _, _, _, blue_ws = game
    before = _version(server, game_id)
    blue_ws.send(raw)
    error = blue_ws.wait_for("error")
    assert error["code"] == code and error["reason"] and error["version"] == before
    assert _version(server, game_id) == before
    move(blue_ws, "a7a6")  # the game goes on


def test_illegal_and_out_of_turn_moves_are_rejected(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, _, _, red_ws, blue_ws = game
    before = _version(server, game_id)
    blue_ws.send({"type": "move", "move": "a7a4", "id": "m1"})  # a rat cannot fly
    rejected = blue_ws.wait_for("rejected")
    assert (rejected["code"], rejected["id"], rejected["command"]) == ("illegal_move", "m1", "move")
    blue_ws.send({"type": "move", "move": "zz99"})
    assert blue_ws.wait_for("rejected")["code"] == "invalid_move"
    red_ws.send({"type": "move", "move": "a4a5"})  # Blue's turn
    assert red_ws.wait_for("rejected")["code"] == "not_your_turn"
    red_ws.send({"type": "move", "move": "a7a6", "color": 1})  # the other player's seat
    assert red_ws.wait_for("rejected")["code"] == "not_your_seat"
    assert _version(server, game_id) == before
    assert not [m for m in red_ws.drain() if m["type"] == "move_made"]


def test_spectators_cannot_play(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, _, _, _, blue_ws = game
    watcher = server.player().guest()
    with watcher.socket(game_id) as ws:
        state = ws.wait_for("state")
        assert state["you"]["seats"] == [] and state["game"]["ply"] == 1
        ws.send({"type": "move", "move": "a7a6"})
        assert ws.wait_for("rejected")["code"] == "not_a_player"
        ws.send({"type": "resign"})
        assert ws.wait_for("rejected")["code"] == "not_a_player"
        move(blue_ws, "a7a6")
        assert ws.wait_for("move_made")["move"] == "a7a6"  # but they watch live
    anonymous = server.player()
    anonymous.cookies["dsq_session"] = "forged-session-token"
    with anonymous.socket(game_id) as ws:
        ws.wait_for("state")
        ws.send({"type": "resign"})
        assert ws.wait_for("error")["code"] == "not_signed_in"


def test_replayed_command_is_refused(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, _, _, red_ws, blue_ws = game
    version = _version(server, game_id)
    message = {"type": "move", "move": "a7a6", "version": version}
    blue_ws.send(message)
    blue_ws.wait_for("move_made")
    move(red_ws, "a4a5")
    blue_ws.send(message)  # the same request again, later
    assert blue_ws.wait_for("rejected")["code"] == "stale_version"


def test_rest_commands_share_the_checks(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, red, blue, _, _ = game
    response = red.post(f"/api/games/{game_id}/commands", json={"type": "move", "move": "a4a5"})
    assert response.status_code == 400
    assert response.json()["events"][0]["code"] == "not_your_turn"
    response = blue.post(f"/api/games/{game_id}/commands", json={"type": "move", "move": "a7a6"})
    assert response.status_code == 200
    assert response.json()["events"][0]["type"] == "move_made"
    response = blue.post(f"/api/games/{game_id}/commands", content=b"\xff\xfe")
    assert response.status_code == 400 and response.json()["events"][0]["code"] == "bad_json"
    response = blue.post("/api/auth/login", content=b"\xff\xfe")
    assert response.status_code == 422


def test_oversized_frame_closes_only_that_connection(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, _, blue, red_ws, blue_ws = game
    spare = blue.socket(game_id)
    spare.wait_for("state")
    spare.send("x" * 200_000)
    with pytest.raises(ConnectionClosed):
        spare.wait_for("never")
    move(blue_ws, "a7a6")
    red_ws.wait_for("move_made", lambda m: m["move"] == "a7a6")


def test_reconnect_receives_what_was_missed(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, red, _, red_ws, blue_ws = game
    last = red_ws.version
    red_ws.close()
    move(blue_ws, "a7a6")
    with red.socket(game_id, since=last) as again:
        missed = again.drain()
        types = [m["type"] for m in missed]
        assert "state" not in types and "move_made" in types
        versions = [m["version"] for m in missed]
        assert versions == sorted(versions) and versions[0] == last + 1
        again.send({"type": "sync", "version": 0})
        assert any(m["type"] == "move_made" for m in again.drain())
        again.send({"type": "sync", "version": 10_000})  # unknown: a full state instead
        assert again.wait_for("state")["game"]["ply"] == 2
        again.send({"type": "ping", "id": "p"})
        assert again.wait_for("pong")["id"] == "p"


def test_unknown_game_and_cross_origin_are_refused(server: LiveServer, game) -> None:  # type: ignore[no-untyped-def]
    game_id, red, _, _, _ = game
    with pytest.raises((InvalidStatus, ConnectionClosed)):
        red.socket("nosuchgame").wait_for("state")
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
    with (
        pytest.raises((InvalidStatus, ConnectionClosed)),
        connect(url, origin="http://evil.example") as ws,  # type: ignore[arg-type]
    ):
        json.loads(ws.recv(timeout=5))


def test_message_flood_is_rate_limited(tmp_path, clock) -> None:  # type: ignore[no-untyped-def]
    from tests.support.live import make_settings, running

    from doushouqi.server.infra.settings import RateLimit

    with running(make_settings(tmp_path, message_rate=RateLimit(5, 60.0)), clock) as live:
        red, blue = live.player().guest(), live.player().guest()
        _, red_ws, _ = start_online(live, red, blue)
        for n in range(8):
            red_ws.send({"type": "ping", "id": f"p{n}"})
        replies = red_ws.drain()
        assert [m["type"] for m in replies].count("pong") == 5
        limited = [m["id"] for m in replies if m.get("code") == "rate_limited"]
        assert limited and set(limited) <= {f"p{n}" for n in range(5, 8)}  # each named

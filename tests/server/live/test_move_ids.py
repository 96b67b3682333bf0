"""Move ids over the wire: a client that lost a move's answer (its connection dropped) sends the
move again under the same id; the server plays it once and answers the resend as it answered
the first time — over the websocket, after a reconnect, and over REST."""

from __future__ import annotations

import pytest
from tests.support.live import GameSocket, LiveServer, Player, answer_to, move, start_online


@pytest.fixture
def game(server: LiveServer) -> tuple[str, Player, Player, GameSocket, GameSocket]:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    return game_id, red, blue, red_ws, blue_ws


def _moves(server: LiveServer, game_id: str) -> list[str]:
    state = server.player().get(f"/api/games/{game_id}").json()["game"]
    return [m[0] for m in state["moves"]]


def test_a_move_sent_again_after_a_reconnect_is_played_once(
    server: LiveServer, game: tuple[str, Player, Player, GameSocket, GameSocket]
) -> None:
    game_id, red, _, red_ws, blue_ws = game
    seen = server.player().get(f"/api/games/{game_id}").json()["version"]
    message = {"type": "move", "move": "a3a4", "id": "m-a3a4", "version": seen}
    red_ws.send(message)
    made = red_ws.wait_for("move_made")
    assert made["move_id"] == "m-a3a4"
    assert answer_to(red_ws, "m-a3a4").get("duplicate") is None
    version = made["version"]
    red_ws.close()  # the answer counts as lost: the client reconnects and sends it again
    with red.socket(game_id, since=version - 1) as again:
        assert again.wait_for("move_made")["move"] == "a3a4"  # what it missed
        again.send(message)
        answer = answer_to(again, "m-a3a4")
        assert (answer["type"], answer["duplicate"]) == ("ack", True)
        move(blue_ws, "a7a6")
        again.send(message)  # and again, later: still the same answer
        assert answer_to(again, "m-a3a4")["duplicate"] is True
    assert _moves(server, game_id) == ["a3a4", "a7a6"]


def test_a_refused_move_sent_again_gets_the_same_answer(
    server: LiveServer, game: tuple[str, Player, Player, GameSocket, GameSocket]
) -> None:
    game_id, _, _, red_ws, blue_ws = game
    blue_ws.send({"type": "move", "move": "a7a6", "id": "early"})  # Red's turn
    assert answer_to(blue_ws, "early")["code"] == "not_your_turn"
    move(red_ws, "a3a4")
    blue_ws.send({"type": "move", "move": "a7a6", "id": "early"})
    assert answer_to(blue_ws, "early")["code"] == "not_your_turn"  # not played later on
    blue_ws.send({"type": "move", "move": "a7a6", "id": "next"})
    assert answer_to(blue_ws, "next")["type"] == "ack"
    red_ws.send({"type": "move", "move": "a4a5", "id": "next"})  # another move, the same id
    assert answer_to(red_ws, "next")["code"] == "move_id_used"
    assert _moves(server, game_id) == ["a3a4", "a7a6"]


def test_rest_answers_a_resent_move_as_applied(
    server: LiveServer, game: tuple[str, Player, Player, GameSocket, GameSocket]
) -> None:
    game_id, red, _, _, _ = game
    body = {"type": "move", "move": "a3a4", "id": "rest-1"}
    first = red.post(f"/api/games/{game_id}/commands", json=body)
    assert first.status_code == 200 and first.json()["events"][0]["type"] == "move_made"
    again = red.post(f"/api/games/{game_id}/commands", json=body)
    assert again.status_code == 200, again.text
    answer = again.json()["events"][0]
    assert (answer["type"], answer["id"], answer["duplicate"]) == ("ack", "rest-1", True)
    assert _moves(server, game_id) == ["a3a4"]

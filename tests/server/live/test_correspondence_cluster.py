"""Correspondence and the opponent-gone draw across nodes (real PostgreSQL and Redis): the
your-turn list and its notification are read on a node that does not own the game, and a
claim_draw sent to another node reaches the owner."""

from __future__ import annotations

import time

from tests.support.cluster_nodes import CLUSTER_MARKS
from tests.support.live import LiveServer, move

pytestmark = CLUSTER_MARKS


def _eventually(check, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_your_turn_is_listed_and_notified_on_another_node(nodes: list[LiveServer]) -> None:
    a, b, _c = nodes
    red, blue = a.player().register("corr_node_red"), b.player().register("corr_node_blue")
    game_id = red.create(mode="online", color="red", time_control="2d")["id"]
    with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})  # on node b, forwarded to the owner
        red_ws.wait_for("game_started")
        assert [g["id"] for g in red.get("/api/games/my-turn").json()["games"]] == [game_id]
        move(red_ws, "a3a4")
        listed = _eventually(lambda: blue.get("/api/games/my-turn").json()["games"])
        assert [g["id"] for g in listed] == [game_id] and listed[0]["correspondence"]
        notes = _eventually(
            lambda: [
                n
                for n in blue.get("/api/notifications").json()["notifications"]
                if n["kind"] == "corr.your_turn"
            ]
        )
        assert notes and notes[0]["params"]["game_id"] == game_id
        assert red.get("/api/games/my-turn").json()["games"] == []


def test_a_draw_claimed_on_another_node(nodes: list[LiveServer]) -> None:
    a, b, _c = nodes
    red, blue = a.player().guest(), b.player().guest()
    game_id = red.create(mode="online", color="red")["id"]
    red_ws = red.socket(game_id)
    with blue.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        blue_ws.wait_for("game_started")
        move(red_ws, "a3a4")
        red_ws.close()  # Red (on the owner) leaves
        blue_ws.wait_for("player_disconnected", lambda m: m["color"] == 0)
        blue_ws.send({"type": "claim_draw", "id": "d"})
        finished = blue_ws.wait_for("game_finished")
        assert (finished["termination"], finished["winner"]) == ("draw_agreed", None)

"""Moderation across nodes (real PostgreSQL and Redis, three nodes as test_chat_cluster.py): a
message removed by a moderator on one node disappears from the sockets of every node, the
owner's included; a ban closes the banned account's sockets on every node and resigns its
games on the nodes that own them."""

from __future__ import annotations

import pytest
from tests.support.cluster_nodes import CLUSTER_MARKS
from tests.support.live import LiveServer
from tests.support.moderation import grant, reported_message
from websockets.exceptions import ConnectionClosed

pytestmark = CLUSTER_MARKS


def test_a_removal_and_a_ban_reach_every_node(
    nodes: list[LiveServer], database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = nodes
    red, blue = a.player().register("red_on_a"), b.player().register("blue_on_b")
    moderator = c.player().register("mod_on_c")
    grant(database, "mod_on_c", "moderator", monkeypatch)
    watcher = c.player().guest()
    game_id = red.create(mode="online", color="red")["id"]  # node a owns it
    with (
        red.socket(game_id) as red_ws,
        blue.socket(game_id) as blue_ws,
        watcher.socket(game_id) as watcher_ws,
    ):
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        blue_ws.send({"type": "chat", "text": "you cheat", "id": "c1"})
        message = red_ws.wait_for("chat")["message"]
        reported_message(red, game_id, message["id"], "abuse")
        # Reported on a, seen in the queue on c, removed from c: the owner (a) removes it.
        queue = moderator.get("/api/mod/reports").json()["reports"]
        assert [r["message"]["id"] for r in queue] == [message["id"]]
        answer = moderator.post(f"/api/mod/messages/{message['id']}/remove")
        assert answer.status_code == 200, answer.text
        for ws in (red_ws, blue_ws, watcher_ws):  # nodes a, b and c
            assert ws.wait_for("chat_removed")["message_id"] == message["id"]
        assert b.player().guest().get(f"/api/games/{game_id}/chat").json()["messages"] == []
        # A ban made on c closes blue's socket on b at once.
        assert (
            moderator.post("/api/mod/accounts/blue_on_b/ban", json={"reason": "abuse"}).status_code
            == 200
        )
        with pytest.raises(ConnectionClosed):
            for _ in range(50):
                blue_ws.recv(timeout=5)
        assert blue.get("/api/auth/me").status_code == 401
        # Its game, owned by a, is resigned for it from c: red on a wins.
        finished = red_ws.wait_for("game_finished")
        assert (finished["winner"], finished["result"]) == (0, "1-0")

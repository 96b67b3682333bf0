"""Chat and spectator counts across nodes: a message sent on a node that does not own the game
is judged, stored and ordered by its owner, and reaches its room's readers on every node only;
spectators on any node are counted once each (real PostgreSQL and Redis, as test_cluster.py)."""

from __future__ import annotations

from typing import Any

from tests.support.cluster_nodes import CLUSTER_MARKS
from tests.support.live import GameSocket, LiveServer

pytestmark = CLUSTER_MARKS


def said(ws: GameSocket) -> list[str | None]:
    return [m["message"]["text"] for m in ws.drain(0.5) if m["type"] == "chat"]


def test_chat_reaches_its_room_on_every_node(nodes: list[LiveServer]) -> None:
    a, b, c = nodes
    red, blue = a.player().guest(), b.player().guest()
    near, far = b.player().guest(), c.player().guest()
    game_id = red.create(mode="online", color="red")["id"]  # node a owns it
    with (
        red.socket(game_id) as red_ws,
        blue.socket(game_id) as blue_ws,
        near.socket(game_id) as near_ws,
        far.socket(game_id) as far_ws,
    ):
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        # Blue's message goes from b to the owner a, which stores it and tells the players.
        blue_ws.send({"type": "chat", "text": "hello from b", "id": "c1"})
        assert blue_ws.wait_for("ack")["id"] == "c1"
        assert red_ws.wait_for("chat")["message"]["text"] == "hello from b"
        heard = [m for m in blue_ws.seen if m["type"] == "chat"] or [blue_ws.wait_for("chat")]
        assert heard[0]["message"]["room"] == "players"  # the sender hears it too, on b
        # A spectator on c writes to the spectators' room: the spectator on b hears it.
        far_ws.send({"type": "chat", "text": "blue looks strong"})
        assert near_ws.wait_for("chat")["message"]["text"] == "blue looks strong"
        far_ws.wait_for("chat")
        assert "blue looks strong" not in said(red_ws) + said(blue_ws)
        assert "hello from b" not in said(near_ws) + said(far_ws)
        # Refusals come back from the owner to the sender's node.
        near_ws.send({"type": "chat", "text": "", "id": "e"})
        assert near_ws.wait_for("rejected")["code"] == "chat.empty"
        # Two spectators on two other nodes: the owner counts both; every node lists them.
        red_ws.drain()
        assert [m["count"] for m in red_ws.seen if m["type"] == "spectators"][-1] == 2
        listed: Any = b.player().get("/api/games/live").json()["games"]
        assert [(g["id"], g["spectators"]) for g in listed] == [(game_id, 2)]
    # Stored once, in the owner's order, readable from any node.
    history = c.player().guest().get(f"/api/games/{game_id}/chat").json()
    assert [m["text"] for m in history["messages"]] == ["blue looks strong"]
    with blue.socket(game_id) as again:
        replay = again.wait_for("chat_history")
        assert [m["text"] for m in replay["messages"]] == ["hello from b"]

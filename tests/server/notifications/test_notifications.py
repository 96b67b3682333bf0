"""Notifications: stored for the bell, pushed at once to the player's open site sockets."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.live import LiveServer, ManualTime
from tests.support.postgres import find_bindir
from tests.support.redis_server import redis_server_path
from tests.support.site_helpers import in_server, same_browser, site_socket

from doushouqi.server.notifications.service import notify, push
from doushouqi.server.pairing.service import forget_old

needs_cluster = pytest.mark.skipif(
    redis_server_path() is None or find_bindir() is None,
    reason="needs redis-server and PostgreSQL",
)


def _notify(key: str, kind: str, params: dict[str, Any], link: str | None = None) -> Any:
    return lambda ctx: notify(ctx, key, kind, params, link=link)


def test_a_notification_reaches_every_open_tab_and_stays_in_the_list(server: LiveServer) -> None:
    alice = server.player().register("alice")
    key = f"account:{alice.me['id']}"
    with site_socket(alice) as tab1, site_socket(alice) as tab2:
        assert tab1.wait_for("hello")["unread"] == 0
        tab2.wait_for("hello")
        in_server(server, _notify(key, "challenge.received", {"from": "Bob"}, "#/challenges"))
        for tab in (tab1, tab2):
            pushed = tab.wait_for("notification")
            assert pushed["unread"] == 1
            assert pushed["notification"]["kind"] == "challenge.received"
            assert pushed["notification"]["params"] == {"from": "Bob"}
            assert pushed["notification"]["link"] == "#/challenges"
        listed = alice.get("/api/notifications").json()
        assert listed["unread"] == 1
        assert [n["kind"] for n in listed["notifications"]] == ["challenge.received"]
        # Marking read tells the other tabs the new count.
        answer = alice.post("/api/notifications/read", json={})
        assert answer.json() == {"unread": 0}
        assert tab2.wait_for("unread")["unread"] == 0
    assert alice.get("/api/notifications").json()["notifications"][0]["read_at"] is not None


def test_another_players_notification_is_not_delivered(server: LiveServer) -> None:
    alice = server.player().register("alice")
    bob = server.player().guest()
    with site_socket(alice) as ws:
        ws.wait_for("hello")
        bob_key = f"guest:{bob.me['id']}"
        in_server(server, _notify(bob_key, "challenge.accepted", {"by": "x"}))
        in_server(server, lambda ctx: _push(ctx, bob_key))
        assert [m["type"] for m in ws.drain()] == []
    assert bob.get("/api/notifications").json()["unread"] == 1
    assert alice.get("/api/notifications").json()["notifications"] == []


async def _push(ctx: Any, key: str) -> None:
    push(ctx, key, {"type": "paired", "game_id": "abc"})


def test_marking_some_read_leaves_the_others(server: LiveServer) -> None:
    alice = server.player().register("alice")
    key = f"account:{alice.me['id']}"
    for n in range(3):
        in_server(server, _notify(key, "corr.your_turn", {"opponent": str(n)}))
    ids = [n["id"] for n in alice.get("/api/notifications").json()["notifications"]]
    assert alice.post("/api/notifications/read", json={"ids": ids[:1]}).json() == {"unread": 2}


def test_the_site_socket_needs_a_player_and_answers_bad_messages(server: LiveServer) -> None:
    visitor = server.player()
    assert visitor.get("/api/notifications").status_code == 401
    guest = server.player().guest()
    with site_socket(guest) as ws:
        ws.wait_for("hello")
        ws.send("{not json")
        assert ws.wait_for("error")["code"] == "bad_json"
        ws.send({"type": "launch"})
        assert ws.wait_for("error")["code"] == "bad_message"
        ws.send({"type": "ping"})
        ws.wait_for("pong")
    bad = guest.post("/api/notifications/read", json={"ids": "all"})
    assert bad.status_code == 422


@needs_cluster
def test_a_notification_made_on_one_node_reaches_a_tab_on_another(
    nodes: list[LiveServer],
) -> None:
    a, b, _ = nodes
    alice = a.player().register("alice")
    alice_on_b = same_browser(alice, b)
    with site_socket(alice_on_b) as ws:
        ws.wait_for("hello")
        key = f"account:{alice.me['id']}"
        in_server(a, _notify(key, "tournament.starting", {"name": "Spring"}, "#/t/1"))
        pushed = ws.wait_for("notification")
        assert pushed["notification"]["params"] == {"name": "Spring"}
        in_server(a, lambda ctx: _push(ctx, key))
        assert ws.wait_for("paired")["game_id"] == "abc"
    assert alice_on_b.get("/api/notifications").json()["unread"] == 1


def test_old_notifications_are_forgotten(server: LiveServer, clock: ManualTime) -> None:
    alice = server.player().guest()  # a guest's cookie lasts a year
    key = f"guest:{alice.me['id']}"
    in_server(server, _notify(key, "corr.your_turn", {"opponent": "old"}))
    clock.advance(80 * 86400)
    in_server(server, _notify(key, "corr.your_turn", {"opponent": "new"}))
    clock.advance(11 * 86400)
    in_server(server, forget_old)
    kept = alice.get("/api/notifications").json()["notifications"]
    assert [n["params"]["opponent"] for n in kept] == ["new"]

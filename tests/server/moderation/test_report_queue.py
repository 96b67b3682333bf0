"""The report queue: a reported message in its room's context, who reported it and why;
removing it (gone at once from every socket that shows it, and from the history) or dismissing
the reports; a player cannot remove messages, not even over the game's socket."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.live import GameSocket, LiveServer, Player, start_online
from tests.support.moderation import reported_message, staff_member


def say(ws: GameSocket, text: str) -> int:
    ws.send({"type": "chat", "text": text})
    heard = ws.wait_for("chat", lambda m: m["message"]["text"] == text)
    return int(heard["message"]["id"])


@pytest.fixture
def chatting(server: LiveServer) -> Any:
    red, blue = server.player().register("red_player"), server.player().register("blue_player")
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    yield game_id, red, red_ws, blue, blue_ws
    red_ws.close()
    blue_ws.close()


def test_a_reported_message_is_queued_in_context_and_removed_for_everyone(
    server: LiveServer, chatting: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, red, red_ws, blue, blue_ws = chatting
    first = say(red_ws, "good luck")
    rude = say(blue_ws, "you play like a potato")
    last = say(red_ws, "that was rude")
    reported_message(red, game_id, rude, "abuse")
    moderator = staff_member(server, "watchful", "moderator", monkeypatch)
    queue = moderator.get("/api/mod/reports").json()["reports"]
    assert len(queue) == 1
    item = queue[0]
    assert item["message"]["text"] == "you play like a potato" and item["game_id"] == game_id
    assert item["author"]["username"] == "blue_player"
    assert [(r["by"]["username"], r["reason"]) for r in item["reports"]] == [
        ("red_player", "abuse")
    ]
    assert [m["id"] for m in item["context"]] == [first, rude, last]

    with server.player().guest().socket(game_id) as spectator_ws:
        spectator_ws.wait_for("chat_history")
        answer = moderator.post(f"/api/mod/messages/{rude}/remove", json={"reason": "insult"})
        assert answer.status_code == 200, answer.text
        # Pushed at once to every socket of the game, in either room.
        for ws in (red_ws, blue_ws, spectator_ws):
            assert ws.wait_for("chat_removed")["message_id"] == rude
    history = red.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert [m["text"] for m in history] == ["good luck", "that was rude"]
    with blue.socket(game_id) as again:
        assert [m["id"] for m in again.wait_for("chat_history")["messages"]] == [first, last]
    assert moderator.get("/api/mod/reports").json()["reports"] == []
    # A removed message cannot be reported again.
    gone = red.post(f"/api/games/{game_id}/chat/{rude}/report", json={"reason": "spam"})
    assert gone.status_code == 404
    entry = moderator.get("/api/mod/log").json()["entries"][0]
    assert entry["action"] == "remove_message" and entry["reason"] == "insult"
    assert entry["moderator"] == "watchful"
    assert entry["target"]["name"] == blue.me["name"]
    assert entry["details"]["text"] == "you play like a potato"


def test_dismissed_reports_leave_the_message_alone(
    server: LiveServer, chatting: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, red, _, _, blue_ws = chatting
    fine = say(blue_ws, "nice move")
    reported_message(red, game_id, fine, "spam")
    watcher = server.player().guest()
    moderator = staff_member(server, "calm_mod", "moderator", monkeypatch)
    assert len(moderator.get("/api/mod/reports").json()["reports"]) == 1
    assert moderator.post(f"/api/mod/reports/{fine}/dismiss", json={}).json()["dismissed"] == 1
    assert moderator.get("/api/mod/reports").json()["reports"] == []
    assert [m["text"] for m in red.get(f"/api/games/{game_id}/chat").json()["messages"]] == [
        "nice move"
    ]
    assert moderator.post("/api/mod/reports/999999/dismiss").status_code == 404
    assert moderator.post("/api/mod/messages/999999/remove").status_code == 404
    assert watcher.post("/api/mod/reports/1/dismiss").status_code == 403
    entry = moderator.get("/api/mod/log").json()["entries"][0]
    assert (entry["action"], entry["details"]["message_id"]) == ("dismiss", fine)


def test_a_player_cannot_remove_a_message_over_the_socket(chatting: Any) -> None:
    game_id, _, red_ws, blue, blue_ws = chatting
    theirs = say(blue_ws, "mine to keep")
    red_ws.send({"type": "chat_remove", "message_id": theirs, "id": "x"})
    refused = red_ws.wait_for("rejected", lambda m: m.get("id") == "x")
    assert refused["code"] == "mod.forbidden"
    red_ws.send({"type": "chat_remove", "message_id": 0, "id": "y"})
    assert red_ws.wait_for("error", lambda m: m.get("id") == "y")["code"] == "bad_message"
    history = blue.get(f"/api/games/{game_id}/chat").json()["messages"]
    assert [m["id"] for m in history] == [theirs]


def test_a_moderator_removes_a_message_of_a_finished_game(
    server: LiveServer, chatting: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _, red_ws, blue, blue_ws = chatting
    message = say(red_ws, "ggwp loser")
    red_ws.send({"type": "resign"})
    blue_ws.wait_for("game_finished")
    red_ws.close()
    blue_ws.close()
    moderator: Player = staff_member(server, "late_mod", "moderator", monkeypatch)
    assert moderator.post(f"/api/mod/messages/{message}/remove").status_code == 200
    assert blue.get(f"/api/games/{game_id}/chat").json()["messages"] == []

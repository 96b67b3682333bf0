"""Games' chat: two rooms kept apart while the game is on, the rules of a message, limits,
storage and history, quick phrases and reports (see server/chat.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.support.live import (
    GameSocket,
    LiveServer,
    ManualTime,
    Player,
    make_settings,
    running,
    start_online,
)


def chat(ws: GameSocket, **fields: Any) -> None:
    ws.send({"type": "chat", **fields})


def texts(messages: list[dict[str, Any]]) -> list[str | None]:
    return [m["message"]["text"] for m in messages if m["type"] == "chat"]


def refusal(ws: GameSocket, **fields: Any) -> dict[str, Any]:
    chat(ws, id="r", **fields)
    return ws.wait_for("rejected", lambda m: m.get("id") == "r")


def history(ws: GameSocket) -> dict[str, Any]:
    return ws.wait_for("chat_history")


@pytest.fixture
def game(server: LiveServer) -> tuple[str, Player, GameSocket, GameSocket, Player]:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    return game_id, red, red_ws, blue_ws, server.player().guest()


def test_players_and_spectators_do_not_read_each_others_room(game: Any) -> None:
    game_id, _, red_ws, blue_ws, watcher = game
    with watcher.socket(game_id) as watcher_ws:
        assert history(watcher_ws)["rooms"] == ["spectators"]
        chat(red_ws, text="  good luck  ")
        heard = blue_ws.wait_for("chat")["message"]
        assert (heard["room"], heard["text"]) == ("players", "good luck")
        assert heard["author"]["name"] == red_ws.seen[0]["game"]["players"][0]["name"]
        red_ws.wait_for("chat")  # the sender hears its own message like everyone
        chat(watcher_ws, text="red is winning")
        assert watcher_ws.wait_for("chat")["message"]["room"] == "spectators"
        chat(red_ws, text="thanks")
        blue_ws.wait_for("chat", lambda m: m["message"]["text"] == "thanks")
        assert "red is winning" not in texts(red_ws.drain() + blue_ws.drain())
        assert texts(watcher_ws.drain()) == []  # never the players' messages


def test_the_room_is_the_senders_by_identity(game: Any) -> None:
    game_id, _, red_ws, _, watcher = game
    with watcher.socket(game_id) as watcher_ws:
        assert refusal(watcher_ws, room="players", text="hint: a3a4")["code"] == "chat.wrong_room"
        assert refusal(red_ws, room="spectators", text="hello")["params"] == {"room": "players"}


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"text": "   "}, "chat.empty"),
        ({}, "chat.empty"),
        ({"text": "hi", "phrase": "hello"}, "chat.empty"),
        ({"text": "x" * 141}, "chat.too_long"),
        ({"text": "a\x00b"}, "chat.bad_text"),
        ({"text": "line\nbreak"}, "chat.bad_text"),
        ({"text": "\u202eevil"}, "chat.bad_text"),
        ({"text": "bytes\ufffd"}, "chat.bad_text"),
        ({"phrase": "rude_word"}, "chat.unknown_phrase"),
    ],
)
def test_bad_messages_are_refused_with_a_code(game: Any, fields: dict[str, Any], code: str) -> None:
    _, _, red_ws, blue_ws, _ = game
    answer = refusal(red_ws, **fields)
    assert answer["code"] == code and "reason" not in answer
    if code == "chat.too_long":
        assert answer["params"]["max"] == 140
    assert texts(blue_ws.drain()) == []
    # The socket goes on: a good message still goes through.
    chat(red_ws, text="still here")
    assert blue_ws.wait_for("chat")["message"]["text"] == "still here"


def test_length_counts_characters_not_bytes(game: Any) -> None:
    _, _, red_ws, blue_ws, _ = game
    chat(red_ws, text="象" * 70 + "🐘" * 70)  # 140 characters, 490 bytes
    assert len(blue_ws.wait_for("chat")["message"]["text"]) == 140
    assert refusal(red_ws, text="🐘" * 141)["code"] == "chat.too_long"
    chat(red_ws, text="👩‍👩‍👧")  # zero-width joiners hold an emoji family together
    assert blue_ws.wait_for("chat")["message"]["text"] == "👩‍👩‍👧"


def test_a_binary_frame_is_an_error_not_a_message(game: Any) -> None:
    _, _, red_ws, blue_ws, _ = game
    red_ws.ws.send(b"\xff\xfe\x00chat")
    assert red_ws.wait_for("error")["code"] == "bad_json"
    assert texts(blue_ws.drain()) == []


def test_a_sender_is_slowed_down(game: Any, clock: ManualTime) -> None:
    _, _, red_ws, blue_ws, _ = game
    for n in range(5):
        chat(red_ws, text=f"message {n}")
        blue_ws.wait_for("chat", lambda m, n=n: m["message"]["text"] == f"message {n}")
    too_fast = refusal(red_ws, text="message 5")
    assert too_fast["code"] == "chat.too_fast" and 1 <= too_fast["params"]["seconds"] <= 10
    clock.advance(10.5)
    chat(red_ws, text="message 5")
    assert blue_ws.wait_for("chat")["message"]["text"] == "message 5"


def test_the_same_message_again_is_refused(game: Any, clock: ManualTime) -> None:
    _, _, red_ws, blue_ws, _ = game
    chat(red_ws, text="hurry up")
    blue_ws.wait_for("chat")
    assert refusal(red_ws, text="hurry up")["code"] == "chat.repeated"
    chat(red_ws, phrase="thanks")
    blue_ws.wait_for("chat")
    assert refusal(red_ws, phrase="thanks")["code"] == "chat.repeated"
    clock.advance(31)
    chat(red_ws, text="hurry up")
    assert blue_ws.wait_for("chat")["message"]["text"] == "hurry up"


def test_a_phrase_goes_as_its_code(game: Any) -> None:
    _, _, red_ws, blue_ws, _ = game
    chat(red_ws, phrase="good_game", id="p")
    assert red_ws.wait_for("ack")["id"] == "p"
    heard = blue_ws.wait_for("chat")["message"]
    assert (heard["phrase"], heard["text"]) == ("good_game", None)


def test_a_spectator_without_a_session_cannot_chat(game: Any, server: LiveServer) -> None:
    game_id = game[0]
    with server.player().socket(game_id) as anonymous:
        assert refusal(anonymous, text="hello")["code"] == "chat.not_signed_in"


def test_messages_are_stored_and_replayed_on_reconnect(game: Any, server: LiveServer) -> None:
    game_id, red, red_ws, blue_ws, watcher = game
    chat(red_ws, text="first")
    blue_ws.wait_for("chat")
    chat(blue_ws, phrase="hello")
    red_ws.wait_for("chat", lambda m: m["message"]["phrase"] == "hello")
    with watcher.socket(game_id) as watcher_ws:
        assert history(watcher_ws)["messages"] == []
        chat(watcher_ws, text="watching")
        watcher_ws.wait_for("chat")
    with red.socket(game_id, since=red_ws.version) as again:
        replay = history(again)
        assert replay["rooms"] == ["players"]
        assert [(m["text"], m["phrase"]) for m in replay["messages"]] == [
            ("first", None),
            (None, "hello"),
        ]
        ids = [m["id"] for m in replay["messages"]]
        assert ids == sorted(ids)
    # The REST view is the same; once the game is over, both rooms are open to all.
    assert [m["text"] for m in red.get(f"/api/games/{game_id}/chat").json()["messages"]] == [
        "first",
        None,
    ]
    blue_ws.send({"type": "resign"})
    red_ws.wait_for("game_finished")
    with watcher.socket(game_id) as watcher_ws:
        after = history(watcher_ws)
        assert after["rooms"] == ["players", "spectators"]
        assert [m["room"] for m in after["messages"]] == ["players", "players", "spectators"]
        chat(red_ws, text="gg all")
        assert watcher_ws.wait_for("chat")["message"]["text"] == "gg all"


def test_history_of_a_game_that_does_not_exist(server: LiveServer) -> None:
    player = server.player().guest()
    for url in ("/api/games/nosuchgame/chat", "/api/games/bad%20id!/chat"):
        answer = player.get(url)
        assert (answer.status_code, answer.json()["code"]) == (404, "game.not_found")


def test_a_reader_reports_a_message_once(game: Any, server: LiveServer) -> None:
    game_id, red, red_ws, blue_ws, watcher = game
    chat(blue_ws, text="you will lose")
    message = red_ws.wait_for("chat")["message"]
    url = f"/api/games/{game_id}/chat/{message['id']}/report"
    first = red.post(url, json={"reason": "abuse"})
    assert first.status_code == 200 and first.json()["new"] is True
    again = red.post(url, json={"reason": "spam"})
    assert again.status_code == 200 and again.json()["new"] is False
    # A spectator cannot report what it cannot read; unknown ids and reasons are refused.
    assert watcher.post(url, json={"reason": "spam"}).status_code == 404
    gone = red.post(f"/api/games/{game_id}/chat/999999/report")
    assert (gone.status_code, gone.json()["code"]) == (404, "chat.message_not_found")
    assert red.post(url, json={"reason": "<script>"}).status_code == 422
    assert server.player().post(url).status_code == 401


def test_chat_over_rest(game: Any) -> None:
    game_id, red, _, blue_ws, _ = game
    sent = red.post(f"/api/games/{game_id}/commands", json={"type": "chat", "text": "via REST"})
    assert sent.status_code == 200, sent.text
    assert sent.json()["events"][0]["message"]["text"] == "via REST"
    assert blue_ws.wait_for("chat")["message"]["text"] == "via REST"
    refused = red.post(f"/api/games/{game_id}/commands", json={"type": "chat", "text": ""})
    assert refused.status_code == 400 and refused.json()["events"][0]["code"] == "chat.empty"


def test_the_chat_survives_a_restart(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, blue_ws = start_online(first, red, blue)
        chat(red_ws, text="before the restart")
        blue_ws.wait_for("chat")
        red_ws.close()
        blue_ws.close()
    with running(settings, clock) as second:
        red.server = second
        red.http = second.player().http
        with red.socket(game_id) as again:
            replay = history(again)
            assert [m["text"] for m in replay["messages"]] == ["before the restart"]

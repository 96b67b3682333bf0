"""The bot API: an external engine plays with an account token over NDJSON streams."""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

import httpx
from tests.support.live import LiveServer, Player, move


class Stream:
    """An NDJSON stream read by a thread into a queue."""

    def __init__(self, player: Player, path: str) -> None:
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        #: Set when the server has ended the stream (or the test closed it).
        self.ended = threading.Event()
        self.client = httpx.Client(base_url=player.server.url, timeout=None)
        self.response = self.client.send(
            self.client.build_request("GET", path, headers=player.headers()), stream=True
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                if line.strip():
                    self.lines.put(json.loads(line))
        except httpx.HTTPError:
            pass  # closed by the test
        finally:
            self.ended.set()

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            item = self.lines.get(timeout=10)
            if item["type"] == kind:
                return item

    def close(self) -> None:
        self.response.close()
        self.client.close()


def test_bot_plays_a_game(server: LiveServer) -> None:
    owner = server.player().register("jungle_bot", bot=True)
    bot = server.player()
    bot.token = owner.api_token("bot:play")
    events = Stream(bot, "/api/bot/stream/event")

    human = server.player().register("human_vs_bot")
    game_id = human.create(mode="online", color="red")["id"]
    joined = bot.post(f"/api/bot/game/{game_id}/join")
    assert joined.status_code == 200, joined.text
    assert events.next("player_joined")["game_id"] == game_id

    stream = Stream(bot, f"/api/bot/game/stream/{game_id}")
    state = stream.next("state")
    assert state["you"]["seats"] == [1]
    with human.socket(game_id) as ws:
        ws.wait_for("game_started")
        stream.next("game_started")
        move(ws, "a3a4")
        stream.next("move_made")
        early = bot.post(f"/api/bot/game/{game_id}/move/a4a5")
        assert early.status_code == 400 and early.json()["code"] == "illegal_move"
        played = bot.post(f"/api/bot/game/{game_id}/move/a7a6")
        assert played.status_code == 200 and played.json()["ok"]
        assert ws.wait_for("move_made")["move"] == "a7a6"
        fly = bot.post(f"/api/bot/game/{game_id}/fly")
        assert (fly.status_code, fly.json()["code"]) == (404, "bot.unknown_action")
        gone = bot.post("/api/bot/game/nosuchgame/resign")
        assert (gone.status_code, gone.json()["code"]) == (404, "game.not_found")
        assert bot.post(f"/api/bot/game/{game_id}/resign").status_code == 200
        assert ws.wait_for("game_finished")["winner"] == 0
    assert stream.next("game_finished")["termination"] == "resignation"
    anonymous = server.player().post(f"/api/bot/game/{game_id}/resign")
    assert anonymous.status_code == 401
    stream.close()
    events.close()

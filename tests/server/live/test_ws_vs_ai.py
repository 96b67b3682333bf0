"""Games against the AI: the server plays its moves by itself, off the event loop."""

from __future__ import annotations

import time
from pathlib import Path

from tests.support.live import LiveServer, ManualTime, make_settings, move, running

from doushouqi.server.ai.pool import ProcessPoolAi


def test_ai_replies_takeback_and_rematch(server: LiveServer) -> None:
    human = server.player().register("human")
    game = human.create(mode="vs_ai", ai_level=4, color="red")
    assert [p["identity"]["kind"] for p in game["game"]["players"]] == ["account", "ai"]
    with human.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        move(ws, "a3a4")
        reply = ws.wait_for("move_made", lambda m: m["color"] == 1)
        ws.send({"type": "takeback"})
        taken = ws.wait_for("takeback_applied")
        assert taken["removed"] == ["a3a4", reply["move"]] and taken["to_move"] == 0
        ws.send({"type": "resign"})
        assert ws.wait_for("game_finished")["winner"] == 1
        ws.send({"type": "rematch"})
        ready = ws.wait_for("rematch_ready")
    rematch_id = ready["new_game_id"]
    state = human.get(f"/api/games/{game['id']}").json()
    assert state["game"]["rematch_id"] == rematch_id
    with human.socket(rematch_id) as ws:
        started = ws.wait_for("game_started")
        assert started["players"][0]["identity"]["kind"] == "ai"  # colours swapped
        assert ws.wait_for("move_made")["color"] == 0  # the AI, now Red, opens
    profile = human.get("/api/players/human").json()
    assert profile["stats"]["losses"] == 1 and profile["score"] == 0  # too short to score


def test_real_engine_in_a_worker_process(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path, ai_movetime=0.4)
    engine = ProcessPoolAi(1)
    with running(settings, clock, engine) as live:
        human = live.player().guest()
        game = human.create(mode="vs_ai", ai_level=6, color="red")
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            move(ws, "a3a4")
            # While the engine thinks, the event loop still answers at once.
            latencies = []
            for _ in range(5):
                sent = time.perf_counter()
                ws.send({"type": "ping"})
                ws.wait_for("pong", timeout=30)
                latencies.append(time.perf_counter() - sent)
            reply = ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=60)
            assert len(reply["move"]) == 4
            assert max(latencies) < 0.5

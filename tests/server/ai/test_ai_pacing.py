"""The computer's reply is paced: even a level that answers in milliseconds waits a short,
random, natural moment after the player's move (``ai_reply_pace``), so that its piece does not
slide at the same moment as the player's; never longer than its clock allows. Real time
(the system clock), the random AI (which answers at once)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.support.live import GameSocket, make_settings, move, running


def reply_after(ws: GameSocket, text: str) -> float:
    sent = time.monotonic()
    move(ws, text)
    ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=30)
    return time.monotonic() - sent


def test_a_quick_reply_waits_a_natural_moment(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, ai_reply_pace=(0.4, 0.6))) as server:
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=1, color="red")
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            waits = [reply_after(ws, "a3a4"), reply_after(ws, "a4a5")]
    assert all(0.4 <= wait < 2.0 for wait in waits), waits


def test_the_pause_never_exceeds_what_the_clock_allows(tmp_path: Path) -> None:
    # 1 s a move: the AI may think 0.4 s of it (40 %), and so it pauses no longer.
    settings = make_settings(tmp_path, ai_reply_pace=(5.0, 5.0))
    with running(settings) as server:
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=1, color="red", time_control="5+0/1s")
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            wait = reply_after(ws, "a3a4")
    assert 0.3 <= wait < 1.0, wait


def test_tests_answer_at_once(tmp_path: Path) -> None:
    with running(make_settings(tmp_path)) as server:
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=1, color="red")
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            assert reply_after(ws, "a3a4") < 0.4

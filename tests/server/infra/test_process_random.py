"""The server never draws from the process-wide random generator: that one belongs to whoever
hosts the server (a test run, a tool), and a draw from the server's thread in the middle of
theirs changes what they get (Hypothesis warns of exactly that: "do not use the random module
inside strategies", raised for a strategy that never did)."""

from __future__ import annotations

import random
from pathlib import Path

from tests.support.live import make_settings, running


def test_a_colour_chosen_at_random_leaves_the_process_generator_alone(tmp_path: Path) -> None:
    with running(make_settings(tmp_path)) as live:
        player = live.player().guest()
        random.seed(31)
        before = random.getstate()
        for _ in range(8):
            response = player.post("/api/games", json={"mode": "online", "color": "random"})
            assert response.status_code == 201, response.text
        assert random.getstate() == before

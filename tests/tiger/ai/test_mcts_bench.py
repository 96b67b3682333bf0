"""bench/tiger_vs_mcts.py, the engine against OpenSpiel's MCTS: games are played to their
end or the ply limit from openings, each side's time is recorded, the MCTS's simulations
follow its measured speed, and a run resumes from its file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from bench import tiger_vs_mcts


def test_a_short_match_is_recorded_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mcts.jsonl"
    args = ["--games", "2", "--movetime", "0.02", "--max-plies", "8", "--out", str(out)]
    assert tiger_vs_mcts.main(args) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["game"], r["engine_is_tiger"]) for r in rows] == [(0, True), (1, False)]
    for row in rows:
        assert row["plies"] <= 8 and row["result"] in ("1-0", "0-1", "1/2-1/2")
        assert row["mcts_simulations"] >= 1 and row["engine_seconds"] > 0
    assert "engine W/D/L" in capsys.readouterr().out
    assert tiger_vs_mcts.main(args) == 0  # resumed: nothing left to play
    assert len(out.read_text().splitlines()) == 2
    assert "2 of 2 games already played" in capsys.readouterr().out


def test_the_summary_counts_each_side_from_the_engines_view() -> None:
    rows = [
        {"result": "1-0", "engine_is_tiger": True, "engine_seconds": 0.1, "mcts_seconds": 1.0,
         "mcts_simulations": 500},
        {"result": "1-0", "engine_is_tiger": False, "engine_seconds": 0.1, "mcts_seconds": 1.0,
         "mcts_simulations": 500},
    ]  # fmt: skip
    text = tiger_vs_mcts.summary(rows)
    assert "engine W/D/L 1/0/1" in text and "as the tiger W/D/L 1/0/0" in text
    assert "as the men W/D/L 0/0/1" in text

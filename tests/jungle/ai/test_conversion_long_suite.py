"""The long-game conversion suite (``tests/jungle/ai/data/conversion_long.epd``, issue 31):
10–16-animal positions from long games, the side to move well ahead, built by
``tools/conversion/build_long_suite.py`` and played by ``bench/conversion.py --suite``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from load_tool import load_tool

from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import find_rules

SUITE = Path(__file__).with_name("data") / "conversion_long.epd"
long_suite = load_tool("conversion", "build_long_suite")


def test_the_suite_holds_won_long_game_positions_of_10_to_16_animals() -> None:
    entries = long_suite.builder.read_suite(SUITE)
    assert len(entries) >= 100
    seen = set()
    colours = set()
    for entry in entries:
        board = Board(entry["fen"], rules=find_rules(entry["rules"]))
        assert not board.is_game_over(), entry["fen"]
        count = sum(1 for code in board.piece_codes() if code)
        assert 10 <= count <= 16 and entry["animals"] == count, entry
        assert entry["ply"] >= 60, entry
        score = entry["score"]
        assert score.startswith("D") or int(score) >= 600, entry
        key = " ".join(entry["fen"].split()[:2])
        assert key not in seen, f"duplicate {key}"
        seen.add(key)
        colours.add(board.turn)
    assert colours == {0, 1}


def _record(job: int, scores: list[int | None], winner: int | None) -> dict:
    # Both sides shuffle an animal back and forth: every position has all 16 animals.
    moves = ["a3a4", "g7g6", "a4a3", "g6g7"] * 20
    return {"job": job, "start": Board().fen(), "moves": moves, "scores": scores,
            "winner": winner}  # fmt: skip


def test_candidates_are_late_well_ahead_and_not_won_soon() -> None:
    options = argparse.Namespace(
        threshold=600, min_ply=60, min_animals=10, max_animals=16, won_within=40, per_game=2,
        spacing=10,
    )  # fmt: skip
    scores: list[int | None] = [0] * 80
    scores[30] = 900  # too early
    scores[62] = 599  # not far enough ahead
    scores[64] = 700  # a candidate (Red's move: plies count from the start's 0)
    scores[66] = 100_000  # a den found: a tactic
    scores[70] = 800  # too close to the first
    scores[76] = 800
    found = long_suite.candidates(_record(3, scores, None), "wango", options)
    assert [(c["ply"], c["cp"], c["game"]) for c in found] == [(64, 700, 3), (76, 800, 3)]
    assert all(c["fen"].split()[2:] == ["0", "1"] for c in found)  # a fresh clock
    # Won by the side ahead within won_within plies: no test of conversion.
    assert long_suite.candidates(_record(3, scores, 0), "wango", options) == []
    assert len(long_suite.candidates(_record(3, scores, 1), "wango", options)) == 2
    assert json.dumps(found)  # plain data, for the worker pool

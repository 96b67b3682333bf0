"""bench/tiger_balance.py, level 10 against itself per rule set and first mover: cells with
rule options, games to their end or the ply limit, a resumable file, the tiger side's score."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench import tiger_balance

from doushouqi.core.game import RulesError


def test_a_cell_names_a_rule_set_and_its_options() -> None:
    rules = tiger_balance.parse_cell("laohuqi-south:men=18,first=men")
    assert (rules.tigers, rules.men, rules.first) == (2, 18, 1)
    with pytest.raises(RulesError):
        tiger_balance.parse_cell("laohuqi:men=13")


def test_a_short_run_is_recorded_per_first_mover_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "balance.jsonl"
    args = ["--cell", "laohuqi-strict", "--games", "2", "--nodes", "500", "--max-plies", "12",
            "--out", str(out)]  # fmt: skip
    assert tiger_balance.main(args) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["first"], r["game"]) for r in rows) == [
        ("men", 0),
        ("men", 1),
        ("tiger", 0),
        ("tiger", 1),
    ]
    for row in rows:
        assert row["plies"] <= 12 and row["result"] in tiger_balance.TIGER_POINTS
    printed = capsys.readouterr().out
    assert "laohuqi-strict, men first: tiger +" in printed
    assert tiger_balance.main(args) == 0  # resumed: nothing left to play
    assert len(out.read_text().splitlines()) == 4
    assert "4 already played" in capsys.readouterr().out


def test_the_summary_scores_the_tiger_side_with_an_error_bar() -> None:
    rows = [{"result": r, "plies": 100, "ending": e} for r, e in
            (("1-0", "men_captured"), ("0-1", "tiger_trapped"), ("1/2-1/2", "repetition"),
             ("1-0", "men_captured"))]  # fmt: skip
    line = tiger_balance.summary(rows)
    assert line.startswith("tiger +2 =1 -1 of 4: 62.5% ± ")
    assert "men_captured 2" in line and "tiger_trapped 1" in line

"""bench/conversion.py's side-by-side comparison: which positions one run converts and the
other does not, and the sign test that says whether the split is more than noise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench import conversion


def test_the_sign_test_is_exact() -> None:
    # 25 positions differ, 15 against 10: P(X <= 10) for X ~ Binomial(25, 1/2), doubled.
    assert conversion.sign_test(15, 10) == pytest.approx(0.424356, abs=1e-6)
    assert conversion.sign_test(10, 15) == conversion.sign_test(15, 10)
    assert conversion.sign_test(44, 25) == pytest.approx(0.029493, abs=1e-6)
    assert conversion.sign_test(6, 0) == pytest.approx(2 / 64)
    assert conversion.sign_test(3, 3) == 1.0  # capped: an even split is no evidence
    assert conversion.sign_test(0, 0) == 1.0


def _run(path: Path, verdicts: dict[int, str]) -> Path:
    results = [
        {"index": i, "rules": "wango", "result": v, "reason": "den", "plies": 9}
        for i, v in verdicts.items()
    ]
    path.write_text(json.dumps({"args": {}, "results": results}))
    return path


def test_compare_counts_only_the_positions_both_runs_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _run(tmp_path / "a.json", {0: "won", 1: "draw", 2: "lost", 3: "draw", 4: "won"})
    after = _run(tmp_path / "b.json", {0: "draw", 1: "won", 2: "won", 3: "draw"})
    conversion.compare(before, after)
    out = capsys.readouterr().out
    assert "4 positions in both" in out
    assert "B converts 2 that A did not, and fails 1 that A converted" in out
    assert "p = 1.000" in out

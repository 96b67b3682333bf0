"""``doushouqi tablebase generate | check | probe``."""

from __future__ import annotations

from pathlib import Path

import pytest

from doushouqi.cli import main as cli
from doushouqi.jungle.tablebase.probe import ENV_VAR


@pytest.fixture(autouse=True)
def _only_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


def test_probe_prints_the_value_and_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tablebase", "probe", "7/7/7/r6/7/3L3/7/7/7 b"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "Tablebase: Red wins in 12"
    assert "a6a5 Ra5: loss 10" in out and "a6a7 Ra7: loss 12" in out
    assert cli.main(["tablebase", "probe", "7/7/7/r6/7/3L3/7/7/7 b", "--rules", "classic"]) == 1
    assert "not covered (repetition" in capsys.readouterr().out


def test_check_on_the_shipped_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tablebase", "check", "--positions", "30", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "30 random positions of 512 tables" in out and "0 disagreements" in out
    assert cli.main(["tablebase", "check", "--rules", "classic", "--positions", "5"]) == 2


def test_generate_is_resumable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tablebase", "generate", "--only", "LvR", "--no-reuse", "--out", str(tmp_path)]
    assert cli.main(args) == 0
    assert (tmp_path / "wango" / "LvR.dsqtb").is_file()
    assert (tmp_path / "wango" / "RvL.dsqtb").is_file()
    capsys.readouterr()
    assert cli.main(args) == 0
    assert "1 jobs (1 already done)" in capsys.readouterr().out
    bad = ["tablebase", "generate", "--rules", "classic", "--out", str(tmp_path)]
    assert cli.main(bad) == 2
    assert "no tablebases for rules 'classic'" in capsys.readouterr().err

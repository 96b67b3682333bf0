"""``doushouqi tablebase tiger generate | check | probe``."""

from __future__ import annotations

from pathlib import Path

import pytest

from doushouqi.cli import main as cli
from doushouqi.tiger.tablebase.probe import ENV_VAR


@pytest.fixture(autouse=True)
def _only_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


def test_probe_prints_the_value_and_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tablebase", "tiger", "probe", "3/3/9/9/9/9/9/9/M8/1M7/TMM6 m"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == ["Tablebase: the men win in 1", "  b2a2: win 1"]
    assert "  b2b3: loss 6" in out
    assert cli.main(["tablebase", "tiger", "probe", "3/1T1/9/9/9/9/9/9/9/MMMMM4/9 t"]) == 1
    assert "not covered" in capsys.readouterr().out


def test_check_on_the_shipped_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tablebase", "tiger", "check", "--positions", "20", "--decided", "10"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "55 positions (20 random" in out and "0 disagreements" in out
    missing = ["tablebase", "tiger", "check", "--men", "3", "--positions", "5"]
    assert cli.main(missing) == 2


def test_generate_writes_the_family_folder_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tablebase", "tiger", "generate", "--men", "3", "--out", str(tmp_path)]
    assert cli.main(args) == 0
    assert (tmp_path / "none" / "TvM3.tigertb").is_file()
    assert "10,029,320 entries" in capsys.readouterr().out
    assert cli.main(args) == 0
    assert "kept" in capsys.readouterr().out
    args = ["tablebase", "tiger", "check", "--men", "3", "--dir", str(tmp_path)]
    assert cli.main([*args, "--positions", "10", "--decided", "10"]) == 0
    assert "0 disagreements" in capsys.readouterr().out

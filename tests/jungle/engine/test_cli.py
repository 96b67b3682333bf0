"""The ``doushouqi`` command's errors and help: missing extras, bad arguments, ``--load``."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from doushouqi.cli.main import main
from doushouqi.cli.play import play_rules
from doushouqi.jungle.board import Board
from doushouqi.jungle.record import GameRecord, write_record
from doushouqi.jungle.rules import find_rules


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("doushouqi ")


def test_negative_perft_depth_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["perft", "startpos", "-1"])
    assert exit_info.value.code == 2
    assert "expected 0 or more, got -1" in capsys.readouterr().err
    assert main(["perft", "startpos", "0"]) == 0


def test_engine_help_lists_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["engine", "--help"])
    out = capsys.readouterr().out
    for command in ("uci", "isready", "setoption", "position", "go", "stop", "perft", "quit"):
        assert f"\n  {command}" in out, command


@pytest.mark.parametrize(
    ("command", "module", "extra"),
    [(["play", "--mode", "hotseat"], "rich", "tui"), (["engine"], "numba", "ai")],
)
def test_a_missing_extra_is_named(
    command: list[str],
    module: str,
    extra: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    assert main(command) == 2
    err = capsys.readouterr().err
    assert f"needs {module}, which is not installed: pip install 'doushouqi[{extra}]'" in err
    assert "Traceback" not in err


def _play_args(load: Path | None, rules: str | None) -> argparse.Namespace:
    return argparse.Namespace(load=str(load) if load else None, rules=rules)


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jgn"
    with pytest.raises(ValueError, match=r"--load .*missing\.jgn: cannot read it"):
        play_rules(_play_args(missing, None))
    broken = tmp_path / "broken.jgn"
    broken.write_text('[Event "x"]\n\n1. a1a9 *\n')
    with pytest.raises(ValueError, match=r"--load .*broken\.jgn: not a readable game record"):
        play_rules(_play_args(broken, None))


def test_rules_that_conflict_with_a_loaded_record_warn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board(rules="classic")
    board.replay(["a3a4", "a7a6"])
    path = tmp_path / "game.jgn"
    path.write_text(write_record(GameRecord.from_board(board)))
    classic = find_rules("classic")
    assert play_rules(_play_args(path, None)) == classic
    assert play_rules(_play_args(path, "classic")) == classic
    assert capsys.readouterr().err == ""
    assert play_rules(_play_args(path, "wango")) == classic
    err = capsys.readouterr().err
    assert "warning: --rules wango ignored" in err and "classic" in err
    assert play_rules(_play_args(None, None)) == find_rules("wango")


def test_the_terminal_game_names_the_engine_extra() -> None:
    # doushouqi.jungle.ai imports nothing compiled until a name is used: numba missing shows there.
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from doushouqi.jungle.tui.engine import EngineUnavailableError, load_best_move\n"
        "try:\n    load_best_move()\nexcept EngineUnavailableError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'doushouqi[ai]'" in done.stdout, done.stdout + done.stderr

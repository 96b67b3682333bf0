"""The engine never hangs and always answers (issue 30), spoken to the real process: ``perft``
runs in the background and stops; every ``go`` ends or is refused with an error; a failed
``position`` leaves none; a long line is not echoed back; a root played from the tables says
so; the end of the input lets a running search finish."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from tests.jungle.ai.engine_process import READY_TIMEOUT, EngineProcess
from tests.support.go_probes import ZERO_LIMITS, bad_go_probes

from doushouqi.cli.play import ENGINE_HELP
from doushouqi.jungle.ai.protocol import MAX_PERFT_DEPTH
from doushouqi.jungle.board import Board, Move

#: Far longer than the engine needs to answer (it answers in milliseconds), far shorter than
#: the hang it replaces (perft 9 from the start: hours).
PROMPT = 3.0
#: Red to move enters the den at once: c9d9.
DEN_IN_ONE = "2W4/7/7/6c/p6/E6/7/7/7 w"


@pytest.fixture(scope="module")
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess()
    try:
        process.ask("isready", "readyok", READY_TIMEOUT)
        # perft compiles at its first use: do it here, not inside a timed test.
        process.send("position startpos")
        process.ask("perft 2", "576", READY_TIMEOUT)
        yield process
    finally:
        process.close()


def _bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("bestmove")]


# -------------------------------------------------------------------------------- perft


def test_perft_answers_isready_and_stops(engine: EngineProcess) -> None:
    engine.send("position startpos")
    engine.send("perft 9")  # about 10^12 leaves: hours
    lines = engine.ask("isready", "readyok", timeout=PROMPT)
    assert lines == ["readyok"]
    error = engine.ask("go depth 1", "info string error", timeout=PROMPT)[-1]
    assert "perft is running" in error
    started = time.monotonic()
    lines = engine.ask("stop", "info string perft stopped", timeout=PROMPT)
    assert time.monotonic() - started < PROMPT
    assert lines == ["info string perft stopped: depth 9 not finished"]
    # It is over: the engine searches again.
    assert Move.from_str(engine.ask("go depth 1", "bestmove")[-1].split()[1])


def test_perft_divide_stopped_prints_the_moves_it_counted(engine: EngineProcess) -> None:
    engine.send("position startpos")
    lines = engine.ask("perft 3 divide", "12240", timeout=READY_TIMEOUT)  # compiles divide
    assert len(lines) == 25  # a finished one: 24 moves and the sum
    engine.send("perft 8 divide")  # each move takes seconds to minutes
    time.sleep(0.5)
    lines = engine.ask("stop", "info string perft stopped", timeout=PROMPT)
    counted = [line for line in lines if ": " in line and not line.startswith("info")]
    assert lines[-1] == f"info string perft stopped: {len(counted)} of 24 moves counted"


def test_perft_depth_is_bounded(engine: EngineProcess) -> None:
    error = engine.ask(f"perft {MAX_PERFT_DEPTH + 1}", "info string error")[-1]
    assert f"expected 0..{MAX_PERFT_DEPTH}, got {MAX_PERFT_DEPTH + 1}" in error
    assert f"N up to {MAX_PERFT_DEPTH};" in ENGINE_HELP


def test_quit_ends_a_running_perft() -> None:
    process = EngineProcess()
    try:
        process.ask("isready", "readyok", READY_TIMEOUT)
        process.ask("perft 2", "576", READY_TIMEOUT)
        process.send("perft 10")
        time.sleep(0.5)
        process.send("quit")
        assert process.process.wait(PROMPT) == 0
    finally:
        process.close()


# ----------------------------------------------------------------------------------- go


@pytest.mark.parametrize("limit", ZERO_LIMITS)
def test_zero_limits_answer_at_once(engine: EngineProcess, limit: str) -> None:
    engine.send("position startpos")
    lines = engine.ask(f"go {limit}", "bestmove", timeout=PROMPT)
    assert Move.from_str(lines[-1].split()[1]) in Board().legal_moves
    if "movetime" not in limit:  # one ply; a millisecond may reach further
        assert not [line for line in lines if line.startswith("info depth 2 ")]


@pytest.mark.parametrize(("arguments", "message"), bad_go_probes("a3a4"))
def test_a_bad_go_is_refused_and_starts_nothing(
    engine: EngineProcess, arguments: str, message: str
) -> None:
    engine.send("position startpos")
    lines = engine.ask(f"go {arguments}", "info string error", timeout=PROMPT)
    assert lines[-1] == f"info string error go: {message}"
    # No search started: isready comes alone and the next go is the only one answered.
    assert engine.ask("isready", "readyok", timeout=PROMPT) == ["readyok"]
    lines = engine.ask("go depth 1", "bestmove", timeout=PROMPT)
    assert len(_bestmoves(lines)) == 1
    assert not [line for line in engine.lines_for(0.3) if line.startswith("bestmove")]


def test_searchmoves_restricts_the_root_moves(engine: EngineProcess) -> None:
    engine.send("position startpos")
    engine.send("ucinewgame")
    free = engine.ask("go depth 3", "bestmove")[-1].split()[1]
    allowed = {"a3a4", "g3g4"} - {free}
    lines = engine.ask(f"go depth 3 searchmoves {' '.join(sorted(allowed))}", "bestmove")
    assert lines[-1].split()[1] in allowed
    for line in lines:
        if line.startswith("info depth"):
            assert line.split(" pv ")[1].split()[0] in allowed, line
    lines = engine.ask("go searchmoves a7a6 depth 2", "info string error")  # Blue's move
    assert lines[-1].endswith("not legal in this position: a7a6")
    lines = engine.ask("go searchmoves f2f1 depth 2", "bestmove")  # one move, words after it
    assert lines[-1].split()[1] == "f2f1"


def test_go_mate_stops_once_the_den_is_proven(engine: EngineProcess) -> None:
    engine.send(f"position fen {DEN_IN_ONE}")
    lines = engine.ask("go mate 3", "bestmove", timeout=PROMPT)
    assert lines[-1] == "bestmove c9d9"
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert " score den 1 " in lines[-2] and max(depths) < 5  # not the 5 plies of a mate in 3
    # No win to find: the search ends after the 2N - 1 plies of a mate in N.
    engine.send("position startpos")
    lines = engine.ask("go mate 2", "bestmove", timeout=30)
    depths = [int(line.split()[2]) for line in lines if line.startswith("info depth")]
    assert max(depths) == 3 and " score cp " in lines[-2]


def test_movestogo_is_accepted(engine: EngineProcess) -> None:
    engine.send("position startpos")
    lines = engine.ask("go wtime 2000 btime 2000 movestogo 40", "bestmove", timeout=PROMPT)
    assert Move.from_str(lines[-1].split()[1]) in Board().legal_moves


# ----------------------------------------------------------------------------- position


@pytest.mark.parametrize(
    "line",
    [
        "position fen xx",
        "position startpos moves g3g4 a1a9",
        "position",
        "position fen",
        "position moves g3g4",
    ],
)
def test_a_failed_position_leaves_none(engine: EngineProcess, line: str) -> None:
    engine.send("position startpos moves g3g4")
    engine.ask("isready", "readyok")
    assert engine.ask(line, "info string error")[-1].startswith("info string error position: ")
    for command in ("go depth 1", "perft 1", "d"):
        lines = engine.ask(command, "info string error", timeout=PROMPT)
        assert "no position: the last position command failed" in lines[-1], lines
    assert not [line for line in engine.lines_for(0.3) if line.startswith("bestmove")]
    engine.send("position startpos")
    assert Move.from_str(engine.ask("go depth 1", "bestmove")[-1].split()[1])


@pytest.mark.parametrize("head", ["", "position fen ", "position startpos moves ", "go depth "])
def test_a_long_line_is_not_echoed_back(engine: EngineProcess, head: str) -> None:
    line = head + "x" * 1_000_000
    error = engine.ask(line, "info string error", timeout=PROMPT)[-1]
    assert len(error) < 500 and "x" * 80 + "…" in error, error[:600]
    engine.send("position startpos")
    engine.ask("isready", "readyok")


# --------------------------------------------------------------------------- tablebases


def test_a_root_played_from_the_tables_says_so(engine: EngineProcess) -> None:
    engine.send("position fen 6l/7/7/7/7/7/7/7/L6 w")  # LvL: Red wins in 15 plies
    lines = engine.ask("go depth 4", "bestmove")
    assert lines[-3] == "info string tablebase: Red wins in 15", lines
    assert lines[-2].startswith("info depth 0 score den 8 "), lines


def test_game_over_says_so(engine: EngineProcess) -> None:
    engine.send("position fen 3W3/7/7/7/7/7/7/7/r6 b")
    assert engine.ask("go depth 2", "bestmove")[-2:] == ["info string game over", "bestmove 0000"]


# ------------------------------------------------------------------------- end of input


def _piped(script: str, timeout: float = READY_TIMEOUT) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "doushouqi", "engine"],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return done.stdout.splitlines()


def test_the_help_example_prints_the_whole_search() -> None:
    example = re.search(r"printf '(.*?)' \| doushouqi engine", ENGINE_HELP)
    assert example is not None
    lines = _piped(example.group(1).replace("\\n", "\n"))
    assert any(line.startswith("info depth 8 ") for line in lines), lines
    assert lines[-1].startswith("bestmove ")


def test_end_of_input_lets_perft_finish_and_stops_an_infinite_search() -> None:
    lines = _piped("position startpos\nperft 4\n")
    assert lines[-1] == "260099"
    started = time.monotonic()
    lines = _piped("isready\nposition startpos\ngo infinite\n")
    assert lines[-1].startswith("bestmove ")
    assert time.monotonic() - started < READY_TIMEOUT

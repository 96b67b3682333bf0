"""The engine client (doushouqi.jungle.engine) against real engine processes.

Most tests drive ``fake_engine.py``, a scripted engine process with switches to misbehave; the
last ones drive our own engine (``python -m doushouqi engine``) and skip until it exists.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tests.jungle.engine.conftest import FakeCommand

from doushouqi.jungle.analysis import Info, Limit, PovScore, Score
from doushouqi.jungle.board import STARTING_FEN, Board, Move
from doushouqi.jungle.engine import (
    Engine,
    EngineError,
    EngineMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    SimpleEngine,
    parse_info,
    parse_option,
    popen_engine,
)
from doushouqi.jungle.rules import RuleSet
from doushouqi.jungle.squares import BLUE, RED

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coroutine)


def first_legal(board: Board) -> Move:
    return next(iter(board.legal_moves))


# ------------------------------------------------------------------------- parsing


def test_parse_option_kinds() -> None:
    assert parse_option("name Clear Hash type button") == Option("Clear Hash", "button")
    assert parse_option("name Book File type string default <empty>").default == ""
    combo = parse_option("name Rules type combo default wango var wango var classic-dog")
    assert combo.var == ("wango", "classic-dog") and combo.default == "wango"
    spin = parse_option("name Hash type spin default 16 min 1 max 1024")
    assert (spin.min, spin.max, spin.default) == (1, 1024, "16")
    with pytest.raises(EngineError):
        parse_option("type spin default 1")


def test_option_values_are_checked() -> None:
    spin = Option("Level", "spin", "1", 0, 20)
    assert spin.protocol_value("5") == "5"
    for bad in (21, -1, "x", True):
        with pytest.raises(EngineError):
            spin.protocol_value(bad)
    combo = Option("Style", "combo", "Normal", var=("Solid", "Normal"))
    assert combo.protocol_value("solid") == "Solid"
    with pytest.raises(EngineError):
        combo.protocol_value("Wild")
    assert Option("Ponder", "check").protocol_value("TRUE") == "true"
    assert Option("Clear Hash", "button").protocol_value(None) is None
    with pytest.raises(EngineError):
        Option("Name", "string").protocol_value("two\nlines")


def test_parse_info_is_lenient() -> None:
    board = Board()
    info = parse_info(
        "depth 7 seldepth 11 multipv 1 score cp -35 lowerbound nodes 12345 nps 99000 "
        "hashfull 120 tbhits 0 time 250 currmove g3g4 frobnicate pv g3g4 a7a6",
        board,
    )
    assert info == Info(
        depth=7,
        seldepth=11,
        score=Score(cp=-35),
        nodes=12345,
        nps=99000,
        time=0.25,
        pv=[Move.from_str("g3g4"), Move.from_str("a7a6")],
        multipv=1,
        hashfull=120,
        tbhits=0,
        currmove=Move.from_str("g3g4"),
    )
    assert parse_info("score mate 4")["score"] == Score(mate=4)


def test_scores_from_a_fixed_side() -> None:
    board = Board()
    board.push_move("g3g4")  # Blue to move
    score = parse_info("score cp 30", board)["score"]
    assert isinstance(score, PovScore) and score == PovScore(cp=30, turn=BLUE)
    assert score.relative == Score(cp=30) and score == Score(cp=30)
    assert score.blue() == Score(cp=30) and score.red() == Score(cp=-30)
    assert score.pov(RED) == Score(cp=-30)
    den = parse_info("score den -2", Board())["score"]
    assert isinstance(den, PovScore) and den.blue() == Score(mate=2)
    assert den != PovScore(mate=-2, turn=BLUE) and hash(den) == hash(Score(mate=-2))
    assert parse_info("depth x nodes 5") == Info(nodes=5)


def test_parse_info_cuts_the_pv_at_an_illegal_move() -> None:
    info = parse_info("pv g3g4 g4g5 a7a6", Board())  # g4g5 is Red again: illegal
    assert [str(m) for m in info["pv"]] == ["g3g4"]
    assert len(parse_info("pv g3g4 g4g5 a7a6")["pv"]) == 3  # no board, no check


# ----------------------------------------------------------------------- handshake


def test_handshake_reads_id_and_options(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command()) as engine:
            assert engine.id == {"name": "FakeEngine 1.0", "author": "Test Suite"}
            assert engine.name == "FakeEngine 1.0"
            assert engine.options["Level"] == Option("Level", "spin", "1", 0, 20)
            assert engine.options["Clear Hash"].type == "button"
            assert "wango" in engine.options["Rules"].var
            assert engine.alive
        assert not engine.alive and engine.returncode == 0

    run(main())


def test_jcei_handshake(fake_command: FakeCommand) -> None:
    async def main() -> None:
        engine = await popen_engine(fake_command("--handshake", "jcei"), handshake="jcei")
        assert engine.id["name"] == "FakeEngine 1.0"
        await engine.quit()

    run(main())


def test_silent_handshake_times_out_and_kills(fake_command: FakeCommand) -> None:
    async def main() -> None:
        engine = Engine(fake_command("--no-handshake"), timeout=0.5)
        started = time.monotonic()
        with pytest.raises(EngineTimeoutError, match=r"uciok within 0\.5 s"):
            await engine.start()
        assert time.monotonic() - started < 5
        assert not engine.alive and engine.returncode is not None

    run(main())


def test_missing_readyok_times_out(fake_command: FakeCommand) -> None:
    async def main() -> None:
        # Long enough for the fake engine to start and send uciok on a crowded machine: the
        # timeout under test is the one for readyok, which never comes.
        engine = Engine(fake_command("--no-readyok"), timeout=5.0, ready_timeout=1.0)
        with pytest.raises(EngineTimeoutError, match="readyok"):
            await engine.start()
        assert engine.returncode is not None

    run(main())


def test_first_readyok_may_take_the_ready_timeout(fake_command: FakeCommand) -> None:
    async def main() -> None:
        # An engine compiling before its first readyok (ours on a fresh install): the short
        # reply timeout does not apply to it, only to later readyoks.
        engine = Engine(fake_command("--slow-ready", "3"), timeout=2.0, ready_timeout=30.0)
        await engine.start()
        await engine.ping()
        await engine.quit()
        slow = Engine(fake_command("--slow-ready", "6"), timeout=2.0, ready_timeout=2.5)
        with pytest.raises(EngineTimeoutError, match=r"readyok within 2\.5 s"):
            await slow.start()

    run(main())


def test_missing_program_is_an_os_error() -> None:
    async def main() -> None:
        with pytest.raises(OSError):
            await popen_engine("/nonexistent/jungle-engine --fast")

    run(main())


# -------------------------------------------------------------------------- search


def test_play_returns_a_checked_move_and_the_search_info(fake_command: FakeCommand) -> None:
    async def main() -> None:
        seen: list[Info] = []
        async with Engine(fake_command()) as engine:
            board = Board()
            result = await engine.play(board, Limit(movetime=0.1), info_callback=seen.append)
            assert result.move == first_legal(board)
            assert result.info["depth"] == 2 and result.info["score"] == Score(mate=5)
            assert result.info["pv"][0] == result.move
            assert result.info["seldepth"] == 1 and result.info["time"] == 0.003
            assert [info.get("depth") for info in seen] == [1, None, 2]
            assert seen[1]["string"] == "thinking about the rules wango"
            info = await engine.analyse(board, Limit(depth=3))
            assert info["nodes"] == 40

    run(main())


def test_positions_start_fen_moves_passes_and_new_games(
    fake_command: FakeCommand, tmp_path: Path
) -> None:
    log = tmp_path / "commands.txt"

    async def main() -> None:
        async with Engine(fake_command("--log", str(log))) as engine:
            board = Board()
            await engine.play(board, Limit(nodes=100))
            board.push_move("g3g4")
            board.push_pass()
            result = await engine.play(board, Limit(nodes=100))
            assert result.move is not None and board.is_legal(result.move)
            await engine.play(board, Limit(nodes=100), game="second game")

    run(main())
    commands = log.read_text().splitlines()
    positions = [line for line in commands if line.startswith("position")]
    assert positions[0] == f"position fen {STARTING_FEN}"
    assert positions[1] == f"position fen {STARTING_FEN} moves g3g4 0000"
    assert commands.count("ucinewgame") == 2  # before the first search and for the new game
    assert "go nodes 100" in commands
    # The rule set is sent once, before the first search, whatever the engine's default.
    assert [line for line in commands if "Rules" in line] == ["setoption name Rules value wango"]


def test_rule_set_sent_when_it_changes(fake_command: FakeCommand, tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"

    async def main() -> None:
        async with Engine(fake_command("--log", str(log))) as engine:
            for _ in range(2):
                result = await engine.analyse(Board(rules="classic"), Limit(depth=1))
                assert result["string"] == "thinking about the rules classic"
            await engine.play(Board(rules="international"), Limit(depth=1))
            house = RuleSet(name="house", rule_7_3=True)  # no rule options to send it with
            with pytest.raises(EngineError, match="does not offer the rule set 'house'"):
                await engine.play(Board(rules=house), Limit(depth=1))
            await engine.ping()  # still usable

    run(main())
    rules_lines = [line for line in log.read_text().splitlines() if "Rules" in line]
    assert rules_lines == [
        "setoption name Rules value classic",
        "setoption name Rules value international",
    ]


def test_configure_checks_names_and_values(fake_command: FakeCommand, tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"

    async def main() -> None:
        async with Engine(fake_command("--log", str(log))) as engine:
            await engine.configure({"level": 7, "Ponder": True, "Clear Hash": None})
            assert engine.config == {"Level": "7", "Ponder": "true", "Clear Hash": None}
            with pytest.raises(EngineError, match="no option 'Depth'"):
                await engine.configure({"Depth": 3})
            with pytest.raises(EngineError, match="from 0 to 20"):
                await engine.configure({"Level": 99})
            with pytest.raises(EngineError, match="rule set"):
                await engine.configure({"Rules": "classic"})

    run(main())
    commands = log.read_text().splitlines()
    assert "setoption name Level value 7" in commands
    assert "setoption name Clear Hash" in commands
    assert not any("99" in line for line in commands)


def test_no_legal_move_gives_none(fake_command: FakeCommand) -> None:
    board = Board("3R3/7/7/7/7/7/7/7/6r b")  # Red's rat stands in Blue's den

    async def main() -> None:
        async with Engine(fake_command()) as engine:
            result = await engine.play(board, Limit(movetime=0.05))
            assert result.move is None

    run(main())


def test_infinite_analysis_runs_until_stopped(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command()) as engine:
            analysis = await engine.analysis(Board())
            depths = []
            async for info in analysis:
                depths.append(info.get("depth"))
                if info.get("depth") == 2:
                    analysis.stop()
            result = await analysis.wait()
            assert depths == [1, None, 2]
            assert result.move == first_legal(Board())
            await engine.ping()
            with pytest.raises(ValueError, match="analysis"):
                await engine.play(Board(), Limit(infinite=True))

    run(main())


def test_cancelled_play_stops_the_search(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command("--think", "30")) as engine:
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(engine.play(Board(), Limit(movetime=30)), 0.3)
            started = time.monotonic()
            await engine.ping()  # waits for the stopped search's bestmove, not 30 s
            assert time.monotonic() - started < 5

    run(main())


def test_failing_info_callback_is_raised_after_the_search(fake_command: FakeCommand) -> None:
    def explode(info: Info) -> None:
        raise KeyError("boom")

    async def main() -> None:
        async with Engine(fake_command()) as engine:
            with pytest.raises(KeyError):
                await engine.play(Board(), Limit(depth=2), info_callback=explode)
            result = await engine.play(Board(), Limit(depth=2))
            assert result.move == first_legal(Board())

    run(main())


# --------------------------------------------------------------- misbehaving engines


def test_illegal_bestmove_raises_and_the_engine_stays_usable(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command("--illegal-after", "1")) as engine:
            with pytest.raises(
                EngineMoveError, match=r"illegal move b1b2 .*no animal on b1"
            ) as caught:
                await engine.play(Board(), Limit(movetime=0.05))
            assert not isinstance(caught.value, EngineTerminatedError)
            result = await engine.play(Board(), Limit(movetime=0.05))
            assert result.move == first_legal(Board())

    run(main())


def test_engine_that_does_not_answer_go_is_killed(fake_command: FakeCommand) -> None:
    async def main() -> None:
        engine = await popen_engine(fake_command("--hang-after", "1"), move_grace=0.3)
        started = time.monotonic()
        with pytest.raises(EngineTimeoutError, match=r"bestmove within 0\.4 s"):
            await engine.play(Board(), Limit(movetime=0.1))
        assert time.monotonic() - started < 5
        assert not engine.alive and engine.returncode is not None
        with pytest.raises(EngineTerminatedError):
            await engine.play(Board(), Limit(movetime=0.1))
        await engine.quit()

    run(main())


def test_explicit_timeout_for_a_depth_search(fake_command: FakeCommand) -> None:
    async def main() -> None:
        engine = await popen_engine(fake_command("--hang-after", "1"))
        with pytest.raises(EngineTimeoutError):
            await engine.play(Board(), Limit(depth=30), timeout=0.3)
        await engine.quit()

    run(main())


def test_crash_raises_terminated_with_the_error_output(fake_command: FakeCommand) -> None:
    async def main() -> None:
        engine = await popen_engine(fake_command("--crash-after", "1"))
        with pytest.raises(EngineTerminatedError, match=r"exit code 3.*deliberate crash"):
            await engine.play(Board(), Limit(movetime=0.05))
        assert not engine.alive
        await engine.quit()

    run(main())


# ------------------------------------------------------------------ blocking facade


def test_simple_engine(fake_command: FakeCommand) -> None:
    with SimpleEngine.popen(fake_command()) as engine:
        assert engine.id["name"] == "FakeEngine 1.0"
        engine.configure({"Level": 3})
        board = Board()
        assert engine.play(board, Limit(movetime=0.05)).move == first_legal(board)
        assert engine.analyse(board, Limit(depth=2))["depth"] == 2
        with pytest.raises(EngineError):
            engine.configure({"Level": 50})
    assert not engine.alive
    engine.quit()  # twice is fine
    with pytest.raises(EngineTerminatedError):
        engine.play(board, Limit(movetime=0.05))


def test_simple_engine_start_failure(fake_command: FakeCommand) -> None:
    with pytest.raises(EngineTimeoutError):
        SimpleEngine.popen(fake_command("--no-handshake"), timeout=0.3)


# -------------------------------------------------------------------- our engine


def test_real_engine_handshake(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, timeout=300) as engine:
        assert engine.id.get("name")
        assert "Level" in engine.options


def test_real_engine_plays_a_legal_move(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, timeout=300) as engine:
        board = Board()
        board.push_move("g3g4")
        result = engine.play(board, Limit(movetime=0.3))
        assert result.move is not None and board.is_legal(result.move)
        classic = Board(rules="classic")
        result = engine.play(classic, Limit(movetime=0.3))
        assert result.move is not None and classic.is_legal(result.move)


def test_real_engine_starts_with_no_environment_on_the_path(
    real_engine_command: list[str],
) -> None:
    # The README's command, [sys.executable, "-m", "doushouqi", "engine"], names the very
    # interpreter running the caller: no activated virtual environment, no ``doushouqi`` script
    # on the PATH needed (a bare system PATH here).
    bare = {**os.environ, "PATH": os.defpath}
    with SimpleEngine.popen(real_engine_command, timeout=300, env=bare) as engine:
        result = engine.play(Board(), Limit(depth=1))
        assert result.move is not None and Board().is_legal(result.move)


def test_real_engine_analyse_reports_depth_score_pv(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, timeout=300) as engine:
        board = Board()
        info = engine.analyse(board, Limit(depth=3))
        assert info["depth"] >= 3
        assert isinstance(info["score"], Score)
        assert info["pv"] and board.is_legal(info["pv"][0])


def test_real_engine_info_agrees_with_the_move(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, ready_timeout=300) as engine:
        engine.configure({"Level": 2})  # picks among near-best moves, not the last pv
        board = Board()
        for _ in range(4):
            result = engine.play(board, Limit(depth=2))
            assert result.move is not None and result.info["pv"][0] == result.move
            board.push(result.move)


# ------------------------------------------------------------- MultiPV, analysis, ponder


def test_pondering_sends_ponderhit_or_stop(fake_command: FakeCommand, tmp_path: Path) -> None:
    log = tmp_path / "commands.txt"
    board = Board()

    async def main() -> None:
        async with Engine(fake_command("--log", str(log))) as engine:
            first = await engine.play(board, Limit(movetime=0.05), ponder=True)
            assert first.move is not None and first.ponder is not None
            board.push(first.move)
            board.push(first.ponder)  # the reply it expected: ponderhit
            second = await engine.play(board, Limit(movetime=0.05), ponder=True)
            assert second.move is not None and board.is_legal(second.move)
            board.push(second.move)
            other = [m for m in board.legal_moves if m != second.ponder]
            board.push(other[-1])  # another reply: the ponder search is stopped
            third = await engine.play(board, Limit(movetime=0.05))
            assert third.move is not None and board.is_legal(third.move)
            await engine.ping()

    run(main())
    commands = log.read_text().splitlines()
    gos = [line for line in commands if line.startswith(("go", "ponderhit", "stop"))]
    assert gos == [
        "go movetime 50",
        "go ponder movetime 50",
        "ponderhit",
        "go ponder movetime 50",
        "stop",
        "go movetime 50",
    ]
    assert "setoption name Ponder value true" in commands


def test_multipv_is_managed(fake_command: FakeCommand) -> None:
    async def main() -> None:
        async with Engine(fake_command()) as engine:
            with pytest.raises(EngineError, match="has no MultiPV option"):
                await engine.analyse(Board(), Limit(depth=1), multipv=2)
            await engine.ping()

    run(main())


def test_real_engine_multipv(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, ready_timeout=300) as engine:
        with pytest.raises(EngineError, match="managed"):
            engine.configure({"MultiPV": 2})
        board = Board()
        lines = engine.analyse(board, Limit(depth=4), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        firsts = [line["pv"][0] for line in lines]
        assert len(set(firsts)) == 3 and all(board.is_legal(move) for move in firsts)
        assert all(line["depth"] == 4 for line in lines)
        assert lines[0]["score"] >= lines[1]["score"] >= lines[2]["score"]
        single = engine.analyse(board, Limit(depth=2))  # back to one line
        assert "multipv" not in single


def test_real_engine_blocking_infinite_analysis(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, ready_timeout=300) as engine:
        board = Board()
        board.push_move("g3g4")  # Blue to move: scores from a fixed side
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 5:
                    break
            analysis.stop()
            result = analysis.wait()
        assert result.move is not None and board.is_legal(result.move)
        score = analysis.info["score"]
        assert isinstance(score, PovScore) and score.turn == BLUE
        assert score.red() == -score.blue()


def test_real_engine_ponders(real_engine_command: list[str]) -> None:
    with SimpleEngine.popen(real_engine_command, ready_timeout=300) as engine:
        board = Board()
        # A depth, not a time: the reply to ponder on is the pv's second move, and a starved
        # engine's 0.2 s once finished depth 1 alone (54 nodes at load 11), naming none.
        first = engine.play(board, Limit(depth=3), ponder=True)
        assert first.move is not None and first.ponder is not None
        board.push(first.move)
        board.push(first.ponder)
        started = time.monotonic()
        second = engine.play(board, Limit(movetime=0.3))  # a ponderhit
        assert time.monotonic() - started < 2.0
        assert second.move is not None and board.is_legal(second.move)

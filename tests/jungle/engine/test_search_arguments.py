"""A search's own arguments, as python-chess's ``engine.play``/``analyse`` take them:
``Limit(time=…)``, ``Limit(mate=…)``, ``root_moves=`` (``go … searchmoves``), ``options=`` (for
this search only) and ``info=`` (what the info keeps), through real engine processes: the
scripted one (its log shows what the client sent) and our own engine."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tests.jungle.engine.conftest import FakeCommand

from doushouqi.jungle.analysis import InfoSelection, Limit, Score
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.engine import Engine, EngineError, SimpleEngine


def test_root_moves_options_and_limits_reach_the_engine(
    fake_command: FakeCommand, tmp_path: Path
) -> None:
    log = tmp_path / "commands.txt"
    board = Board()
    root = [Move.from_uci("g3g4"), Move.from_uci("a3a4")]

    async def main() -> None:
        async with Engine(fake_command("--log", str(log))) as engine:
            await engine.configure({"Hash": 64})
            await engine.play(board, Limit(time=0.05), root_moves=root, options={"Hash": 32})
            await engine.analyse(board, Limit(depth=2, remaining_moves=20), options={"Level": 7})
            await engine.analyse(board, Limit(nodes=10, mate=3))

    asyncio.run(main())
    commands = log.read_text().splitlines()
    gos = [line for line in commands if line.startswith("go")]
    assert gos == ["go movetime 50 searchmoves g3g4 a3a4", "go depth 2 movestogo 20",
                   "go nodes 10 mate 3"]  # fmt: skip
    settings = [line for line in commands if line.startswith("setoption") and "Rules" not in line]
    # A search's option holds for it alone: the configured Hash (64) and the default Level
    # (1) come back before the next search.
    assert settings == [
        "setoption name Hash value 64",
        "setoption name Hash value 32",
        "setoption name Hash value 64",
        "setoption name Level value 7",
        "setoption name Level value 1",
    ]


def test_bad_search_arguments_are_refused_before_anything_is_sent(
    fake_command: FakeCommand,
) -> None:
    board = Board()
    with SimpleEngine.popen(fake_command()) as engine:
        with pytest.raises(ValueError, match=r"root_moves not legal .*: g3g5"):
            engine.play(board, Limit(nodes=5), root_moves=[Move.from_uci("g3g5")])
        with pytest.raises(ValueError, match="root_moves is empty"):
            engine.analyse(board, Limit(nodes=5), root_moves=[])
        with pytest.raises(EngineError, match="no option 'Threads'"):
            engine.analyse(board, Limit(nodes=5), options={"Threads": 2})
        with pytest.raises(EngineError, match="set from the board's rule set"):
            engine.play(board, Limit(nodes=5), options={"Rules": "classic"})
        assert engine.play(board, Limit(nodes=5)).move is not None  # still usable


def test_info_selection(fake_command: FakeCommand) -> None:
    board = Board()
    with SimpleEngine.popen(fake_command()) as engine:
        full = engine.analyse(board, Limit(nodes=5))
        assert {"depth", "score", "pv", "string"} <= set(full)
        scored = engine.analyse(board, Limit(nodes=5), info=InfoSelection.SCORE)
        assert set(scored) == {"score"}
        played = engine.play(board, Limit(nodes=5), info=InfoSelection.NONE)
        assert played.move is not None and played.info == {}
        with engine.analysis(board, Limit(nodes=5), info=InfoSelection.PV) as analysis:
            assert all(set(info) <= {"pv"} for info in analysis)


def test_real_engine_searches_only_the_root_moves(real_engine_command: list[str]) -> None:
    board = Board()
    with SimpleEngine.popen(real_engine_command, timeout=300) as engine:
        for root in (["a3a4"], ["g1g2", "b2b3"]):
            moves = [Move.from_uci(text) for text in root]
            result = engine.play(board, Limit(depth=3), root_moves=moves)
            assert result.move in moves and result.info["pv"][0] == result.move


def test_real_engine_finds_a_mate_under_limit_mate(real_engine_command: list[str]) -> None:
    board = Board("7/7/3L3/7/7/7/7/7/r6 w")  # the lion enters the den in two moves
    with SimpleEngine.popen(real_engine_command, timeout=300) as engine:
        info = engine.analyse(board, Limit(mate=2))
        assert info["score"] == Score(mate=2) and info["score"].score(mate_score=1000) == 998
        assert info["score"].is_mate() and info["score"].red().mate() == 2

"""A search's own arguments on the Tiger's engine client, as python-chess's
``engine.play``/``analyse`` take them: ``root_moves=`` (``go … searchmoves``), ``options=``
(for that search only, put back after it), ``info=`` (what the info keeps) and
``Limit(mate=N)``, through real engine processes: a scripted one whose log shows what the
client sent, and our own engine."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from tests.support.tiger_moves import TRAP

from doushouqi.tiger.analysis import InfoSelection, Limit, Score
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine import Engine, EngineError
from doushouqi.tiger.moves import Move

OURS = (sys.executable, "-m", "doushouqi", "engine", "--game", "tiger")
T = TypeVar("T")


def _logging_engine(tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    """An engine that logs every command and plays the first ``searchmoves`` move (else
    e10e9, the tiger's first move from the start); and its log."""
    log = tmp_path / "commands.txt"
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        log = open({str(log)!r}, "a")
        for line in sys.stdin:
            log.write(line)
            log.flush()
            words = line.split()
            word = words[0] if words else ""
            if word == "uci":
                print("id name logging")
                print("option name Rules type combo default laohuqi var laohuqi")
                print("option name Hash type spin default 64 min 1 max 4096")
                print("option name Level type spin default 10 min 1 max 10")
                print("uciok")
            elif word == "isready":
                print("readyok")
            elif word == "go":
                tail = words[words.index("searchmoves") + 1:] if "searchmoves" in words else []
                move = tail[0] if tail else "e10e9"
                print(f"info depth 1 seldepth 2 score cp 12 nodes 40 time 1 pv {{move}}")
                print("info string thinking done")
                print(f"bestmove {{move}}")
            elif word == "quit":
                break
            sys.stdout.flush()
    """)
    )
    return (sys.executable, str(script)), log


def _with_engine(command: tuple[str, ...], use: Callable[[Engine], Awaitable[T]]) -> T:
    async def run() -> T:
        engine = Engine(command)
        try:
            await engine.start()
            return await use(engine)
        finally:
            await engine.quit()

    return asyncio.run(run())


def test_root_moves_options_and_limits_reach_the_engine(tmp_path: Path) -> None:
    command, log = _logging_engine(tmp_path)
    board = Board()
    root = [Move.from_str("e10d10"), Move.from_str("e10f10")]

    async def use(engine: Engine) -> None:
        await engine.configure({"Hash": 16})
        result = await engine.play(board, Limit(time=0.05), root_moves=root, options={"Hash": 8})
        assert result.move == root[0]
        await engine.analyse(board, Limit(depth=2, remaining_moves=20), options={"Level": 3})
        await engine.analyse(board, Limit(nodes=10, mate=3))

    _with_engine(command, use)
    commands = log.read_text().splitlines()
    gos = [line for line in commands if line.startswith("go")]
    assert gos == ["go movetime 50 searchmoves e10d10 e10f10", "go depth 2 movestogo 20",
                   "go nodes 10 mate 3"]  # fmt: skip
    settings = [line for line in commands if line.startswith("setoption") and "Rules" not in line]
    # A search's option holds for it alone: the configured Hash (16) and the default Level
    # (10) are put back.
    assert settings == [
        "setoption name Hash value 16",
        "setoption name Hash value 8",
        "setoption name Hash value 16",
        "setoption name Level value 3",
        "setoption name Level value 10",
    ]
    # Put back right after the search, not left for the next one to find.
    first_go = commands.index(gos[0])
    assert commands[first_go + 1] == "setoption name Hash value 16"


def test_bad_search_arguments_are_refused_before_anything_is_sent(tmp_path: Path) -> None:
    command, log = _logging_engine(tmp_path)
    board = Board()

    async def use(engine: Engine) -> None:
        before = log.read_text()
        with pytest.raises(ValueError, match=r"root_moves not legal in .*: e10e8"):
            await engine.play(board, Limit(nodes=5), root_moves=[Move.from_str("e10e8")])
        with pytest.raises(ValueError, match="root_moves is empty"):
            await engine.analyse(board, Limit(nodes=5), root_moves=[])
        with pytest.raises(EngineError, match="no option 'Threads'"):
            await engine.analyse(board, Limit(nodes=5), options={"Threads": 2})
        with pytest.raises(EngineError, match="set from the board's rule set"):
            await engine.play(board, Limit(nodes=5), options={"Rules": "laohuqi"})
        with pytest.raises(ValueError, match="a limit that ends it"):
            await engine.play(board, Limit(infinite=True))
        assert log.read_text() == before
        assert (await engine.play(board, Limit(nodes=5))).move is not None  # still usable

    _with_engine(command, use)


def test_info_selection(tmp_path: Path) -> None:
    command, _ = _logging_engine(tmp_path)
    board = Board()

    async def use(engine: Engine) -> None:
        full = await engine.analyse(board, Limit(nodes=5))
        assert set(full) == {"depth", "seldepth", "score", "nodes", "time", "pv"}
        assert set(await engine.analyse(board, Limit(nodes=5), info=InfoSelection.SCORE)) == {
            "score"
        }
        played = await engine.play(board, Limit(nodes=5), info=InfoSelection.NONE)
        assert played.move is not None and played.info == {}
        pv = await engine.play(board, Limit(nodes=5), info=InfoSelection.PV)
        assert pv.info == {"pv": [Move.from_str("e10e9")]}

    _with_engine(command, use)


def test_our_engine_searches_only_the_root_moves_and_finds_the_win() -> None:
    board = Board()
    trapped = Board()
    for text in TRAP[:-1]:
        trapped.push_move(text)

    async def use(engine: Engine) -> None:
        for root in (["e10e11"], ["e10d10", "e10f10"]):
            moves = [Move.from_str(text) for text in root]
            result = await engine.play(board, Limit(depth=3), root_moves=moves)
            assert result.move in moves and result.info["pv"][0] == result.move
        result = await engine.play(trapped, Limit(mate=2), options={"Level": 10})
        assert str(result.move) == TRAP[-1]
        assert result.info["score"] == Score(mate=1) and result.info["depth"] == 1

    _with_engine(OURS, use)

"""The engine at a root the shipped tables cover: it plays the tables' move (the fastest win,
the longest defence) with an exact score, unless told not to or the move would repeat."""

from __future__ import annotations

import pytest

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.tablebase.root import keep_the_draw
from doushouqi.jungle.analysis import Limit, Score
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.tablebase.probe import ENV_VAR, probe, probe_moves, probe_wdl


@pytest.fixture(autouse=True)
def _only_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)


@pytest.fixture(scope="module")
def engine() -> Searcher:
    return Searcher(hash_mb=4, seed=1)


def test_a_won_root_is_played_from_the_tables(engine: Searcher) -> None:
    board = Board("7/7/7/3L3/7/7/7/7/r6 w")  # lion d6 against a rat: the den in 3 moves
    result = engine.search(board, Limit(depth=1))  # far too shallow for the search alone
    assert str(result.move) == "d6d7"
    assert result.info["score"] == Score(mate=3)
    assert result.info["string"] == "tablebase: Red wins in 5"


def test_a_lost_root_plays_the_longest_defence(engine: Searcher) -> None:
    board = Board("7/7/7/r6/7/3L3/7/7/7 b")  # Blue's rat (a6) against the lion on d4
    entry = probe(board)
    assert entry is not None and entry.wdl == -1 and entry.dtm is not None
    result = engine.search(board, Limit(depth=1))
    values = probe_moves(board)
    assert values is not None
    longest = {str(v.move) for v in values if v.value == values[0].value}
    assert longest == {"a6a7", "a6b6"}  # a6a5 loses two plies sooner
    assert str(result.move) in longest
    assert values[0].value.dtm == entry.dtm == 12
    assert result.info["score"] == Score(mate=-(entry.dtm // 2))


def test_the_tables_can_be_switched_off(engine: Searcher) -> None:
    board = Board("7/7/7/3L3/7/7/7/7/r6 w")
    engine.use_tablebase = False
    try:
        result = engine.search(board, Limit(depth=1))
    finally:
        engine.use_tablebase = True
    assert "string" not in result.info or "tablebase" not in result.info["string"]


def test_a_drawn_root_never_gets_a_losing_move(engine: Searcher) -> None:
    # Blue's elephant (d8, its own trap) against Red's lion (e7): only d8e8 holds the draw.
    board = Board("7/3e3/4L2/7/7/7/7/7/7 b")
    assert probe_wdl(board) == 0
    assert keep_the_draw(board, Move.from_uci("d8d7")) == Move.from_uci("d8e8")
    assert keep_the_draw(board, Move.from_uci("d8e8")) is None  # the search's pick holds
    result = engine.search(board, Limit(depth=1))
    assert str(result.move) == "d8e8"

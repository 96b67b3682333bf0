"""The engine plays a position the Tiger's tables cover from them: a won one is converted
within the table's distance, a lost one defended longest, a drawn one never thrown away."""

from __future__ import annotations

import functools
import random

import pytest

from doushouqi.core.tablebase_file import NO_POSITION, WIN
from doushouqi.tiger.ai.search_driver import Searcher
from doushouqi.tiger.ai.tablebase.root import keep_the_draw
from doushouqi.tiger.analysis import Limit, Score
from doushouqi.tiger.board import Board
from doushouqi.tiger.rules import TIGER_SIDE, RuleSet
from doushouqi.tiger.tablebase.file_format import half_size, position_of
from doushouqi.tiger.tablebase.probe import load_table, probe, probe_moves
from doushouqi.tiger.tablebase.verify import board_at, random_board

RULES = RuleSet()


def _longest(side: int, code: int) -> Board:
    """The first position of the shipped table, ``side`` to move, with the longest distance
    for the result ``code``."""
    return board_at(RULES, *position_of(4, _longest_entry(side, code)))


@functools.cache
def _longest_entry(side: int, code: int) -> int:
    table = load_table("none", 4)
    assert table is not None
    half = half_size(4)
    # Value bytes of the result asked for kept, the others made 0 (a win's byte is even).
    keep = bytes(
        v if 0 < v < NO_POSITION and (v % 2 == 0) == (code == WIN) else 0 for v in range(256)
    )
    best, found = 0, -1
    for start, values in table.blocks():
        low, high = max(0, side * half - start), min(len(values), (side + 1) * half - start)
        if low >= high:
            continue
        part = values[low:high].translate(keep)
        top = max(part)
        if top > best:
            best, found = top, start + low + part.find(bytes([top]))
    assert best > 1
    return found


def _play(board: Board, engine: Searcher, loser_moves: str, rng: random.Random) -> int:
    """Play until the game ends: the engine for the side that wins, the loser by the tables'
    longest defence or at random; the plies played."""
    winner = board.turn if probe(board).wdl > 0 else 1 - board.turn
    plies = 0
    while board.outcome() is None:
        if board.turn == winner:
            move = engine.search(board, Limit(depth=2)).move
        elif loser_moves == "table":
            move = probe_moves(board)[0].move
        else:
            move = rng.choice(list(board.legal_moves))
        assert move is not None
        board.push(move)
        plies += 1
    assert board.outcome().winner == winner
    return plies


@pytest.mark.parametrize("defence", ["table", "random"])
def test_the_tigers_longest_win_is_converted_in_its_distance(defence: str) -> None:
    board = _longest(TIGER_SIDE, WIN)
    distance = probe(board).dtm
    assert distance == 15  # the longest win of the tiger against four men (docs)
    plies = _play(board, Searcher(RULES, hash_mb=1), defence, random.Random(1))
    assert plies == distance if defence == "table" else plies <= distance


@pytest.mark.parametrize(
    "position",
    [
        "3/3/9/9/9/9/9/9/M8/1M7/TMM6 m",  # the tiger in the board's corner
        "TMM/1M1/3M5/9/9/9/9/9/9/9/9 m",  # in the nest's corner
        "MTM/1M1/5M3/9/9/9/9/9/9/9/9 m",  # at the top of the nest
    ],
)
def test_the_men_close_the_trap(position: str) -> None:
    # The men's every win against four men is one move long: the last man steps in.
    board = Board(position)
    assert probe(board) is not None and probe(board).dtm == 1
    assert _play(board, Searcher(RULES, hash_mb=1), "table", random.Random(2)) == 1


def test_a_covered_root_is_answered_from_the_table_with_its_score() -> None:
    board = _longest(TIGER_SIDE, WIN)
    result = Searcher(RULES, hash_mb=1).search(board, Limit(depth=1))
    assert result.info["string"] == "tablebase: the tiger wins in 15"
    assert result.info["score"] == Score(mate=8)
    assert result.move == probe_moves(board)[0].move
    # The lost side defends longest, and says how long it has.
    board.push(result.move)
    reply = Searcher(RULES, hash_mb=1).search(board, Limit(depth=1))
    assert reply.info["score"] == Score(mate=-7)
    assert probe_moves(board)[0].value.dtm == 14


def test_without_tables_the_search_answers() -> None:
    board = _longest(TIGER_SIDE, WIN)
    engine = Searcher(RULES, hash_mb=1)
    engine.use_tablebase = False
    assert "tablebase" not in str(engine.search(board, Limit(depth=1)).info.get("string"))


def test_a_drawn_ending_is_not_thrown_away() -> None:
    # A drawn position, the men to move, in which some move lets the tiger take a man.
    rng = random.Random(4)
    while True:
        drawn = random_board(rng, RULES, 4)
        values = probe_moves(drawn)
        if probe(drawn).wdl == 0 and values and values[-1].value.wdl < 0:
            break
    losing = values[-1].move
    holding = keep_the_draw(drawn, losing)
    assert holding is not None
    assert next(v.value for v in values if v.move == holding).wdl == 0
    assert keep_the_draw(drawn, values[0].move) is None  # a drawing move is kept
    # The engine never plays the losing move there, whatever its search says.
    assert Searcher(RULES, hash_mb=1).search(drawn, Limit(depth=1)).move != losing

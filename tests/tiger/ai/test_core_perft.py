"""Perft of the compiled move generator against the rules library's: the perft files of every
named rule set, every option on fixed positions, random positions (Hypothesis), make/unmake
and the tables themselves."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import tiger_reference as ref
from tests.support.perft import read_perft_file
from tests.tiger.helpers import place
from tests.tiger.test_perft import OPTION_SETS, POSITIONS, _fits, _options

from doushouqi.tiger.ai.core import Position, decode_move, encode_move
from doushouqi.tiger.ai.state import (
    S_HASH,
    S_MEN,
    S_TIGER,
    STATE_SIZE,
    compute_hash,
    make_move,
    unmake_move,
)
from doushouqi.tiger.ai.tables import DIAGONAL_OPTIONS, JUMP_LAND, JUMP_OVER, STEP
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import JUMPS, NEIGHBOURS, NUM_POINTS
from doushouqi.tiger.rules import rules_from_mapping

DATA = Path(__file__).parent.parent / "data"
#: Leaf counts the compiled generator checks in the normal run (it counts millions a second).
LEAVES = 3_000_000


def _file_cases() -> list[Any]:
    cases = []
    for path in sorted(DATA.glob("*.perft")):
        for position in read_perft_file(path):
            for depth, count in position.counts:
                if count <= LEAVES:
                    cases.append(pytest.param(path.stem, position.epd, depth, count,
                                              id=f"{path.stem}-{position.id}-{depth}"))  # fmt: skip
    return cases


@pytest.mark.parametrize(("rules", "epd", "depth", "count"), _file_cases())
def test_the_compiled_generator_reproduces_the_files(
    rules: str, epd: str, depth: int, count: int
) -> None:
    position = Position.from_board(Board(epd, rules))
    before = position.state.copy()
    assert position.perft(depth) == count
    assert np.array_equal(position.state, before)


def test_the_tables_are_the_libraries() -> None:
    for index, option in enumerate(DIAGONAL_OPTIONS):
        for point in range(NUM_POINTS):
            steps = [int(p) for p in STEP[index, point] if p >= 0]
            assert steps == list(NEIGHBOURS[option][point])
            jumps = [
                (int(o), int(land))
                for o, land in zip(JUMP_OVER[index, point], JUMP_LAND[index, point], strict=True)
                if o >= 0
            ]
            assert jumps == list(JUMPS[option][point])


def _compare(board: Board, depth: int) -> None:
    """Moves (as strings, in order), make/unmake and perft of both generators agree."""
    position = Position.from_board(board)
    library = [str(move) for move in board.generate_legal_moves()]
    assert [str(decode_move(code)) for code in position.legal_moves()] == library
    before = position.state.copy()
    for code in position.legal_moves():
        move = decode_move(code)
        assert encode_move(move) == code
        board.push(move)
        make_move(position.state, position.history, code)
        assert position.state[S_HASH] == compute_hash(position.state)
        assert list(position.state[:NUM_POINTS]) == board.pieces()
        assert position.state[S_MEN] == board.men_count
        tigers = sorted(int(p) for p in position.state[S_TIGER : S_TIGER + 2] if p >= 0)
        assert tigers == board.tiger_points()
        unmake_move(position.state, position.history)
        board.pop()
        assert np.array_equal(position.state, before)
    assert position.perft(depth) == board.perft(depth)


CASES = [
    pytest.param(extra, text, id=f"{'-'.join(f'{k}={v}' for k, v in extra.items())}-{n}")
    for extra, (n, text) in itertools.product(OPTION_SETS, enumerate(POSITIONS))
    if _fits(text, _options(extra)) is not None
]


@pytest.mark.parametrize(("extra", "text"), CASES)
def test_both_generators_agree_under_every_option(extra: dict[str, Any], text: str) -> None:
    position = _fits(text, _options(extra))
    assert position is not None
    rules = rules_from_mapping("options", {"parent": "laohuqi", **extra})
    _compare(Board(position, rules), 3)


POINT_LIST = [(f, r) for r in range(1, 10) for f in range(9)] + [
    (f, r) for r in (10, 11) for f in (3, 4, 5)
]


@st.composite
def positions(draw: st.DrawFn) -> Board:
    options = {
        "diagonals": draw(st.sampled_from(["none", "nest", "all"])),
        "men": draw(st.sampled_from([12, 18])),
        "tigers": draw(st.sampled_from([1, 2])),
        "first": draw(st.sampled_from(["tiger", "men"])),
        "men_retreat": draw(st.booleans()),
        "multi_jump": draw(st.booleans()),
        "capture_mandatory": draw(st.booleans()),
        "tiger_wins_below": draw(st.integers(0, 5)),
    }
    points = draw(st.permutations(POINT_LIST))
    men = draw(st.integers(0, options["men"]))
    placement = {p: "T" for p in points[: options["tigers"]]}
    placement |= {p: "M" for p in points[options["tigers"] : options["tigers"] + men]}
    text = ref.write(placement, draw(st.sampled_from("tm")))
    return Board(text, rules_from_mapping("random", options))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_both_generators_agree_on_random_positions(board: Board) -> None:
    _compare(board, 2)


def test_a_long_chain_encodes_and_plays_back() -> None:
    # A snake of men along the edge: a1 c1 e1 g1 i1 i3 i5 i7 i9, eight hops in one move.
    men = "b1 d1 f1 h1 i2 i4 i6 i8"
    board = Board(place("a1", men), rules_from_mapping("x", {"multi_jump": True}))
    _compare(board, 3)
    longest = max(board.generate_legal_moves(), key=lambda move: len(move.path))
    assert str(longest) == "a1c1e1g1i1i3i5i7i9"
    # 18 hops, every man of the largest start: the encoding holds them.
    text = "a1c1e1g1i1i3g3e3c3a3a5c5e5g5i5i7g7e7c7"
    assert str(decode_move(encode_move(Move.from_str(text)))) == text


def test_history_replays_passes_and_moves() -> None:
    board = Board(rules="laohuqi")
    rng = random.Random(3)
    for _ in range(30):
        moves = list(board.generate_legal_moves())
        if not moves:
            break
        if rng.random() < 0.1:
            board.push_pass()
        else:
            board.push(rng.choice(moves))
    position = Position.from_board(board)
    assert list(position.state[:NUM_POINTS]) == board.pieces()
    assert position.ply == board.ply()
    assert position.turn == board.turn
    assert len(position.state) == STATE_SIZE

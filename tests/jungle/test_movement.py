"""docs/rules.md 2 and 3.1-3.3: steps, the own den, water, the start position and the first player.

Each position is written for Red; the ``mirror`` fixture runs it a second time turned by 180°
with the colours swapped, so every clause is checked for Blue as well.
"""

from __future__ import annotations

import dataclasses

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError
from doushouqi.jungle.rules import find_rules
from doushouqi.jungle.squares import BLUE, RED, parse_square

RULE_SETS = ["wango", "classic", "classic-dog", "international"]

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"

RED_START_MOVES = {
    "a1a2", "a1b1",  # tiger
    "g1g2", "g1f1",  # lion
    "f2e2", "f2g2", "f2f1", "f2f3",  # dog
    "b2a2", "b2c2", "b2b1", "b2b3",  # cat
    "g3g4", "g3f3", "g3g2",  # rat
    "e3d3", "e3f3", "e3e2",  # leopard (e4 is water)
    "c3b3", "c3d3", "c3c2",  # wolf (c4 is water)
    "a3a4", "a3b3", "a3a2",  # elephant
}  # fmt: skip
BLUE_START_MOVES = {
    "g9g8", "g9f9",  # tiger
    "a9a8", "a9b9",  # lion
    "b8c8", "b8a8", "b8b9", "b8b7",  # dog
    "f8g8", "f8e8", "f8f9", "f8f7",  # cat
    "a7a6", "a7b7", "a7a8",  # rat
    "c7d7", "c7b7", "c7c8",  # leopard (c6 is water)
    "e7f7", "e7d7", "e7e8",  # wolf (e6 is water)
    "g7g6", "g7f7", "g7g8",  # elephant
}  # fmt: skip


def test_helpers(moves_from, legal, put, rotate) -> None:
    """The shared helpers of conftest.py: a wrong helper would make the other tests moot."""
    assert rotate(START) == START.replace(" w ", " b ")
    assert rotate({"a1", "d5", "c9"}) == {"g9", "d5", "e1"}
    assert rotate("g3g4") == "a7a6"
    assert (rotate(0), rotate(1), rotate(None)) == (1, 0, None)
    assert (rotate("1-0"), rotate("0-1"), rotate("1/2-1/2")) == ("0-1", "1-0", "1/2-1/2")
    assert put("7/7/7/7/7/7/7/7/7 w", c5="r", a1="T") == "7/7/7/7/2r4/7/7/7/T6 w"
    assert put("7/7/7/7/2r4/7/7/7/T6 w", c5=None) == "7/7/7/7/7/7/7/7/T6 w"
    board = Board("6r/7/7/7/3L3/7/7/7/7 w")
    assert moves_from(board, "d5") == {"d4", "d6", "a5", "g5"}
    assert moves_from(board, "a1") == set()
    assert "d5a5" in legal(board)
    assert rotate(RED_START_MOVES) == BLUE_START_MOVES


# --- 3.1 steps: one square orthogonally, never off the board -----------------------------------

STEP_CASES = [
    # (square of a Red dog, position, squares it may step to)
    ("d3", "6c/7/7/7/7/7/3D3/7/7 w", {"c3", "e3", "d2", "d4"}),
    ("a1", "6c/7/7/7/7/7/7/7/D6 w", {"a2", "b1"}),
    ("g1", "6c/7/7/7/7/7/7/7/6D w", {"g2", "f1"}),
    ("a9", "D5c/7/7/7/7/7/7/7/7 w", {"a8", "b9"}),
    ("g9", "c5D/7/7/7/7/7/7/7/7 w", {"g8", "f9"}),
    ("a7", "6c/7/D6/7/7/7/7/7/7 w", {"a8", "a6", "b7"}),
    ("g7", "6c/7/6D/7/7/7/7/7/7 w", {"g8", "g6", "f7"}),
    ("a3", "6c/7/7/7/7/7/D6/7/7 w", {"a2", "a4", "b3"}),
    ("g2", "6c/7/7/7/7/7/7/6D/7 w", {"g1", "g3", "f2"}),
    ("b1", "6c/7/7/7/7/7/7/7/1D5 w", {"a1", "c1", "b2"}),
    ("f9", "c4D1/7/7/7/7/7/7/7/7 w", {"e9", "g9", "f8"}),
    ("e9", "c3D2/7/7/7/7/7/7/7/7 w", {"d9", "f9", "e8"}),
    ("d7", "6c/7/3D3/7/7/7/7/7/7 w", {"c7", "e7", "d6", "d8"}),
]


@pytest.mark.parametrize(("square", "fen", "expected"), STEP_CASES, ids=[c[0] for c in STEP_CASES])
def test_step_to_orthogonal_neighbours_only(square, fen, expected, mirror, moves_from) -> None:
    board = Board(mirror(fen))
    assert moves_from(board, mirror(square)) == mirror(expected)


def test_no_diagonal_or_longer_steps(mirror, moves_from) -> None:
    # A Red dog on d3 in the open: none of the diagonal or two-away squares are reachable.
    board = Board(mirror("6c/7/7/7/7/7/3D3/7/7 w"))
    reachable = moves_from(board, mirror("d3"))
    assert not reachable & mirror({"c2", "e2", "c4", "e4", "d5", "d1", "b3", "f3"})
    assert reachable == mirror({"c3", "e3", "d2", "d4"})


def test_step_not_onto_own_animal(mirror, moves_from) -> None:
    # Red dog d3, Red cat d4: the dog may not step onto the cat; the cat (between the lakes)
    # may only go on to d5.
    board = Board(mirror("6c/7/7/7/7/3C3/3D3/7/7 w"))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2"})
    assert moves_from(board, mirror("d4")) == mirror({"d5"})


def test_step_not_onto_stronger_enemy(mirror, moves_from) -> None:
    board = Board(mirror("7/7/7/7/7/3e3/3D3/7/7 w"))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2"})


def test_only_the_side_to_move_moves(mirror, legal) -> None:
    board = Board(mirror("6c/7/7/7/7/7/3D3/7/7 w"))
    assert {move[:2] for move in legal(board)} == {mirror("d3")}
    board.push_move(mirror("d3d4"))
    assert {move[:2] for move in legal(board)} == {mirror("g9")}
    with pytest.raises(IllegalMoveError, match="not yours"):
        board.push_move(mirror("d4d5"))


def test_a_move_moves_exactly_one_animal(mirror) -> None:
    board = Board(mirror(START))
    before = [board.piece_at(s) for s in range(63)]
    board.push_move(mirror("a3a4"))
    after = [board.piece_at(s) for s in range(63)]
    changed = {s for s in range(63) if before[s] != after[s]}
    assert changed == {parse_square(mirror("a3")), parse_square(mirror("a4"))}
    assert after[parse_square(mirror("a4"))] == before[parse_square(mirror("a3"))]


# --- 3.2 no animal enters its own den ---------------------------------------------------------

OWN_DEN_SQUARES = [
    # (square next to Red's den d1, the squares a Red animal there may go to: never d1)
    ("d2", {"c2", "e2", "d3"}),
    ("c1", {"b1", "c2"}),
    ("e1", {"f1", "e2"}),
]


@pytest.mark.parametrize("animal", list("RCDWPTLE"))
@pytest.mark.parametrize(
    ("square", "expected"), OWN_DEN_SQUARES, ids=[c[0] for c in OWN_DEN_SQUARES]
)
def test_own_den_forbidden(animal, square, expected, mirror, put, moves_from) -> None:
    board = Board(mirror(put("6c/7/7/7/7/7/7/7/7 w", **{square: animal})))
    assert moves_from(board, mirror(square)) == mirror(expected)


def test_own_den_forbidden_as_push(mirror) -> None:
    board = Board(mirror("6c/7/7/7/7/7/7/3L3/7 w"))
    with pytest.raises(IllegalMoveError, match="own den"):
        board.push_move(mirror("d2d1"))


ENEMY_DEN_SQUARES = [
    ("d8", {"c8", "e8", "d7", "d9"}),
    ("c9", {"b9", "d9", "c8"}),
    ("e9", {"d9", "f9", "e8"}),
]


@pytest.mark.parametrize("animal", list("RCDWPTLE"))
@pytest.mark.parametrize(
    ("square", "expected"), ENEMY_DEN_SQUARES, ids=[c[0] for c in ENEMY_DEN_SQUARES]
)
def test_enemy_den_may_be_entered(animal, square, expected, mirror, put, moves_from) -> None:
    # The enemy den is an ordinary square to move to (entering it wins: test_outcome.py).
    board = Board(mirror(put("7/7/7/7/7/7/7/7/c6 w", **{square: animal})))
    assert moves_from(board, mirror(square)) == mirror(expected)


# --- 3.3 water: only the rat enters it, and it moves in water as on land ------------------------

BANKS = {
    # bank square: (land neighbours, water neighbours, lion/tiger jump landings)
    "d5": ({"d4", "d6"}, {"c5", "e5"}, {"a5", "g5"}),
    "b3": ({"a3", "c3", "b2"}, {"b4"}, {"b7"}),
    "a5": ({"a4", "a6"}, {"b5"}, {"d5"}),
    "f7": ({"e7", "g7", "f8"}, {"f6"}, {"f3"}),
    "d4": ({"d3", "d5"}, {"c4", "e4"}, {"a4", "g4"}),
}


@pytest.mark.parametrize("animal", list("RCDWPTLE"))
@pytest.mark.parametrize("square", list(BANKS))
def test_only_the_rat_enters_water(animal, square, mirror, put, moves_from) -> None:
    land, water, jumps = BANKS[square]
    expected = set(land)
    if animal == "R":
        expected |= water
    if animal in "LT":
        expected |= jumps
    board = Board(mirror(put("6c/7/7/7/7/7/7/7/7 w", **{square: animal})))
    assert moves_from(board, mirror(square)) == mirror(expected)


RAT_IN_WATER = {
    "b4": {"a4", "c4", "b3", "b5"},
    "b5": {"a5", "c5", "b4", "b6"},
    "c6": {"b6", "d6", "c5", "c7"},
    "e4": {"d4", "f4", "e3", "e5"},
    "f5": {"e5", "g5", "f4", "f6"},
    "f6": {"e6", "g6", "f5", "f7"},
}


@pytest.mark.parametrize("square", list(RAT_IN_WATER))
def test_rat_moves_in_water_as_on_land(square, mirror, put, moves_from) -> None:
    board = Board(mirror(put("6c/7/7/7/7/7/7/7/7 w", **{square: "R"})))
    assert moves_from(board, mirror(square)) == mirror(RAT_IN_WATER[square])


def test_rat_swims_across_a_lake(mirror) -> None:
    board = Board(mirror("6c/7/7/7/3R3/7/7/7/7 w"))
    moves = ["d5c5", "g9g8", "c5b5", "g8g9", "b5b6", "g9g8", "b6b7"]
    board.replay(mirror(moves))  # each move checked: c5, b5 and b6 are water
    assert board.fen().split()[:2] == mirror("7/6c/1R5/7/7/7/7/7/7 b").split()


# --- 2: start position and first player -------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
def test_start_position_red_moves(rules, legal) -> None:
    board = Board(rules=rules)
    assert board.fen() == START
    assert legal(board) == RED_START_MOVES
    assert board.legal_moves.count() == 24


@pytest.mark.parametrize("rules", RULE_SETS)
def test_start_position_blue_moves(rules, legal) -> None:
    board = Board(START.replace(" w ", " b "), rules=rules)
    assert legal(board) == BLUE_START_MOVES


@pytest.mark.parametrize("rules", RULE_SETS)
def test_red_moves_first_by_default(rules) -> None:
    board = Board(rules=rules)
    assert board.turn == RED
    assert board.fen().endswith(" w 0 1")


def test_first_player_blue_option(legal) -> None:
    blue_first = dataclasses.replace(find_rules("wango"), first_player=1)
    board = Board(rules=blue_first)
    assert board.turn == BLUE
    assert board.fen() == START.replace(" w ", " b ")
    assert legal(board) == BLUE_START_MOVES
    board.push_move("a7a6")
    assert board.turn == RED
    assert legal(board) == RED_START_MOVES

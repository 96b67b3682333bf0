"""``Board.legal_targets`` (the legal moves grouped by their from-square, as bitboards) and the
web board's destinations built on it: the same moves as ``generate_legal_moves`` in every rule
set, restricted moves (7-3, 17-5, must-vary) left out alike."""

from __future__ import annotations

import random

import pytest

from doushouqi.jungle.board import Board
from doushouqi.jungle.game import legal_destinations
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import iter_squares, square_name


def _grouped(board: Board) -> dict[str, list[str]]:
    dests: dict[str, list[str]] = {}
    for move in board.generate_legal_moves():
        dests.setdefault(square_name(move.from_square), []).append(square_name(move.to_square))
    return dests


def _pairs(board: Board) -> list[tuple[int, int]]:
    return [(frm, to) for frm, targets in board.legal_targets() for to in iter_squares(targets)]


@pytest.mark.parametrize("rules", sorted(BUILTIN_RULE_SETS))
def test_legal_targets_are_the_legal_moves(rules: str) -> None:
    rng = random.Random(rules)
    for _ in range(12):
        board = Board(rules=rules)
        for _ in range(rng.randint(0, 80)):
            moves = list(board.generate_legal_moves())
            assert _pairs(board) == [(m.from_square, m.to_square) for m in moves]
            assert legal_destinations(board) == _grouped(board)
            if not moves:
                break
            board.push(rng.choice(moves))


def test_restricted_moves_are_left_out() -> None:
    board = Board(rules="classic")  # the 7-3 restriction
    board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)
    assert "g4" not in legal_destinations(board)["g3"]
    assert legal_destinations(board) == _grouped(board)


def test_nothing_once_the_game_is_over() -> None:
    board = Board("7/3L3/7/7/7/7/7/7/r6 w")
    board.push_move("d8d9")  # into the den
    assert list(board.legal_targets()) == [] and legal_destinations(board) == {}

"""Tests for Board.copy(stack=...) and Board.clear_stack."""

from __future__ import annotations

import random

import pytest

from doushouqi import Board


def _played(rules: str, plies: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board(rules=rules)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize("rules", ["wango", "classic"])
def test_copy_without_stack_is_the_position_read_afresh(rules: str) -> None:
    for seed in range(5):
        board = _played(rules, 50, seed)
        copy = board.copy(stack=False)
        fresh = Board(board.fen(), rules=rules)
        assert copy.fen() == board.fen() == fresh.fen()
        assert copy.move_stack == [] and copy.ply() == 0
        assert copy.starting_fen == board.fen()
        assert (copy.halfmove_clock, copy.fullmove_number) == (
            board.halfmove_clock,
            board.fullmove_number,
        )
        assert sorted(copy.legal_moves) == sorted(fresh.legal_moves)
        assert copy.repetition_count() == 1
        assert copy.zobrist_hash() == board.zobrist_hash()
        # Independent of the original.
        board.pop()
        assert copy.fen() == fresh.fen()


def test_copy_with_stack_default_keeps_everything() -> None:
    board = _played("classic", 40, 1)
    copy = board.copy()
    assert copy.move_stack == board.move_stack
    assert copy.starting_fen == board.starting_fen
    assert sorted(copy.legal_moves) == sorted(board.legal_moves)


def test_copy_with_a_number_of_plies() -> None:
    board = _played("classic", 30, 2)
    copy = board.copy(stack=10)
    assert copy.move_stack == board.move_stack[-10:]
    start = board.copy()
    for _ in range(10):
        start.pop()
    assert copy.starting_fen == start.fen()
    # Unwinding the copy leads to its starting position.
    while copy.move_stack:
        copy.pop()
    assert copy.fen() == start.fen()
    assert board.copy(stack=1000).move_stack == board.move_stack
    assert board.copy(stack=0).move_stack == []
    with pytest.raises(ValueError):
        board.copy(stack=-1)


def test_clear_stack() -> None:
    board = _played("wango", 10, 3)
    fen = board.fen()
    board.clear_stack()
    assert board.fen() == fen and board.move_stack == [] and board.starting_fen == fen

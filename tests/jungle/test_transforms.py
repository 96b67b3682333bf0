"""Tests for Board.mirror (top to bottom, colours swapped, as python-chess), Board.half_turn
(half turn, colours swapped), Board.transform/flip_horizontal (left to right) and the symmetry
check of doushouqi.jungle.squares."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi import Board, Piece
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import (
    DENS,
    NUM_SQUARES,
    RAT,
    WATER,
    check_symmetry,
    code_animal,
    code_color,
    square_flip_horizontal,
    square_half_turn,
    square_mirror,
)


def _allowed(code: int) -> list[int]:
    return [
        s
        for s in range(NUM_SQUARES)
        if s != DENS[code_color(code)] and (code_animal(code) == RAT or not WATER >> s & 1)
    ]


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A random set-up under a random rule set, then a few random moves (with history)."""
    board = Board.empty(rules=draw(st.sampled_from(sorted(BUILTIN_RULE_SETS))))
    # The turn first: editing recomputes the hash with it (assigning turn alone does not).
    board.turn = draw(st.sampled_from([0, 1]))
    for code in draw(st.lists(st.integers(1, 16), unique=True, min_size=2, max_size=16)):
        free = [s for s in _allowed(code) if board.piece_at(s) is None]
        board.set_piece_at(draw(st.sampled_from(free)), Piece.from_code(code))
    board.halfmove_clock = draw(st.integers(0, 150))
    for choice in draw(st.lists(st.integers(0, 1 << 16), max_size=20)):
        moves = sorted(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board


def _moves(board: Board) -> set[tuple[int, int]]:
    return {(m.from_square, m.to_square) for m in board.legal_moves}


def test_start_position_is_its_own_half_turn() -> None:
    board = Board()
    turned = board.half_turn()
    assert turned.board_fen() == board.board_fen()
    assert turned.turn == 1
    assert turned.half_turn() == board


def test_mirror_is_python_chess_mirror() -> None:
    # python-chess: flipped top to bottom, colours and side to move swapped.
    mirrored = Board("7/7/7/7/7/7/7/2L4/r6 w").mirror()
    assert mirrored.epd() == "R6/2l4/7/7/7/7/7/7/7 b"
    assert Board().mirror() == Board().half_turn().flip_horizontal()


def test_flip_of_the_start_position() -> None:
    flipped = Board().flip_horizontal()
    assert flipped.board_fen() == "t5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T"
    assert flipped.turn == 0
    assert flipped.flip_horizontal() == Board()
    assert flipped.perft(3) == Board().perft(3)


def test_transforms_drop_the_history_and_keep_the_counters() -> None:
    board = Board()
    for text in ["a3a4", "a7a6", "a4a3"]:
        board.push_uci(text)
    for other in (
        board.mirror(),
        board.half_turn(),
        board.flip_horizontal(),
        board.transform(lambda s: s),
    ):
        assert other.move_stack == []
        assert other.starting_fen == other.fen()
        assert (other.halfmove_clock, other.fullmove_number) == (3, 2)
        assert other.rules == board.rules
    assert board.transform(lambda s: s) == board
    assert len(board.move_stack) == 3  # the original is untouched


def test_transforms_that_do_not_keep_the_board_are_refused() -> None:
    with pytest.raises(ValueError, match="den d1 goes to d9"):
        Board().transform(square_mirror)  # would need the colours swapped: use mirror()
    with pytest.raises(ValueError, match="den d1 goes to d9"):
        Board().transform(square_half_turn)  # the same: use half_turn()
    with pytest.raises(ValueError, match="not a permutation"):
        Board().transform(lambda s: 0)
    with pytest.raises(ValueError, match="den"):
        Board().transform(lambda s: (8 - s // 7) * 7 + s % 7)  # rows upside down
    # A permutation keeping dens, traps and water but not neighbours.
    swap = {0: 6, 6: 0}  # a1 <-> g1 only
    with pytest.raises(ValueError, match="neighbours"):
        Board().transform(lambda s: swap.get(s, s))
    check_symmetry(square_flip_horizontal)
    check_symmetry(square_mirror, swap_colors=True)
    check_symmetry(square_half_turn, swap_colors=True)
    with pytest.raises(ValueError, match="den"):
        check_symmetry(square_flip_horizontal, swap_colors=True)


def test_square_maps() -> None:
    for square in range(NUM_SQUARES):
        assert square_mirror(square_mirror(square)) == square
        assert square_half_turn(square_half_turn(square)) == square
        assert square_mirror(square) % 7 == square % 7
        assert square_flip_horizontal(square_flip_horizontal(square)) == square
        assert square_flip_horizontal(square) // 7 == square // 7


@settings(max_examples=120, deadline=None)
@given(positions())
def test_legal_moves_and_perft_map_under_both_transforms(board: Board) -> None:
    # The transforms drop the history, so compare with the position without it (the move
    # restrictions of the classic rule sets depend on the history).
    plain = board.copy(stack=False)
    moves = _moves(plain)
    mirrored, flipped, turned = board.mirror(), board.flip_horizontal(), board.half_turn()
    assert mirrored.turn == 1 - board.turn and flipped.turn == board.turn
    assert _moves(mirrored) == {(square_mirror(a), square_mirror(b)) for a, b in moves}
    assert _moves(turned) == {(square_half_turn(a), square_half_turn(b)) for a, b in moves}
    assert turned.perft(2) == plain.perft(2) and turned.half_turn() == plain
    assert _moves(flipped) == {
        (square_flip_horizontal(a), square_flip_horizontal(b)) for a, b in moves
    }
    perft = plain.perft(2)
    assert mirrored.perft(2) == perft == flipped.perft(2)
    for other in (mirrored, flipped):
        assert other.is_valid() == plain.is_valid()
        outcome, other_outcome = plain.outcome(), other.outcome()
        assert (outcome is None) == (other_outcome is None)
        if outcome is not None and other_outcome is not None:
            assert outcome.termination == other_outcome.termination
            # With both dens entered (a position no game reaches: the first entry ends it)
            # the winner is whichever den the rules look at first, on both boards alike.
            both_dens = all(plain.piece_at(den) is not None for den in DENS)
            if outcome.winner is not None and other is mirrored and not both_dens:
                assert other_outcome.winner == 1 - outcome.winner
    assert mirrored.mirror() == plain
    assert flipped.flip_horizontal() == plain
    for color in (0, 1):
        other = 1 - color
        assert mirrored.is_den_threatened(other) == plain.is_den_threatened(color)
        assert flipped.is_den_threatened(color) == plain.is_den_threatened(color)

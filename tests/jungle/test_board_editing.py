"""Tests for position editing (set_piece_at, remove_piece_at, clear, reset, Board.empty),
Board.status()/is_valid(), and the square constants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import doushouqi
from doushouqi import A1, B5, C3, D1, D9, E7, G1, G9, Board, Piece, Status
from doushouqi.jungle.fen import InvalidFenError, parse_fen
from doushouqi.jungle.squares import NUM_SQUARES, SQUARE_NAMES, parse_square

FLAGS_FROM_FEN = Status.DUPLICATE_ANIMAL | Status.ANIMAL_IN_WATER | Status.ANIMAL_IN_OWN_DEN


def test_square_constants() -> None:
    assert (A1, G1, D9, G9) == (0, 6, 59, 62)
    for name in SQUARE_NAMES:
        assert getattr(doushouqi, name.upper()) == parse_square(name)
        assert getattr(doushouqi.jungle.squares, name.upper()) == parse_square(name)
        assert name.upper() in doushouqi.__all__


def test_empty_board() -> None:
    board = Board.empty()
    assert board.board_fen() == "7/7/7/7/7/7/7/7/7"
    assert board.status() == Status.EMPTY | Status.OPPOSITE_HAS_NO_ANIMALS
    assert not board.is_valid()
    assert board.turn == 0
    blue_first = Board.empty(rules=doushouqi.RuleSet(first_player=1))
    assert blue_first.turn == 1
    assert Board.empty(rules="classic").rules.name == "classic"


def test_set_and_remove_pieces() -> None:
    board = Board.empty()
    board.set_piece_at(C3, Piece.from_symbol("L"))
    board.set_piece_at(E7, Piece.from_symbol("t"))
    assert board.fen() == "7/7/4t2/7/7/7/2L4/7/7 w 0 1"
    assert board.is_valid()
    assert board.square_of(0, doushouqi.LION) == C3
    assert board.occupied_co[1] == 1 << E7
    # Three steps and the jump across the lake to c7.
    assert {str(m) for m in board.legal_moves} == {"c3c2", "c3b3", "c3d3", "c3c7"}
    # Replacing, then removing.
    board.set_piece_at(C3, Piece.from_symbol("E"))
    assert board.piece_at(C3) == Piece.from_symbol("E")
    assert board.square_of(0, doushouqi.LION) is None
    assert board.remove_piece_at(C3) == Piece.from_symbol("E")
    assert board.remove_piece_at(C3) is None
    assert board.occupied_co[0] == 0
    # The hash is that of the same position read from its string.
    board.set_piece_at(G1, Piece.from_symbol("R"))
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()
    with pytest.raises(ValueError, match="not a square"):
        board.set_piece_at(63, Piece.from_symbol("R"))
    with pytest.raises(ValueError, match="not a piece"):
        board.set_piece_at(A1, Piece(9, 0))


def test_editing_clears_the_history_but_keeps_turn_and_counters() -> None:
    board = Board()
    board.push_uci("a3a4")
    board.push_uci("a7a6")
    board.set_piece_at(C3, None)
    assert board.move_stack == []
    assert board.ply() == 0
    assert board.starting_fen == board.fen()
    assert (board.turn, board.halfmove_clock, board.fullmove_number) == (0, 2, 2)
    with pytest.raises(IndexError):
        board.pop()


def test_clear_and_reset() -> None:
    board = Board()
    board.push_uci("a3a4")
    board.clear()
    assert board.fen() == "7/7/7/7/7/7/7/7/7 w 0 1"
    assert board.move_stack == []
    board.reset()
    assert board == Board()
    assert board.fen() == Board().fen()
    assert board.move_stack == []
    blue = Board(rules=doushouqi.RuleSet(first_player=1))
    blue.push_uci("a7a6")
    blue.reset()
    assert blue.turn == 1 and blue.fen() == Board(rules=blue.rules).fen()


def test_status_flags() -> None:
    assert Board().status() == Status.VALID and Board().is_valid()
    board = Board()
    board.set_piece_at(parse_square("d5"), Piece.from_symbol("L"))  # a second Red lion
    assert board.status() == Status.DUPLICATE_ANIMAL
    board = Board()
    board.set_piece_at(B5, board.remove_piece_at(parse_square("c3")))  # wolf into the water
    assert board.status() == Status.ANIMAL_IN_WATER
    board = Board()
    board.set_piece_at(B5, board.remove_piece_at(parse_square("g3")))  # the rat may swim
    assert board.is_valid()
    board.set_piece_at(D1, board.remove_piece_at(parse_square("c3")))
    assert board.status() == Status.ANIMAL_IN_OWN_DEN
    # Finished games are valid: Red in Blue's den with Blue to move; Blue without animals to move.
    assert Board("3L3/7/7/7/7/7/7/7/6r b").is_valid()
    assert Board("7/7/7/7/7/7/7/7/6L b").is_valid()
    # ... but not the other way round.
    assert Board("3L3/7/7/7/7/7/7/7/6r w").status() == Status.TURN_IN_ENEMY_DEN
    assert Board("7/7/7/7/7/7/7/7/6L w").status() == Status.OPPOSITE_HAS_NO_ANIMALS
    board = Board()
    board.halfmove_clock = -1
    assert board.status() == Status.BAD_COUNTERS
    board.halfmove_clock, board.fullmove_number = 0, 0
    assert board.status() == Status.BAD_COUNTERS


def test_moves_on_an_invalid_board_do_not_crash() -> None:
    board = Board()
    board.set_piece_at(parse_square("d5"), Piece.from_symbol("L"))
    assert not board.is_valid()
    moves = list(board.legal_moves)
    assert any(m.from_square == parse_square("d5") for m in moves)
    assert any(m.from_square == G1 for m in moves)
    for move in moves:
        board.push(move)
        board.pop()


# The placement flags are exactly what the position-string reader refuses.

codes_on_squares = st.dictionaries(st.integers(0, NUM_SQUARES - 1), st.integers(1, 16), max_size=20)


@settings(max_examples=300, deadline=None)
@given(codes_on_squares, st.sampled_from([0, 1]))
def test_placement_flags_agree_with_the_position_string_reader(
    placement: dict[int, int], turn: int
) -> None:
    board = Board.empty()
    for square, code in placement.items():
        board.set_piece_at(square, Piece.from_code(code))
    board.turn = turn
    try:
        parse_fen(board.fen())
        readable = True
    except InvalidFenError:
        readable = False
    assert readable == (not board.status() & FLAGS_FROM_FEN)
    if readable:
        again = Board(board.fen())
        assert again == board
        assert again.status() == board.status()

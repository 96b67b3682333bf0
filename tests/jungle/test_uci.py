"""Tests for the coordinate move strings (Move.uci/from_uci, Board.parse_uci/push_uci) and the
order of moves."""

from __future__ import annotations

import random

import pytest

from doushouqi import G3, G4, Board, IllegalMoveError, InvalidMoveError, Move


def test_uci_round_trip_of_every_legal_move() -> None:
    rng = random.Random(3)
    board = Board()
    for _ in range(80):
        moves = list(board.legal_moves)
        if not moves:
            break
        for move in moves:
            assert Move.from_uci(move.uci()) == move
            assert move.uci() == str(move)
        board.push(rng.choice(moves))


def test_from_uci_and_pass() -> None:
    assert Move.from_uci("g3g4") == Move(G3, G4)
    assert Move.from_uci("a4d4").uci() == "a4d4"  # a jump is written like a step
    assert Move.from_uci("0000") == Move.null()
    assert Move.null().uci() == "0000"


@pytest.mark.parametrize(
    "text", ["", "g3", "g3g4g5", "h3g4", "g0g1", "G3G4", " g3g4", "g3g4 ", "g3g3", "--", None]
)
def test_from_uci_refuses_malformed_text(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_uci(text)
    assert issubclass(InvalidMoveError, ValueError)


def test_push_uci_checks_and_returns_the_move() -> None:
    board = Board()
    assert board.push_uci("g3g4") == Move(G3, G4)
    assert board.peek() == Move(G3, G4)
    with pytest.raises(IllegalMoveError, match="not yours"):
        board.push_uci("g4g5")
    with pytest.raises(InvalidMoveError):
        board.push_uci("g4")
    with pytest.raises(IllegalMoveError, match="pass"):
        board.push_uci("0000")
    assert board.push_uci("0000", allow_pass=True) == Move.null()
    assert board.ply() == 2
    assert issubclass(IllegalMoveError, ValueError)


def test_parse_uci_does_not_push() -> None:
    board = Board()
    assert board.parse_uci("a3a4") == Move.from_uci("a3a4")
    assert board.ply() == 0
    with pytest.raises(IllegalMoveError, match="only the rat may enter the water"):
        board.parse_uci("c3c4")


def test_moves_have_a_total_order_by_from_then_to_square() -> None:
    board = Board()
    moves = sorted(board.legal_moves)
    assert moves == sorted(board.legal_moves, key=lambda m: (m.from_square, m.to_square))
    assert [m.uci() for m in moves[:3]] == ["a1b1", "a1a2", "g1f1"]
    a, b = Move.from_uci("a1b1"), Move.from_uci("a1a2")
    assert a < b and a <= b and b > a and b >= a and a <= a and a >= a
    assert not (a < a) and not (a > a)
    assert Move.null() < a  # the pass is a1a1: first
    assert sorted([b, Move.null(), a]) == [Move.null(), a, b]
    assert max(board.legal_moves) == moves[-1]
    with pytest.raises(TypeError):
        _ = a < "a1b1"  # type: ignore[operator]

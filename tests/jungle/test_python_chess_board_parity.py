"""python-chess snippets ported to Jungle: ``board.ply()``, ``pieces(piece_type, color)``,
``lan``, ``variation_san``, ``find_move``, ``piece_map``, ``epd``, ``pseudo_legal_moves``, the
``from_mask``/``to_mask`` of move generation and ``pop()`` on an empty stack, each run here
and, where the games agree, against python-chess itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi import Board, Move
from doushouqi.jungle.moves import IllegalMoveError
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.squares import (
    A7,
    BLUE,
    D1,
    G1,
    G3,
    G4,
    LION,
    RAT,
    RED,
    SquareSet,
    parse_square,
)

chess = pytest.importorskip("chess")


@st.composite
def played_boards(draw: st.DrawFn) -> Board:
    board = Board(rules=draw(st.sampled_from(sorted(BUILTIN_RULE_SETS))))
    for choice in draw(st.lists(st.integers(0, 1 << 16), max_size=30)):
        moves = sorted(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board


def test_ply_is_a_method_as_in_python_chess() -> None:
    ours, theirs = Board(), chess.Board()
    for uci_ours, uci_theirs in (("g3g4", "e2e4"), ("a7a6", "e7e5")):
        ours.push_uci(uci_ours)
        theirs.push_uci(uci_theirs)
        assert ours.ply() == theirs.ply()
    ours.pop()
    theirs.pop()
    assert ours.ply() == theirs.ply() == 1


def test_pop_from_an_empty_stack() -> None:
    with pytest.raises(IndexError, match="pop from empty move stack"):
        Board().pop()
    with pytest.raises(IndexError):
        chess.Board().pop()


def test_pieces_is_a_square_set_by_kind_and_colour() -> None:
    board = Board()
    assert board.pieces(LION, RED) == SquareSet([G1]) and board.pieces(RAT, BLUE) == [A7]
    assert isinstance(chess.Board().pieces(chess.KNIGHT, chess.WHITE), chess.SquareSet)
    assert int(board.pieces(RAT, RED)) == board.pieces_mask(RAT, RED)
    board.push_uci("g3g4")
    assert board.pieces(RAT, RED) == [G4]
    taken = Board("7/7/7/7/7/7/7/7/6L w")
    assert not taken.pieces(RAT, BLUE) and taken.occupied_co == (1 << G1, 0)


def test_piece_map_and_epd() -> None:
    board = Board()
    pieces = board.piece_map()
    assert len(pieces) == 16 and pieces[G1] == Piece.from_symbol("L")
    assert board.piece_map(mask=SquareSet([G1, D1])) == {G1: Piece.from_symbol("L")}
    assert board.epd() == board.fen().rsplit(" ", 2)[0]
    assert Board(board.epd()) == board
    assert chess.Board().epd() == chess.Board().fen().rsplit(" ", 2)[0]


def test_lan_and_variation_san() -> None:
    board = Board()
    assert board.lan(Move.from_uci("g3g4")) == "Rg3-g4"
    assert chess.Board().lan(chess.Move.from_uci("g1f3")) == "Ng1-f3"  # the same form
    line = [Move.from_uci(m) for m in ("g3g4", "a7a6", "g4g5")]
    assert board.variation_san(line) == "1. Rg4 Ra6 2. Rg5"
    assert board.variation_san(line, lang="zh-Hant") == "1. 鼠g4 鼠a6 2. 鼠g5"
    board.push(line[0])
    assert board.variation_san(line[1:]) == "1...Ra6 2. Rg5"
    moved = chess.Board()
    moved.push_san("e4")
    assert moved.variation_san([chess.Move.from_uci("e7e5")]) == "1...e5"
    with pytest.raises(IllegalMoveError, match="illegal move g4g6"):
        board.variation_san([Move.from_uci("a7a6"), Move.from_uci("g4g6")])
    assert board.ply() == 1  # the board is left as it was


def test_find_move() -> None:
    board = Board()
    assert board.find_move(G3, G4) == Move.from_uci("g3g4")
    with pytest.raises(IllegalMoveError, match="no matching legal move for g3g5"):
        board.find_move(G3, parse_square("g5"))
    with pytest.raises(chess.IllegalMoveError, match="no matching legal move"):
        chess.Board().find_move(chess.E2, chess.E5)


@settings(max_examples=80, deadline=None)
@given(played_boards(), st.integers(0, (1 << 63) - 1), st.integers(0, (1 << 63) - 1))
def test_masks_select_from_and_to_squares(board: Board, from_mask: int, to_mask: int) -> None:
    legal = list(board.generate_legal_moves(from_mask, to_mask))
    assert legal == [
        m
        for m in board.generate_legal_moves()
        if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1
    ]
    assert list(board.generate_legal_moves(SquareSet(from_mask), to_mask)) == legal
    pseudo = set(board.generate_pseudo_legal_moves(from_mask, to_mask))
    assert set(legal) <= pseudo
    assert all(board.is_pseudo_legal(m) for m in board.pseudo_legal_moves)
    assert set(board.legal_moves) <= set(board.pseudo_legal_moves)
    assert len(board.pseudo_legal_moves) >= len(board.legal_moves)


def test_pseudo_legal_moves_include_restricted_ones() -> None:
    # Under the classic rules a wolf that entered d4 three times may not enter it again (7-3):
    # the move stays pseudo-legal, as a move into check does in chess.
    board = Board("6r/7/7/7/7/7/3W3/7/7 w", rules="classic")
    walk = ["g9g8", "g8g7", "g7g6", "g6g5", "g5g4", "g4g3"]
    shuffle = ["d3d4", "d4d3", "d3d4", "d4d3", "d3d4", "d4d3"]
    for red, blue in zip(shuffle, walk, strict=True):
        board.push_uci(red)
        board.push_uci(blue)
    restricted = Move.from_uci("d3d4")
    assert restricted in board.pseudo_legal_moves and restricted not in board.legal_moves
    assert board.is_pseudo_legal(restricted) and not board.is_legal(restricted)

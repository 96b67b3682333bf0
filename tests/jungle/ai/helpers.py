"""Helpers shared by the engine-core tests: building positions and comparing move sets."""

from __future__ import annotations

import dataclasses

from doushouqi.jungle.ai import Position
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.rules import Repetition, RuleSet, find_rules
from doushouqi.jungle.squares import ANIMAL_LETTERS, parse_square, square_name

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"
MIDGAME = "l6/3c3/1d1pet1/3wR2/Tr5/3W3/3P1L1/1CE2D1/7 w"


#: WANGO rules plus exactly one move restriction, to test each restriction on its own.
ONLY_7_3 = RuleSet(name="only-7-3", rule_7_3=True)
ONLY_17_5 = RuleSet(name="only-17-5", rule_17_5=True)
ONLY_MUST_VARY = RuleSet(name="only-must-vary", repetition=Repetition.INITIATOR_MUST_VARY)
#: International rules with the classic restrictions, to combine them with trapped attackers.
INTERNATIONAL_RESTRICTED = dataclasses.replace(
    find_rules("international"),
    name="international-restricted",
    rule_7_3=True,
    rule_17_5=True,
    repetition=Repetition.INITIATOR_MUST_VARY,
)


def fen_from_codes(codes: list[int], turn: int) -> str:
    """Position string of 63 piece codes and a side to move."""
    return placement_fen(codes) + (" b" if turn else " w")


def fen_of(pieces: str, turn: str = "w") -> str:
    """Position string from a piece list like ``"Ld5 rb5"`` (upper case Red, lower case Blue)."""
    codes = [0] * 63
    for item in pieces.split():
        letter, square = item[0], parse_square(item[1:])
        animal = ANIMAL_LETTERS.index(letter.upper())
        codes[square] = animal if letter.isupper() else 8 + animal
    return fen_from_codes(codes, 1 if turn == "b" else 0)


def moves_str(pairs: set[tuple[int, int]] | list[tuple[int, int]]) -> set[str]:
    return {square_name(a) + square_name(b) for a, b in pairs}


def engine_moves(position: Position) -> set[str]:
    return moves_str(position.legal_moves())


def library_moves(board: Board) -> set[str]:
    return {str(m) for m in board.generate_legal_moves()}


def play(board: Board, moves: str, *, checked: bool = True) -> Board:
    """Play space-separated move strings on the board; ``0000`` is a pass.

    Unchecked play goes on after a draw by repetition (a drawn game still has legal moves).
    """
    for text in moves.split():
        if text == "0000":
            board.push_pass()
        elif checked:
            board.push_move(text)
        else:
            move = Move.from_str(text)
            assert move in board.legal_moves, text
            board.push(move)
    return board

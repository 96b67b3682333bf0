"""doushouqi — Jungle (斗兽棋 Dou Shou Qi) rules library.

Pure Python, standard library only. The API follows python-chess:

>>> import doushouqi
>>> board = doushouqi.Board()
>>> board.push_move("g3g4")
Move.from_str('g3g4')
>>> board.turn == doushouqi.BLUE
True
>>> board.outcome() is None
True
"""

from __future__ import annotations

from doushouqi.board import STARTING_FEN, Board, IllegalMoveError, LegalMoveGenerator
from doushouqi.fen import InvalidFenError
from doushouqi.moves import InvalidMoveError, Move
from doushouqi.outcome import Outcome, Termination
from doushouqi.pieces import Piece
from doushouqi.rules import BUILTIN_RULE_SETS, InvalidRulesError, Ranks, Repetition, RuleSet, find_rules, load_rules_file
from doushouqi.san import AmbiguousMoveError, InvalidSanError
from doushouqi.squares import A1, A2, A3, A4, A5, A6, A7, A8, A9, ANIMALS, B1, B2, B3, B4, B5, B6, B7, B8, B9, BLUE, C1, C2, C3, C4, C5, C6, C7, C8, C9, CAT, COLORS, D1, D2, D3, D4, D5, D6, D7, D8, D9, DOG, E1, E2, E3, E4, E5, E6, E7, E8, E9, ELEPHANT, F1, F2, F3, F4, F5, F6, F7, F8, F9, G1, G2, G3, G4, G5, G6, G7, G8, G9, LEOPARD, LION, RAT, RED, SQUARE_NAMES, TIGER, WOLF, SquareSet, parse_square, square_flip_horizontal, square_mirror, square_name
from doushouqi.status import Status

__version__ = "0.1.0"

__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "A9",
    "ANIMALS",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "B9",
    "BLUE",
    "BUILTIN_RULE_SETS",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "C9",
    "CAT",
    "COLORS",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "D9",
    "DOG",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "E9",
    "ELEPHANT",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "G9",
    "LEOPARD",
    "LION",
    "RAT",
    "RED",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "TIGER",
    "WOLF",
    "AmbiguousMoveError",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRulesError",
    "InvalidSanError",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "Piece",
    "Ranks",
    "Repetition",
    "RuleSet",
    "SquareSet",
    "Status",
    "Termination",
    "find_rules",
    "load_rules_file",
    "parse_square",
    "square_flip_horizontal",
    "square_mirror",
    "square_name",
]

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

from .board import (
    STARTING_FEN,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    LegalMoveGenerator,
    Move,
    Piece,
)
from .outcome import Outcome, Termination
from .rules import (
    BUILTIN_RULE_SETS,
    InvalidRulesError,
    Ranks,
    Repetition,
    RuleSet,
    find_rules,
    load_rules_file,
)
from .squares import (
    ANIMALS,
    BLUE,
    CAT,
    COLORS,
    DOG,
    ELEPHANT,
    LEOPARD,
    LION,
    RAT,
    RED,
    SQUARE_NAMES,
    TIGER,
    WOLF,
    parse_square,
    square_name,
)

__version__ = "0.1.0"

__all__ = [
    "ANIMALS",
    "BLUE",
    "BUILTIN_RULE_SETS",
    "CAT",
    "COLORS",
    "DOG",
    "ELEPHANT",
    "LEOPARD",
    "LION",
    "RAT",
    "RED",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "TIGER",
    "WOLF",
    "Board",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidRulesError",
    "LegalMoveGenerator",
    "Move",
    "Outcome",
    "Piece",
    "Ranks",
    "Repetition",
    "RuleSet",
    "Termination",
    "find_rules",
    "load_rules_file",
    "parse_square",
    "square_name",
]

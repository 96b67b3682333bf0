"""老虎棋 as a platform game: :data:`TIGER`, the implementation of
:class:`doushouqi.core.game.Game`.

A thin wrapper, as :mod:`doushouqi.jungle.game` is for Jungle: every rule is the rules
library's (:class:`~doushouqi.tiger.board.Board`, :mod:`~doushouqi.tiger.rules`,
:mod:`~doushouqi.tiger.san`); the library already raises the interface's errors and returns its
outcomes, so this module only turns moves and positions into strings. Seat 0 is the tiger
side, seat 1 the men's. A per-move timeout passes the turn (docs/rules.md 5.3, which
TIGER_RULES.md applies to this game), recorded as ``0000``.

Nothing is registered here; :mod:`doushouqi.games` lists the installed games.

>>> rules = TIGER.parse_rules("laohuqi")
>>> position = TIGER.new_position(rules, TIGER.start_position(rules))
>>> position.legal_moves(), position.parse_move("E10E9")
(['e10e9', 'e10d10', 'e10f10', 'e10e11'], 'e10e9')
>>> position.move_text("e10e9", "zh"), TIGER.seat_name(position.turn, "en")
('虎e10-e9', 'Tiger')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import Lang, PositionError, RulesError, TimeoutEffect
from doushouqi.core.outcome import Outcome
from doushouqi.tiger.board import Board, start_position
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import point_name
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_by_name, rules_from_mapping
from doushouqi.tiger.san import move_to_san
from doushouqi.tiger.terms import GAME_NAMES, Termination, ending_label, side_name

__all__ = ["TIGER", "TigerGame", "TigerPosition", "legal_destinations"]


def legal_destinations(board: Board) -> dict[str, list[str]]:
    """For each point of the side to move: where its piece may legally end its move.

    A multi-jump (rule option ``multi_jump``) is listed by its last landing point; two routes
    to one point are listed once, as a board that sends (from, to) cannot tell them apart.

    >>> legal_destinations(Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t"))
    {'e5': ['e4', 'f5', 'e6', 'c5']}
    """
    dests: dict[str, list[str]] = {}
    for move in board.generate_legal_moves():
        places = dests.setdefault(point_name(move.from_point), [])
        to = point_name(move.to_point)
        if to not in places:
            places.append(to)
    return dests


class TigerPosition:
    """A 老虎棋 :class:`~doushouqi.core.game.Position`: a :class:`Board` seen through strings."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        """The wrapped board itself (not a copy), for callers that know the game."""
        return self._board

    @property
    def turn(self) -> int:
        return self._board.turn

    def legal_moves(self) -> list[str]:
        return [str(move) for move in self._board.generate_legal_moves()]

    def parse_move(self, text: str) -> str:
        return str(self._board.parse_move(text))

    def legal_destinations(self) -> dict[str, list[str]]:
        return legal_destinations(self._board)

    def push(self, move: str) -> None:
        self._board.push(Move.from_str(move))

    def push_pass(self) -> None:
        self._board.push_pass()

    def pop(self) -> str:
        return str(self._board.pop())

    def outcome(self) -> Outcome | None:
        return self._board.outcome()

    def position_string(self) -> str:
        return self._board.position_string()

    def position_hash(self) -> int:
        return self._board.zobrist_hash()

    def move_text(self, move: str, lang: Lang) -> str:
        return move_to_san(self._board, Move.from_str(move), lang)

    def perft(self, depth: int) -> int:
        return self._board.perft(depth)

    def copy(self) -> TigerPosition:
        return TigerPosition(self._board.copy())

    def __repr__(self) -> str:
        return f"TigerPosition({self._board!r})"


class TigerGame:
    """老虎棋's :class:`~doushouqi.core.game.Game` (rule sets are :class:`RuleSet` values)."""

    key = "tiger"
    rule_set_names: tuple[str, ...] = tuple(BUILTIN_RULE_SETS)
    default_rule_set = RuleSet().name
    board_endings: tuple[str, ...] = tuple(t.value for t in Termination)
    timeout_effect = TimeoutEffect.PASS_TURN
    pass_move: str | None = str(Move.null())

    def name(self, lang: Lang) -> str:
        if lang not in GAME_NAMES:
            raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
        return GAME_NAMES[lang]

    def seat_name(self, seat: int, lang: Lang) -> str:
        return side_name(seat, lang)

    def ending_name(self, key: str, lang: Lang) -> str:
        if key not in self.board_endings:
            raise ValueError(f"{key!r} is not a board ending of 老虎棋")
        return ending_label(Termination(key), lang)

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RuleSet:
        if isinstance(spec, str):
            return rules_by_name(spec)
        if not isinstance(spec, Mapping):
            raise RulesError(f"a rule set is a name or a mapping, got {type(spec).__name__}")
        return rules_from_mapping(str(spec.get("name", "custom")), spec)

    def rules_to_mapping(self, rules: RuleSet) -> dict[str, Any]:
        return rules.to_mapping()

    def first_seat(self, rules: RuleSet) -> int:
        return rules.first

    def with_first_seat(self, rules: RuleSet, seat: int) -> RuleSet:
        return dataclasses.replace(rules, first=seat)  # RuleSet refuses a seat that is none

    def start_position(self, rules: RuleSet) -> str:
        return start_position(rules)

    def new_position(self, rules: RuleSet, position: str) -> TigerPosition:
        if not isinstance(position, str):
            raise PositionError(f"a position string must be text, got {type(position).__name__}")
        return TigerPosition(Board(position, rules))

    def __repr__(self) -> str:
        return "TIGER"


#: The one 老虎棋 game object (what :mod:`doushouqi.games` registers).
TIGER = TigerGame()

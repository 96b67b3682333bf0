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
    """A 老虎棋 :class:`~doushouqi.core.game.Position`: a :class:`Board` seen through strings.

    Made by :meth:`TigerGame.new_position`, or around a board of one's own:

    >>> position = TigerPosition(Board("3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t"))
    >>> position.legal_moves(), position.move_text("e5c5", "en")
    (['e5e4', 'e5f5', 'e5e6', 'e5c5'], 'Te5xc5')
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        """The wrapped board itself (not a copy), for callers that know the game.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> position.push("e5c5"); position.board.men_count
        6
        """
        return self._board

    @property
    def turn(self) -> int:
        """The seat to move: 0 the tiger side, 1 the men.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.turn, TIGER.seat_name(position.turn, "en")
        (0, 'Tiger')
        """
        return self._board.turn

    def legal_moves(self) -> list[str]:
        """Every legal move string, in the board's order (a jump's landing points in turn).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> position.legal_moves()
        ['e5e4', 'e5f5', 'e5e6', 'e5c5']
        """
        return [str(move) for move in self._board.generate_legal_moves()]

    def parse_move(self, text: str) -> str:
        """The canonical move string for ``text`` if it is legal here (any case);
        :class:`~doushouqi.core.game.IllegalMoveError` with the reason if it is not.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> position.parse_move("E5C5")
        'e5c5'
        >>> position.parse_move("e5e3")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.IllegalMoveError: illegal move e5e3: no man on e4 to jump
        """
        return str(self._board.parse_move(text))

    def legal_destinations(self) -> dict[str, list[str]]:
        """For each point of the side to move, where its piece may end its move
        (:func:`legal_destinations`).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> position.legal_destinations()
        {'e5': ['e4', 'f5', 'e6', 'c5']}
        """
        return legal_destinations(self._board)

    def push(self, move: str) -> None:
        """Play a legal move string, unchecked (:meth:`parse_move` checks one).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> position.push("e5c5"); position.position_string()
        '3/3/9/9/9/9/2T6/9/9/9/MMMMMM3 m 0 1'
        """
        self._board.push(Move.from_str(move))

    def push_pass(self) -> None:
        """Pass the turn for a timeout; :class:`~doushouqi.core.game.MoveError` once the game
        is over on the board.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.push_pass(); position.turn, position.position_string()
        (1, '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 1 1')
        """
        self._board.push_pass()

    def pop(self) -> str:
        """Take back the last move or pass; its move string.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.push("e10e9"); position.push_pass()
        >>> position.pop(), position.pop()
        ('0000', 'e10e9')
        """
        return str(self._board.pop())

    def outcome(self) -> Outcome | None:
        """How the board has ended the game, or None while it goes on.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> TIGER.new_position(rules, "3/3/9/9/9/9/9/9/MMM6/MMM6/TMM6 t").outcome()
        Outcome(ending=BoardEnding(key='tiger_trapped'), winner=1)
        """
        return self._board.outcome()

    def position_string(self) -> str:
        """The position in 老虎棋's FEN (:mod:`doushouqi.tiger.fen`).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.position_string()
        '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1'
        """
        return self._board.position_string()

    def position_hash(self) -> int:
        """The board's Zobrist hash (pieces and side to move).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.position_hash() == position.board.zobrist_hash()
        True
        """
        return self._board.zobrist_hash()

    def move_text(self, move: str, lang: Lang) -> str:
        """A legal move (or ``0000``) in 老虎棋's notation in ``lang``
        (:func:`~doushouqi.tiger.san.move_to_san`).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        >>> [position.move_text("e5c5", lang) for lang in ("en", "zh", "zh-Hant")]
        ['Te5xc5', '虎e5吃c5', '虎e5吃c5']
        """
        return move_to_san(self._board, Move.from_str(move), lang)

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long (:meth:`Board.perft`).

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> position.perft(2)
        44
        """
        return self._board.perft(depth)

    def copy(self) -> TigerPosition:
        """An independent copy, with the moves played so far.

        >>> rules = TIGER.parse_rules("laohuqi")
        >>> position = TIGER.new_position(rules, TIGER.start_position(rules))
        >>> trial = position.copy(); trial.push("e10e9")
        >>> trial.turn, position.turn
        (1, 0)
        """
        return TigerPosition(self._board.copy())

    def __repr__(self) -> str:
        return f"TigerPosition({self._board!r})"


class TigerGame:
    """老虎棋's :class:`~doushouqi.core.game.Game` (rule sets are :class:`RuleSet` values).
    :data:`TIGER` is its one instance.

    >>> TIGER.key, TIGER.default_rule_set, TIGER.pass_move, TIGER.timeout_effect.value
    ('tiger', 'laohuqi', '0000', 'pass_turn')
    """

    key = "tiger"
    rule_set_names: tuple[str, ...] = tuple(BUILTIN_RULE_SETS)
    default_rule_set = RuleSet().name
    board_endings: tuple[str, ...] = tuple(t.value for t in Termination)
    timeout_effect = TimeoutEffect.PASS_TURN
    pass_move: str | None = str(Move.null())

    def name(self, lang: Lang) -> str:
        """The game's name in ``lang``; ValueError for a language the platform does not have.

        >>> TIGER.name("en"), TIGER.name("zh-Hant")
        ('Tiger chess', '老虎棋')
        """
        if lang not in GAME_NAMES:
            raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
        return GAME_NAMES[lang]

    def seat_name(self, seat: int, lang: Lang) -> str:
        """The side of seat 0 (the tiger side) or 1 (the men) in ``lang``.

        >>> TIGER.seat_name(0, "en"), TIGER.seat_name(1, "zh")
        ('Tiger', '人方')
        """
        return side_name(seat, lang)

    def ending_name(self, key: str, lang: Lang) -> str:
        """A label for one of :attr:`board_endings`; ValueError for any other key.

        >>> TIGER.ending_name("men_blocked", "en"), TIGER.ending_name("men_blocked", "zh")
        ('men cannot move', '人方无路可走')
        """
        if key not in self.board_endings:
            raise ValueError(f"{key!r} is not a board ending of 老虎棋")
        return ending_label(Termination(key), lang)

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RuleSet:
        """A rule set by name, or from a mapping of options over the default (named
        ``"custom"`` unless it says); :class:`~doushouqi.core.game.RulesError` otherwise.

        >>> TIGER.parse_rules("laohuqi-18").men
        18
        >>> TIGER.parse_rules({"men": 18, "multi_jump": True}).name
        'custom'
        """
        if isinstance(spec, str):
            return rules_by_name(spec)
        if not isinstance(spec, Mapping):
            raise RulesError(f"a rule set is a name or a mapping, got {type(spec).__name__}")
        return rules_from_mapping(str(spec.get("name", "custom")), spec)

    def rules_to_mapping(self, rules: RuleSet) -> dict[str, Any]:
        """The rule set as JSON-ready data (:meth:`RuleSet.to_mapping`).

        >>> mapping = TIGER.rules_to_mapping(TIGER.parse_rules("laohuqi"))
        >>> mapping["name"], mapping["diagonals"], mapping["multi_jump"]
        ('laohuqi', 'none', False)
        """
        return rules.to_mapping()

    def first_seat(self, rules: RuleSet) -> int:
        """The seat that moves first: the tiger side (0) unless the rules say the men.

        >>> TIGER.first_seat(TIGER.parse_rules("laohuqi"))
        0
        """
        return rules.first

    def with_first_seat(self, rules: RuleSet, seat: int) -> RuleSet:
        """``rules`` with ``seat`` moving first (the position's side to move follows).

        >>> men_first = TIGER.with_first_seat(TIGER.parse_rules("laohuqi"), 1)
        >>> TIGER.start_position(men_first)
        '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 0 1'
        """
        return dataclasses.replace(rules, first=seat)  # RuleSet refuses a seat that is none

    def start_position(self, rules: RuleSet) -> str:
        """The position string a game under ``rules`` starts from.

        >>> TIGER.start_position(TIGER.parse_rules("laohuqi-18"))
        '3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1'
        """
        return start_position(rules)

    def new_position(self, rules: RuleSet, position: str) -> TigerPosition:
        """The position ``position`` under ``rules``;
        :class:`~doushouqi.core.game.PositionError` when it cannot be read.

        >>> TIGER.new_position(TIGER.parse_rules("laohuqi"), "3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t")
        TigerPosition(Board('3/3/9/9/9/9/3MT4/9/9/9/MMMMMM3 t 0 1', rules='laohuqi'))
        """
        if not isinstance(position, str):
            raise PositionError(f"a position string must be text, got {type(position).__name__}")
        return TigerPosition(Board(position, rules))

    def __repr__(self) -> str:
        return "TIGER"


#: The one 老虎棋 game object (what :mod:`doushouqi.games` registers).
TIGER = TigerGame()

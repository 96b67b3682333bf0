"""Jungle (斗兽棋) as a platform game: :data:`JUNGLE`, the implementation of
:class:`doushouqi.core.game.Game`.

A thin wrapper: every rule is the rules library's (:class:`~doushouqi.jungle.board.Board`,
:mod:`~doushouqi.jungle.rules`, :mod:`~doushouqi.jungle.notation`); this module only turns its
values into the interface's plain ones (move and position strings, seats, core outcomes) and
its errors into the interface's. The seats are the colours: seat 0 is Red, seat 1 is Blue.

Nothing is registered here (importing this module has no side effect); :mod:`doushouqi.games`
lists the installed games.

>>> rules = JUNGLE.parse_rules("international")
>>> position = JUNGLE.new_position(rules, JUNGLE.start_position(rules))
>>> len(position.legal_moves()), position.parse_move("a3a4")
(24, 'a3a4')
>>> position.move_text("g1g2", "zh-Hant")
'獅 g1-g2'
>>> position.push("a3a4"); position.turn
1
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from doushouqi.core.game import (
    IllegalMoveError,
    Lang,
    MoveError,
    PositionError,
    RulesError,
    TimeoutEffect,
)
from doushouqi.core.outcome import BoardEnding, Outcome, PlatformEnding
from doushouqi.jungle.board import Board
from doushouqi.jungle.board import IllegalMoveError as JungleIllegalMoveError
from doushouqi.jungle.moves import Move
from doushouqi.jungle.notation import Lang as JungleLang
from doushouqi.jungle.notation import color_name, move_to_readable, termination_label
from doushouqi.jungle.outcome import Outcome as JungleOutcome
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import (
    BUILTIN_RULE_SETS,
    InvalidRulesError,
    RuleSet,
    rules_from_mapping,
)
from doushouqi.jungle.squares import square_name

__all__ = [
    "JUNGLE",
    "JungleGame",
    "JunglePosition",
    "legal_destinations",
    "outcome_from_core",
    "outcome_to_core",
]

# The rules library speaks English and Simplified Chinese. Its Chinese vocabulary (animals,
# colours, endings, move words) is closed and small, so Traditional Chinese is a character
# table over it rather than a second vocabulary to keep in step. 复 is 覆 in 反覆 (repetition),
# the only word of the vocabulary that has it.
_TRADITIONAL = str.maketrans("猫狮毙违环复红蓝斗兽", "貓獅斃違環覆紅藍鬥獸")

_NAMES: dict[Lang, str] = {"en": "Jungle", "zh": "斗兽棋", "zh-Hant": "鬥獸棋"}


def _words(lang: Lang, make: Callable[[JungleLang], str]) -> str:
    """``make(base language)`` in ``lang``: Traditional Chinese made from the Simplified."""
    if lang == "zh-Hant":
        return make("zh").translate(_TRADITIONAL)
    if lang == "en" or lang == "zh":
        return make(lang)
    raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")


def outcome_to_core(outcome: JungleOutcome) -> Outcome:
    """Jungle's outcome as the platform's: the off-board terminations are the platform's
    endings (same keys), the on-board ones become Jungle's board endings; Red is seat 0.

    >>> outcome_to_core(JungleOutcome(Termination.DEN_ENTERED, 1))
    Outcome(ending=BoardEnding(key='den_entered'), winner=1)
    >>> outcome_to_core(JungleOutcome(Termination.RESIGNATION, 0)).ending
    <PlatformEnding.RESIGNATION: 'resignation'>
    """
    key = outcome.termination.value
    ending = BoardEnding(key) if outcome.termination.is_on_board else PlatformEnding(key)
    return Outcome(ending, outcome.winner)


def outcome_from_core(outcome: Outcome) -> JungleOutcome:
    """The platform's outcome of a Jungle game as Jungle's (the inverse of
    :func:`outcome_to_core`); ValueError for a board ending that is not Jungle's."""
    return JungleOutcome(Termination(outcome.key), outcome.winner)


def legal_destinations(board: Board) -> dict[str, list[str]]:
    """For each square of the side to move: where its animal may legally go (none: omitted).

    What the web board is told (it knows no rules); Jungle-only pages (editor, analysis,
    puzzles) call it on their own boards, the platform through
    :meth:`JunglePosition.legal_destinations`.

    >>> legal_destinations(Board("r6/3L3/7/7/7/7/7/7/7 w"))
    {'d8': ['d7', 'c8', 'e8', 'd9']}
    """
    dests: dict[str, list[str]] = {}
    for move in board.generate_legal_moves():
        dests.setdefault(square_name(move.from_square), []).append(square_name(move.to_square))
    return dests


class JunglePosition:
    """A Jungle :class:`~doushouqi.core.game.Position`: a :class:`Board` seen through strings."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    @property
    def board(self) -> Board:
        """The wrapped board itself (not a copy), for Jungle-only callers such as the engine."""
        return self._board

    @property
    def turn(self) -> int:
        return self._board.turn

    def legal_moves(self) -> list[str]:
        return [str(move) for move in self._board.generate_legal_moves()]

    def parse_move(self, text: str) -> str:
        if not isinstance(text, str):
            raise MoveError(f"a move string must be text, got {type(text).__name__}")
        try:
            move = Move.from_str(text)
        except ValueError as exc:  # InvalidMoveError: not a move at all
            raise MoveError(str(exc)) from exc
        reason = self._board.explain_illegal(move)
        if reason is not None:
            message = f"illegal move {move}: {reason}"
            raise IllegalMoveError(message, code=reason.code, details=reason.details)
        return str(move)

    def legal_destinations(self) -> dict[str, list[str]]:
        return legal_destinations(self._board)

    def push(self, move: str) -> None:
        self._board.push(Move.from_str(move))

    def push_pass(self) -> None:
        try:
            self._board.push_pass()
        except JungleIllegalMoveError as exc:
            raise MoveError(str(exc)) from exc

    def pop(self) -> str:
        return str(self._board.pop())

    def outcome(self) -> Outcome | None:
        outcome = self._board.outcome()
        return None if outcome is None else outcome_to_core(outcome)

    def position_string(self) -> str:
        return self._board.fen()

    def position_hash(self) -> int:
        return self._board.zobrist_hash()

    def move_text(self, move: str, lang: Lang) -> str:
        try:
            parsed = Move.from_str(move)
            return _words(lang, lambda base: move_to_readable(self._board, parsed, base))
        except ValueError as exc:
            raise MoveError(str(exc)) from exc

    def perft(self, depth: int) -> int:
        return self._board.perft(depth)

    def copy(self) -> JunglePosition:
        return JunglePosition(self._board.copy())

    def __repr__(self) -> str:
        return f"JunglePosition({self._board!r})"


class JungleGame:
    """Jungle's :class:`~doushouqi.core.game.Game` (rule sets are :class:`RuleSet` values)."""

    key = "jungle"
    rule_set_names: tuple[str, ...] = tuple(BUILTIN_RULE_SETS)
    default_rule_set = RuleSet().name
    board_endings: tuple[str, ...] = tuple(t.value for t in Termination if t.is_on_board)
    timeout_effect = TimeoutEffect.PASS_TURN
    pass_move: str | None = str(Move.null())

    def name(self, lang: Lang) -> str:
        if lang not in _NAMES:
            raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
        return _NAMES[lang]

    def seat_name(self, seat: int, lang: Lang) -> str:
        return _words(lang, lambda base: color_name(seat, base))

    def ending_name(self, key: str, lang: Lang) -> str:
        if key not in self.board_endings:
            raise ValueError(f"{key!r} is not a board ending of Jungle")
        termination = Termination(key)
        return _words(lang, lambda base: termination_label(termination, base))

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RuleSet:
        if isinstance(spec, str):
            # Only named sets: find_rules would also read a file, and a name may come from a
            # user or from storage.
            rules = BUILTIN_RULE_SETS.get(spec.strip().lower())
            if rules is None:
                known = ", ".join(self.rule_set_names)
                raise RulesError(f"unknown rule set {spec!r} (known: {known})")
            return rules
        if not isinstance(spec, Mapping):
            raise RulesError(f"a rule set is a name or a mapping, got {type(spec).__name__}")
        try:
            return rules_from_mapping(str(spec.get("name", "custom")), spec)
        except InvalidRulesError as exc:
            raise RulesError(str(exc)) from exc

    def rules_to_mapping(self, rules: RuleSet) -> dict[str, Any]:
        return rules.to_mapping()

    def first_seat(self, rules: RuleSet) -> int:
        return rules.first_player

    def with_first_seat(self, rules: RuleSet, seat: int) -> RuleSet:
        try:
            return dataclasses.replace(rules, first_player=seat)
        except InvalidRulesError as exc:  # a seat that is none (the rule set checks it)
            raise RulesError(str(exc)) from exc

    def start_position(self, rules: RuleSet) -> str:
        return Board(rules=rules).fen()

    def new_position(self, rules: RuleSet, position: str) -> JunglePosition:
        if not isinstance(position, str):
            raise PositionError(f"a position string must be text, got {type(position).__name__}")
        try:
            return JunglePosition(Board(position, rules))
        except ValueError as exc:  # InvalidFenError says what is wrong and where
            raise PositionError(str(exc)) from exc

    def __repr__(self) -> str:
        return "JUNGLE"


#: The one Jungle game object (what :mod:`doushouqi.games` registers).
JUNGLE = JungleGame()

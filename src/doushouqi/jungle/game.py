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
from doushouqi.jungle.notation import (
    color_name,
    move_names,
    move_to_readable,
    termination_label,
)
from doushouqi.jungle.outcome import Outcome as JungleOutcome
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import (
    BUILTIN_RULE_SETS,
    InvalidRulesError,
    RuleSet,
    rules_from_mapping,
)
from doushouqi.jungle.squares import SQUARE_NAMES, iter_squares

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
    :func:`outcome_to_core`); ValueError for a board ending that is not Jungle's.

    >>> from doushouqi.core.outcome import BoardEnding, Outcome
    >>> outcome_from_core(Outcome(BoardEnding("den_entered"), 0))
    Outcome(termination=<Termination.DEN_ENTERED: 'den_entered'>, winner=0)
    >>> outcome_from_core(Outcome(PlatformEnding.RESIGNATION, 1)).termination
    <Termination.RESIGNATION: 'resignation'>
    """
    return JungleOutcome(Termination(outcome.key), outcome.winner)


def legal_destinations(board: Board) -> dict[str, list[str]]:
    """For each square of the side to move: where its animal may legally go (none: omitted).

    What the web board is told (it knows no rules); Jungle-only pages (editor, analysis,
    puzzles) call it on their own boards, the platform through
    :meth:`JunglePosition.legal_destinations`.

    >>> legal_destinations(Board("r6/3L3/7/7/7/7/7/7/7 w"))
    {'d8': ['d7', 'c8', 'e8', 'd9']}
    """
    # From the board's bitboards, not its moves: this runs after every move on the server, and
    # a Move and two names per legal move made it several times dearer.
    return {SQUARE_NAMES[frm]: _target_names(targets) for frm, targets in board.legal_targets()}


# The names of the squares of a targets bitboard, kept per bitboard: an animal reaches at most
# four steps and two jumps from one square, so there are a few thousand such sets at most.
_TARGET_NAMES: dict[int, tuple[str, ...]] = {}


def _target_names(targets: int) -> list[str]:
    names = _TARGET_NAMES.get(targets)
    if names is None:
        names = _TARGET_NAMES[targets] = tuple(SQUARE_NAMES[to] for to in iter_squares(targets))
    return list(names)


#: What a position's knowledge holds for: plies, hash, the record of the last ply (or None).
_State = tuple[int, int, object]


class JunglePosition:
    """A Jungle :class:`~doushouqi.core.game.Position`: a :class:`Board` seen through strings.
    Made by :meth:`JungleGame.new_position`; moves are move strings (``"d8d9"``), seats 0
    (Red) and 1 (Blue), outcomes the platform's (:func:`outcome_to_core`).

    >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
    >>> position
    JunglePosition(Board('7/3L3/7/7/7/7/7/7/r6 w 0 1', rules='wango'))
    >>> position.legal_moves(), position.turn
    (['d8d7', 'd8c8', 'd8e8', 'd8d9'], 0)
    """

    # The server asks, for every move, its legality (parse_move), its two readable names, the
    # next side's destinations and the ending (outcome). What one call learns spares another
    # work: ``_parsed`` (the last move parse_move found legal) spares the names a second
    # check; ``_legal`` (each animal's legal targets, as legal_destinations found them)
    # spares outcome a second generation, and parse_move of the next move its check: the
    # server asks for the destinations after a move and parses the next move on a copy of
    # that position, and copy carries them over. Each holds for the board state it was made
    # in (``_state``: plies, hash and the very record of the last ply, so that a change made
    # through ``board`` also drops it, even one that comes back to the same position by
    # other moves) and is dropped by push and pop.
    __slots__ = ("_board", "_legal", "_names", "_parsed")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._parsed: tuple[_State, str, Move] | None = None
        self._legal: tuple[_State, dict[int, int]] | None = None
        #: Both names of the parsed move (``_parsed`` itself, English, Chinese): the server
        #: asks for both, and one look at the board makes them.
        self._names: tuple[object, str, str] | None = None

    def _state(self) -> _State:
        """The board's plies, hash and record of its last ply (None before the first): a
        record is a new object with every ply pushed, so the same plies and hash with another
        record are another history (the library's own modules read the board's records, as
        the restrictions do). Read directly: asked several times a move."""
        board = self._board
        undo = board._undo
        return len(undo), board._hash, undo[-1] if undo else None

    def _holds(self, state: _State) -> bool:
        """Whether the board is still in ``state`` (the record compared by identity)."""
        board = self._board
        undo = board._undo
        return (
            state[0] == len(undo)
            and state[1] == board._hash
            and state[2] is (undo[-1] if undo else None)
        )

    def _changed(self) -> None:
        self._parsed = self._legal = self._names = None

    def _known_legal(self, move: str) -> Move | None:
        """``move`` as :meth:`parse_move` found it legal on this very board, or None."""
        known = self._parsed
        if known is not None and known[1] == move and self._holds(known[0]):
            return known[2]
        return None

    def _known_targets(self) -> dict[int, int] | None:
        """Each animal's legal targets (square: bitboard) as :meth:`legal_destinations` found
        them on this very board, or None."""
        known = self._legal
        if known is not None and self._holds(known[0]):
            return known[1]
        return None

    @property
    def board(self) -> Board:
        """The wrapped board itself (not a copy), for Jungle-only callers such as the engine.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.push("d8d9")
        >>> position.board.peek(), position.board.is_game_over()
        (Move.from_str('d8d9'), True)
        """
        return self._board

    @property
    def turn(self) -> int:
        """The seat to move: 0 for Red, 1 for Blue.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 b")
        >>> position.turn
        1
        """
        return self._board.turn

    def legal_moves(self) -> list[str]:
        """Every legal move string, in the board's order; empty once the game is over on the
        board (a timeout pass is never among them).

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.legal_moves()
        ['d8d7', 'd8c8', 'd8e8', 'd8d9']
        >>> position.push("d8d9")
        >>> position.legal_moves()
        []
        """
        return [str(move) for move in self._board.generate_legal_moves()]

    def parse_move(self, text: str) -> str:
        """The canonical move string for ``text`` if it is a legal move here. MoveError
        (:mod:`doushouqi.core.game`) when it is no move string; IllegalMoveError, with the
        reason's code and details, when the rules refuse it.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.parse_move(" d8d9 ")
        'd8d9'
        >>> try:
        ...     position.parse_move("d8d6")
        ... except IllegalMoveError as error:
        ...     print(error, error.code, error.details["piece"])
        illegal move d8d6: d8d6 is neither a step nor a lake jump not_step_or_jump lion
        """
        if not isinstance(text, str):
            raise MoveError(f"a move string must be text, got {type(text).__name__}")
        try:
            move = Move.from_str(text)
        except ValueError as exc:  # InvalidMoveError: not a move at all
            raise MoveError(str(exc)) from exc
        targets = self._known_targets()
        if targets is None or not (move and targets.get(move.from_square, 0) >> move.to_square & 1):
            # Not known to be legal: checked, and the reason said when it is not.
            reason = self._board.explain_illegal(move)
            if reason is not None:
                message = f"illegal move {move}: {reason}"
                raise IllegalMoveError(message, code=reason.code, details=reason.details)
        canonical = str(move)
        self._parsed = (self._state(), canonical, move)
        return canonical

    def legal_destinations(self) -> dict[str, list[str]]:
        """For each square of the side to move, where its animal may legally go
        (:func:`legal_destinations` of the board).

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 b")
        >>> position.legal_destinations()
        {'a1': ['b1', 'a2']}
        """
        targets = dict(self._board.legal_targets())
        self._legal = (self._state(), targets)
        known = _TARGET_NAMES  # _target_names inlined: a call per animal costs as much
        return {
            SQUARE_NAMES[frm]: list(known.get(to) or _target_names(to))
            for frm, to in targets.items()
        }

    def push(self, move: str) -> None:
        """Play a move string from :meth:`legal_moves` or :meth:`parse_move`, unchecked.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.push("d8d7")
        >>> position.position_string(), position.turn
        ('7/7/3L3/7/7/7/7/7/r6 b 1 1', 1)
        """
        legal = self._known_legal(move)
        self._changed()
        self._board.push(Move.from_str(move) if legal is None else legal)

    def push_pass(self) -> None:
        """Pass the turn for a per-move timeout; checked: MoveError where no move could be
        played (the game is over on the board).

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.push_pass()
        >>> position.turn, position.pop()
        (1, '0000')
        >>> position.push("d8d9")
        >>> position.push_pass()
        Traceback (most recent call last):
        ...
        doushouqi.core.game.MoveError: illegal move 0000: the game is over (den entered)
        """
        self._changed()
        try:
            self._board.push_pass()
        except JungleIllegalMoveError as exc:
            raise MoveError(str(exc)) from exc

    def pop(self) -> str:
        """Take back the last move or pass; returns its move string (IndexError when none).

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.push("d8d7")
        >>> position.pop(), position.turn
        ('d8d7', 0)
        """
        self._changed()
        return str(self._board.pop())

    def outcome(self) -> Outcome | None:
        """How the position has ended the game, as the platform's :class:`Outcome` (a board
        ending; the winner's seat, None for a draw), or None while it goes on.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.outcome() is None
        True
        >>> position.push("d8d9")
        >>> position.outcome()
        Outcome(ending=BoardEnding(key='den_entered'), winner=0)
        """
        targets = self._known_targets()
        outcome = self._board.outcome(has_legal_move=None if targets is None else bool(targets))
        return None if outcome is None else outcome_to_core(outcome)

    def position_string(self) -> str:
        """The position string (:meth:`Board.fen`); :meth:`JungleGame.new_position` of it
        gives the same position, without the moves played before.

        >>> rules = JUNGLE.parse_rules("wango")
        >>> position = JUNGLE.new_position(rules, JUNGLE.start_position(rules))
        >>> position.push("g3g4")
        >>> position.position_string()
        'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 1 1'
        """
        return self._board.fen()

    def position_hash(self) -> int:
        """The board's Zobrist hash (animals and side to move): equal for positions that are
        the same for repetition, and restored exactly by :meth:`pop`.

        >>> rules = JUNGLE.parse_rules("wango")
        >>> position = JUNGLE.new_position(rules, JUNGLE.start_position(rules))
        >>> start = position.position_hash()
        >>> for move in ("g3g4", "a7a6", "g4g3", "a6a7"):  # there and back again
        ...     position.push(move)
        >>> position.position_hash() == start
        True
        >>> position.push("g3g4")
        >>> position.position_hash() == start, position.pop(), position.position_hash() == start
        (False, 'g3g4', True)
        """
        return self._board.zobrist_hash()

    def move_text(self, move: str, lang: Lang) -> str:
        """A move string (or the pass ``0000``) as people read it, in ``lang`` (``"en"``,
        ``"zh"`` or ``"zh-Hant"``); MoveError for a string that is no move.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> position.move_text("d8d9", "en"), position.move_text("d8d9", "zh")
        ('Ld8-d9#', '狮 d8-d9 入穴')
        """
        legal = self._known_legal(move)
        if legal is not None:  # checked by parse_move on this very board: not checked again
            names = self._names
            if names is None or names[0] is not self._parsed:
                names = self._names = (self._parsed, *move_names(self._board, legal, legal=True))
            return _words(lang, lambda base: names[1] if base == "en" else names[2])
        try:
            parsed = Move.from_str(move)
            return _words(lang, lambda base: move_to_readable(self._board, parsed, base))
        except ValueError as exc:
            raise MoveError(str(exc)) from exc

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long (:meth:`Board.perft`).

        >>> rules = JUNGLE.parse_rules("wango")
        >>> JUNGLE.new_position(rules, JUNGLE.start_position(rules)).perft(2)
        576
        """
        return self._board.perft(depth)

    def copy(self) -> JunglePosition:
        """An independent copy, with the moves played so far.

        >>> position = JUNGLE.new_position(JUNGLE.parse_rules("wango"), "7/3L3/7/7/7/7/7/7/r6 w")
        >>> copied = position.copy()
        >>> copied.push("d8d7")
        >>> position.turn, copied.turn, copied.board.ply()
        (0, 1, 1)
        """
        copied = JunglePosition(self._board.copy())
        # What is known of this state holds for the copy's (the same plies, hash and records).
        copied._legal = self._legal
        copied._parsed = self._parsed
        copied._names = self._names
        return copied

    def __repr__(self) -> str:
        return f"JunglePosition({self._board!r})"


class JungleGame:
    """Jungle's :class:`~doushouqi.core.game.Game` (rule sets are :class:`RuleSet` values);
    :data:`JUNGLE` is its one instance.

    >>> JUNGLE.key, JUNGLE.rule_set_names, JUNGLE.default_rule_set
    ('jungle', ('wango', 'classic', 'classic-dog', 'international'), 'wango')
    >>> JUNGLE.timeout_effect, JUNGLE.pass_move
    (<TimeoutEffect.PASS_TURN: 'pass_turn'>, '0000')
    """

    key = "jungle"
    rule_set_names: tuple[str, ...] = tuple(BUILTIN_RULE_SETS)
    default_rule_set = RuleSet().name
    board_endings: tuple[str, ...] = tuple(t.value for t in Termination if t.is_on_board)
    timeout_effect = TimeoutEffect.PASS_TURN
    pass_move: str | None = str(Move.null())

    def name(self, lang: Lang) -> str:
        """The game's name in ``lang``; ValueError for a language it does not know.

        >>> JUNGLE.name("en"), JUNGLE.name("zh"), JUNGLE.name("zh-Hant")
        ('Jungle', '斗兽棋', '鬥獸棋')
        """
        if lang not in _NAMES:
            raise ValueError(f"unknown language {lang!r} (expected 'en', 'zh' or 'zh-Hant')")
        return _NAMES[lang]

    def seat_name(self, seat: int, lang: Lang) -> str:
        """The name of seat 0 (Red) or 1 (Blue) in ``lang``.

        >>> JUNGLE.seat_name(0, "en"), JUNGLE.seat_name(1, "zh"), JUNGLE.seat_name(1, "zh-Hant")
        ('Red', '蓝方', '藍方')
        """
        return _words(lang, lambda base: color_name(seat, base))

    def ending_name(self, key: str, lang: Lang) -> str:
        """A short label for one of :attr:`board_endings` in ``lang``; ValueError for any
        other key (the platform's endings are the platform's words).

        >>> JUNGLE.ending_name("repetition", "en"), JUNGLE.ending_name("repetition", "zh-Hant")
        ('repetition', '循環反覆')
        >>> JUNGLE.ending_name("resignation", "en")
        Traceback (most recent call last):
        ...
        ValueError: 'resignation' is not a board ending of Jungle
        """
        if key not in self.board_endings:
            raise ValueError(f"{key!r} is not a board ending of Jungle")
        termination = Termination(key)
        return _words(lang, lambda base: termination_label(termination, base))

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RuleSet:
        """A rule set from a name of :attr:`rule_set_names` or from a mapping of options
        (what :meth:`rules_to_mapping` writes; a ``parent`` may name the set it changes);
        never a path. RulesError says what is wrong.

        >>> JUNGLE.parse_rules(" Classic ").name
        'classic'
        >>> JUNGLE.parse_rules({"name": "mine", "parent": "classic", "rule_7_3": False}).rule_17_5
        True
        >>> JUNGLE.parse_rules("chess")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.RulesError: unknown rule set 'chess' (known: wango, ...)
        """
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
        """The rule set as JSON-ready data with its name under ``"name"``
        (:meth:`RuleSet.to_mapping`); :meth:`parse_rules` of it gives an equal rule set.

        >>> mapping = JUNGLE.rules_to_mapping(JUNGLE.parse_rules("classic"))
        >>> mapping["name"], mapping["ranks"], mapping["first_player"], mapping["rule_7_3"]
        ('classic', 'wolf>dog', 'red', True)
        >>> JUNGLE.parse_rules(mapping) == JUNGLE.parse_rules("classic")
        True
        """
        return rules.to_mapping()

    def first_seat(self, rules: RuleSet) -> int:
        """The seat that moves first under ``rules`` (:attr:`RuleSet.first_player`).

        >>> JUNGLE.first_seat(JUNGLE.parse_rules("wango"))
        0
        """
        return rules.first_player

    def with_first_seat(self, rules: RuleSet, seat: int) -> RuleSet:
        """``rules`` with ``seat`` moving first (Jungle lets either colour begin);
        RulesError for a seat that is neither 0 nor 1.

        >>> blue_first = JUNGLE.with_first_seat(JUNGLE.parse_rules("classic"), 1)
        >>> JUNGLE.first_seat(blue_first), blue_first.name, JUNGLE.start_position(blue_first)[-5:]
        (1, 'classic', 'b 0 1')
        >>> JUNGLE.with_first_seat(blue_first, 2)
        Traceback (most recent call last):
        ...
        doushouqi.core.game.RulesError: first_player: expected 0 (red) or 1 (blue), got 2
        """
        try:
            return dataclasses.replace(rules, first_player=seat)
        except InvalidRulesError as exc:  # a seat that is none (the rule set checks it)
            raise RulesError(str(exc)) from exc

    def start_position(self, rules: RuleSet) -> str:
        """The position string a game under ``rules`` starts from: the start position with
        the rule set's first player to move.

        >>> JUNGLE.start_position(JUNGLE.parse_rules("wango"))
        'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1'
        """
        return Board(rules=rules).fen()

    def new_position(self, rules: RuleSet, position: str) -> JunglePosition:
        """The position ``position`` (a position string) under ``rules``, no moves played;
        PositionError when the string cannot be read.

        >>> rules = JUNGLE.parse_rules("international")
        >>> JUNGLE.new_position(rules, "7/3L3/7/7/7/7/7/7/r6 w").legal_moves()
        ['d8d7', 'd8c8', 'd8e8', 'd8d9']
        >>> JUNGLE.new_position(rules, "7/7 w")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.PositionError: invalid position string '7/7 w': expected 9 rows ...
        """
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

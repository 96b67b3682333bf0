"""The game interface: what the platform needs from a game, and the registry of games.

The platform (server, clients, tournaments, the conformance tests) hosts games it does not
know: Jungle (斗兽棋) today, 老虎棋 next. Everything it asks a game goes through the two
protocols here, so that adding a game is adding a sibling folder with one class that
satisfies :class:`Game`, never an ``if game == "jungle"`` in platform code.

Why a :class:`typing.Protocol` and not an abstract base class: nothing is shared between the
games' implementations (an ABC would only add an inheritance tie), the platform needs only the
shape, and a structural type lets mypy check Jungle's implementation, a test's fake game or a
wrapper around a third-party library alike. ``runtime_checkable`` lets :func:`register` refuse
an object that plainly is no game (it checks that the members exist, not their types).

Everything crosses the interface as plain values: moves and positions as the game's own
strings (docs/rules.md 7a for Jungle), rule sets as opaque values that the game parses from a
name or a mapping and writes back to a mapping, seats as 0 and 1, endings as
:class:`~doushouqi.core.outcome.Outcome`. Those are what the server stores and sends, so it
never holds a game's internal objects.

The registry :data:`GAMES` starts empty: this module imports no game (core sits below the
games). The list of installed games is :mod:`doushouqi.games`, which the package's
``__init__`` imports, so the registry is full whenever ``doushouqi`` is imported.

Platform code holds a game by its key and speaks to it through the interface only; the same
lines serve every game, in every language of :data:`LANGUAGES`:

>>> def describe(key: str, lang: Lang) -> str:
...     game = GAMES[key]
...     rules = game.parse_rules(game.default_rule_set)
...     position = game.new_position(rules, game.start_position(rules))
...     mover = game.seat_name(position.turn, lang)
...     return f"{game.name(lang)}: {mover}, {len(position.legal_moves())} moves"
>>> [describe("jungle", lang) for lang in LANGUAGES]
['Jungle: Red, 24 moves', '斗兽棋: 红方, 24 moves', '鬥獸棋: 紅方, 24 moves']
>>> describe("tiger", "en")
'Tiger chess: Tiger, 4 moves'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from doushouqi.core.outcome import Outcome

__all__ = [
    "GAMES",
    "LANGUAGES",
    "Game",
    "GameError",
    "IllegalMoveError",
    "IllegalReason",
    "Lang",
    "MoveError",
    "Position",
    "PositionError",
    "RulesError",
    "TimeoutEffect",
    "UnknownGameError",
    "get_game",
    "register",
]

#: The languages of the platform: English, Simplified Chinese, Traditional Chinese.
Lang = Literal["en", "zh", "zh-Hant"]
#: Every :data:`Lang`, English first (the language of messages and of the fallback).
LANGUAGES: tuple[Lang, ...] = ("en", "zh", "zh-Hant")


class GameError(ValueError):
    """Input a game refuses (a move, a position, a rule set); the message says why.

    A ``ValueError``, as the games' own errors are, so that callers catching those keep working.
    Platform code catches this one for any bad input of any game (and answers a 4xx):

    >>> tiger = get_game("tiger")
    >>> for attempt in (lambda: tiger.parse_rules("chess"), lambda: tiger.new_position(
    ...         tiger.parse_rules("laohuqi"), "xx")):
    ...     try:
    ...         attempt()
    ...     except GameError as error:
    ...         print(type(error).__name__)
    RulesError
    PositionError
    """


class MoveError(GameError):
    """A move string is malformed or not legal in the position.

    >>> jungle = get_game("jungle")
    >>> rules = jungle.parse_rules("classic")
    >>> jungle.new_position(rules, jungle.start_position(rules)).parse_move("a3-a4!")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.MoveError: invalid move 'a3-a4!': expected from- and to-square like ...
    """


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow here; the message says why.

    Apart from :class:`MoveError` (which it is), so that a server can tell a player "that is
    not a move" from "that move is not allowed: …", as it answers them with different codes.

    ``code`` names the reason for programs (the game's own word for it: ``"water"``,
    ``"landing_taken"``; None where the game gives none) and ``details`` the places and pieces
    it is about (``{"to": "e7"}``, pieces by kind): what a client needs to say the reason in
    its reader's language, where the message is English.

    >>> jungle = get_game("jungle")
    >>> rules = jungle.parse_rules("classic")
    >>> position = jungle.new_position(rules, jungle.start_position(rules))
    >>> try:
    ...     position.parse_move("c3c4")
    ... except IllegalMoveError as error:
    ...     refused = error
    >>> refused.code, refused.details
    ('water', {'from': 'c3', 'to': 'c4', 'piece': 'wolf'})
    >>> str(refused)
    'illegal move c3c4: only the rat may enter the water; the red wolf cannot'
    """

    def __init__(
        self, message: str, *, code: str | None = None, details: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.details: dict[str, str] = dict(details or {})


class IllegalReason(str):
    """Why the rules refuse a move: the English words (the string itself), with ``code`` and
    ``details`` as :class:`IllegalMoveError` carries them.

    A ``str``, so that every caller of a game's ``explain_illegal`` that reads the words keeps
    working, and one that wants to say them in another language finds the code beside them.

    >>> reason = IllegalReason("no_man", "no man on e9 to jump", over="e9")
    >>> reason, reason.code, reason.details, reason.upper()
    ('no man on e9 to jump', 'no_man', {'over': 'e9'}, 'NO MAN ON E9 TO JUMP')
    """

    code: str
    details: dict[str, str]

    def __new__(cls, code: str, text: str, **details: str) -> IllegalReason:
        reason = super().__new__(cls, text)
        reason.code = code
        reason.details = details
        return reason

    def error(self, move: object) -> IllegalMoveError:
        """The :class:`IllegalMoveError` refusing ``move`` for this reason (to raise it).

        >>> error = IllegalReason("water", "the lion cannot swim", to="b4").error("b3b4")
        >>> str(error), error.code, error.details
        ('illegal move b3b4: the lion cannot swim', 'water', {'to': 'b4'})
        """
        message = f"illegal move {move}: {self}"
        return IllegalMoveError(message, code=self.code, details=self.details)


class PositionError(GameError):
    """A position string cannot be read, or does not fit the rule set.

    >>> tiger = get_game("tiger")
    >>> tiger.new_position(tiger.parse_rules("laohuqi"), "3/1T1 t")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.PositionError: ...
    """


class RulesError(GameError):
    """A rule set name or mapping is not one the game knows.

    >>> get_game("tiger").parse_rules({"name": "big", "men": 99})
    Traceback (most recent call last):
    ...
    doushouqi.core.game.RulesError: men: expected 12 or 18, got 99
    """


class UnknownGameError(LookupError):
    """No game is registered under the key asked for (a ``LookupError``, as a missing key
    is: the key is not bad input to a game, there is no game to ask).

    >>> get_game("chess")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.UnknownGameError: unknown game 'chess' (registered: ...)
    """


class TimeoutEffect(enum.Enum):
    """What a per-move timeout (超时, docs/rules.md 5.3) does in a game.

    The platform's clock counts the timeouts and ends the game after too many
    (:attr:`~doushouqi.core.outcome.PlatformEnding.TIMEOUTS`); what a single one does to the
    position is the game's rule.

    >>> tiger = get_game("tiger")
    >>> rules = tiger.parse_rules("laohuqi")
    >>> position = tiger.new_position(rules, tiger.start_position(rules))
    >>> if tiger.timeout_effect is TimeoutEffect.PASS_TURN:
    ...     position.push_pass()
    >>> position.turn, position.pop() == tiger.pass_move
    (1, True)
    """

    #: The side to move loses its turn: the game records :attr:`Game.pass_move` and the
    #: position plays :meth:`Position.push_pass`.
    PASS_TURN = "pass_turn"
    #: The side to move loses the game at once (a game without passes).
    LOSS = "loss"


@runtime_checkable
class Position(Protocol):
    """A position of one game under one rule set, with the moves played from it.

    Moves are the game's move strings. :meth:`push` trusts its move (it is for strings that
    :meth:`legal_moves` or :meth:`parse_move` gave, in search loops and replays of checked
    records); untrusted input goes through :meth:`parse_move` first, as in python-chess.

    >>> tiger = get_game("tiger")
    >>> rules = tiger.parse_rules("laohuqi")
    >>> position = tiger.new_position(rules, tiger.start_position(rules))
    >>> isinstance(position, Position), position.turn
    (True, 0)
    >>> position.push(position.parse_move("e10e9")); position.turn
    1
    """

    @property
    def turn(self) -> int:
        """The seat to move (0 or 1).

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, jungle.start_position(rules))
        >>> position.turn, jungle.seat_name(position.turn, "en")
        (0, 'Red')
        >>> position.push("a3a4"); position.turn
        1
        """
        ...

    def legal_moves(self) -> list[str]:
        """Every legal move string, in a stable order; empty once the game is over on the
        board. A timeout pass is never among them.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> position.legal_moves()
        ['e10e9', 'e10d10', 'e10f10', 'e10e11']
        """
        ...

    def parse_move(self, text: str) -> str:
        """The canonical move string for ``text`` if it is a legal move here.

        Raises :class:`MoveError` saying why not, so that a client can be told what was
        wrong: :class:`IllegalMoveError` for a well-formed move the rules refuse (with the
        reason), plain :class:`MoveError` for text that is no move at all.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> position.parse_move("E10E9")
        'e10e9'
        >>> position.parse_move("e10e8")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.IllegalMoveError: illegal move e10e8: no man on e9 to jump
        """
        ...

    def legal_destinations(self) -> dict[str, list[str]]:
        """For each place a piece of the side to move stands on, the places it may legally go
        (places with no move left out), named as the game names them; empty once the game is
        over on the board.

        Why the interface has it: the web board holds no rules, so the server tells it where
        each piece may go, and only the game knows how its move strings split into places.

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, jungle.start_position(rules))
        >>> position.legal_destinations()["a3"]
        ['a2', 'b3', 'a4']
        """
        ...

    def push(self, move: str) -> None:
        """Play a move from :meth:`legal_moves` or :meth:`parse_move`, unchecked.

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, jungle.start_position(rules))
        >>> for move in ("a3a4", "g7g6", "a4a5"):
        ...     position.push(position.parse_move(move))
        >>> position.position_string()
        'l5t/1d3c1/r1p1w2/6e/E6/7/2W1P1R/1C3D1/T5L b 3 2'
        """
        ...

    def push_pass(self) -> None:
        """Pass the turn for a timeout (:attr:`TimeoutEffect.PASS_TURN`); checked: raises
        :class:`MoveError` where no move could be played (the game is over on the board), and
        always in a game whose timeouts lose (:attr:`TimeoutEffect.LOSS`).

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, jungle.start_position(rules))
        >>> position.push_pass(); position.turn
        1
        >>> position.pop()
        '0000'
        """
        ...

    def pop(self) -> str:
        """Take back the last move or pass; returns its move string.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> position.push("e10e9"); position.pop(), position.turn
        ('e10e9', 0)
        """
        ...

    def outcome(self) -> Outcome | None:
        """How the position has ended the game (a board ending), or None while it goes on.

        Never None when there is no legal move: a game cannot stand still.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> print(tiger.new_position(rules, tiger.start_position(rules)).outcome())
        None
        >>> hemmed_in = tiger.new_position(rules, "3/3/9/9/9/9/9/9/MMM6/MMM6/TMM6 t")
        >>> hemmed_in.outcome(), hemmed_in.legal_moves()
        (Outcome(ending=BoardEnding(key='tiger_trapped'), winner=1), [])
        """
        ...

    def position_string(self) -> str:
        """The position as the game writes it; ``new_position`` of it gives the same string
        (the moves played before are not part of it).

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> position.push("e10e9"); position.position_string()
        '3/3/4T4/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 1 1'
        >>> tiger.new_position(rules, position.position_string()).position_string()
        '3/3/4T4/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 1 1'
        """
        ...

    def position_hash(self) -> int:
        """A hash of what makes positions the same for repetition (pieces and side to move);
        :meth:`pop` restores it exactly.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> start = position.position_hash()
        >>> position.push("e10e9"); position.position_hash() == start
        False
        >>> position.pop(); position.position_hash() == start
        'e10e9'
        True
        """
        ...

    def move_text(self, move: str, lang: Lang) -> str:
        """A legal move (or the pass move) as people read it, in ``lang``; made at the edge
        from the move string, which is what events and records carry.

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, jungle.start_position(rules))
        >>> [position.move_text("g1g2", lang) for lang in LANGUAGES]
        ['Lg1-g2', '狮 g1-g2', '獅 g1-g2']
        """
        ...

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long (the conformance test's check of
        the move generator against the game's recorded numbers).

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> [position.perft(depth) for depth in range(4)]
        [1, 4, 44, 143]
        """
        ...

    def copy(self) -> Position:
        """An independent copy, with the moves played so far.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi")
        >>> position = tiger.new_position(rules, tiger.start_position(rules))
        >>> position.push("e10e9")
        >>> trial = position.copy()
        >>> trial.push("a1a2"); trial.pop(), trial.pop(), position.turn
        ('a1a2', 'e10e9', 1)
        """
        ...


#: A game's rule set value: opaque to the platform, which only stores its mapping.
RulesT = TypeVar("RulesT")


@runtime_checkable
class Game(Protocol[RulesT]):
    """One game the platform hosts: its names, its rule sets and its positions.

    >>> tiger = get_game("tiger")
    >>> isinstance(tiger, Game), tiger.key, tiger.name("zh")
    (True, 'tiger', '老虎棋')
    >>> rules = tiger.parse_rules(tiger.default_rule_set)
    >>> tiger.new_position(rules, tiger.start_position(rules)).legal_moves()[:2]
    ['e10e9', 'e10d10']
    """

    @property
    def key(self) -> str:
        """The registry key, stored with every game (``"jungle"``): lower case, never changed.

        >>> [get_game(key).key for key in ("jungle", "tiger")]
        ['jungle', 'tiger']
        """
        ...

    @property
    def rule_set_names(self) -> tuple[str, ...]:
        """The names of the named rule sets, in the order to offer them.

        >>> get_game("tiger").rule_set_names
        ('laohuqi', 'laohuqi-18', 'laohuqi-strict', 'laohuqi-south')
        """
        ...

    @property
    def default_rule_set(self) -> str:
        """The name of the rule set a new game gets when none is chosen.

        >>> get_game("jungle").default_rule_set, get_game("tiger").default_rule_set
        ('wango', 'laohuqi')
        """
        ...

    @property
    def board_endings(self) -> tuple[str, ...]:
        """The keys of every :class:`~doushouqi.core.outcome.BoardEnding` the game's rules can
        produce (what a stored outcome may name besides the platform's endings).

        >>> get_game("tiger").board_endings
        ('tiger_trapped', 'men_captured', 'men_blocked', 'repetition', 'max_rounds')
        """
        ...

    @property
    def timeout_effect(self) -> TimeoutEffect:
        """What one per-move timeout does.

        >>> get_game("jungle").timeout_effect
        <TimeoutEffect.PASS_TURN: 'pass_turn'>
        """
        ...

    @property
    def pass_move(self) -> str | None:
        """The move string that records a timeout pass in a move list, or None when the game
        has no passes.

        >>> get_game("tiger").pass_move
        '0000'
        """
        ...

    def name(self, lang: Lang) -> str:
        """The game's name (``Jungle``, ``斗兽棋``, ``鬥獸棋``).

        >>> [get_game("jungle").name(lang) for lang in LANGUAGES]
        ['Jungle', '斗兽棋', '鬥獸棋']
        """
        ...

    def seat_name(self, seat: int, lang: Lang) -> str:
        """The name of seat 0 or 1 (Jungle: the colours Red and Blue).

        >>> [get_game("jungle").seat_name(seat, "en") for seat in (0, 1)]
        ['Red', 'Blue']
        >>> get_game("tiger").seat_name(1, "zh")
        '人方'
        """
        ...

    def ending_name(self, key: str, lang: Lang) -> str:
        """A short label for one of :attr:`board_endings` (platform endings are the
        platform's words).

        >>> get_game("jungle").ending_name("den_entered", "en")
        'den entered'
        >>> get_game("tiger").ending_name("tiger_trapped", "zh")
        '老虎被困'
        """
        ...

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RulesT:
        """A rule set from a name in :attr:`rule_set_names` or from a mapping written by
        :meth:`rules_to_mapping`; :class:`RulesError` otherwise. Never reads files: a name is
        never a path, so stored or user input cannot make the platform open one.

        >>> tiger = get_game("tiger")
        >>> rules = tiger.parse_rules("laohuqi-18")
        >>> rules.men, tiger.parse_rules(tiger.rules_to_mapping(rules)) == rules
        (18, True)
        >>> tiger.parse_rules("../../etc/passwd")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.RulesError: unknown rule set '../../etc/passwd' (known: ...)
        """
        ...

    def rules_to_mapping(self, rules: RulesT) -> dict[str, Any]:
        """The rule set as JSON-ready data, with its name under ``"name"``;
        :meth:`parse_rules` of it gives an equal rule set.

        >>> tiger = get_game("tiger")
        >>> mapping = tiger.rules_to_mapping(tiger.parse_rules("laohuqi"))
        >>> mapping["name"], mapping["men"], mapping["first"]
        ('laohuqi', 12, 'tiger')
        """
        ...

    def first_seat(self, rules: RulesT) -> int:
        """The seat that moves first under ``rules`` (a rule option in some games: the
        platform shows it, and lets a player choose it with :meth:`with_first_seat`).

        >>> jungle = get_game("jungle")
        >>> jungle.first_seat(jungle.parse_rules("classic"))
        0
        """
        ...

    def with_first_seat(self, rules: RulesT, seat: int) -> RulesT:
        """``rules`` with ``seat`` moving first; :class:`RulesError` when the game does not
        let the first seat be chosen, or ``seat`` is no seat. The choice is part of the rule
        set (and so of what is stored), not a separate setting.

        >>> tiger = get_game("tiger")
        >>> men_first = tiger.with_first_seat(tiger.parse_rules("laohuqi"), 1)
        >>> tiger.first_seat(men_first), tiger.rules_to_mapping(men_first)["first"]
        (1, 'men')
        >>> tiger.with_first_seat(men_first, 2)
        Traceback (most recent call last):
        ...
        doushouqi.core.game.RulesError: first: expected 0 (tiger) or 1 (men), got 2
        """
        ...

    def start_position(self, rules: RulesT) -> str:
        """The position string a game under ``rules`` starts from.

        >>> tiger = get_game("tiger")
        >>> tiger.start_position(tiger.parse_rules("laohuqi"))
        '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1'
        """
        ...

    def new_position(self, rules: RulesT, position: str) -> Position:
        """The position ``position`` under ``rules``, no moves played;
        :class:`PositionError` when the string cannot be read.

        >>> jungle = get_game("jungle")
        >>> rules = jungle.parse_rules("classic")
        >>> position = jungle.new_position(rules, "7/3t3/7/7/7/7/7/3L3/7 w")
        >>> position.legal_moves()
        ['d2c2', 'd2e2', 'd2d3']
        """
        ...


#: Every registered game by key. Filled by :mod:`doushouqi.games`, never by core itself;
#: :func:`get_game` looks a key up with a clear error.
GAMES: dict[str, Game[Any]] = {}

_KEY = re.compile(r"[a-z][a-z0-9_-]*")

G = TypeVar("G", bound=Game[Any])


def register(game: G) -> G:
    """Add ``game`` to :data:`GAMES` under its key and return it.

    Registering the same object again does nothing (a module may be imported twice under
    test runners); another game under a key already taken is refused, because stored games
    name their game by key and must keep meaning the same game.

    >>> from doushouqi.tiger.game import TIGER, TigerGame
    >>> register(TIGER) is TIGER is GAMES["tiger"]
    True
    >>> register(TigerGame())
    Traceback (most recent call last):
    ...
    ValueError: another game is already registered as 'tiger': TIGER
    >>> register("tiger")
    Traceback (most recent call last):
    ...
    TypeError: 'tiger' does not implement the Game protocol
    """
    if not isinstance(game, Game):
        raise TypeError(f"{game!r} does not implement the Game protocol")
    key = game.key
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise ValueError(f"a game key is lower-case letters, digits, '-' or '_': {key!r}")
    present = GAMES.get(key)
    if present is not None and present is not game:
        raise ValueError(f"another game is already registered as {key!r}: {present!r}")
    GAMES[key] = game
    return game


def get_game(key: str) -> Game[Any]:
    """The game registered as ``key``; :class:`UnknownGameError` naming the known keys.

    >>> get_game("jungle") is GAMES["jungle"], get_game("jungle").name("en")
    (True, 'Jungle')
    """
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGameError(f"unknown game {key!r} (registered: {known})") from None

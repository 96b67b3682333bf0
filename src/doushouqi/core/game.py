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
LANGUAGES: tuple[Lang, ...] = ("en", "zh", "zh-Hant")


class GameError(ValueError):
    """Input a game refuses (a move, a position, a rule set); the message says why.

    A ``ValueError``, as the games' own errors are, so that callers catching those keep working.
    """


class MoveError(GameError):
    """A move string is malformed or not legal in the position."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow here; the message says why.

    Apart from :class:`MoveError` (which it is), so that a server can tell a player "that is
    not a move" from "that move is not allowed: …", as it answers them with different codes.

    ``code`` names the reason for programs (the game's own word for it: ``"water"``,
    ``"landing_taken"``; None where the game gives none) and ``details`` the places and pieces
    it is about (``{"to": "e7"}``, pieces by kind): what a client needs to say the reason in
    its reader's language, where the message is English.
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
    """

    code: str
    details: dict[str, str]

    def __new__(cls, code: str, text: str, **details: str) -> IllegalReason:
        reason = super().__new__(cls, text)
        reason.code = code
        reason.details = details
        return reason

    def error(self, move: object) -> IllegalMoveError:
        """The :class:`IllegalMoveError` refusing ``move`` for this reason."""
        message = f"illegal move {move}: {self}"
        return IllegalMoveError(message, code=self.code, details=self.details)


class PositionError(GameError):
    """A position string cannot be read, or does not fit the rule set."""


class RulesError(GameError):
    """A rule set name or mapping is not one the game knows."""


class UnknownGameError(LookupError):
    """No game is registered under the key asked for."""


class TimeoutEffect(enum.Enum):
    """What a per-move timeout (超时, docs/rules.md 5.3) does in a game.

    The platform's clock counts the timeouts and ends the game after too many
    (:attr:`~doushouqi.core.outcome.PlatformEnding.TIMEOUTS`); what a single one does to the
    position is the game's rule.
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
    """

    @property
    def turn(self) -> int:
        """The seat to move (0 or 1)."""
        ...

    def legal_moves(self) -> list[str]:
        """Every legal move string, in a stable order; empty once the game is over on the
        board. A timeout pass is never among them."""
        ...

    def parse_move(self, text: str) -> str:
        """The canonical move string for ``text`` if it is a legal move here.

        Raises :class:`MoveError` saying why not, so that a client can be told what was
        wrong: :class:`IllegalMoveError` for a well-formed move the rules refuse (with the
        reason), plain :class:`MoveError` for text that is no move at all.
        """
        ...

    def legal_destinations(self) -> dict[str, list[str]]:
        """For each place a piece of the side to move stands on, the places it may legally go
        (places with no move left out), named as the game names them; empty once the game is
        over on the board.

        Why the interface has it: the web board holds no rules, so the server tells it where
        each piece may go, and only the game knows how its move strings split into places.
        """
        ...

    def push(self, move: str) -> None:
        """Play a move from :meth:`legal_moves` or :meth:`parse_move`, unchecked."""
        ...

    def push_pass(self) -> None:
        """Pass the turn for a timeout (:attr:`TimeoutEffect.PASS_TURN`); checked: raises
        :class:`MoveError` where no move could be played (the game is over on the board), and
        always in a game whose timeouts lose (:attr:`TimeoutEffect.LOSS`)."""
        ...

    def pop(self) -> str:
        """Take back the last move or pass; returns its move string."""
        ...

    def outcome(self) -> Outcome | None:
        """How the position has ended the game (a board ending), or None while it goes on.

        Never None when there is no legal move: a game cannot stand still.
        """
        ...

    def position_string(self) -> str:
        """The position as the game writes it; ``new_position`` of it gives the same string
        (the moves played before are not part of it)."""
        ...

    def position_hash(self) -> int:
        """A hash of what makes positions the same for repetition (pieces and side to move);
        :meth:`pop` restores it exactly."""
        ...

    def move_text(self, move: str, lang: Lang) -> str:
        """A legal move (or the pass move) as people read it, in ``lang``; made at the edge
        from the move string, which is what events and records carry."""
        ...

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long (the conformance test's check of
        the move generator against the game's recorded numbers)."""
        ...

    def copy(self) -> Position:
        """An independent copy, with the moves played so far."""
        ...


#: A game's rule set value: opaque to the platform, which only stores its mapping.
RulesT = TypeVar("RulesT")


@runtime_checkable
class Game(Protocol[RulesT]):
    """One game the platform hosts: its names, its rule sets and its positions."""

    @property
    def key(self) -> str:
        """The registry key, stored with every game (``"jungle"``): lower case, never changed."""
        ...

    @property
    def rule_set_names(self) -> tuple[str, ...]:
        """The names of the named rule sets, in the order to offer them."""
        ...

    @property
    def default_rule_set(self) -> str:
        """The name of the rule set a new game gets when none is chosen."""
        ...

    @property
    def board_endings(self) -> tuple[str, ...]:
        """The keys of every :class:`~doushouqi.core.outcome.BoardEnding` the game's rules can
        produce (what a stored outcome may name besides the platform's endings)."""
        ...

    @property
    def timeout_effect(self) -> TimeoutEffect:
        """What one per-move timeout does."""
        ...

    @property
    def pass_move(self) -> str | None:
        """The move string that records a timeout pass in a move list, or None when the game
        has no passes."""
        ...

    def name(self, lang: Lang) -> str:
        """The game's name (``Jungle``, ``斗兽棋``, ``鬥獸棋``)."""
        ...

    def seat_name(self, seat: int, lang: Lang) -> str:
        """The name of seat 0 or 1 (Jungle: the colours Red and Blue)."""
        ...

    def ending_name(self, key: str, lang: Lang) -> str:
        """A short label for one of :attr:`board_endings` (platform endings are the
        platform's words)."""
        ...

    def parse_rules(self, spec: str | Mapping[str, Any]) -> RulesT:
        """A rule set from a name in :attr:`rule_set_names` or from a mapping written by
        :meth:`rules_to_mapping`; :class:`RulesError` otherwise. Never reads files: a name is
        never a path, so stored or user input cannot make the platform open one."""
        ...

    def rules_to_mapping(self, rules: RulesT) -> dict[str, Any]:
        """The rule set as JSON-ready data, with its name under ``"name"``;
        :meth:`parse_rules` of it gives an equal rule set."""
        ...

    def first_seat(self, rules: RulesT) -> int:
        """The seat that moves first under ``rules`` (a rule option in some games: the
        platform shows it, and lets a player choose it with :meth:`with_first_seat`)."""
        ...

    def with_first_seat(self, rules: RulesT, seat: int) -> RulesT:
        """``rules`` with ``seat`` moving first; :class:`RulesError` when the game does not
        let the first seat be chosen, or ``seat`` is no seat. The choice is part of the rule
        set (and so of what is stored), not a separate setting."""
        ...

    def start_position(self, rules: RulesT) -> str:
        """The position string a game under ``rules`` starts from."""
        ...

    def new_position(self, rules: RulesT, position: str) -> Position:
        """The position ``position`` under ``rules``, no moves played;
        :class:`PositionError` when the string cannot be read."""
        ...


#: Every registered game by key. Filled by :mod:`doushouqi.games`, never by core itself.
GAMES: dict[str, Game[Any]] = {}

_KEY = re.compile(r"[a-z][a-z0-9_-]*")

G = TypeVar("G", bound=Game[Any])


def register(game: G) -> G:
    """Add ``game`` to :data:`GAMES` under its key and return it.

    Registering the same object again does nothing (a module may be imported twice under
    test runners); another game under a key already taken is refused, because stored games
    name their game by key and must keep meaning the same game.
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
    """The game registered as ``key``; :class:`UnknownGameError` naming the known keys."""
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted(GAMES)) or "none"
        raise UnknownGameError(f"unknown game {key!r} (registered: {known})") from None

"""What ``apply`` reports: one frozen event per thing that happened, each with ``to_dict()``.

Every event carries the game's id and the game's ``version`` after the command that caused it,
so that a client which sees a gap in versions knows to ask for a fresh snapshot. All events of
one ``apply`` call share one version. ``to_dict()`` gives plain JSON-ready values (enums as their
values, tuples as lists, infinite times as None) with a ``"type"`` key.

>>> event = DrawOffered(color=0, game_id="g1", version=4)
>>> event.to_dict()
{'type': 'draw_offered', 'game_id': 'g1', 'version': 4, 'color': 0}
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any, ClassVar, Self

from doushouqi.core.clock import TimeControl
from doushouqi.core.outcome import BoardEnding, Ending, Outcome
from doushouqi.core.scoring import ScoreChange
from doushouqi.server.domain.model import AbortReason, GameSpec, GameStatus, RatingChange
from doushouqi.server.domain.players import PlayerSlot

__all__ = [
    "AlreadyApplied",
    "ClockView",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "GameFinished",
    "GameStarted",
    "MoveMade",
    "PlayerDisconnected",
    "PlayerJoined",
    "PlayerReconnected",
    "RejectCode",
    "Rejected",
    "RematchCreated",
    "RematchOffered",
    "TakebackApplied",
    "TakebackDeclined",
    "TakebackRequested",
    "TimeoutPassed",
    "plain",
]


def plain(value: object) -> Any:
    """``value`` as JSON-ready data (dicts, lists, str, int, finite float, bool, None)."""
    # Every event of every move comes through here (a move's ``dests`` alone is some fifty
    # strings): the built-in types are looked up by exact type first, and strings inside
    # dicts and lists are taken as they are without a call each; the rest, subclasses of the
    # built-ins (enums) included, goes the long way.
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if math.isfinite(value) else None  # type: ignore[arg-type]
    if kind is dict:
        return {
            k if type(k) is str else str(k): v if type(v) is str else plain(v)
            for k, v in value.items()  # type: ignore[attr-defined]
        }
    if kind is list or kind is tuple:
        return [v if type(v) is str else plain(v) for v in value]  # type: ignore[attr-defined]
    if kind is ClockView:
        return value.to_dict()  # type: ignore[attr-defined]
    return _plain_other(value)


def _plain_other(value: object) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, GameStatus):
        return value.label
    if isinstance(value, Enum):
        return plain(value.value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, BoardEnding):
        return value.key  # stored and sent as its key, as the platform's endings are
    if isinstance(value, TimeControl):
        return str(value)
    if isinstance(value, Outcome):
        return {
            "termination": value.key,
            "winner": value.winner,
            "result": value.result(),
        }
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    raise TypeError(f"cannot turn {type(value).__name__} into plain data")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class rather than once per event."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


@dataclass(frozen=True)
class ClockView:
    """Both clocks as a client shows them at one moment.

    ``remaining[c]`` is colour c's main time left (None: no main clock); ``move_time_left``
    is the time left under the per-move limit for the side to move (None: no limit).
    """

    remaining: tuple[float | None, float | None]
    move_time_left: float | None
    to_move: int
    running: bool
    timeouts: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        """As :func:`plain` makes it (one with every move's event: field by field here, not
        through the dataclass fallback).

        >>> ClockView((60.0, float("inf")), None, 0, True, (0, 1)).to_dict()
        {'remaining': [60.0, None], 'move_time_left': None, 'to_move': 0, 'running': True,
         'timeouts': [0, 1]}
        """
        red, blue = self.remaining
        return {
            "remaining": [_finite(red), _finite(blue)],
            "move_time_left": _finite(self.move_time_left),
            "to_move": self.to_move,
            "running": self.running,
            "timeouts": plain(self.timeouts),
        }


def _finite(value: float | None) -> float | None:
    """A time as JSON has it: None for none, and for an infinite or undefined one."""
    return value if value is None or math.isfinite(value) else None


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event; ``game_id`` and ``version`` are stamped by ``apply``."""

    type: ClassVar[str] = "event"
    game_id: str = ""
    version: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        fields = self.__dict__  # every field is there: no event computes one
        for name in _field_names(type(self)):
            value = fields[name]
            kind = type(value)
            # The common cases at once (most of a move's fields), the rest through plain().
            data[name] = value if kind is str or kind is int or value is None else plain(value)
        return data

    def stamped(self, game_id: str, version: int) -> Self:
        """A copy with ``game_id`` and ``version`` set (what ``apply`` does to each event).

        The instance's dict copied, not ``dataclasses.replace``, which calls ``__init__`` with
        every field: this runs for every event of every move, and no event computes a field.

        >>> DrawDeclined(color=1).stamped("g1", 7)
        DrawDeclined(game_id='g1', version=7, color=1, implicit=False)
        """
        event = object.__new__(type(self))
        event.__dict__.update(self.__dict__, game_id=game_id, version=version)
        return event


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(Event):
    """A player took a seat (online) or announced they are at the board."""

    type: ClassVar[str] = "player_joined"
    color: int
    player: PlayerSlot


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    """Every seat is filled and every player is there: the clocks run from ``at``."""

    type: ClassVar[str] = "game_started"
    at: float
    players: tuple[PlayerSlot | None, PlayerSlot | None]
    to_move: int
    fen: str
    dests: dict[str, list[str]]
    clocks: ClockView | None


@dataclass(frozen=True, kw_only=True)
class MoveMade(Event):
    """A move was played. ``dests`` are the legal destinations for the side now to move."""

    type: ClassVar[str] = "move_made"
    color: int
    move: str
    readable: str
    readable_zh: str
    ply: int
    at: float
    fen: str
    to_move: int
    dests: dict[str, list[str]]
    clocks: ClockView | None
    #: The id its sender gave the move (None: none), so that the sender knows it among others.
    move_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """:meth:`Event.to_dict`, field by field (the event of every move). The destinations
        are what every game's positions give (``Position.legal_destinations``: text to lists
        of text, as :func:`plain` would leave them): copied, not looked through."""
        clocks = self.clocks
        return {
            "type": self.type,
            "game_id": self.game_id,
            "version": self.version,
            "color": self.color,
            "move": self.move,
            "readable": self.readable,
            "readable_zh": self.readable_zh,
            "ply": self.ply,
            "at": plain(self.at),
            "fen": self.fen,
            "to_move": self.to_move,
            "dests": {k: list(v) for k, v in self.dests.items()},
            "clocks": None if clocks is None else clocks.to_dict(),
            "move_id": self.move_id,
        }

    @classmethod
    def made(
        cls,
        *,
        color: int,
        move: str,
        readable: str,
        readable_zh: str,
        ply: int,
        at: float,
        fen: str,
        to_move: int,
        dests: dict[str, list[str]],
        clocks: ClockView | None,
        move_id: str | None = None,
    ) -> Self:
        """``MoveMade(...)`` with the same fields, its dict filled at once: a frozen
        dataclass's ``__init__`` sets each field through ``object.__setattr__`` (3.5 against
        0.6 µs, for the event of every move); no field is computed or checked there."""
        event = object.__new__(cls)
        event.__dict__.update(
            game_id="",
            version=0,
            color=color,
            move=move,
            readable=readable,
            readable_zh=readable_zh,
            ply=ply,
            at=at,
            fen=fen,
            to_move=to_move,
            dests=dests,
            clocks=clocks,
            move_id=move_id,
        )
        return event


@dataclass(frozen=True, kw_only=True)
class AlreadyApplied(Event):
    """Not an event of the game: the answer to a move whose ``move_id`` the game has already
    applied (a client sending it again after a connection drop). Nothing changed."""

    type: ClassVar[str] = "already_applied"
    move_id: str


@dataclass(frozen=True, kw_only=True)
class TimeoutPassed(Event):
    """``color`` did not move in time: the game's pass move was made for it (docs/rules.md 5.3)."""

    type: ClassVar[str] = "timeout_passed"
    color: int
    timeouts: int
    ply: int
    at: float
    fen: str
    to_move: int
    dests: dict[str, list[str]]
    clocks: ClockView | None


@dataclass(frozen=True, kw_only=True)
class GameFinished(Event):
    """The game ended (or was aborted: termination ``aborted``, result ``*``).

    ``score_change`` (ladder points, docs/rules.md 5.4) and ``rating_change`` (Glicko-2) are None
    when the game does not count; ``leaver`` is the colour that lost by leaving;
    ``abort_reason`` says why the server aborted it by itself (``lobby_expired``: nobody took
    the open seat in time), None otherwise.
    """

    type: ClassVar[str] = "game_finished"
    result: str
    termination: Ending
    winner: int | None
    leaver: int | None
    at: float
    fen: str
    clocks: ClockView | None
    score_change: ScoreChange | None
    rating_change: RatingChange | None
    abort_reason: AbortReason | None = None


@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    type: ClassVar[str] = "draw_offered"
    color: int


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    """``color`` declined the offer, or (``implicit``) played on, which declines it."""

    type: ClassVar[str] = "draw_declined"
    color: int
    implicit: bool = False


@dataclass(frozen=True, kw_only=True)
class TakebackRequested(Event):
    type: ClassVar[str] = "takeback_requested"
    color: int


@dataclass(frozen=True, kw_only=True)
class TakebackApplied(Event):
    """Plies ``removed`` (oldest first) were taken back for ``color``."""

    type: ClassVar[str] = "takeback_applied"
    color: int
    removed: tuple[str, ...]
    ply: int
    fen: str
    to_move: int
    dests: dict[str, list[str]]
    clocks: ClockView | None


@dataclass(frozen=True, kw_only=True)
class TakebackDeclined(Event):
    """The request was declined by ``color``, or (``implicit``) lapsed because a ply was played."""

    type: ClassVar[str] = "takeback_declined"
    color: int
    implicit: bool = False


@dataclass(frozen=True, kw_only=True)
class PlayerDisconnected(Event):
    """``deadline``: when the player loses by leaving unless back (None: no such rule here)."""

    type: ClassVar[str] = "player_disconnected"
    color: int
    at: float
    deadline: float | None


@dataclass(frozen=True, kw_only=True)
class PlayerReconnected(Event):
    type: ClassVar[str] = "player_reconnected"
    color: int
    at: float
    away: float


@dataclass(frozen=True, kw_only=True)
class RematchOffered(Event):
    type: ClassVar[str] = "rematch_offered"
    color: int


@dataclass(frozen=True, kw_only=True)
class RematchCreated(Event):
    """Both sides want a rematch: the server creates a new game from ``spec``."""

    type: ClassVar[str] = "rematch_created"
    color: int
    spec: GameSpec


class RejectCode(StrEnum):
    """Why a command was refused, for programs; ``Rejected.reason`` says it for people."""

    BAD_COMMAND = "bad_command"
    BAD_TIME = "bad_time"
    STALE_VERSION = "stale_version"
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    SERVER_ONLY = "server_only"
    NOT_STARTED = "not_started"
    ALREADY_STARTED = "already_started"
    GAME_OVER = "game_over"
    NOT_OVER = "not_over"
    GAME_FULL = "game_full"
    SEAT_TAKEN = "seat_taken"
    ACCOUNT_REQUIRED = "account_required"
    ALREADY_JOINED = "already_joined"
    INVALID_MOVE = "invalid_move"
    ILLEGAL_MOVE = "illegal_move"
    NOT_ABORTABLE = "not_abortable"
    NO_DRAW_OFFER = "no_draw_offer"
    DRAW_ALREADY_OFFERED = "draw_already_offered"
    NO_TAKEBACK_REQUEST = "no_takeback_request"
    TAKEBACK_PENDING = "takeback_pending"
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"
    NOT_AVAILABLE = "not_available"
    OPPONENT_CONNECTED = "opponent_connected"
    GRACE_NOT_OVER = "grace_not_over"
    NO_CHANGE = "no_change"
    REMATCH_PENDING = "rematch_pending"
    MOVE_ID_USED = "move_id_used"


@dataclass(frozen=True, kw_only=True)
class Rejected(Event):
    """The command was refused and changed nothing; ``command`` is its type name."""

    type: ClassVar[str] = "rejected"
    reason: str
    code: RejectCode
    command: str

"""A game clock as a pure value: every method takes the current time and returns a new clock.

Nothing here reads the system time; the caller injects ``now`` (seconds, any monotonic origin).
That keeps the clock deterministic, testable and safe to persist and reload.

Time controls are written ``BASE+INC/PERs`` (docs/rules.md 5.2 and 5.3):

* ``BASE`` is the main time in **minutes** (``10``, ``0.5``), or in seconds with an ``s``
  suffix (``90s``). Omitting it (``/30s``) means there is no main clock, only a per-move limit.
* ``+INC`` is the increment in **seconds**, added after each completed move (Fischer style).
* ``/PERs`` is the per-move limit in seconds. Exceeding it is a timeout (超时): the turn passes
  to the opponent, nothing moves, and the timeout is counted; a side's fourth timeout loses.

Correspondence games are written ``Nd``: ``N`` **days** per move (``1d``, ``3d``, ``0.5d``) and
no main clock. The side to move has N days for each move; a move gives the opponent a fresh N
days (nothing carries over), and running out of days loses the game (a flag fall, not a timeout
pass: the per-move-timer rule of 5.3 is for games played at one sitting).

``str(control)`` writes the canonical form (``10+0``, ``100s+1``, ``/30s``): minutes when the
base is a whole number of quarter minutes, seconds otherwise, so parsing it gives back an equal
value.

Decisions the rules leave open:

* The main clock keeps running while a player waits out the per-move limit, so a timeout pass
  consumes main time. If the main time would run out first, that is a flag fall instead.
* A timeout pass earns no increment: the increment rewards a completed move.
* Events take effect at their deadline, not when the server happens to notice them, so a late
  ``check`` gives the same result as a punctual one.
* The per-move timer restarts at the start of every turn; pausing (server downtime) freezes
  both the main and the per-move timer, which continue where they were on ``resume``.

>>> clock = GameClock.new(TimeControl.parse("1+2/10s")).start(now=0.0)
>>> clock = clock.press(now=4.0)  # Red moved after 4 s and gets the 2 s increment
>>> clock.remaining(RED, now=4.0), clock.to_move
(58.0, 1)
>>> clock.check(now=14.0)
ClockEvent(kind=<ClockEventKind.TIMEOUT_PASS: 'timeout_pass'>, color=1, at=14.0, timeouts=1)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from enum import StrEnum

RED = 0
BLUE = 1
#: A side may time out this many times; the next timeout loses (docs/rules.md 5.3: "fourth").
MAX_TIMEOUTS = 3
#: The moves a side is taken to make when a time control's speed is judged (TimeControl.speed).
SPEED_MOVES = 40
#: Each speed and the estimated seconds of a side's play it stays under.
SPEED_BOUNDS = (("bullet", 180.0), ("blitz", 480.0), ("rapid", 1500.0))


class TimeControlError(ValueError):
    """A time control has invalid values."""


class TimeControlSyntaxError(TimeControlError):
    """A time control string does not follow the ``BASE+INC/PERs`` (or ``Nd``) syntax."""


class ClockError(ValueError):
    """A clock operation is not allowed in the clock's state or at the given time."""


# BASE (minutes, or seconds with "s"), then optional +INC and /PER (seconds, optional "s").
_NUMBER = r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_SYNTAX = re.compile(
    rf"(?:(?P<base>{_NUMBER})(?P<base_s>s)?(?:\+(?P<inc>{_NUMBER})s?)?)?"
    rf"(?:/(?P<per>{_NUMBER})s?)?",
    re.ASCII,  # float() would accept other scripts' digits; the syntax is ASCII only
)
_DAYS_SYNTAX = re.compile(rf"(?P<days>{_NUMBER})d", re.ASCII)
#: Seconds in one day of a correspondence game.
DAY = 86_400.0


def _fmt(x: float) -> str:
    # repr() round-trips exactly through float(); drop a useless ".0" for readability.
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Main time ``base`` and ``increment`` per move, and an optional ``per_move`` limit (s);
    or, for a correspondence game, ``days`` per move and nothing else.

    ``base == 0`` means no main clock (only ``per_move`` or ``days``, one of which must then be
    set).

    >>> TimeControl.parse("10+5/30s")
    TimeControl(base=600.0, increment=5.0, per_move=30.0)
    >>> str(TimeControl(base=100.0, increment=1.0)), str(TimeControl(0.0, per_move=20.0))
    ('100s+1', '/20s')
    >>> TimeControl.parse("3d"), TimeControl.parse("3d").is_correspondence
    (TimeControl(base=0.0, increment=0.0, per_move=None, days=3.0), True)
    """

    base: float
    increment: float = 0.0
    per_move: float | None = None
    days: float | None = None

    def __repr__(self) -> str:
        # The days appear only in correspondence controls, so other reprs read as they always did.
        text = f"base={self.base!r}, increment={self.increment!r}, per_move={self.per_move!r}"
        if self.days is not None:
            text += f", days={self.days!r}"
        return f"TimeControl({text})"

    @property
    def is_correspondence(self) -> bool:
        """Whether this is a correspondence control (days per move, no main clock)."""
        return self.days is not None

    @property
    def move_seconds(self) -> float | None:
        """A correspondence game's time for each move in seconds (None for other controls)."""
        return None if self.days is None else self.days * DAY

    @property
    def speed(self) -> str:
        """How fast a game under this control is played, for lists and filters: ``bullet``,
        ``blitz``, ``rapid``, ``classical`` or ``correspondence``. Judged by a game of 40 moves
        a side: the main time, 40 increments (or, without a main clock, 40 per-move limits),
        under 3, 8 and 25 minutes — the bounds lichess uses, so players find the words they
        know.

        >>> [TimeControl.parse(c).speed for c in ("1+0", "3+2", "10+0", "/30s", "30+20", "2d")]
        ['bullet', 'blitz', 'rapid', 'rapid', 'classical', 'correspondence']
        """
        if self.days is not None:
            return "correspondence"
        per_move = 0.0 if self.base else (self.per_move or 0.0)
        estimate = self.base + SPEED_MOVES * (self.increment + per_move)
        for name, below in SPEED_BOUNDS:
            if estimate < below:
                return name
        return "classical"

    def __post_init__(self) -> None:
        # Store floats even when given ints, so equal controls compare and print alike.
        object.__setattr__(self, "base", float(self.base))
        object.__setattr__(self, "increment", float(self.increment))
        if self.per_move is not None:
            object.__setattr__(self, "per_move", float(self.per_move))
        values = [self.base, self.increment, *([] if self.per_move is None else [self.per_move])]
        if not all(math.isfinite(v) and v >= 0 for v in values):
            raise TimeControlError(f"times must be finite and non-negative: {self!r}")
        if self.per_move is not None and self.per_move <= 0:
            raise TimeControlError("per_move must be positive")
        if self.days is not None:
            object.__setattr__(self, "days", float(self.days))
            if not (math.isfinite(self.days) and self.days > 0):
                raise TimeControlError(f"days per move must be positive: {self!r}")
            if self.base or self.increment or self.per_move is not None:
                raise TimeControlError("a correspondence control has only days per move")
            return
        if self.base == 0 and self.per_move is None:
            raise TimeControlError("a time control needs a base time or a per-move limit")
        if self.base == 0 and self.increment != 0:
            # Without a main clock there is nothing to add the increment to.
            raise TimeControlError("increment needs a base time")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Parse ``BASE+INC/PERs`` or ``Nd``; see the module docstring for the syntax.

        >>> TimeControl.parse("0.5+0"), TimeControl.parse("/30s").per_move
        (TimeControl(base=30.0, increment=0.0, per_move=None), 30.0)
        """
        days = _DAYS_SYNTAX.fullmatch(text.strip())
        if days is not None:
            try:
                return cls(0.0, days=float(days["days"]))
            except TimeControlError as exc:
                raise TimeControlSyntaxError(f"bad time control {text!r}: {exc}") from exc
        m = _SYNTAX.fullmatch(text.strip())
        if m is None or not text.strip():
            raise TimeControlSyntaxError(f"bad time control {text!r}; expected e.g. '10+5/30s'")
        base = 0.0
        if m["base"] is not None:
            base = float(m["base"]) * (1 if m["base_s"] else 60)
        increment = float(m["inc"]) if m["inc"] is not None else 0.0
        per_move = float(m["per"]) if m["per"] is not None else None
        try:
            return cls(base, increment, per_move)
        except TimeControlError as exc:
            raise TimeControlSyntaxError(f"bad time control {text!r}: {exc}") from exc

    def __str__(self) -> str:
        """The canonical string, which :meth:`parse` turns back into an equal value."""
        if self.days is not None:
            return _fmt(self.days) + "d"
        text = ""
        if self.base > 0:
            # Minutes read naturally, but only quarter minutes convert exactly in both ways.
            minutes = self.base % 15 == 0 and self.base < 1e15
            text = _fmt(self.base / 60) if minutes else _fmt(self.base) + "s"
            text += "+" + _fmt(self.increment)
        if self.per_move is not None:
            text += f"/{_fmt(self.per_move)}s"
        return text


class ClockEventKind(StrEnum):
    """What :meth:`GameClock.check` found for the side to move."""

    FLAG = "flag"  # main time ran out: that side loses (docs/rules.md 5.2)
    TIMEOUT_PASS = "timeout_pass"  # per-move limit exceeded: the turn passes (5.3)
    TIMEOUT_LOSS = "timeout_loss"  # the side's fourth timeout: that side loses (5.3)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """An event for side ``color`` that took effect at time ``at``.

    ``timeouts`` is the side's timeout count including this event (unchanged for a flag).
    """

    kind: ClockEventKind
    color: int
    at: float
    timeouts: int

    @property
    def loser(self) -> int | None:
        """The side that loses the game, or None when play goes on (a timeout pass)."""
        return None if self.kind is ClockEventKind.TIMEOUT_PASS else self.color


def _check_color(color: int) -> None:
    if color not in (RED, BLUE):
        raise ClockError(f"colour must be 0 (Red) or 1 (Blue), not {color!r}")


@dataclass(frozen=True, slots=True)
class GameClock:
    """Both sides' clocks.

    ``main_time[c]`` is side c's main time at the start of the current turn (``math.inf``
    with no main clock; in a correspondence game, the time for the move: every move gives the
    opponent the control's full days again). ``turn_started`` is when the current turn
    began, shifted forward by any pause, so that ``now - turn_started`` is always the time
    used on this move; it is None until :meth:`start`. ``paused_at`` is set while the clock
    is paused.
    """

    control: TimeControl
    main_time: tuple[float, float]
    to_move: int = RED
    turn_started: float | None = None
    paused_at: float | None = None
    timeouts: tuple[int, int] = (0, 0)

    @classmethod
    def new(cls, control: TimeControl, to_move: int = RED) -> GameClock:
        """A clock that has not started, with ``to_move`` to play first."""
        _check_color(to_move)
        main = control.base if control.base > 0 else math.inf
        if control.move_seconds is not None:
            main = control.move_seconds
        return cls(control, (main, main), to_move)

    @property
    def started(self) -> bool:
        """Whether :meth:`start` has been called."""
        return self.turn_started is not None

    @property
    def running(self) -> bool:
        """Whether time is being charged to the side to move (started and not paused)."""
        return self.turn_started is not None and self.paused_at is None

    def _effective(self, now: float) -> float:
        """The clock's own notion of now: ``now``, or the moment of the pause while paused.

        Rejects a ``now`` earlier than the clock's last change, which would be a caller bug.
        """
        if not math.isfinite(now):
            raise ClockError(f"now must be finite, not {now!r}")
        latest = self.paused_at if self.paused_at is not None else self.turn_started
        if latest is not None and now < latest:
            raise ClockError(f"time went backwards: {now} < {latest}")
        return self.paused_at if self.paused_at is not None else now

    def _used(self, now: float) -> float:
        """Time used on the current move (0 before the start)."""
        effective = self._effective(now)
        return 0.0 if self.turn_started is None else effective - self.turn_started

    def _require_running(self, now: float) -> float:
        used = self._used(now)
        if not self.running:
            raise ClockError("the clock is not running")
        return used

    def start(self, now: float) -> GameClock:
        """Start the first turn's clock."""
        self._effective(now)
        if self.started:
            raise ClockError("the clock has already started")
        return replace(self, turn_started=now)

    def remaining(self, color: int, now: float) -> float:
        """Main time left for ``color`` at ``now`` (never negative; ``inf`` if unlimited)."""
        _check_color(color)
        used = self._used(now)
        # Only the side to move is being charged; the other side's time stands still.
        return max(0.0, self.main_time[color] - (used if color == self.to_move else 0.0))

    def time_left_in_move(self, now: float) -> float | None:
        """Time left under the per-move limit, or None without one."""
        used = self._used(now)
        if self.control.per_move is None:
            return None
        return max(0.0, self.control.per_move - used)

    def _deadline(self) -> tuple[float, ClockEventKind] | None:
        """The earliest pending event of the current turn and when it fires."""
        if self.turn_started is None:
            return None
        main = self.main_time[self.to_move]
        per = self.control.per_move
        # Ties go to the flag: the main time is out either way, and it is the harsher rule.
        if per is None or main <= per:
            if math.isinf(main):
                return None
            return self.turn_started + main, ClockEventKind.FLAG
        fourth = self.timeouts[self.to_move] >= MAX_TIMEOUTS
        kind = ClockEventKind.TIMEOUT_LOSS if fourth else ClockEventKind.TIMEOUT_PASS
        return self.turn_started + per, kind

    def check(self, now: float) -> ClockEvent | None:
        """The event that has fired for the side to move by ``now``, if any.

        A paused clock reports what had happened by the moment it was paused.
        """
        effective = self._effective(now)
        pending = self._deadline()
        # Compare absolute times (not durations) so check agrees exactly with next_deadline.
        if pending is None or effective < pending[0]:
            return None
        at, kind = pending
        count = self.timeouts[self.to_move] + (kind is not ClockEventKind.FLAG)
        return ClockEvent(kind, self.to_move, at, count)

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`check` will next report an event (possibly already past), or None.

        None while paused or not started, or when no limit applies.
        """
        self._effective(now)
        pending = self._deadline()
        return pending[0] if pending is not None and self.running else None

    def press(self, now: float) -> GameClock:
        """The side to move completed a move at ``now``: charge the time, add the increment,
        and start the opponent's turn.

        Raises ClockError if an event is due: the caller must handle :meth:`check` first.
        """
        used = self._require_running(now)
        event = self.check(now)
        if event is not None:
            raise ClockError(f"cannot press: {event.kind} at {event.at} must be handled first")
        side = self.to_move
        left = list(self.main_time)
        left[side] = left[side] - used + self.control.increment
        if self.control.move_seconds is not None:
            left[side] = self.control.move_seconds  # the next move gets its full days again
        # Made with every move: built directly, not through ``replace`` (which looks up the
        # fields and passes each by name: half of a press's time).
        return GameClock(
            self.control, (left[0], left[1]), 1 - side, now, self.paused_at, self.timeouts
        )

    def apply_timeout(self, now: float) -> GameClock:
        """Apply the per-move timeout that :meth:`check` reports at ``now``.

        A pass charges the per-move time (no increment), counts the timeout and starts the
        opponent's turn at the deadline. A fourth timeout is counted and the clock stops there.
        """
        self._require_running(now)
        event = self.check(now)
        if event is None or event.kind is ClockEventKind.FLAG:
            raise ClockError(f"no per-move timeout to apply at {now} (found {event})")
        side = self.to_move
        counts = list(self.timeouts)
        counts[side] = event.timeouts
        timeouts = (counts[0], counts[1])
        if event.kind is ClockEventKind.TIMEOUT_LOSS:
            return replace(self, timeouts=timeouts, paused_at=event.at)
        left = list(self.main_time)
        left[side] -= self.control.per_move or 0.0
        return replace(
            self,
            main_time=(left[0], left[1]),
            to_move=1 - side,
            turn_started=event.at,
            timeouts=timeouts,
        )

    def pause(self, now: float) -> GameClock:
        """Freeze both clocks (server downtime, or the end of the game)."""
        self._require_running(now)
        return replace(self, paused_at=now)

    def resume(self, now: float) -> GameClock:
        """Continue after a pause; the paused time counts for nobody."""
        self._effective(now)
        if self.turn_started is None or self.paused_at is None:
            raise ClockError("the clock is not paused")
        downtime = now - self.paused_at
        return replace(self, turn_started=self.turn_started + downtime, paused_at=None)

"""Time management for every game's engine: turn a search
:class:`~doushouqi.core.analysis.Limit` into deadlines.

A search has two deadlines, both in seconds from its start:

* ``soft`` — checked between iterations: no new depth is started after it (an iteration
  takes two to three times the previous one, so one started late would be cut off anyway);
* ``hard`` — a timer thread sets the compiled search's stop flag then; the search notices
  within about 1024 nodes (about a millisecond) and the driver returns the best move of the
  last finished iteration.

``movetime`` uses the time it is given: the hard deadline is the move time minus a margin
for stopping and answering, so the reply lands within the move time (measured by
``bench/search.py``). The margin is :class:`Overhead`'s: learnt from how late the engine's own
searches ended after their deadlines (:class:`StopTimer` measures it), or fixed by the
protocol's ``MoveOverhead``; deadlines count from when the move's time began (the protocol's
``go`` read), not from when the search got going.

A clock (``wtime``/``btime``/``winc``/``binc``: seat 0's and seat 1's,
:meth:`~doushouqi.core.analysis.Limit.clock`) is spread over the moves expected to remain,
never more than a share of it on one move; the game's per-move limit (a timeout passes the
turn, docs/rules.md 5.3) caps everything, with room to spare. ``infinite`` (or a limit with
nothing in it) has no deadline: only the engine's ``stop`` ends it.

A timed search may also stop early, between depths, when its best move has stood for
:data:`EASY_DEPTHS` finished depths (:func:`stops_early`, the engine's ``easy_stop``): the
depths it skips would rarely change the move, and the time saved is a server's capacity.

A depth or node limit of 0 (or less) is the smallest search there is, one ply, answered at
once (as ``go depth 0`` is in UCI engines), never "no limit": a search that was given a limit
ends by itself. ``mate`` N caps the depth at the ``2N - 1`` plies a win in N own moves takes,
and the driver stops as soon as it has proven one.

The games' engines plan their time alike; each game's ``ai.timeman`` re-exports this module.

>>> plan = plan_time(Limit(movetime=1.0), turn=0)
>>> plan.hard < 1.0 and plan.soft == plan.hard
True
>>> plan_time(Limit(depth=5), turn=0).hard is None
True
>>> plan_time(Limit(depth=0), turn=0).depth, plan_time(Limit(mate=3), turn=0).depth
(1, 5)

A clock's share of one move is capped, and every deadline keeps the overhead back:

>>> plan = plan_time(Limit(white_clock=10.0), turn=0)
>>> plan.hard <= 10.0 * MAX_CLOCK_SHARE
True
>>> plan_time(Limit(movetime=2.0), 0).hard == 2.0 - MOVE_OVERHEAD
True
"""

from __future__ import annotations

import collections
import dataclasses
import threading
import time
from collections.abc import Callable
from types import TracebackType

from doushouqi.core.analysis import Limit

__all__ = [
    "MAX_CLOCK_SHARE",
    "MOVE_OVERHEAD",
    "Overhead",
    "StopTimer",
    "TimePlan",
    "plan_time",
    "searches_until_stopped",
    "stops_early",
]

#: Seconds kept back from every deadline for stopping, unwinding and answering until the
#: engine has measured its own lateness (on a loaded machine most of it is the operating
#: system waking the timer and search threads).
MOVE_OVERHEAD = 0.03
#: The least a learnt margin keeps back: the stop flag is read every ~1,000 nodes.
MIN_OVERHEAD = 0.004
#: The most a learnt margin keeps back, whatever one late search measured.
MAX_OVERHEAD = 0.25
#: Added to the worst lateness remembered: what the answer costs after the search returns.
OVERHEAD_SAFETY = 0.003
#: How many of the last searches stopped by their deadline the margin remembers.
OVERHEAD_WINDOW = 16
#: Moves a clock is assumed to be spread over when nothing says how many remain.
DEFAULT_MOVES_TO_GO = 30
#: Never use more than this share of the remaining clock on one move.
MAX_CLOCK_SHARE = 0.3
#: The finished depths a best move must have stood for before a search stops early.
EASY_DEPTHS = 3


def stops_early(used: float, percent: int, stood: int) -> bool:
    """Whether a search stops after a finished depth, having used ``used`` of its budget
    (0 to 1) with its best move standing for ``stood`` depths: at ``percent`` % of the
    budget once the move has stood :data:`EASY_DEPTHS` depths, and sooner the longer it
    stands (at half of that from twice as many). ``percent`` 0: never.

    >>> stops_early(0.5, 50, 3), stops_early(0.45, 50, 3), stops_early(0.9, 50, 2)
    (True, False, False)
    >>> stops_early(0.25, 50, 6), stops_early(0.25, 50, 9), stops_early(0.99, 0, 9)
    (True, True, False)
    """
    if percent <= 0 or stood < EASY_DEPTHS:
        return False
    return used * 100 * min(stood, 2 * EASY_DEPTHS) >= percent * EASY_DEPTHS


@dataclasses.dataclass(frozen=True)
class TimePlan:
    """Deadlines (seconds from the search's start, None: none) and count limits.

    >>> TimePlan(soft=1.0, hard=2.0, depth=9)
    TimePlan(soft=1.0, hard=2.0, depth=9, nodes=None, mate=None)
    """

    soft: float | None = None
    hard: float | None = None
    depth: int | None = None
    nodes: int | None = None
    #: Stop once a win in this many own moves (or fewer) is proven (``go mate``).
    mate: int | None = None

    @property
    def timed(self) -> bool:
        """Whether the search has a deadline (a timer stops it).

        >>> TimePlan(soft=1.0, hard=2.0).timed, TimePlan(depth=5).timed
        (True, False)
        """
        return self.hard is not None

    def scaled(self, share: float) -> TimePlan:
        """The same plan with both deadlines cut to ``share`` of themselves (weaker levels).

        >>> TimePlan(soft=1.0, hard=2.0).scaled(0.5)
        TimePlan(soft=0.5, hard=1.0, depth=None, nodes=None, mate=None)
        """
        if self.hard is None or self.soft is None or share >= 1.0:
            return self
        return dataclasses.replace(self, soft=self.soft * share, hard=self.hard * share)


class Overhead:
    """The margin a timed search keeps back from its budget, learnt from the engine's own
    searches.

    A search stopped by its deadline ends a little after it: the timer thread wakes, the
    search notices within about 1,000 nodes, unwinds, and the answer is written. On a quiet
    machine that takes a millisecond or two, on a loaded one tens of milliseconds. A fixed
    margin (:data:`MOVE_OVERHEAD`) gives away a fifth of a 0.1 s move on a quiet machine and is
    too small on a busy one; this keeps back the worst lateness of the last
    :data:`OVERHEAD_WINDOW` such searches plus :data:`OVERHEAD_SAFETY`, between
    :data:`MIN_OVERHEAD` and :data:`MAX_OVERHEAD` (:data:`MOVE_OVERHEAD` until one has been
    measured). ``fixed`` (seconds; the protocol's ``MoveOverhead``) overrides what it learnt.

    >>> overhead = Overhead()
    >>> overhead.seconds == MOVE_OVERHEAD
    True
    >>> overhead.record(0.0012)
    >>> round(overhead.seconds, 4)
    0.0042
    >>> overhead.record(0.02)
    >>> overhead.record(-0.001)      # ended early: remembered as punctual
    >>> round(overhead.seconds, 4)
    0.023
    >>> overhead.fixed = 0.05
    >>> overhead.seconds
    0.05
    """

    def __init__(self, fixed: float | None = None) -> None:
        self.fixed = fixed
        self._late: collections.deque[float] = collections.deque(maxlen=OVERHEAD_WINDOW)
        self._lock = threading.Lock()  # the search thread records, the protocol's reads

    @property
    def seconds(self) -> float:
        """What to keep back from a budget now (before :func:`plan_time`'s cap for tiny ones).

        >>> Overhead().seconds == MOVE_OVERHEAD, Overhead(fixed=0.01).seconds
        (True, 0.01)
        """
        if self.fixed is not None:
            return self.fixed
        with self._lock:
            if not self._late:
                return MOVE_OVERHEAD
            worst = max(self._late)
        return min(MAX_OVERHEAD, max(MIN_OVERHEAD, worst + OVERHEAD_SAFETY))

    def record(self, late: float) -> None:
        """A search stopped by its deadline ended ``late`` seconds after it.

        >>> overhead = Overhead()
        >>> overhead.record(0.5)
        >>> overhead.seconds == MAX_OVERHEAD
        True
        """
        with self._lock:
            self._late.append(max(0.0, late))


class StopTimer:
    """Stops a search at its hard deadline and tells its :class:`Overhead` how late the
    search ended after it (a context manager around the search).

    ``started`` is the ``time.perf_counter()`` the deadline counts from; ``expire`` is called
    from a timer thread at ``started + hard`` (never when ``hard`` is None: no deadline).
    Leaving the block after the timer fired, or past the deadline, records the lateness; a
    search that ended by itself before it, or raised, records nothing.

    >>> stopped = []
    >>> with StopTimer(0.0, time.perf_counter(), lambda: stopped.append(1), Overhead()) as t:
    ...     while not stopped:
    ...         time.sleep(0.001)
    >>> t.fired
    True
    """

    def __init__(
        self,
        hard: float | None,
        started: float,
        expire: Callable[[], None],
        overhead: Overhead,
    ) -> None:
        self._deadline = None if hard is None else started + hard
        self._expire = expire
        self._overhead = overhead
        self._timer: threading.Timer | None = None
        self.fired = False

    def __enter__(self) -> StopTimer:
        if self._deadline is not None:
            delay = max(0.0, self._deadline - time.perf_counter())
            self._timer = threading.Timer(delay, self._fire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def _fire(self) -> None:
        self.fired = True
        self._expire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if kind is None and self._deadline is not None:
            late = time.perf_counter() - self._deadline
            # Past the deadline counts whether or not the timer fired first: on a loaded
            # machine the timer thread wakes late and the search may stop by its own check
            # (a depth finished after the deadline): that lateness is what must be learnt.
            if self.fired or late > 0:
                self._overhead.record(late)


def _margin(seconds: float, overhead: float) -> float:
    """What to keep back from a budget of ``seconds``: the overhead, less for tiny budgets."""
    return min(overhead, seconds * 0.2)


def plan_time(
    limit: Limit,
    turn: int,
    *,
    moves_to_go: int | None = None,
    overhead: float = MOVE_OVERHEAD,
) -> TimePlan:
    """Deadlines for a search by seat ``turn`` (0 or 1: whose clock counts) under ``limit``.

    ``moves_to_go`` (else ``limit.moves_to_go``) spreads a clock over that many moves;
    ``overhead`` is the seconds kept back for stopping and answering (an engine passes its
    :attr:`Overhead.seconds`), at most a fifth of the budget.

    >>> plan_time(Limit(black_clock=60.0), turn=1).soft, plan_time(Limit(black_clock=60.0), 0)
    (2.0, TimePlan(soft=None, hard=None, depth=None, nodes=None, mate=None))
    >>> plan_time(Limit(black_clock=60.0), 1, moves_to_go=10).soft
    6.0
    >>> round(plan_time(Limit(movetime=0.1), 0, overhead=0.005).hard, 3)
    0.095
    """
    depth = max(1, limit.depth) if limit.depth is not None else None
    nodes = limit.nodes
    if nodes is not None and nodes <= 0:
        depth, nodes = 1, None  # no nodes to spend: the one-ply search, not an endless one
    mate = max(1, limit.mate) if limit.mate is not None else None
    if mate is not None:
        depth = min(depth or 2 * mate - 1, 2 * mate - 1)
    moves_to_go = moves_to_go or limit.moves_to_go
    if limit.infinite:
        return TimePlan(depth=depth, nodes=nodes, mate=mate)
    hard: float | None = None
    soft: float | None = None

    if limit.movetime is not None:
        movetime = max(0.0, limit.movetime)
        hard = soft = max(0.001, movetime - _margin(movetime, overhead))

    clock, increment = limit.clock(turn)
    if clock is not None:
        remaining = max(0.0, clock)
        usable = max(0.001, remaining - _margin(remaining, overhead) - 0.01)
        to_go = moves_to_go if moves_to_go and moves_to_go > 0 else DEFAULT_MOVES_TO_GO
        # Spend the clock evenly over the moves to go, plus most of the increment; the hard
        # deadline lets one difficult move take a few times that, never the whole clock.
        target = min(usable * MAX_CLOCK_SHARE, remaining / to_go + 0.8 * (increment or 0.0))
        clock_hard = max(0.001, min(usable, max(target, min(target * 4, usable * MAX_CLOCK_SHARE))))
        clock_soft = max(0.001, min(target, clock_hard))
        hard = clock_hard if hard is None else min(hard, clock_hard)
        soft = clock_soft if soft is None else min(soft, clock_soft)

    if limit.per_move is not None:
        # A timeout passes the turn: stay well inside the game's per-move limit.
        per_move = max(0.001, limit.per_move - max(0.1, 0.05 * limit.per_move))
        hard = per_move if hard is None else min(hard, per_move)
        soft = per_move if soft is None else min(soft, per_move)

    if hard is None and depth is None and nodes is None:
        return TimePlan()  # nothing given: search until stopped, like `go infinite`
    return TimePlan(soft=soft, hard=hard, depth=depth, nodes=nodes, mate=mate)


def searches_until_stopped(limit: Limit, turn: int) -> bool:
    """Whether a search by seat ``turn`` under ``limit`` goes on until it is stopped:
    ``infinite``, or no limit that applies to it (a bare ``go``, or only the other seat's
    clock); every other search ends by itself.

    >>> searches_until_stopped(Limit(), 0), searches_until_stopped(Limit(depth=0), 0)
    (True, False)
    >>> searches_until_stopped(Limit(black_clock=5.0), 0), searches_until_stopped(Limit(mate=2), 1)
    (True, False)
    """
    if limit.infinite:
        return True
    plan = plan_time(limit, turn)
    return not plan.timed and plan.depth is None and plan.nodes is None

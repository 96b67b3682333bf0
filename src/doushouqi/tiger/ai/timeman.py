"""Time management: turn a search :class:`~doushouqi.tiger.analysis.Limit` into deadlines.

As Jungle's engine does it: a ``soft`` deadline, checked between iterations (no new depth
starts after it), and a ``hard`` one, when a timer sets the compiled search's stop flag.
``movetime`` uses the time it is given, less a margin for stopping and answering; a clock is
spread over the moves expected to remain, never more than a share of it on one move; the
game's per-move limit (a timeout passes the turn) caps everything; ``infinite``, or a limit
with nothing in it, has no deadline.

A depth or node limit of 0 is the smallest search there is, one ply, answered at once (as
``go depth 0`` is in UCI engines), never "no limit": a search that was given a limit ends by
itself. ``mate`` N caps the depth at the ``2N - 1`` plies a win in N own moves takes, and the
driver stops as soon as it has proven one.

>>> plan = plan_time(Limit(movetime=1.0), turn=0)
>>> plan.hard < 1.0 and plan.soft == plan.hard
True
>>> plan_time(Limit(depth=5), turn=1).hard is None
True
>>> plan_time(Limit(depth=0), turn=0).depth, plan_time(Limit(mate=3), turn=0).depth
(1, 5)
"""

from __future__ import annotations

import dataclasses

from doushouqi.tiger.analysis import Limit

__all__ = ["MOVE_OVERHEAD", "TimePlan", "plan_time", "searches_until_stopped"]

#: Seconds kept back from every deadline for stopping, unwinding and answering.
MOVE_OVERHEAD = 0.03
#: Moves a clock is assumed to be spread over when nothing says how many remain.
DEFAULT_MOVES_TO_GO = 30
#: Never use more than this share of the remaining clock on one move.
MAX_CLOCK_SHARE = 0.3


@dataclasses.dataclass(frozen=True)
class TimePlan:
    """Deadlines (seconds from the search's start, None: none) and count limits."""

    soft: float | None = None
    hard: float | None = None
    depth: int | None = None
    nodes: int | None = None
    #: Stop once a win in this many own moves (or fewer) is proven (``go mate``).
    mate: int | None = None

    @property
    def timed(self) -> bool:
        return self.hard is not None

    def scaled(self, share: float) -> TimePlan:
        """The same plan with both deadlines cut to ``share`` of themselves (weaker levels)."""
        if self.hard is None or self.soft is None or share >= 1.0:
            return self
        return dataclasses.replace(self, soft=self.soft * share, hard=self.hard * share)


def _margin(seconds: float) -> float:
    return min(MOVE_OVERHEAD, seconds * 0.2)


def plan_time(limit: Limit, turn: int, *, moves_to_go: int | None = None) -> TimePlan:
    """Deadlines for a search by seat ``turn`` (0 the tiger side, 1 the men) under ``limit``.

    ``moves_to_go`` (else ``limit.moves_to_go``) spreads a clock over that many moves."""
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
        hard = soft = max(0.001, movetime - _margin(movetime))
    clock, increment = limit.clock(turn)
    if clock is not None:
        remaining = max(0.0, clock)
        usable = max(0.001, remaining - _margin(remaining) - 0.01)
        to_go = moves_to_go if moves_to_go and moves_to_go > 0 else DEFAULT_MOVES_TO_GO
        target = min(usable * MAX_CLOCK_SHARE, remaining / to_go + 0.8 * (increment or 0.0))
        clock_hard = max(0.001, min(usable, max(target, min(target * 4, usable * MAX_CLOCK_SHARE))))
        clock_soft = max(0.001, min(target, clock_hard))
        hard = clock_hard if hard is None else min(hard, clock_hard)
        soft = clock_soft if soft is None else min(soft, clock_soft)
    if limit.per_move is not None:
        per_move = max(0.001, limit.per_move - max(0.1, 0.05 * limit.per_move))
        hard = per_move if hard is None else min(hard, per_move)
        soft = per_move if soft is None else min(soft, per_move)
    if hard is None and depth is None and nodes is None:
        return TimePlan()  # nothing given: search until stopped, like `go infinite`
    return TimePlan(soft=soft, hard=hard, depth=depth, nodes=nodes, mate=mate)


def searches_until_stopped(limit: Limit, turn: int) -> bool:
    """Whether a search by seat ``turn`` under ``limit`` goes on until it is stopped:
    ``infinite``, or no limit that applies to it (a bare ``go``, or only the other side's
    clock); every other search ends by itself.

    >>> searches_until_stopped(Limit(), 0), searches_until_stopped(Limit(depth=0), 0)
    (True, False)
    >>> searches_until_stopped(Limit(men_clock=5.0), 0), searches_until_stopped(Limit(mate=2), 1)
    (True, False)
    """
    if limit.infinite:
        return True
    plan = plan_time(limit, turn)
    return not plan.timed and plan.depth is None and plan.nodes is None

"""Time management: turn a search :class:`~doushouqi.tiger.analysis.Limit` into deadlines.

As Jungle's engine does it: a ``soft`` deadline, checked between iterations (no new depth
starts after it), and a ``hard`` one, when a timer sets the compiled search's stop flag.
``movetime`` uses the time it is given, less a margin for stopping and answering; a clock is
spread over the moves expected to remain, never more than a share of it on one move; the
game's per-move limit (a timeout passes the turn) caps everything; ``infinite``, or a limit
with nothing in it, has no deadline.

>>> plan = plan_time(Limit(movetime=1.0), turn=0)
>>> plan.hard < 1.0 and plan.soft == plan.hard
True
>>> plan_time(Limit(depth=5), turn=1).hard is None
True
"""

from __future__ import annotations

import dataclasses

from doushouqi.tiger.analysis import Limit

__all__ = ["MOVE_OVERHEAD", "TimePlan", "plan_time"]

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
    """Deadlines for a search by seat ``turn`` (0 the tiger side, 1 the men) under ``limit``."""
    depth = limit.depth if limit.depth is not None and limit.depth > 0 else None
    nodes = limit.nodes if limit.nodes is not None and limit.nodes > 0 else None
    if limit.infinite:
        return TimePlan(depth=depth, nodes=nodes)
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
        return TimePlan()
    return TimePlan(soft=soft, hard=hard, depth=depth, nodes=nodes)

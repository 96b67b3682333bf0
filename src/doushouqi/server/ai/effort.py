"""How long one AI search may think when the AI is busy: overload costs depth, never legality.

Both AI services (the in-process pool and the Redis workers) give each search the smaller of

* the time it asked for (the level's ``movetime``);
* its fair share of the workers: with ``backlog`` jobs waiting for ``workers`` workers, each
  job may take ``movetime × workers / (workers + backlog)``, so the queue drains in about one
  ``movetime`` however long it grew, instead of every job waiting behind every other;
* what is left before its deadline (the answer must be back by then);

and never less than :data:`MIN_MOVETIME`, enough for a real search of a few plies at any
level. A search that got less than it asked for is *reduced*: the game tells its players that
the computer is busy and thinking less deeply.

>>> effective_movetime(1.0)
1.0
>>> effective_movetime(1.0, backlog=3, workers=1)
0.25
>>> effective_movetime(1.0, backlog=1000, workers=1)
0.02
>>> effective_movetime(1.0, deadline=100.5, now=100.0)
0.45
"""

from __future__ import annotations

__all__ = ["DEADLINE_MARGIN", "MIN_MOVETIME", "effective_movetime", "is_reduced"]

#: The least a search gets, however busy the AI (about 30,000 nodes: several plies deep).
MIN_MOVETIME = 0.02
#: Kept free before a deadline for the answer's way back to the game.
DEADLINE_MARGIN = 0.05


def effective_movetime(
    movetime: float,
    *,
    backlog: int = 0,
    workers: int = 1,
    deadline: float | None = None,
    now: float = 0.0,
) -> float:
    """The seconds a search asking for ``movetime`` gets (see the module's docstring)."""
    workers = max(1, workers)
    share = movetime * workers / (workers + max(0, backlog))
    if deadline is not None:
        share = min(share, deadline - now - DEADLINE_MARGIN)
    return round(max(MIN_MOVETIME, min(movetime, share)), 6)


def is_reduced(given: float, asked: float) -> bool:
    """Whether a search got noticeably less time than it asked for."""
    return given < 0.9 * asked

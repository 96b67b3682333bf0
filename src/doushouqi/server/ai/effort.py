"""How long one AI search may think when the AI is busy: overload costs depth, never legality.

Both AI services (the in-process pool and the Redis workers) give each search the smaller of

* the time it asked for (the level's ``movetime``);
* its fair share of the workers: with ``backlog`` jobs waiting for ``workers`` workers, each
  job may take ``movetime × workers / (workers + backlog)``, so the queue drains in about one
  ``movetime`` however long it grew, instead of every job waiting behind every other;
* what is left before its deadline (the answer must be back by then);

and never less than :data:`MIN_MOVETIME`, enough for a real search of a few plies at any
level. A search that got less than it asked for is *reduced*; one reduced that ran out of its
time is *cut short* (:func:`is_cut_short`): the game tells its players that the computer is
busy and thinking less deeply. (Level 10 stops a search early once its move stands, measured
against the time asked, so a reduced search that stopped on its own played as a full one.)

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

__all__ = [
    "DEADLINE_MARGIN",
    "FULL_STRENGTH_LEVEL",
    "MIN_MOVETIME",
    "RAN_OUT",
    "effective_movetime",
    "is_cut_short",
    "is_reduced",
]

#: The least a search gets, however busy the AI (about 30,000 nodes: several plies deep).
MIN_MOVETIME = 0.02
#: Kept free before a deadline for the answer's way back to the game.
DEADLINE_MARGIN = 0.05
#: A search that took this share of its time or more ran out of it: one stopped by its
#: deadline has used at least four fifths (the engine keeps back at most a fifth for its
#: answer, ``core.time_plan``); an early stop in between is counted as run out, to be safe.
RAN_OUT = 0.75
#: The level whose searches are given their whole time (both games' level 10): a lower level
#: uses only a share of it (its strength is its budget), so how long its search took says
#: nothing of whether it ran out, and it counts as cut short whenever it was reduced.
FULL_STRENGTH_LEVEL = 10


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


def is_cut_short(given: float, asked: float, searched: float | None) -> bool:
    """Whether the load cost a search depth: it got noticeably less time than it asked for
    and ran out of it. One that stopped well before its time (level 10's easy stop, which
    measures its progress against the time asked) played as it would have with all of it.
    ``searched`` None: not known, counted as all of the time given.

    >>> is_cut_short(0.6, 1.0, 0.49), is_cut_short(0.6, 1.0, 0.31), is_cut_short(0.95, 1.0, 0.95)
    (True, False, False)
    """
    return is_reduced(given, asked) and (searched is None or searched >= RAN_OUT * given)

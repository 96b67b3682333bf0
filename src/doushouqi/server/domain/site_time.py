"""Site time: wall time less the time the site was away.

Nobody is charged for time the site was down (a restart) or could not be reached (a node cut
off from Redis, so that players on the other nodes could not reach its games). The server
records each such interval as an :class:`Outage`; every waiting period (a live clock, a grace
period, a tournament player's time to come to their game) is measured in site time, through
the arithmetic here. The intervals come from storage and from other machines' clocks, so
nothing is assumed about them: an interval with a non-finite start or an end before its start
is ignored, overlapping ones count once, and one not over yet (``end`` None) lasts until the
moment measured.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Outage", "away", "site_elapsed", "spans"]


@dataclass(frozen=True)
class Outage:
    """The site was away from ``start`` until ``end`` (epoch seconds; None: it still is)."""

    start: float
    end: float | None = None


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def spans(outages: Iterable[Outage], until: float) -> list[tuple[float, float]]:
    """The outages up to ``until`` as sorted, disjoint ``(start, end)`` spans: one still going
    on (or ending later) is cut at ``until``, touching or overlapping ones are merged, and
    malformed ones (a start that is not a finite number, an end before the start) left out."""
    if not _finite(until):
        raise ValueError(f"until must be a finite time, not {until!r}")
    cut: list[tuple[float, float]] = []
    for outage in outages:
        start, end = outage.start, outage.end
        if not _finite(start) or start >= until:
            continue
        if end is None or end == math.inf:  # not over (yet, as far as anyone knows)
            end = until
        elif not _finite(end) or end < start:
            continue
        end = min(float(end), until)
        if end > start:
            cut.append((float(start), end))
    cut.sort()
    merged: list[tuple[float, float]] = []
    for start, end in cut:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def away(outages: Iterable[Outage], start: float, end: float) -> float:
    """Seconds of ``[start, end]`` the site was away (0 when ``end`` is not after ``start``)."""
    if not (_finite(start) and _finite(end)):
        raise ValueError(f"start and end must be finite times, not {start!r}, {end!r}")
    if end <= start:
        return 0.0
    return sum(
        min(end, stop) - max(start, begin) for begin, stop in spans(outages, end) if stop > start
    )


def site_elapsed(outages: Iterable[Outage], start: float, end: float) -> float:
    """Site time from ``start`` to ``end``: the wall time between them less the outages."""
    gone = away(outages, start, end)
    return max(0.0, end - start - gone)

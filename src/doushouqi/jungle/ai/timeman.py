"""Time management of Jungle's engine: :mod:`doushouqi.core.time_plan`, every game's (a
:class:`~doushouqi.jungle.analysis.Limit` into soft and hard deadlines; ``wtime``/``winc``
are Red's clock, ``btime``/``binc`` Blue's). Only :meth:`Searcher.stop
<doushouqi.jungle.ai.search_driver.Searcher.stop>` ends an ``infinite`` search.

>>> plan_time(Limit(red_clock=60.0), turn=1).hard is None  # Blue to move: not its clock
True
>>> searches_until_stopped(Limit(blue_clock=5.0), 1)
False
"""

from __future__ import annotations

from doushouqi.core.time_plan import (
    MAX_CLOCK_SHARE,
    MOVE_OVERHEAD,
    Overhead,
    StopTimer,
    TimePlan,
    plan_time,
    searches_until_stopped,
    stops_early,
)
from doushouqi.jungle.analysis import Limit

__all__ = [
    "MAX_CLOCK_SHARE",
    "MOVE_OVERHEAD",
    "Limit",
    "Overhead",
    "StopTimer",
    "TimePlan",
    "plan_time",
    "searches_until_stopped",
    "stops_early",
]

"""Time management of the 老虎棋 engine: :mod:`doushouqi.core.time_plan`, every game's (a
:class:`~doushouqi.tiger.analysis.Limit` into soft and hard deadlines; ``wtime``/``winc``
are seat 0's clock, the tiger side's, ``btime``/``binc`` the men's).

>>> plan_time(Limit(depth=5), turn=1).hard is None
True
>>> searches_until_stopped(Limit(men_clock=5.0), 0), searches_until_stopped(Limit(mate=2), 1)
(True, False)
"""

from __future__ import annotations

from doushouqi.core.time_plan import (
    Overhead,
    StopTimer,
    TimePlan,
    plan_time,
    searches_until_stopped,
)
from doushouqi.tiger.analysis import Limit

__all__ = ["Limit", "Overhead", "StopTimer", "TimePlan", "plan_time", "searches_until_stopped"]

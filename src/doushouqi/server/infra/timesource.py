"""Where the server gets the time, and how it waits for a deadline.

The domain takes ``now`` as an argument; this is the one place that reads it. Times are wall
clock seconds (``time.time()``), not a monotonic clock, because they are stored and must
still mean the same after a restart. Tests inject :class:`ManualTime`, which moves only when
told to, so clock and grace-period behaviour is tested without waiting.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol

__all__ = ["ManualTime", "SystemTime", "TimeSource"]


class TimeSource(Protocol):
    def now(self) -> float:
        """The current time in seconds."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once ``now() >= deadline``."""
        ...


class SystemTime:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        # asyncio's timer may wake a hair early, and the wall clock may be stepped: recheck.
        while (left := deadline - time.time()) > 0:
            await asyncio.sleep(left)


class ManualTime:
    """A clock that stands still until :meth:`advance` (thread-safe: tests drive it from
    their own thread while the server's event loop sleeps on it)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose deadline has come."""
        with self._lock:
            self._now += seconds
            due = [s for s in self._sleepers if s[0] <= self._now]
            self._sleepers = [s for s in self._sleepers if s[0] > self._now]
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)

    async def sleep_until(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._now >= deadline:
                return
            entry = (deadline, loop, future)
            self._sleepers.append(entry)
        try:
            await future
        finally:
            with self._lock:
                if entry in self._sleepers:
                    self._sleepers.remove(entry)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)

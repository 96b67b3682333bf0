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
from collections.abc import Callable
from typing import Protocol

__all__ = ["Cancellable", "ManualTime", "SystemTime", "TimeSource"]


#: A wait on :class:`ManualTime`: its deadline, the loop to wake and what wakes it.
_Sleeper = tuple[float, asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class Cancellable(Protocol):
    """A callback waiting for its time (:meth:`TimeSource.call_at`)."""

    def cancel(self) -> None:
        """Never call it (nothing happens if it has been called already)."""
        ...


class TimeSource(Protocol):
    def now(self) -> float:
        """The current time in seconds."""
        ...

    async def sleep_until(self, deadline: float) -> None:
        """Return once ``now() >= deadline``."""
        ...

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Cancellable:
        """Call ``callback`` in the running event loop once ``now() >= deadline``: a timer
        re-armed with every move, as a loop handle rather than a task (a task per re-arm cost
        three times as much)."""
        ...


class SystemTime:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        # asyncio's timer may wake a hair early, and the wall clock may be stepped: recheck.
        while (left := deadline - time.time()) > 0:
            await asyncio.sleep(left)

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Cancellable:
        return _WallTimer(asyncio.get_running_loop(), deadline, callback)


class _WallTimer:
    """A loop timer for a wall-clock deadline: re-armed if it wakes before it (the loop's
    clock is monotonic, and the wall clock may be stepped meanwhile)."""

    __slots__ = ("_callback", "_deadline", "_handle", "_loop")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, deadline: float, callback: Callable[[], None]
    ) -> None:
        self._loop, self._deadline, self._callback = loop, deadline, callback
        self._handle = loop.call_at(loop.time() + (deadline - time.time()), self._fire)

    def _fire(self) -> None:
        left = self._deadline - time.time()
        if left > 0:
            self._handle = self._loop.call_at(self._loop.time() + left, self._fire)
        else:
            self._callback()

    def cancel(self) -> None:
        self._handle.cancel()


class ManualTime:
    """A clock that stands still until :meth:`advance` (thread-safe: tests drive it from
    their own thread while the server's event loop sleeps on it)."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()
        self._sleepers: list[_Sleeper] = []

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
            self._forget(entry)

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Cancellable:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        entry = (deadline, loop, future)

        def done(finished: asyncio.Future[None]) -> None:
            if not finished.cancelled():
                callback()

        future.add_done_callback(done)
        with self._lock:
            if self._now >= deadline:
                future.set_result(None)
            else:
                self._sleepers.append(entry)
        return _ManualTimer(self, entry)

    def _forget(self, entry: _Sleeper) -> None:
        with self._lock:
            if entry in self._sleepers:
                self._sleepers.remove(entry)


class _ManualTimer:
    __slots__ = ("_clock", "_entry")

    def __init__(self, clock: ManualTime, entry: _Sleeper) -> None:
        self._clock, self._entry = clock, entry

    def cancel(self) -> None:
        self._entry[2].cancel()
        self._clock._forget(self._entry)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)

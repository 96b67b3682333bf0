"""Rate limits (login, sign-up, game creation, websocket messages): sliding windows in memory.

One server process holds all games, so in-memory counters see every request. Keys are client
addresses (and, for logins, the account name as well, so that spreading a password-guessing
attack over many addresses still hits the per-account limit).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from .settings import RateLimit

__all__ = ["RateLimiter", "TokenBucket"]

#: Keys idle this long are forgotten, so the table cannot grow without bound.
_MAX_KEYS = 100_000


class RateLimiter:
    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}

    def check(self, key: str) -> float | None:
        """Count a request for ``key``; None when allowed, else seconds until it would be."""
        now = self._clock()
        hits = self._hits.get(key)
        if hits is None:
            if len(self._hits) >= _MAX_KEYS:
                self._forget(now)
            hits = self._hits[key] = deque()
        while hits and hits[0] <= now - self.limit.period:
            hits.popleft()
        if len(hits) >= self.limit.count:
            return hits[0] + self.limit.period - now
        hits.append(now)
        return None

    def _forget(self, now: float) -> None:
        stale = [k for k, h in self._hits.items() if not h or h[-1] <= now - self.limit.period]
        for key in stale:
            del self._hits[key]


class TokenBucket:
    """A per-connection allowance: ``count`` messages per ``period``, refilled smoothly."""

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = limit.count / limit.period
        self.capacity = float(limit.count)
        self._tokens = self.capacity
        self._clock = clock
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

"""Rate limits (sign-up, game creation, uploads, websocket messages): sliding windows in
memory, keyed by client address; and :class:`LoginThrottle`, which slows password guessing.

One server process holds all games, so in-memory counters see every request. A client's
address is the peer's, or the one a configured proxy forwards (``trusted_proxies``): never a
header any client could send.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from doushouqi.server.infra.settings import RateLimit

__all__ = ["LoginThrottle", "RateLimiter", "TokenBucket"]

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

    def wait(self, key: str) -> float | None:
        """Like :meth:`check`, but counts nothing: seconds until ``key`` is under the limit."""
        now = self._clock()
        hits = self._hits.get(key)
        if not hits:
            return None
        while hits and hits[0] <= now - self.limit.period:
            hits.popleft()
        return hits[0] + self.limit.period - now if len(hits) >= self.limit.count else None

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


class LoginThrottle:
    """Slows password guessing without locking the account's owner out.

    Only failures count. Each (address, account) pair gets :attr:`FREE_FAILURES` free tries,
    then waits twice as long after every further failure (1 s, 2 s, 4 s … at most
    :attr:`MAX_DELAY`), so one guesser is slowed to a crawl while the owner, from another
    address, is not. Guessing spread over many addresses is capped per account
    (``account_limit`` failures per window), but that cap applies only to clients the owner
    has not used: a browser that signed up or once logged in to the account holds a device cookie
    (see :class:`doushouqi.server.accounts.auth.Auth`) and passes as ``trusted``. A success forgets
    the pair's failures.
    """

    FREE_FAILURES = 3
    MAX_DELAY = 300.0

    def __init__(
        self, account_limit: RateLimit, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        #: (address, account) → (failures, time of the last one).
        self._pairs: dict[tuple[str, str], tuple[int, float]] = {}
        self._accounts = RateLimiter(account_limit, clock)

    def wait(self, address: str, account: str, trusted: bool) -> float | None:
        """None when a login may be tried now, else seconds until it may."""
        waits = []
        failures, last = self._pairs.get((address, account), (0, 0.0))
        if failures >= self.FREE_FAILURES:
            delay = min(self.MAX_DELAY, 2.0 ** (failures - self.FREE_FAILURES))
            waits.append(last + delay - self._clock())
        if not trusted:
            waits.append(self._accounts.wait(account) or 0.0)
        longest = max(waits, default=0.0)
        return longest if longest > 0 else None

    def failed(self, address: str, account: str, trusted: bool) -> None:
        if len(self._pairs) >= _MAX_KEYS:
            self._forget()
        failures, _ = self._pairs.get((address, account), (0, 0.0))
        self._pairs[(address, account)] = (failures + 1, self._clock())
        if not trusted:
            self._accounts.check(account)

    def succeeded(self, address: str, account: str) -> None:
        self._pairs.pop((address, account), None)

    def _forget(self) -> None:
        stale = self._clock() - self.MAX_DELAY
        for pair in [pair for pair, (_, last) in self._pairs.items() if last <= stale]:
            del self._pairs[pair]

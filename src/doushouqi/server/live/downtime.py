"""Time the site was away: this node records the site's outages and knows its own.

Every waiting period (a live clock, a grace period, a tournament player's time to come to their
game) is measured in site time: wall time less the outages (``domain/site_time.py``). Outages
come from two places:

* **a restart**: on start, the time from the site's last heartbeat to now, when the site was
  down (one server: always; a cluster: when no other node was alive, since otherwise they
  looked after the games and a dead node's games are taken over with its own downtime);
* **Redis away** (a cluster): the node's loops and lease thread note each failed and answered
  Redis call (:class:`RedisOutages`). From its last answer before a failure to the next answer
  this node's games could not be reached from the other nodes, so their deadlines are held
  (``GameActor.schedule``), a command meanwhile first gives the game the outage so far, and
  when Redis answers again the node's games get the outage (the part after each game's last
  activity: a move made meanwhile stands) and it is recorded.

Recorded outages (``site_outages``) are what a node that loads a game later, or the tournament
director, reads; :meth:`Downtime.outages_after` adds this node's own not yet recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.orm import Session

from doushouqi.server.db import outages, repo
from doushouqi.server.db.database import Database
from doushouqi.server.domain.site_time import Outage
from doushouqi.server.infra.timesource import TimeSource

__all__ = ["Downtime", "RedisOutages"]

log = logging.getLogger(__name__)

#: A node keeps at most this many of its Redis outages that it could not record yet.
KEEP_UNRECORDED = 32
#: Tries (a second apart) to record an outage while the database does not answer.
RECORD_TRIES = 30


class RedisOutages:
    """Whether this node reaches Redis, as its Redis calls find (thread-safe: the lease keeper
    is a thread). An outage runs from the last answer before a failure to the next answer:
    within one beat of the truth, as a restart's downtime is within one heartbeat."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clock: Callable[[], float] = time.time
        self._last_answer = self._clock()
        self._since: float | None = None
        self._unrecorded: list[Outage] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._on_over: Callable[[Outage], None] | None = None

    def bind(
        self,
        loop: asyncio.AbstractEventLoop,
        clock: Callable[[], float],
        on_over: Callable[[Outage], None],
    ) -> None:
        """Measure by ``clock``; call ``on_over`` in ``loop`` when an outage is over."""
        with self._lock:
            self._loop, self._clock, self._on_over = loop, clock, on_over
            self._last_answer = clock()

    def failed(self) -> None:
        """A Redis call failed (the outage began at the last answer, if it had not already)."""
        with self._lock:
            if self._since is None:
                self._since = self._last_answer
                log.warning(
                    "redis unreachable since %.3f: holding this node's deadlines", self._since
                )

    def answered(self) -> None:
        """A Redis call succeeded: an outage in progress is over."""
        with self._lock:
            now = self._clock()
            self._last_answer = max(self._last_answer, now)
            since, self._since = self._since, None
            if since is None:
                return
            over = Outage(since, max(since, now))
            self._unrecorded = [*self._unrecorded, over][-KEEP_UNRECORDED:]
            loop, on_over = self._loop, self._on_over
        log.warning("redis reachable again after %.1f s", now - since)
        if loop is not None and on_over is not None:
            # A RuntimeError: the loop has closed, the node is stopping.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(on_over, over)

    @property
    def away_since(self) -> float | None:
        """When the outage in progress began (None: Redis answers)."""
        with self._lock:
            return self._since

    def own(self) -> list[Outage]:
        """This node's outages not recorded yet, the one in progress (not over) included."""
        with self._lock:
            current = [] if self._since is None else [Outage(self._since)]
            return [*self._unrecorded, *current]

    def recorded(self, outage: Outage) -> None:
        """``outage`` is in the database now: the database tells it from here on."""
        with self._lock:
            self._unrecorded = [o for o in self._unrecorded if o != outage]


class Downtime:
    """The site's outages as this node knows them (see the module's docstring)."""

    def __init__(
        self, db: Database, clock: TimeSource, redis: RedisOutages | None = None, node: str = ""
    ) -> None:
        self._db = db
        self._time = clock
        #: This node's view of Redis (None: one server, no Redis to lose).
        self.redis = redis
        self._node = node
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def away_since(self) -> float | None:
        """Since when this node cannot reach Redis (None: it can, or there is none)."""
        return None if self.redis is None else self.redis.away_since

    def own(self) -> list[Outage]:
        """This node's own outages that the database does not hold yet."""
        return [] if self.redis is None else self.redis.own()

    async def outages_after(self, since: float) -> list[Outage]:
        """Every outage known here that ended after ``since`` (or is not over)."""
        recorded = await self._db.read(functools.partial(outages.since, after=since))
        return [*recorded, *self.own()]

    async def record_restart(self, *, cluster_lease: float | None = None) -> Outage | None:
        """At start: record the time the site was down, from its last heartbeat to now, and
        return it (None: it was not down). In a cluster (``cluster_lease``: the lease's
        seconds) the site was down only if no node has beaten within a lease."""
        now = self._time.now()

        def work(session: Session) -> Outage | None:
            down_at = repo.get_heartbeat(session)
            if down_at is None or not down_at < now:
                return None
            if cluster_lease is not None:
                beats = repo.node_beats(session).values()
                if any(at >= now - cluster_lease for at in beats):
                    return None  # another node is up: the site was not down
            outage = Outage(down_at, now)
            outages.record(session, outage, outages.DOWN)
            return outage

        return await self._db.write(work)

    def watch_redis(self, on_over: Callable[[Outage], Awaitable[None]]) -> None:
        """Run ``on_over`` each time this node reaches Redis again after an outage. Call from
        the event loop."""
        if self.redis is None:
            return

        def over(outage: Outage) -> None:
            task = asyncio.ensure_future(on_over(outage))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self.redis.bind(asyncio.get_running_loop(), self._time.now, over)

    async def record_redis_outage(self, outage: Outage) -> None:
        """Store this node's Redis outage, retrying while the database does not answer."""
        if self.redis is None:
            return
        record = functools.partial(
            outages.record, outage=outage, cause=outages.REDIS, node=self._node[:64] or None
        )
        for _ in range(RECORD_TRIES):
            try:
                await self._db.write(record)
            except Exception:
                log.exception("could not record a redis outage; trying again")
                await asyncio.sleep(1.0)
                continue
            self.redis.recorded(outage)
            return

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

"""The AI as a distributed service: jobs on Redis Streams, searched by ``doushouqi worker``s.

:class:`RedisAi` is the second implementation of :class:`~doushouqi.server.ai.pool.AiService`
(the first, :class:`~doushouqi.server.ai.pool.ProcessPoolAi`, searches in this process's
children). It puts each job on the stream of its kind — a game's move, a hint, a replay's
analysis, a game review's position, read by the workers in that order — with its deadline and
the result list of this node, and waits for the answer:

* **one dispatcher task** pops this node's result list (``BRPOP``: oldest first, as the
  workers ``LPUSH``) and hands each answer to the future waiting for its job id (late or
  duplicate answers are dropped);
* **one refresher task** keeps :attr:`backlog` (the groups' lag) and the live workers (their
  heartbeat keys) up to date for the metrics and :meth:`capacity`, and notices a Redis that
  lost its data (restarted without persistence, or flushed: its ``epoch`` key is new): every
  job still waiting that went into the old data set is put on the streams again;
* a waiter that is **cancelled** (the game moved on) marks its job cancelled, and the worker
  skips it;
* a job that **no worker answers** by its deadline plus ``margin``, or that cannot even be
  submitted because Redis stays away that long, raises :class:`AiUnavailableError`: only
  then does a game play a (counted) random move.

See :mod:`~doushouqi.server.ai.jobs` for the keys, :mod:`~doushouqi.server.ai.worker` for
the workers, and docs/server.md ("AI workers on Redis").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import secrets
import socket
import time
import uuid
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from doushouqi.server.ai.jobs import (
    GROUP,
    KINDS,
    PREFIX,
    Job,
    Keys,
    Operation,
    backlog_from,
    decode_result,
)
from doushouqi.server.ai.pool import AiMove, AiRequest, Analysis, submitted
from doushouqi.server.infra.redis_close import close_now

if TYPE_CHECKING:
    from doushouqi.server.infra.settings import Settings

__all__ = ["AiJobError", "AiUnavailableError", "RedisAi", "Served"]

log = logging.getLogger(__name__)

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
#: Seconds a cancel mark or a game's latest version is kept (longer than any job waits).
_MARK_TTL = 600
#: The most closing the connections, or writing a cancel mark, may take.
_CLOSE_TIMEOUT = 2.0


class AiUnavailableError(RuntimeError):
    """No worker answered in time, or Redis could not be reached."""


class AiJobError(RuntimeError):
    """A worker answered with an error (a position it could not search)."""


@dataclass(frozen=True)
class Served:
    """Who answered a job (the last answers are kept in :attr:`RedisAi.recent`)."""

    job_id: str
    kind: str
    worker: str
    ok: bool
    #: Seconds from submission to the answer.
    elapsed: float
    #: What the search reached: nodes (a move's search), depth (an analysis's).
    nodes: int = 0
    depth: int = 0


@dataclass
class _Waiting:
    job: Job
    future: asyncio.Future[dict[str, Any]]
    submitted_at: float
    #: The epoch of the Redis data set the job went into (None: not submitted yet).
    epoch: str | None = None
    #: Put on the streams again (Redis lost it): another copy may be searched.
    resubmitted: bool = False


@dataclass
class _Load:
    backlog: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    #: None until the first look (then admission control starts counting).
    workers: int | None = None


class RedisAi:
    """Searches on ``doushouqi worker`` processes reached through Redis at ``url``.

    ``games_per_worker``: games against the computer each live worker serves at once
    (:meth:`capacity`); ``margin``: seconds past a job's deadline before giving up on it.
    A ``RedisAi`` serves the event loop that first uses it (its tasks start then)."""

    def __init__(
        self,
        url: str,
        *,
        name: str = "AI",
        games_per_worker: int = 20,
        margin: float = 10.0,
        node: str = "",
        prefix: str = PREFIX,
        refresh_interval: float = 0.5,
    ) -> None:
        self.url = url
        self.name = name
        self.games_per_worker = games_per_worker
        self.margin = margin
        self.refresh_interval = refresh_interval
        self.node = f"{node or socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.keys = Keys(prefix)
        self.results_key = self.keys.results(self.node)
        #: The latest answers: which worker served which job.
        self.recent: deque[Served] = deque(maxlen=1024)
        self._redis: aioredis.Redis | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._chores: set[asyncio.Task[Any]] = set()
        self._jobs: dict[str, _Waiting] = {}
        self._load = _Load()
        #: This node's proposal for a new epoch (see :meth:`_epoch_commands`).
        self._new_epoch = uuid.uuid4().hex
        self._epoch: str | None = None
        self._down_since: float | None = None
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Settings) -> RedisAi:
        if not settings.redis_url:
            raise ValueError("no Redis URL in the settings")
        return cls(
            settings.redis_url,
            games_per_worker=settings.ai_games_per_worker,
            margin=settings.ai_timeout_margin,
            node=settings.node_name,
        )

    # ------------------------------------------------------------------ AiService

    async def ready(self) -> None:
        """At once: the workers are other processes, each loading the engine before it takes
        a job; a job waits in the queue under its own deadline."""
        return None

    async def choose_move(self, request: AiRequest) -> AiMove:
        if request.kind != "move":
            request = dataclasses.replace(request, kind="move")
        value = await self._run("move", request)
        return AiMove(
            move=str(value["move"]),
            movetime=float(value["movetime"]),
            asked=float(value["asked"]),
            nodes=int(value.get("nodes", 0)),
            waited=float(value.get("waited", 0.0)),
            # A worker of before this field: counted as having searched all of its time.
            searched=None if value.get("searched") is None else float(value["searched"]),
        )

    async def analyse(self, request: AiRequest) -> Analysis:
        if request.kind == "move":
            request = dataclasses.replace(request, kind="analysis")
        return await self._run("analyse", request)

    @property
    def backlog(self) -> int:
        """Jobs of every kind waiting for a worker (as last looked: twice a second)."""
        self._start_if_in_loop()
        return self._load.backlog

    @property
    def workers(self) -> int | None:
        """Live workers (None: not looked yet)."""
        self._start_if_in_loop()
        return self._load.workers

    def waiting(self, kind: str) -> int:
        """Jobs of one kind waiting for a worker (as last looked)."""
        return self._load.by_kind.get(kind, 0)

    def capacity(self) -> int | None:
        self._start_if_in_loop()
        workers = self._load.workers
        return None if workers is None else workers * self.games_per_worker

    def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
        for waiting in self._jobs.values():
            if not waiting.future.done():
                waiting.future.set_exception(AiUnavailableError("the AI service was closed"))
        client, self._redis = self._redis, None
        if client is not None:
            close_now(client)

    async def aclose(self) -> None:
        """Close, and let the background tasks end (never waiting long)."""
        tasks = list(self._tasks)
        self.close()
        if tasks:
            await asyncio.wait(tasks, timeout=_CLOSE_TIMEOUT)

    # ------------------------------------------------------------------ one job

    async def _run(self, op: Operation, request: AiRequest) -> dict[str, Any]:
        client = self._client()
        request = submitted(request)
        assert request.deadline is not None
        job = Job(
            id=uuid.uuid4().hex,
            op=op,
            request=request,
            reply=self.results_key,
            expires=request.deadline + self.margin,
        )
        loop = asyncio.get_running_loop()
        waiting = _Waiting(job, loop.create_future(), time.time())
        self._jobs[job.id] = waiting
        try:
            await self._submit(client, waiting)
            left = job.expires - time.time()
            try:
                return await asyncio.wait_for(waiting.future, max(0.0, left))
            except TimeoutError:
                raise AiUnavailableError(
                    f"no AI worker answered {job.kind} job {job.id} in time "
                    f"({self._load.workers or 0} worker(s) seen)"
                ) from None
        except asyncio.CancelledError:
            # (wait_for has cancelled the future: unanswered unless it holds a result.) Marked
            # even if cancelled while being submitted: the entry may be in the stream already.
            answered = waiting.future.done() and not waiting.future.cancelled()
            if not answered and not self._closed:
                self._chore(self._cancel(job))
            raise
        finally:
            self._jobs.pop(job.id, None)

    async def _submit(self, client: aioredis.Redis, waiting: _Waiting) -> None:
        """Put the job on its stream, retrying while Redis is away (until the job expires)."""
        job = waiting.job
        delay = 0.05
        while True:
            try:
                waiting.epoch = await self._add(client, job)
                return
            except _UNREACHABLE as exc:
                _raise_if_cancelled()
                if time.time() + delay > job.expires:
                    raise AiUnavailableError(f"Redis is not reachable: {exc}") from None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _add(self, client: aioredis.Redis, job: Job) -> str:
        """Put the job on its stream; the epoch of the data set it went into."""
        request = job.request
        async with client.pipeline(transaction=True) as pipe:
            self._epoch_commands(pipe)
            if job.op == "move" and request.game_id is not None and request.version is not None:
                # Earlier moves asked for this game are dropped by the workers.
                pipe.set(self.keys.game(request.game_id), request.version, ex=_MARK_TTL)
            pipe.xadd(self.keys.stream(job.kind), job.fields())  # type: ignore[arg-type]
            replies = await pipe.execute()
        return self._seen_epoch(replies[1])

    def _epoch_commands(self, pipe: Any) -> None:
        """Queue SET NX + GET of ``epoch``: a random token made by whoever first writes to a
        data set. A Redis restarted without persistence (or flushed) has a new one, so a job
        whose epoch is not the current one is known to be lost, whatever happened meanwhile."""
        pipe.set(self.keys.epoch, self._new_epoch, nx=True)
        pipe.get(self.keys.epoch)

    def _seen_epoch(self, epoch: Any) -> str:
        """Note the data set's epoch as read back. Once this node's proposal has been taken, it
        proposes another: a token offered again would make a restarted Redis that this node
        writes to first look like the data set it lost, and its jobs would never be resent."""
        seen = str(epoch)
        if seen == self._new_epoch:
            self._new_epoch = uuid.uuid4().hex
        return seen

    async def _cancel(self, job: Job) -> None:
        # Only saves work: an unreachable (or closed) Redis loses nothing here.
        with contextlib.suppress(*_UNREACHABLE, AiUnavailableError, RuntimeError):
            client = self._client()
            mark = client.set(self.keys.cancel(job.id), "1", ex=_MARK_TTL)
            await asyncio.wait_for(mark, _CLOSE_TIMEOUT)

    # ------------------------------------------------------------------ background tasks

    def _start_if_in_loop(self) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        if not self._closed:
            self._client()

    def _client(self) -> aioredis.Redis:
        """The client of this event loop, starting the background tasks on first use."""
        loop = asyncio.get_running_loop()
        if self._closed:
            raise AiUnavailableError("the AI service was closed")
        if self._redis is not None and self._loop is loop:
            return self._redis
        if self._loop is not None and self._loop is not loop:
            raise RuntimeError("a RedisAi serves the one event loop that first used it")
        self._loop = loop
        self._redis = aioredis.Redis.from_url(
            self.url,
            decode_responses=True,
            socket_connect_timeout=2.0,
            socket_timeout=10.0,
            retry=Retry(NoBackoff(), 1),
        )
        self._tasks = [
            loop.create_task(self._dispatch(self._redis), name=f"{self.name}-results"),
            loop.create_task(self._refresh(self._redis), name=f"{self.name}-load"),
        ]
        return self._redis

    def _chore(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _dispatch(self, client: aioredis.Redis) -> None:
        """Hand each answer on this node's result list to the job waiting for it; close the
        connections when cancelled (by :meth:`close`)."""
        delay = 0.05
        try:
            while not self._closed:
                try:
                    # The workers push answers on the left: taken from the right, several
                    # found at once (this loop fell behind) go on in the order given.
                    popped = await client.brpop([self.results_key], timeout=1)
                except _UNREACHABLE:
                    _raise_if_cancelled()
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 1.0)
                    continue
                delay = 0.05
                if popped:
                    self._deliver(popped[1])
        finally:
            close_now(client)

    def _deliver(self, text: str | bytes) -> None:
        try:
            message = decode_result(text)
        except ValueError:
            log.error("dropped an unreadable AI answer: %.200r", text)
            return
        waiting = self._jobs.get(message["id"])
        if waiting is None or waiting.future.done():
            return  # late (its waiter gave up) or a second copy's
        error = message.get("error")
        worker = str(message.get("worker", "?"))
        elapsed = time.time() - waiting.submitted_at
        result = message.get("result")
        job = waiting.job
        if error is not None or not isinstance(result, dict):
            self.recent.append(Served(job.id, job.kind, worker, False, elapsed))
            waiting.future.set_exception(AiJobError(f"worker {worker}: {error or 'no result'}"))
        else:
            nodes, depth = _number(result.get("nodes")), _number(result.get("depth"))
            self.recent.append(Served(job.id, job.kind, worker, True, elapsed, nodes, depth))
            waiting.future.set_result(result)
        if waiting.resubmitted:
            # The other copy need not be searched.
            self._chore(self._cancel(waiting.job))

    async def _refresh(self, client: aioredis.Redis) -> None:
        """Every ``refresh_interval``: the load, and whether Redis restarted."""
        while not self._closed:
            try:
                await self._look(client)
            except _UNREACHABLE as exc:
                _raise_if_cancelled()
                if self._down_since is None:
                    self._down_since = time.monotonic()
                    log.warning("%s: lost Redis (%s); reconnecting", self.name, exc)
            except ResponseError as exc:
                log.error("%s: Redis refused a command: %s", self.name, exc)
            else:
                if self._down_since is not None:
                    down = time.monotonic() - self._down_since
                    log.info("%s: Redis is back after %.1f s", self.name, down)
                    self._down_since = None
            await asyncio.sleep(self.refresh_interval)

    async def _look(self, client: aioredis.Redis) -> None:
        async with client.pipeline(transaction=False) as pipe:
            self._epoch_commands(pipe)
            for stream in self.keys.streams:
                pipe.xinfo_groups(stream)
                pipe.xlen(stream)
            pipe.smembers(self.keys.workers)
            replies = await pipe.execute(raise_on_error=False)
        epoch = replies[1]
        if isinstance(epoch, str) and self._seen_epoch(epoch) != self._epoch:
            # A new data set (first look, or Redis restarted): the group, and the jobs lost.
            await self._ensure_groups(client)
            await self._resubmit(client, epoch)
            self._epoch = epoch
        replies = replies[2:]
        by_kind: dict[str, int] = {
            kind: backlog_from(replies[2 * i], replies[2 * i + 1]) for i, kind in enumerate(KINDS)
        }
        names = replies[-1]
        workers = 0
        if isinstance(names, set) and names:
            workers = int(await client.exists(*(self.keys.worker(n) for n in names)))
        self._load = _Load(sum(by_kind.values()), by_kind, workers)

    async def _ensure_groups(self, client: aioredis.Redis) -> None:
        for stream in self.keys.streams:
            try:
                await client.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def _resubmit(self, client: aioredis.Redis, epoch: str) -> None:
        """Jobs still waiting that went into an older data set (Redis restarted without
        persistence, or was flushed) go on the streams again; the first answer wins."""
        lost = [
            w
            for w in self._jobs.values()
            if w.epoch is not None and w.epoch != epoch and not w.future.done()
        ]
        if lost:
            log.warning("%s: Redis lost %d waiting job(s); submitting again", self.name, len(lost))
        for waiting in lost:
            waiting.epoch = await self._add(client, waiting.job)
            waiting.resubmitted = True


def _raise_if_cancelled() -> None:
    """Re-raise a cancellation that the client turned into a connection error or timeout (one
    that arrives as its own socket timeout expires), so that no loop outlives it."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


def _number(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 0

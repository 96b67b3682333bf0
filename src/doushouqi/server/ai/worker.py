"""``doushouqi worker``: engine processes that take the AI's jobs from Redis, on any machine.

Each worker process is one consumer of the group ``workers`` on the job streams
(:mod:`~doushouqi.server.ai.jobs`) and searches one job at a time:

1. **Take the most urgent job.** The streams are read in priority order (a game's move, then
   a hint, then a replay's analysis, then a position of a game review); within a kind, a job
   another worker took and lost comes before a new one. A job is *lost* when its entry in the
   group's pending list has not been touched for a lease (``--lease``, 3 s): the worker
   searching it touches it every third of a lease from a heartbeat thread (the engine searches
   with the GIL released, numba ``nogil``, so the thread runs during a search), and
   ``XAUTOCLAIM`` hands over only entries idle longer than that — those of a worker that died,
   was killed or lost its network.
2. **Drop what nobody needs**: a job marked cancelled (its game moved on, its caller gave
   up), a move for a version of the game older than the latest one asked for, a job past the
   moment its server stops waiting, a job that has already been taken by three workers
   (it kills them: it is answered with an error instead).
3. **Search it** with :func:`~doushouqi.server.ai.pool.search_move` or
   :func:`~doushouqi.server.ai.pool.analyse_position`, whose effort policy
   (:mod:`~doushouqi.server.ai.effort`) sees the jobs of the same or higher priority still
   waiting (the groups' lag) and the live workers (their heartbeat keys).
4. **Answer**: push the result onto the asking server node's result list, acknowledge and
   delete the entry. A result that cannot be delivered because Redis is away is kept and
   delivered when it is back.

When Redis goes away the worker retries with a backoff and resumes where it was; after
``--redis-timeout`` seconds (60) without it, it exits with status 3 and says so. The command
runs ``--processes`` such processes (default: one per core) under a supervisor that starts a
new one when one dies and stops all of them when one has lost Redis for good; each process
ends when the supervisor does, even one killed with ``kill -9``.

This module imports neither the web framework nor the database: a worker machine needs only
the ``worker`` extra (the engine and redis-py).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from doushouqi.server.ai.effort import MIN_MOVETIME
from doushouqi.server.ai.jobs import (
    GROUP,
    KINDS,
    PREFIX,
    RESULT_TTL,
    Job,
    Keys,
    backlog_from,
    encode_result,
)
from doushouqi.server.ai.pool import AiRequest, analyse_position, search_move, warm_up_engines
from doushouqi.server.infra.parent_watch import watch_parent

if TYPE_CHECKING:
    import redis

__all__ = [
    "EXIT_NO_ENGINE",
    "EXIT_REDIS_LOST",
    "MAX_DELIVERIES",
    "Worker",
    "WorkerOptions",
    "redacted",
    "run_worker_command",
    "run_workers",
]

log = logging.getLogger("doushouqi.worker")

#: Exit status of a worker that lost Redis for longer than ``--redis-timeout``.
EXIT_REDIS_LOST = 3
#: Exit status of a worker that cannot search at all (the engine is missing or broken).
EXIT_NO_ENGINE = 4
#: Workers a job may be handed to before it counts as one that kills them.
MAX_DELIVERIES = 3
#: A supervisor gives up when its processes die this often within a minute.
MAX_RESTARTS_PER_MINUTE = 10

#: Refresh this node's job lease only if the group still lists the job as ours, and then only
#: its idle time (JUSTID: the delivery count stays the number of workers it was given to).
_REFRESH_LEASE = """
local mine = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1, ARGV[2])
if #mine == 0 then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
"""


@dataclass(frozen=True)
class WorkerOptions:
    url: str
    #: Seconds without a heartbeat after which a worker's job is handed to another.
    lease: float = 3.0
    #: Seconds of failed reconnects after which the worker gives up and exits.
    redis_timeout: float = 60.0
    #: Seconds one blocking read waits for a job before looking for lost ones again.
    block: float = 1.0
    prefix: str = PREFIX


@dataclass
class _Entry:
    stream: str
    id: str
    fields: dict[str, str]
    #: Taken over from a worker that lost it.
    claimed: bool = False


def redacted(url: str) -> str:
    """The URL without its password (for logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + netloc))


class RedisLostError(Exception):
    """Redis has been away for longer than the worker waits for it."""


class Worker:
    """One consumer: takes a job, searches it, answers; again, until stopped."""

    def __init__(self, options: WorkerOptions, name: str | None = None) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.options = options
        self.keys = Keys(options.prefix)
        self.name = name or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(2)}"
        self._errors: tuple[type[BaseException], ...] = (
            redis.ConnectionError,
            redis.TimeoutError,
            OSError,
        )
        client_options: dict[str, Any] = {
            "decode_responses": True,
            "socket_connect_timeout": 2.0,
            "socket_timeout": options.block + 5.0,
            # One quick retry on a fresh connection (a pooled one may be from before a
            # restart of Redis); longer outages are the loop's business.
            "retry": Retry(NoBackoff(), 1),
        }
        self.redis: redis.Redis = redis.Redis.from_url(options.url, **client_options)
        # The heartbeat thread has a client of its own: it runs while the main one blocks.
        self._beat_redis: redis.Redis = redis.Redis.from_url(options.url, **client_options)
        self._refresh_lease = self._beat_redis.register_script(_REFRESH_LEASE)
        self._identity = {"pid": os.getpid(), "host": socket.gethostname()}
        #: The job being searched now (its id, kind and start), for ``worker:NAME``.
        self._searching: dict[str, Any] | None = None
        #: Entries given to this worker and not answered yet, by entry id.
        self._held: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        #: Held while ``worker:NAME`` is written, by either thread.
        self._info_lock = threading.Lock()
        self._stopping = threading.Event()
        #: An answer (or drop) that could not be written yet because Redis was away.
        self._unfinished: tuple[_Entry, str | None, str] | None = None
        self._down_since: float | None = None
        self._failures = 0
        self._next_housekeeping = 0.0
        self._need_groups = True

    # ------------------------------------------------------------------ life cycle

    def stop(self) -> None:
        """Finish the job in hand, then return from :meth:`run`."""
        self._stopping.set()

    def run(self) -> int:
        """Serve jobs until stopped (0) or until Redis has been away too long
        (:data:`EXIT_REDIS_LOST`)."""
        beat = threading.Thread(target=self._beat_forever, name="worker-heartbeat", daemon=True)
        beat.start()
        log.info("worker %s serving jobs from %s", self.name, redacted(self.options.url))
        try:
            while not self._stopping.is_set():
                try:
                    self._step()
                except RedisLostError:
                    log.error(
                        "lost Redis at %s for %g s (--redis-timeout); exiting",
                        redacted(self.options.url),
                        self.options.redis_timeout,
                    )
                    return EXIT_REDIS_LOST
        finally:
            self._stopping.set()
            beat.join(timeout=2)
            self._deregister()
        return 0

    def _step(self) -> None:
        import redis

        try:
            if self._need_groups:
                self._ensure_groups()
                self._need_groups = False
            if self._unfinished is not None:
                self._finish(*self._unfinished)
            if time.monotonic() >= self._next_housekeeping:
                self._housekeeping()
            entry = self._next_entry()
            self._back()
            if entry is not None:
                self._process(entry)
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            # A new (or restarted, or flushed) Redis: the streams and the group are made anew.
            self._need_groups = True
        except self._errors as exc:
            self._away(exc)

    def _away(self, exc: BaseException) -> None:
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
            log.warning(
                "lost Redis (%s); reconnecting for up to %g s", exc, self.options.redis_timeout
            )
        elif now - self._down_since >= self.options.redis_timeout:
            raise RedisLostError from exc
        self._failures += 1
        left = self._down_since + self.options.redis_timeout - now
        time.sleep(max(0.0, min(0.05 * 2**self._failures, 1.0, left)))

    def _back(self) -> None:
        if self._down_since is not None:
            log.info("Redis is back after %.1f s; resuming", time.monotonic() - self._down_since)
            self._down_since = None
        self._failures = 0

    def _ensure_groups(self) -> None:
        import redis

        for stream in self.keys.streams:
            try:
                # From the stream's start: jobs added before any worker was there are served.
                self.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def _housekeeping(self) -> None:
        """Forget dead workers: their registrations and, once their jobs were taken over,
        their consumers in the group."""
        self._next_housekeeping = time.monotonic() + 30.0
        names = sorted(str(n) for n in self.redis.smembers(self.keys.workers))
        live = self.redis.mget([self.keys.worker(n) for n in names]) if names else []
        dead = {name for name, info in zip(names, live, strict=True) if info is None}
        if dead:
            self.redis.srem(self.keys.workers, *dead)
        for stream in self.keys.streams:
            try:
                consumers = self.redis.xinfo_consumers(stream, GROUP)
            except Exception:
                continue
            for consumer in consumers:
                name = str(consumer.get("name"))
                idle = int(consumer.get("idle") or 0)
                if name not in names and not consumer.get("pending") and idle > 600_000:
                    self.redis.xgroup_delconsumer(stream, GROUP, name)

    # ------------------------------------------------------------------ the heartbeat

    def _beat_forever(self) -> None:
        interval = self.options.lease / 3
        self._beat()
        while not self._stopping.wait(interval):
            self._beat()

    def _beat(self) -> None:
        """Say this worker lives, and keep the leases of the jobs it holds."""
        try:
            with self._info_lock:  # (so an older state is never written over a newer one)
                pipe = self._beat_redis.pipeline(transaction=True)
                pipe.set(self.keys.worker(self.name), self._info(), px=self._lease_ms)
                pipe.sadd(self.keys.workers, self.name)
                pipe.execute()
            with self._lock:
                held = list(self._held.values())
            for entry in held:
                args = [GROUP, self.name, entry.id]
                if not self._refresh_lease(keys=[entry.stream], args=args):
                    with self._lock:
                        lost = entry.id in self._held  # (not just answered meanwhile)
                    if lost:
                        job = entry.fields.get("id", entry.id)
                        log.warning(
                            "job %s is no longer this worker's (taken over, or Redis "
                            "lost it); finishing it anyway",
                            job,
                        )
        except Exception as exc:  # the main loop notices outages and reports them
            log.debug("heartbeat failed: %s", exc)

    @property
    def _lease_ms(self) -> int:
        return int(self.options.lease * 1000)

    def _info(self) -> str:
        """What ``worker:NAME`` says: who the worker is, and what it is searching."""
        return json.dumps({**self._identity, "searching": self._searching})

    def _deregister(self) -> None:
        try:
            self.redis.delete(self.keys.worker(self.name))
            self.redis.srem(self.keys.workers, self.name)
        except Exception:
            pass

    # ------------------------------------------------------------------ taking jobs

    def _hold(self, entry: _Entry) -> _Entry:
        with self._lock:
            self._held[entry.id] = entry
        return entry

    def _held_in(self, stream: str) -> _Entry | None:
        with self._lock:
            for entry in self._held.values():
                if entry.stream == stream:
                    return entry
        return None

    def _next_entry(self) -> _Entry | None:
        """The most urgent job: by kind, then a lost one before a new one; None after a
        blocking read found nothing (or only held what it found for the next round)."""
        lease_ms = self._lease_ms
        for stream in self.keys.streams:
            if (held := self._held_in(stream)) is not None:
                return held
            claimed: Any = self.redis.xautoclaim(
                stream, GROUP, self.name, min_idle_time=lease_ms, start_id="0-0", count=1
            )
            if claimed[1]:
                entry_id, fields = claimed[1][0]
                return self._hold(_Entry(stream, entry_id, fields, claimed=True))
            got: Any = self.redis.xreadgroup(GROUP, self.name, {stream: ">"}, count=1)
            for _, entries in got:
                for entry_id, fields in entries:
                    return self._hold(_Entry(stream, entry_id, fields))
        streams: dict[Any, Any] = dict.fromkeys(self.keys.streams, ">")
        block_ms = int(self.options.block * 1000)
        blocked: Any = self.redis.xreadgroup(GROUP, self.name, streams, count=1, block=block_ms)
        for stream, entries in blocked or []:
            for entry_id, fields in entries:
                self._hold(_Entry(stream, entry_id, fields))  # taken next round, by priority
        return None

    # ------------------------------------------------------------------ serving one job

    def _process(self, entry: _Entry) -> None:
        try:
            job = Job.from_fields(entry.fields)
        except (KeyError, TypeError, ValueError) as exc:
            log.error("dropped malformed job %s: %s", entry.id, exc)
            self._finish(entry, None, "failed")
            return
        if entry.claimed:
            self.redis.hincrby(self.keys.stats, "retried", 1)
            pending = self.redis.xpending_range(entry.stream, GROUP, entry.id, entry.id, 1)
            deliveries = int(pending[0]["times_delivered"]) if pending else 1
            log.warning("took over %s job %s (delivery %d)", job.kind, job.id, deliveries)
            if deliveries > MAX_DELIVERIES:
                log.error("job %s was given to %d workers; failing it", job.id, deliveries)
                error = f"the job failed on {deliveries - 1} workers"
                self._finish(entry, encode_result(job.id, self.name, error=error), "failed")
                return
        if (reason := self._drop_reason(job)) is not None:
            stat, why = reason
            log.info("dropped %s job %s: %s", job.kind, job.id, why)
            self._finish(entry, None, stat)
            return
        backlog, workers = self._load(job.kind)
        with self._info_lock:
            self._searching = {"job": job.id, "kind": job.kind, "since": time.time()}
            self.redis.set(self.keys.worker(self.name), self._info(), px=self._lease_ms)
        started = time.monotonic()
        try:
            value = self._search(job, backlog, workers)
        except Exception as exc:
            log.exception("%s job %s failed", job.kind, job.id)
            reply = encode_result(job.id, self.name, error=f"{type(exc).__name__}: {exc}")
            self._finish(entry, reply, "failed")
            return
        log.info(
            "searched %s job %s for %.2f s (asked %.2f; %d waiting, %d workers)",
            job.kind,
            job.id,
            time.monotonic() - started,
            job.request.movetime,
            backlog,
            workers,
        )
        self._finish(entry, encode_result(job.id, self.name, value), "searched")

    def _search(self, job: Job, backlog: int, workers: int) -> Mapping[str, Any]:
        if job.op == "move":
            return dataclasses.asdict(search_move(job.request, backlog, workers))
        return analyse_position(job.request, backlog, workers)

    def _drop_reason(self, job: Job) -> tuple[str, str] | None:
        if time.time() > job.expires - MIN_MOVETIME:
            return "dropped_late", "too late: its server no longer waits for it"
        request: AiRequest = job.request
        keys = [self.keys.cancel(job.id)]
        versioned = job.op == "move" and request.game_id is not None
        if versioned and request.version is not None:
            keys.append(self.keys.game(str(request.game_id)))
        found = self.redis.mget(keys)
        if found[0] is not None:
            return "dropped_cancelled", "cancelled"
        latest = found[1] if len(found) > 1 else None
        if isinstance(latest, str) and latest.isdigit() and int(latest) > (request.version or 0):
            return "dropped_superseded", f"game {request.game_id} moved on"
        return None

    def _load(self, kind: str) -> tuple[int, int]:
        """Jobs waiting that are as urgent as ``kind`` or more, and the live workers."""
        pipe = self.redis.pipeline(transaction=False)
        for stream in self.keys.streams:
            pipe.xinfo_groups(stream)
            pipe.xlen(stream)
        pipe.smembers(self.keys.workers)
        replies = pipe.execute(raise_on_error=False)
        backlog = 0
        for index, name in enumerate(KINDS):
            backlog += backlog_from(replies[2 * index], replies[2 * index + 1])
            if name == kind:
                break
        names = replies[-1]
        workers = 1
        if isinstance(names, set) and names:
            workers = max(1, int(self.redis.exists(*(self.keys.worker(n) for n in names))))
        return backlog, workers

    def _finish(self, entry: _Entry, reply: str | None, stat: str) -> None:
        """Answer (when there is an answer), acknowledge and delete the entry, count it. Kept
        for another try if Redis is away."""
        self._unfinished = (entry, reply, stat)
        job_reply = entry.fields.get("reply")
        pipe = self.redis.pipeline(transaction=True)  # (seen all at once: answered, not busy)
        if reply is not None and job_reply:
            pipe.lpush(job_reply, reply)
            pipe.expire(job_reply, RESULT_TTL)
        pipe.xack(entry.stream, GROUP, entry.id)
        pipe.xdel(entry.stream, entry.id)
        pipe.hincrby(self.keys.stats, stat, 1)
        with self._info_lock:
            searching, self._searching = self._searching, None
            pipe.set(self.keys.worker(self.name), self._info(), px=self._lease_ms)
            try:
                pipe.execute()
            except BaseException:
                self._searching = searching
                raise
        self._unfinished = None
        with self._lock:
            self._held.pop(entry.id, None)


# ---------------------------------------------------------------------- processes


def _child_main(options: WorkerOptions, parent_pid: int, log_level: str) -> None:
    """One worker process: it ends with the supervisor, however the supervisor ends."""
    watch_parent(parent_pid)
    _configure_logging(log_level)
    try:
        _warm_up()
    except Exception:
        log.exception("the engine does not start")
        sys.exit(EXIT_NO_ENGINE)
    worker = Worker(options)

    def stop(signum: int, frame: FrameType | None) -> None:
        worker.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    sys.exit(worker.run())


def _warm_up() -> None:
    # The compiled engines (numba's cache) are loaded before the worker takes its first job.
    warm_up_engines()


def _configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s doushouqi worker[%(process)d]: %(message)s",
        stream=sys.stderr,
        force=True,
    )


def missing_extra() -> str | None:
    """What to install when this machine cannot run workers, or None."""
    if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
        return "the engine needs the `ai` extra (or `worker`): pip install 'doushouqi[worker]'"
    if importlib.util.find_spec("redis") is None:
        return "workers talk to Redis with redis-py: pip install 'doushouqi[worker]'"
    return None


def run_workers(options: WorkerOptions, processes: int, log_level: str = "info") -> int:
    """Run ``processes`` worker processes until SIGTERM/SIGINT (0), or until one has lost
    Redis for good (:data:`EXIT_REDIS_LOST`)."""
    context = multiprocessing.get_context("spawn")
    stopping = threading.Event()

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(
            target=_child_main, args=(options, os.getpid(), log_level), daemon=True
        )
        process.start()
        return process

    children = [start() for _ in range(max(1, processes))]
    log.info(
        "%d worker process(es) for %s: %s",
        len(children),
        redacted(options.url),
        " ".join(str(c.pid) for c in children),
    )
    restarts: list[float] = []
    try:
        while not stopping.is_set():
            sentinels = [c.sentinel for c in children]
            multiprocessing.connection.wait(sentinels, timeout=0.5)
            for index, child in enumerate(children):
                if child.exitcode is None or stopping.is_set():
                    continue
                code = child.exitcode
                if code == EXIT_REDIS_LOST:
                    log.error("worker %d lost Redis for good; stopping (exit %d)", child.pid, code)
                    return EXIT_REDIS_LOST
                if code == EXIT_NO_ENGINE:
                    log.error("the engine does not start here; stopping")
                    return EXIT_NO_ENGINE
                now = time.monotonic()
                restarts = [t for t in restarts if now - t < 60.0] + [now]
                if len(restarts) > MAX_RESTARTS_PER_MINUTE:
                    log.error("worker processes keep dying; stopping")
                    return 1
                how = f"signal {-code}" if code < 0 else f"status {code}"
                log.warning("worker process %d ended (%s); starting another", child.pid, how)
                children[index] = start()
    finally:
        _stop_children(children)
    return 0


def _stop_children(children: list[multiprocessing.process.BaseProcess]) -> None:
    for child in children:
        if child.exitcode is None:
            child.terminate()  # SIGTERM: the search in hand is finished and answered
    deadline = time.monotonic() + 30.0
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.exitcode is None:
            child.kill()
            child.join(1.0)


def run_worker_command(args: argparse.Namespace) -> int:
    """The ``doushouqi worker`` command (see :func:`add_worker_arguments`)."""
    if (missing := missing_extra()) is not None:
        print(f"doushouqi worker: {missing}", file=sys.stderr)
        return 2
    url = args.redis or os.environ.get("DOUSHOUQI_REDIS_URL")
    if not url:
        print(
            "doushouqi worker: no Redis to take jobs from: pass --redis URL "
            "or set DOUSHOUQI_REDIS_URL",
            file=sys.stderr,
        )
        return 2
    options = WorkerOptions(url=url, lease=args.lease, redis_timeout=args.redis_timeout)
    processes = args.processes or os.cpu_count() or 1
    _configure_logging(args.log_level)
    return run_workers(options, processes, args.log_level)


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="Redis to take jobs from (default: $DOUSHOUQI_REDIS_URL), e.g. redis://host:6379/0",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="N",
        help="engine processes, each searching one job at a time (default: one per core)",
    )
    parser.add_argument(
        "--redis-timeout",
        type=_positive,
        default=60.0,
        metavar="S",
        help="exit after S seconds of failed reconnects to Redis (60)",
    )
    parser.add_argument(
        "--lease",
        type=_positive,
        default=3.0,
        metavar="S",
        help="a job whose worker is silent this long goes to another worker (3)",
    )
    parser.add_argument("--log-level", default="info", help="log level (info)")


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text}")
    return value

"""The computer opponent, off the event loop: searches run in worker processes.

The AI service knows no game: a request names its game by key, and a worker rebuilds the
position through the game interface (:mod:`doushouqi.core.game`) and searches it with that
game's engine from the site's registry (:func:`doushouqi.server.games.registry.engine_of`);
the event loop only awaits the answer. Each search gets the time
:mod:`doushouqi.server.ai.effort` allows it: when jobs queue, every search thinks less, so
none waits for long and none is replaced by a random move.
:class:`RandomAi` is an in-process stand-in for tests and benchmarks that must not spend CPU
on searching. The Redis-backed service for many machines is in ``redis_queue``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from doushouqi.core.game import Position, get_game
from doushouqi.server.ai.effort import (
    FULL_STRENGTH_LEVEL,
    effective_movetime,
    is_cut_short,
    is_reduced,
)
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.registry import SITE_GAMES, engine_of
from doushouqi.server.infra.parent_watch import watch_parent

_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)

__all__ = [
    "AiMove",
    "AiRequest",
    "AiService",
    "Analysis",
    "JobKind",
    "ProcessPoolAi",
    "RandomAi",
    "position_for",
    "random_move",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: What a search is for, most urgent first: a game's move, a hint, a replay's analysis, a
#: position of a stored game review (server/review/: nobody waits on one position of it).
JobKind = Literal["move", "hint", "analysis", "review"]


@dataclass(frozen=True)
class AiRequest:
    """What a worker needs to rebuild the position (plain data: it is pickled)."""

    rules: dict[str, Any]
    start_fen: str | None
    moves: tuple[str, ...]
    level: int
    #: The seconds the search asks for; it gets less when the AI is busy.
    movetime: float
    kind: JobKind = "move"
    #: Wall-clock time (epoch seconds) by which the answer must be back; set by the service
    #: when it is None.
    deadline: float | None = None
    #: The game and version a move is for (a queued job for a game that moved on is dropped).
    game_id: str | None = None
    version: int | None = None
    #: Wall-clock time the service took the job (to measure its wait).
    submitted_at: float | None = None
    #: How many lines an analysis asks for (the best first).
    multipv: int = 1
    #: The game (:func:`doushouqi.core.game.get_game`); jobs queued before there were
    #: several games are Jungle's.
    game_key: str = DEFAULT_GAME_KEY
    #: A fixed search budget (``{"nodes": n}`` and/or ``{"depth": d}``) in place of the
    #: movetime: a repeatable analysis (the computer player's ``analyse_fixed``), whatever
    #: the load; None: a timed search.
    budget: dict[str, int] | None = None


@dataclass(frozen=True)
class AiMove:
    """A search's move and the effort it got."""

    move: str
    #: Seconds the search was given, and those it asked for.
    movetime: float
    asked: float
    nodes: int = 0
    #: Seconds the job waited for a worker.
    waited: float = 0.0
    #: Seconds the search took (None: not known).
    searched: float | None = None

    @property
    def reduced(self) -> bool:
        """Whether the AI was busy and gave the search less time than it asked for."""
        return is_reduced(self.movetime, self.asked)

    @property
    def cut_short(self) -> bool:
        """Whether the load cost the search depth: reduced, and it ran out of its time."""
        return is_cut_short(self.movetime, self.asked, self.searched)


def position_for(request: AiRequest) -> Position:
    """The request's position, every move checked (the game's pass move is a timeout pass,
    refused where no move could be played); ValueError for a bad request."""
    game = get_game(request.game_key)
    rules = game.parse_rules(request.rules)
    start = game.start_position(rules) if request.start_fen is None else request.start_fen
    position = game.new_position(rules, start)
    for move in request.moves:
        if move == game.pass_move:
            position.push_pass()
        else:
            position.push(position.parse_move(move))
    return position


def _given_movetime(request: AiRequest, backlog: int, workers: int) -> float:
    return effective_movetime(
        request.movetime,
        backlog=backlog,
        workers=workers,
        deadline=request.deadline,
        now=time.time(),
    )


def search_move(request: AiRequest, backlog: int = 0, workers: int = 1) -> AiMove:
    """Search the request's position for a move, with the effort the load allows (in a
    worker process: it imports the engine)."""
    started = time.time()
    movetime = _given_movetime(request, backlog, workers)
    engine = engine_of(request.game_key)
    position = position_for(request)
    searching = time.perf_counter()
    move, nodes = engine.best_move(position, request.level, movetime, request.movetime)
    searched = time.perf_counter() - searching
    if move is None:
        raise ValueError("no move: the game is over")
    waited = 0.0 if request.submitted_at is None else max(0.0, started - request.submitted_at)
    known = searched if request.level >= FULL_STRENGTH_LEVEL else None
    return AiMove(move, movetime, request.movetime, nodes, waited, known)


#: An analysis as plain data: ``bestmove`` (None: game over), ``score`` (the engine's, e.g.
#: {"cp": n}, {"den": n} (Jungle: enters the den in n) or {"win": n}, the side to move's view,
#: or None), ``depth``, ``pv`` (moves as text),
#: ``lines`` (the best ``multipv`` lines, each with its ``score``, ``depth`` and ``pv``; the
#: first is the best move's) and ``movetime`` (the seconds it was given).
Analysis = dict[str, Any]


def analyse_position(request: AiRequest, backlog: int = 0, workers: int = 1) -> Analysis:
    """The best move, score and lines of the request's position (in a worker process); with
    a ``budget``, one line searched within it, the same under any load."""
    engine = engine_of(request.game_key)
    if request.budget is not None:
        line = engine.analyse_fixed(position_for(request), request.budget)
        bestmove = line["pv"][0] if line["pv"] else None
        lines = [line] if bestmove is not None else []
        return {"bestmove": bestmove, **line, "lines": lines, "movetime": 0.0}
    movetime = _given_movetime(request, backlog, workers)
    lines = engine.analyse(position_for(request), request.level, movetime, request.multipv)
    best = lines[0] if lines else {"score": None, "depth": 0, "pv": []}
    bestmove = best["pv"][0] if best["pv"] else None
    return {"bestmove": bestmove, **best, "lines": lines, "movetime": movetime}


def _start_worker(server_pid: int) -> None:
    # First of all: a worker must not outlive the server, even one killed with kill -9.
    watch_parent(server_pid)
    _warm_up()


def _warm_up() -> None:
    # Loads every engine (numba's cache) before the first real request arrives.
    warm_up_engines()


def warm_up_engines() -> None:
    """Load the engine of every game the site offers with one (in a worker process)."""
    for site in SITE_GAMES.values():
        if site.engine is not None:
            site.engine.warm_up()


def _probe() -> None:
    """A job that only proves a worker is up (its initializer has loaded the engine)."""


def submitted(request: AiRequest) -> AiRequest:
    """The request as a service takes it: stamped with the time, and with a deadline (when it
    had none) of the time it asks for plus as much again (at least half a second) for waiting
    and the way back."""
    now = time.time()
    deadline = request.deadline
    if deadline is None:
        deadline = now + request.movetime + max(0.5, request.movetime)
    return dataclasses.replace(request, deadline=deadline, submitted_at=now)


class AiService(Protocol):
    async def ready(self) -> None:
        """Return once it can search (its workers have loaded the engine: seconds, a minute
        or more on a cold numba cache); at once where the searchers live elsewhere."""
        ...

    async def choose_move(self, request: AiRequest) -> AiMove:
        """A legal move for the side to move (raises if none), searched as long as the load
        allows."""
        ...

    async def analyse(self, request: AiRequest) -> Analysis:
        """The best move and the score of the position (see :data:`Analysis`)."""
        ...

    @property
    def backlog(self) -> int:
        """Jobs waiting for a worker now."""
        ...

    def capacity(self) -> int | None:
        """How many games against the computer it serves at once (None: no limit)."""
        ...

    def close(self) -> None: ...


class ProcessPoolAi:
    """Searches in ``workers`` processes (started on first use, warmed up there). ``name``
    says in the log which pool this is (the games' AI, or analysis); ``games_per_worker``,
    how many games against the computer each worker serves at once (admission control)."""

    def __init__(self, workers: int = 1, name: str = "AI", games_per_worker: int = 20) -> None:
        self.workers = max(1, workers)
        self.name = name
        self.games_per_worker = games_per_worker
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._in_flight = 0
        self._ready: asyncio.Future[Any] | None = None
        #: Notified whenever a job ends: a review's position waits for an idle worker.
        self._freed: asyncio.Condition | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server process has threads (database writer, event loop).
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def start(self) -> None:
        """Start the workers now, so the first game does not wait for them."""
        self._executor()

    @property
    def started(self) -> bool:
        """Whether the worker processes are running (they start on the first search)."""
        return self._pool is not None

    def warm_up(self) -> asyncio.Future[Any]:
        """Start every worker now, in the background (each loads the compiled engine as it
        starts: seconds, more on a cold cache); the future is done when all are up. The server
        calls it at start, so that the first hint does not time out behind a cold start."""
        if self._ready is None:
            loop = asyncio.get_running_loop()
            pool = self._executor()
            probes = [loop.run_in_executor(pool, _probe) for _ in range(self.workers)]
            self._ready = asyncio.ensure_future(asyncio.gather(*probes, return_exceptions=True))
        return self._ready

    async def ready(self) -> None:
        """Wait until the workers are up (starting them if nobody has): a request that comes
        while they load waits for them here, outside its own time limit."""
        await asyncio.shield(self.warm_up())

    @property
    def backlog(self) -> int:
        return max(0, self._in_flight - self.workers)

    def capacity(self) -> int | None:
        return self.workers * self.games_per_worker

    async def choose_move(self, request: AiRequest) -> AiMove:
        return await self._run(search_move, request)

    async def analyse(self, request: AiRequest) -> Analysis:
        return await self._run(analyse_position, request)

    async def _run(self, work: Callable[[AiRequest, int, int], T], request: AiRequest) -> T:
        loop = asyncio.get_running_loop()
        if request.kind == "review":
            await self._idle_worker()
        # The jobs queued ahead of this one: each search's share of the workers' time.
        backlog = self.backlog
        self._in_flight += 1
        try:
            for attempt in (1, 2):
                # A job that comes while the workers still load (a fresh server's first game
                # or hint, or new workers after one died: seconds) waits for them before its
                # time starts: stamped at once, its deadline would pass during the load and
                # the search would get almost no time.
                await self.ready()
                pool = self._executor()
                try:
                    return await loop.run_in_executor(
                        pool, work, submitted(request), backlog, self.workers
                    )
                except concurrent.futures.process.BrokenProcessPool:
                    # A worker died mid-search (killed, out of memory): new workers, once more.
                    log.error("a worker of the %s pool died; starting new ones", self.name)
                    if self._pool is pool:  # not yet replaced by another job it broke
                        self._pool = None
                        self._ready = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._in_flight -= 1
            if self._freed is not None:
                async with self._freed:
                    self._freed.notify_all()

    async def _idle_worker(self) -> None:
        """Wait until a worker is idle. The executor serves jobs in the order they come, so a
        review's position (the least urgent job) is only handed over when it would not queue:
        a hint or a move that comes meanwhile waits for one position's search at most."""
        if self._freed is None:
            self._freed = asyncio.Condition()
        async with self._freed:
            await self._freed.wait_for(lambda: self._in_flight < self.workers)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class RandomAi:
    """Plays a random legal move, at once (seeded for repeatable tests)."""

    def __init__(self, seed: int = 0, delay: float = 0.0) -> None:
        self._random = random.Random(seed)
        self.delay = delay

    backlog = 0

    async def ready(self) -> None:
        return None

    async def choose_move(self, request: AiRequest) -> AiMove:
        if self.delay:
            await asyncio.sleep(self.delay)
        move = random_move(position_for(request), self._random)
        return AiMove(move, request.movetime, request.movetime)

    def capacity(self) -> int | None:
        return None

    async def analyse(self, request: AiRequest) -> Analysis:
        """A random legal move and the material balance (a stand-in: no search). With a
        budget, as repeatable as the real thing: the move is drawn by the position alone."""
        position = position_for(request)
        if position.outcome() is not None:
            return {"bestmove": None, "score": None, "depth": 0, "pv": [], "lines": []}
        rng = self._random
        if request.budget is not None:
            rng = random.Random(position.position_string())
        move = random_move(position, rng)
        score = engine_of(request.game_key).static_score(position)
        line = {"score": score, "depth": 1, "pv": [move]}
        return {"bestmove": move, **line, "lines": [line]}

    def close(self) -> None:
        pass


def random_move(position: Position, rng: random.Random | None = None) -> str:
    """A legal move picked at random (sorted first, so a seeded ``rng`` repeats itself)."""
    moves = sorted(position.legal_moves())
    if not moves:
        raise ValueError("no legal move")
    return (rng or _rng).choice(moves)

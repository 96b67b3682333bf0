"""The computer opponent, off the event loop: searches run in worker processes.

The server reaches the engine only through :func:`doushouqi.ai.best_move` and
:func:`doushouqi.ai.analyse` (the narrow interface the layering asks for). A worker receives
the game as rule options, start position and move list, rebuilds the board with the rules
library and searches it; the event loop only awaits the answer. :class:`RandomAi` is an
in-process stand-in for tests and benchmarks that must not spend CPU on searching.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from doushouqi.board import Board
from doushouqi.rules import rules_from_mapping

__all__ = ["AiRequest", "AiService", "Analysis", "ProcessPoolAi", "RandomAi", "board_for"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class AiRequest:
    """What a worker needs to rebuild the position (plain data: it is pickled)."""

    rules: dict[str, Any]
    start_fen: str | None
    moves: tuple[str, ...]
    level: int
    movetime: float


def board_for(request: AiRequest) -> Board:
    """The request's position, every move checked ("0000" is a timeout pass, refused where no
    move could be played)."""
    rules = rules_from_mapping(str(request.rules.get("name", "custom")), request.rules)
    board = Board(request.start_fen, rules)
    for move in request.moves:
        board.push_move(move, allow_pass=True)
    return board


def _search(request: AiRequest) -> str:
    from doushouqi.ai import best_move  # in the worker only: numba stays out of the server

    return str(best_move(board_for(request), level=request.level, movetime=request.movetime))


#: An analysis as plain data: ``bestmove`` (None: game over), ``score`` ({"cp": n} or
#: {"den": n}, the side to move's view, or None), ``depth`` and ``pv`` (moves as text).
Analysis = dict[str, Any]


def _analyse(request: AiRequest) -> Analysis:
    from doushouqi.ai import analyse

    result = analyse(board_for(request), level=request.level, movetime=request.movetime)
    score = result.info.get("score")
    return {
        "bestmove": None if result.move is None else str(result.move),
        "score": None if score is None else ({"den": score.den} if score.den is not None
                                              else {"cp": score.cp}),
        "depth": result.info.get("depth", 0),
        "pv": [str(m) for m in result.info.get("pv", [])],
    }  # fmt: skip


def _warm_up() -> None:
    # Loads the compiled engine (numba's cache) before the first real request arrives.
    from doushouqi.ai import best_move

    best_move(Board(), level=1, movetime=0.05)


class AiService(Protocol):
    async def choose_move(self, request: AiRequest) -> str:
        """A legal move for the side to move (raises if none)."""
        ...

    async def analyse(self, request: AiRequest) -> Analysis:
        """The best move and the score of the position (see :data:`Analysis`)."""
        ...

    def close(self) -> None: ...


class ProcessPoolAi:
    """Searches in ``workers`` processes (started on first use, warmed up there). ``name``
    says in the log which pool this is (the games' AI, or analysis)."""

    def __init__(self, workers: int = 1, name: str = "AI") -> None:
        self.workers = max(1, workers)
        self.name = name
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server process has threads (database writer, event loop).
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_up,
            )
        return self._pool

    def start(self) -> None:
        """Start the workers now, so the first game does not wait for them."""
        self._executor()

    @property
    def started(self) -> bool:
        """Whether the worker processes are running (they start on the first search)."""
        return self._pool is not None

    async def choose_move(self, request: AiRequest) -> str:
        return await self._run(_search, request)

    async def analyse(self, request: AiRequest) -> Analysis:
        return await self._run(_analyse, request)

    async def _run(self, work: Callable[[AiRequest], T], request: AiRequest) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), work, request)
        except concurrent.futures.process.BrokenProcessPool:
            log.error("a worker of the %s pool died; starting new ones", self.name)
            self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class RandomAi:
    """Plays a random legal move, at once (seeded for repeatable tests)."""

    def __init__(self, seed: int = 0, delay: float = 0.0) -> None:
        self._random = random.Random(seed)
        self.delay = delay

    async def choose_move(self, request: AiRequest) -> str:
        if self.delay:
            await asyncio.sleep(self.delay)
        return random_move(board_for(request), self._random)

    async def analyse(self, request: AiRequest) -> Analysis:
        """A random legal move and the material balance (a stand-in: no search)."""
        board = board_for(request)
        if board.is_game_over():
            return {"bestmove": None, "score": None, "depth": 0, "pv": []}
        move = random_move(board, self._random)
        pieces = [board.piece_at(square) for square in range(63)]
        balance = sum(
            100 * board.rank_of(piece) * (1 if piece.color == board.turn else -1)
            for piece in pieces
            if piece is not None
        )
        return {"bestmove": move, "score": {"cp": balance}, "depth": 1, "pv": [move]}

    def close(self) -> None:
        pass


def random_move(board: Board, rng: random.Random | None = None) -> str:
    moves = sorted(board.generate_legal_moves(), key=str)
    if not moves:
        raise ValueError("no legal move")
    return str((rng or random).choice(moves))

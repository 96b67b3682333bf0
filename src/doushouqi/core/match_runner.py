"""The loop of an engine-versus-engine match, for every game: games played ``concurrency`` at a
time, each worker with its own two engine processes (started again when one has died), the
first engine's score kept, an SPRT that stops the match once it decides, and the first error
ending the whole match (every worker cancelled, every engine quit).

Each game's ``engine.match`` subclasses :class:`MatchRunner` with what is its own: how an
engine starts, how one game is played and recorded, and its game line.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Generic, Protocol, TypeVar

from doushouqi.core.match_stats import MatchScore, Sprt

__all__ = ["MatchRunner"]


class _Engine(Protocol):
    """What the loop asks of an engine client: start it, set its options, quit it, and
    whether its process still runs."""

    @property
    def alive(self) -> bool:
        """Whether the engine's process is running (a dead one is started again)."""

    async def start(self) -> None:
        """Start the process and complete the handshake."""

    async def configure(self, options: Mapping[str, object]) -> None:
        """Set the engine's options (``setoption``)."""

    async def quit(self) -> None:
        """End the process (at once if it does not listen)."""


class _Game(Protocol):
    """What the loop asks of a game's result: the points it gives an engine."""

    def points_for(self, name: str) -> float:
        """1, ½ or 0 for the engine called ``name``."""


EngineT = TypeVar("EngineT", bound=_Engine)
ResultT = TypeVar("ResultT", bound=_Game)


class MatchRunner(ABC, Generic[EngineT, ResultT]):
    """Plays the games of a match, ``concurrency`` at a time, and keeps the score of the first
    engine (``names[0]``): :attr:`score`, :attr:`results` in the order the games ended, and
    :attr:`decision`, the SPRT's (None until it decides, or without an SPRT).

    ``out`` receives each game's line and the running score (default: print).

    A match of three games between two engines that only ever draw:

    >>> import asyncio
    >>> class Draws:
    ...     alive = True
    ...     async def start(self) -> None: ...
    ...     async def configure(self, options: dict[str, object]) -> None: ...
    ...     async def quit(self) -> None: ...
    >>> class Result:
    ...     def __init__(self, number: int) -> None:
    ...         self.number = number
    ...     def points_for(self, name: str) -> float:
    ...         return 0.5
    >>> class DrawnMatch(MatchRunner[Draws, Result]):
    ...     def _new_engine(self, which: int) -> tuple[Draws, dict[str, object]]:
    ...         return Draws(), {"Level": 3}
    ...     async def _play(self, index: int, first: Draws, second: Draws) -> Result:
    ...         return Result(index + 1)
    ...     def _game_line(self, result: Result) -> str:
    ...         return f"Game {result.number}: draw"
    >>> lines: list[str] = []
    >>> match = DrawnMatch(("a", "b"), games=3, concurrency=2, out=lines.append)
    >>> print(asyncio.run(match.run()))
    W/D/L 0/3/0, 50.0% (3 games)
    >>> print(*lines[:2], sep="\\n")
    Game 1: draw
    Score of a vs b: W/D/L 0/1/0, 50.0% (1 game)
    """

    def __init__(
        self,
        names: tuple[str, str],
        *,
        games: int,
        concurrency: int = 1,
        sprt: Sprt | None = None,
        out: Callable[[str], None] | None = None,
    ) -> None:
        self.names = names
        self.games = games
        self.concurrency = concurrency
        self.sprt = sprt
        self.out = out or (lambda line: print(line, flush=True))
        self.score = MatchScore()
        self.results: list[ResultT] = []
        self.decision: str | None = None
        self._next_game = 0

    @abstractmethod
    def _new_engine(self, which: int) -> tuple[EngineT, Mapping[str, object]]:
        """A new, not yet started client for engine ``which`` (0: the first) and the options
        it is given once started."""

    @abstractmethod
    async def _play(self, index: int, first: EngineT, second: EngineT) -> ResultT:
        """Play game ``index`` (from 0; which engine takes which side is the game's choice),
        record it where the match keeps records, and return its result."""

    @abstractmethod
    def _game_line(self, result: ResultT) -> str:
        """The line :attr:`out` receives for a finished game."""

    async def run(self) -> MatchScore:
        """Play until every game is done or the SPRT decides; the first engine's score. The
        first error ends the match."""
        workers = min(self.concurrency, self.games)
        tasks = [asyncio.create_task(self._worker()) for _ in range(workers)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        return self.score

    async def _worker(self) -> None:
        engines: list[EngineT | None] = [None, None]
        try:
            while self.decision is None and self._next_game < self.games:
                index = self._next_game
                self._next_game += 1
                for which in (0, 1):
                    current = engines[which]
                    if current is None or not current.alive:
                        engines[which] = await self._start(which)
                first, second = engines
                assert first is not None and second is not None
                self._finish(await self._play(index, first, second))
        finally:
            for engine in engines:
                if engine is not None:
                    await engine.quit()

    async def _start(self, which: int) -> EngineT:
        engine, options = self._new_engine(which)
        try:
            await engine.start()
            await engine.configure(options)
        except BaseException:
            await engine.quit()
            raise
        return engine

    def _finish(self, result: ResultT) -> None:
        self.results.append(result)
        self.score.add(result.points_for(self.names[0]))
        self.out(self._game_line(result))
        self.out(f"Score of {self.names[0]} vs {self.names[1]}: {self.score}")
        sprt = self.sprt
        if sprt is not None and self.decision is None:
            llr = sprt.llr(self.score)
            self.decision = sprt.decision(llr)
            if self.decision is not None:
                self.out(f"SPRT: {self.decision} accepted (LLR {llr:.2f}); stopping")

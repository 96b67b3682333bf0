"""The blocking engine client: :class:`SimpleEngine` runs an
:class:`~doushouqi.jungle.engine.Engine`'s
event loop in a background thread, :class:`SimpleAnalysis` is a search in progress for blocking
code (the shape of python-chess's ``chess.engine.SimpleEngine``). Public path:
:mod:`doushouqi.jungle.engine`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from doushouqi.jungle.analysis import Info, InfoSelection, Limit, PlayResult
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.analysis_stream import Analysis
from doushouqi.jungle.engine.async_client import READY_TIMEOUT, Engine, popen_engine
from doushouqi.jungle.engine.protocol import EngineError, EngineTerminatedError, Option
from doushouqi.jungle.moves import Move

__all__ = ["SimpleAnalysis", "SimpleEngine"]

T = TypeVar("T")
P = ParamSpec("P")


def _blocking(
    method: Callable[Concatenate[Engine, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[SimpleEngine, P], T]:
    """:class:`Engine`'s coroutine ``method`` as a blocking method of :class:`SimpleEngine`
    with the same parameters, result and docstring (``inspect.signature`` and ``help`` show
    them), run on the engine's event loop: each signature is written once, on the asyncio
    client (a ``doc`` argument here would hide an overloaded method's overloads from mypy).
    """
    name = method.__name__

    def blocking(self: SimpleEngine, /, *args: P.args, **kwargs: P.kwargs) -> T:
        # Looked up on the engine, not taken from Engine: a subclass's override is used.
        bound: Callable[P, Coroutine[Any, Any, T]] = getattr(self.engine, name)
        return self._run(bound(*args, **kwargs))

    functools.update_wrapper(blocking, method)
    blocking.__qualname__ = f"SimpleEngine.{name}"
    blocking.__module__ = __name__
    return blocking


class SimpleEngine:
    """A blocking wrapper: the engine's event loop runs in a background thread.

    One example drives a real engine process through the methods (each would start its own):

    >>> import sys
    >>> with SimpleEngine.popen([sys.executable, "-m", "doushouqi", "engine"]) as engine:
    ...     engine.configure({"Level": 5, "Hash": 16})  # sent as setoption lines
    ...     engine.ping()  # isready: the engine has taken the options
    ...     engine.new_game()  # ucinewgame: what it learnt is forgotten
    ...     move = engine.play(Board(), Limit(depth=3)).move
    ...     info = engine.analyse(Board(), Limit(depth=3))
    ...     with engine.analysis(Board(), Limit(depth=2)) as analysis:
    ...         last = analysis.wait().move
    ...     level = engine.options["Level"]
    ...     facts = (engine.name.split()[0], engine.alive, level.max, sorted(engine.id))
    >>> move in Board().legal_moves, info["depth"], last in Board().legal_moves, analysis.done
    (True, 3, True, True)
    >>> facts
    ('doushouqi', True, 10, ['author', 'name'])
    """

    def __init__(
        self, engine: Engine, loop: asyncio.AbstractEventLoop, thread: threading.Thread
    ) -> None:
        self.engine = engine
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        handshake: str = "uci",
        timeout: float | None = 10.0,
        ready_timeout: float | None = READY_TIMEOUT,
        move_grace: float = 2.0,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Start an engine process and do the handshake (see :class:`Engine`)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="doushouqi-engine", daemon=True)
        thread.start()

        async def create() -> Engine:
            return await popen_engine(
                command,
                handshake=handshake,
                timeout=timeout,
                ready_timeout=ready_timeout,
                move_grace=move_grace,
                **popen_args,
            )

        try:
            engine = asyncio.run_coroutine_threadsafe(create(), loop).result()
        except BaseException:
            _stop_loop(loop, thread)
            raise
        return cls(engine, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coroutine.close()
            raise EngineTerminatedError("the engine has been closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    @property
    def id(self) -> dict[str, str]:
        """What the engine said of itself in the handshake: ``id name`` and ``id author``."""
        return self.engine.id

    @property
    def options(self) -> dict[str, Option]:
        """The options the engine announced, by name (``option name … type …`` lines)."""
        return self.engine.options

    @property
    def name(self) -> str:
        """The engine's ``id name``, or its program's name before the handshake."""
        return self.engine.name

    @property
    def alive(self) -> bool:
        """Started, and neither exited nor killed."""
        return self.engine.alive

    # The blocking twins of the asyncio client's commands: the same parameters and results.
    ping = _blocking(Engine.ping)
    """Send ``isready`` and wait for ``readyok``: the engine has done what it was sent."""
    configure = _blocking(Engine.configure)
    """Set options for the rest of the session (``setoption name N value V`` each), checked
    against those the engine announced: an unknown option or a bad value raises
    :class:`EngineError`; ``MultiPV`` and the rules are the client's to manage (refused)."""
    new_game = _blocking(Engine.new_game)
    """Tell the engine a new game starts (``ucinewgame``): it forgets what it learnt."""
    play = _blocking(Engine.play)
    """The engine's move (see :meth:`Engine.play`); ``info_callback`` runs in the engine's
    thread."""
    analyse = _blocking(Engine.analyse)
    """What the engine reports within ``limit`` (a list of lines with ``multipv``);
    ``root_moves``, ``options`` and ``info`` as in :meth:`Engine.play`."""

    def analysis(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        timeout: float | None = None,
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
    ) -> SimpleAnalysis:
        """Start a search (infinite without a limit) and return at once: iterate it for the
        engine's infos (blocking), ``stop()`` it, ``wait()`` for the move; leaving a ``with``
        block stops it.

        >>> # with engine.analysis(board) as analysis:
        >>> #     for info in analysis:
        >>> #         if info.get("depth", 0) >= 12: break
        """
        analysis = self._run(
            self.engine.analysis(
                board,
                limit,
                multipv=multipv,
                game=game,
                timeout=timeout,
                root_moves=root_moves,
                options=options,
                info=info,
            )
        )
        return SimpleAnalysis(analysis, self._loop)

    def quit(self) -> None:
        """Quit the engine and stop the background thread (safe to call twice)."""
        if self._closed:
            return
        try:
            self._run(self.engine.quit())
        finally:
            self._closed = True
            _stop_loop(self._loop, self._thread)

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} alive={self.alive}>"


class SimpleAnalysis:
    """A search in progress, for blocking code (see :meth:`SimpleEngine.analysis`).

    One example drives a real engine process through an analysis's methods:

    >>> import sys
    >>> with SimpleEngine.popen([sys.executable, "-m", "doushouqi", "engine"]) as engine:
    ...     with engine.analysis(Board(), Limit(depth=3), multipv=2) as analysis:
    ...         depths = [info.get("depth") for info in analysis]  # until bestmove
    ...         move = analysis.wait().move
    ...         lines = [line["multipv"] for line in analysis.multipv]
    ...     with engine.analysis(Board()) as endless:  # no limit: until stop()
    ...         endless.stop()
    ...         stopped = endless.wait().move
    >>> max(filter(None, depths)), move in Board().legal_moves, lines, analysis.info["depth"]
    (3, True, [1, 2], 3)
    >>> stopped in Board().legal_moves
    True
    """

    def __init__(self, analysis: Analysis, loop: asyncio.AbstractEventLoop) -> None:
        self._analysis = analysis
        self._loop = loop

    @property
    def info(self) -> Info:
        """Everything reported so far (MultiPV: line 1)."""
        return self._analysis.info

    @property
    def multipv(self) -> list[Info]:
        """What was reported of each line so far, best first (one with MultiPV 1)."""
        return self._analysis.multipv

    @property
    def done(self) -> bool:
        """Whether the search has ended (its ``bestmove`` has come)."""
        return self._analysis.done

    def stop(self) -> None:
        """Ask the engine to stop now; ``wait()`` then gives its move."""
        self._loop.call_soon_threadsafe(self._analysis.stop)

    def wait(self) -> PlayResult:
        """Wait for the search to end; its move (``bestmove``) and last info."""

        async def wait() -> PlayResult:
            return await self._analysis.wait()

        return asyncio.run_coroutine_threadsafe(wait(), self._loop).result()

    def next(self) -> Info | None:
        """The next info (blocking), None once the search has ended."""

        async def next_info() -> Info | None:
            try:
                return await self._analysis.__anext__()
            except StopAsyncIteration:
                return None

        return asyncio.run_coroutine_threadsafe(next_info(), self._loop).result()

    def __iter__(self) -> Iterator[Info]:
        while (info := self.next()) is not None:
            yield info

    def __enter__(self) -> SimpleAnalysis:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
        with contextlib.suppress(EngineError):
            self.wait()


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()

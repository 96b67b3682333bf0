"""A search in progress on an engine: :class:`Analysis`, which
:meth:`doushouqi.jungle.engine.Engine.analysis` returns (``async for info in analysis``, ``stop()``,
``await wait()``). Public path: :mod:`doushouqi.jungle.engine`.

It reads the engine's ``info`` lines until ``bestmove`` and checks the move against the board.
The engine is anything with the plumbing of :class:`~doushouqi.jungle.engine.Engine`
(:class:`SearchingEngine`): this module does not import the client, which imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable
from typing import Protocol

from doushouqi.jungle.analysis import Info, InfoSelection, PlayResult, select_info
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.protocol import EngineMoveError, EngineNoMoveError, parse_info
from doushouqi.jungle.moves import InvalidMoveError, Move

__all__ = ["Analysis", "InfoCallback", "SearchingEngine"]

#: The client's log (the engine's lines at DEBUG), one for all of :mod:`doushouqi.jungle.engine`.
LOGGER = logging.getLogger("doushouqi.jungle.engine")

#: Called with every ``info`` line an engine sends during a search, parsed.
InfoCallback = Callable[[Info], object]

#: How an engine says it has no move.
_NO_MOVE = frozenset({"(none)", "none", "0000", "(null)", "null"})


class SearchingEngine(Protocol):
    """What an :class:`Analysis` uses of its
    engine (:class:`doushouqi.jungle.engine.Engine` has it)."""

    timeout: float | None
    _lock: asyncio.Lock
    _analysis: Analysis | None

    @property
    def name(self) -> str: ...
    def _expire(self, what: str, seconds: float) -> None: ...
    def _send_nowait(self, line: str) -> None: ...
    def _watchdog(
        self, seconds: float | None, what: str
    ) -> contextlib.AbstractContextManager[None]: ...
    async def _next_line(self) -> str: ...


class Analysis:
    """A search in progress: ``async for info in analysis``, ``stop()``, ``await wait()``.

    The engine is busy (other commands wait) until the engine has sent its ``bestmove``.
    """

    def __init__(
        self,
        engine: SearchingEngine,
        board: Board,
        budget: float | None,
        info_callback: InfoCallback | None,
        selection: InfoSelection = InfoSelection.ALL,
    ) -> None:
        self.engine = engine
        #: What of each info line is kept (the ``info=`` of play, analyse and analysis).
        self.selection = selection
        self.board = board
        #: Everything reported so far, later lines overriding earlier ones (MultiPV: line 1).
        self.info = Info()
        self._lines: dict[int, Info] = {}
        self._budget = budget
        self._info_callback = info_callback
        self._queue: asyncio.Queue[Info | None] = asyncio.Queue()
        self._result: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._stopped = False
        self._stop_watchdog: asyncio.TimerHandle | None = None
        self._ponder_watchdog: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def _start(self) -> None:
        self._task = asyncio.create_task(self._run())

    @property
    def done(self) -> bool:
        return self._result.done()

    @property
    def multipv(self) -> list[Info]:
        """The latest info of each line (``multipv`` 1, 2, …), best first."""
        return [self._lines[index] for index in sorted(self._lines)]

    def _ponderhit(self, budget: float | None, info_callback: InfoCallback | None) -> None:
        """The pondered reply was played: from now the search has ``budget`` seconds."""
        self._info_callback = info_callback
        if budget is not None and not math.isinf(budget):
            self._ponder_watchdog = asyncio.get_running_loop().call_later(
                budget, self.engine._expire, "bestmove", budget
            )

    def stop(self) -> None:
        """Ask the engine to stop now (``stop``); it must answer ``bestmove`` promptly."""
        if self._stopped or self.done:
            return
        self._stopped = True
        self.engine._send_nowait("stop")
        timeout = self.engine.timeout
        if timeout is not None:
            self._stop_watchdog = asyncio.get_running_loop().call_later(
                timeout, self.engine._expire, "bestmove after stop", timeout
            )

    async def wait(self) -> PlayResult:
        """The move and final info; a cancelled wait stops the search."""
        try:
            return await asyncio.shield(self._result)
        except asyncio.CancelledError:
            self.stop()
            raise

    def __aiter__(self) -> Analysis:
        return self

    async def __anext__(self) -> Info:
        info = await self._queue.get()
        if info is None:
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        return info

    async def _run(self) -> None:
        engine = self.engine
        callback_error: Exception | None = None
        try:
            with engine._watchdog(self._budget, "bestmove"):
                while True:
                    line = await engine._next_line()
                    word, _, rest = line.strip().partition(" ")
                    if word == "info":
                        parsed = parse_info(rest, self.board)
                        line_number = parsed.get("multipv", 1)
                        info = select_info(parsed, self.selection)
                        if line_number == 1:
                            self.info.update(info)
                        if "pv" in info or "score" in info:
                            self._lines.setdefault(line_number, Info()).update(info)
                        self._queue.put_nowait(info)
                        if self._info_callback is not None and callback_error is None:
                            try:
                                self._info_callback(info)
                            except Exception as exc:  # finish the search, then re-raise
                                callback_error = exc
                                self.stop()
                    elif word == "bestmove":
                        if callback_error is not None:
                            raise callback_error
                        move, ponder = self._bestmove(rest)
                        self._result.set_result(PlayResult(move, self.info, ponder))
                        return
                    else:
                        LOGGER.debug("%s: ignored while searching: %s", engine.name, line)
        except asyncio.CancelledError:
            self._result.cancel()
            raise
        except Exception as exc:
            self._result.set_exception(exc)
            self._result.exception()  # mark it retrieved: a caller need not wait
        finally:
            for handle in (self._stop_watchdog, self._ponder_watchdog):
                if handle is not None:
                    handle.cancel()
            self._queue.put_nowait(None)
            if engine._analysis is self:
                engine._analysis = None
            engine._lock.release()

    def _bestmove(self, rest: str) -> tuple[Move | None, Move | None]:
        """The move (checked) and the expected reply (None unless legal after it)."""
        tokens = rest.split()
        move = self._checked_move(tokens[0] if tokens else "(none)")
        ponder = None
        if move is not None and len(tokens) >= 3 and tokens[1] == "ponder":
            with contextlib.suppress(InvalidMoveError):
                reply = Move.from_str(tokens[2])
                after = self.board.copy()
                after.push(move)
                if reply and after.is_legal(reply):
                    ponder = reply
        return move, ponder

    def _checked_move(self, text: str) -> Move | None:
        board = self.board
        name = self.engine.name
        if text in _NO_MOVE:
            if board.legal_moves:
                raise EngineNoMoveError(
                    f"{name} returned no move (bestmove {text}) in {board.fen()} but it has "
                    f"{len(list(board.legal_moves))} legal moves"
                )
            return None
        try:
            move = Move.from_str(text)
        except InvalidMoveError as exc:
            raise EngineMoveError(f"{name} returned an unreadable move: {exc}") from None
        if not board.is_legal(move):
            reason = board.explain_illegal(move)
            raise EngineMoveError(
                f"{name} returned the illegal move {text} in {board.fen()}: {reason}"
            )
        return move

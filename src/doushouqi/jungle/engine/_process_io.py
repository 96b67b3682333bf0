"""The engine process's standard input and output, for the asyncio client
(:class:`~doushouqi.jungle.engine.async_client.Engine` inherits :class:`ProcessIO`): a line
sent, the next line read, the readers that queue the engine's output and keep the tail of its
error output, the watchdog that kills an engine silent for too long, and the error that says
why an engine has gone. What the lines mean is the client's business.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from doushouqi.jungle.engine.analysis_stream import LOGGER
from doushouqi.jungle.engine.protocol import EngineError, EngineTerminatedError, EngineTimeoutError


class ProcessIO:
    """The lines to and from an engine process. The client sets the fields below when it is
    created and ``_process`` when it starts the process."""

    if TYPE_CHECKING:  # what the methods use of the client
        _process: asyncio.subprocess.Process | None
        _lines: asyncio.Queue[str | None]
        _stderr_tail: collections.deque[str]
        _dead: bool
        _timeout_reason: str | None

        @property
        def name(self) -> str: ...
        @property
        def returncode(self) -> int | None: ...
        @property
        def alive(self) -> bool: ...

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None:
            raise EngineError("engine not started")
        if self._dead or process.stdin is None:
            raise self._terminated_error()
        LOGGER.debug("%s << %s", self.name, line)
        process.stdin.write(line.encode() + b"\n")
        try:
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self._dead = True
            await self._wait_exit()
            raise self._terminated_error() from None

    def _send_nowait(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None or not self.alive:
            return
        LOGGER.debug("%s << %s", self.name, line)
        with contextlib.suppress(OSError, RuntimeError):
            process.stdin.write(line.encode() + b"\n")

    async def _next_line(self) -> str:
        if self._dead:
            raise self._terminated_error()
        line = await self._lines.get()
        if line is None:
            self._dead = True
            await self._wait_exit()
            raise self._terminated_error()
        return line

    async def _wait_exit(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 2.0)
            except TimeoutError:
                kill_process(process)

    def _terminated_error(self) -> EngineTerminatedError:
        if self._timeout_reason is not None:
            return EngineTimeoutError(self._timeout_reason)
        message = f"engine {self.name} has exited"
        if self.returncode is not None:
            message += f" (exit code {self.returncode})"
        if self._stderr_tail:
            message += "; last error output: " + " | ".join(self._stderr_tail)
        return EngineTerminatedError(message)

    @contextlib.contextmanager
    def _watchdog(self, seconds: float | None, what: str) -> Iterator[None]:
        """Kill the engine if the block has not finished within ``seconds``."""
        if seconds is None or math.isinf(seconds):
            yield
            return
        handle = asyncio.get_running_loop().call_later(
            max(seconds, 0.0), self._expire, what, seconds
        )
        try:
            yield
        finally:
            handle.cancel()

    def _expire(self, what: str, seconds: float) -> None:
        if self._timeout_reason is None and not self._dead:
            self._timeout_reason = (
                f"engine {self.name} did not send {what} within {seconds:g} s and was killed"
            )
            LOGGER.info("%s", self._timeout_reason)
        self._dead = True
        if self._process is not None:
            kill_process(self._process)
        self._lines.put_nowait(None)

    async def _read_stdout(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        try:
            while True:
                try:
                    raw = await process.stdout.readline()
                except ValueError:  # a line over the limit: drop it
                    LOGGER.warning("%s: overlong output line dropped", self.name)
                    continue
                if not raw:
                    break
                line = raw.decode(errors="replace").rstrip("\r\n")
                LOGGER.debug("%s >> %s", self.name, line)
                self._lines.put_nowait(line)
        finally:
            self._lines.put_nowait(None)

    async def _read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        while True:
            try:
                raw = await process.stderr.readline()
            except ValueError:
                continue
            if not raw:
                return
            line = raw.decode(errors="replace").rstrip()
            if line:
                LOGGER.debug("%s (stderr) %s", self.name, line)
                self._stderr_tail.append(line)


def kill_process(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        if process.returncode is None:
            process.kill()

"""Progress while numba compiles: what an engine says during a first start (or after an
upgrade), when loading takes tens of seconds instead of under one.

numba announces each function it actually compiles (a cache hit announces nothing) as a
``numba:compile`` event; :class:`CompileWatch` counts them and reports at most every
``every`` seconds, so a warm start prints nothing at all.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from numba.core import event

__all__ = ["CompileStatus", "CompileWatch"]


@dataclass(frozen=True)
class CompileStatus:
    """Where a compilation stands: functions compiled so far, the one being compiled now
    (``module.function``, or "" between two), and seconds since the watch began."""

    compiled: int
    current: str
    elapsed: float


class _Listener(event.Listener):
    def __init__(self, watch: CompileWatch) -> None:
        self.watch = watch

    def on_start(self, ev: Any) -> None:
        self.watch._started(ev.data.get("dispatcher"))

    def on_end(self, ev: Any) -> None:
        self.watch._ended()


class CompileWatch:
    """``with CompileWatch(report): ...`` calls ``report(status)`` while numba compiles in
    this thread, at most once every ``every`` seconds, and once more at the end if anything
    compiled (``final=True``). Compilations in other threads are not counted."""

    def __init__(self, report: Callable[[CompileStatus, bool], None], every: float = 2.0) -> None:
        self.report = report
        self.every = every
        self.compiled = 0
        self._names: list[str] = []
        self._thread = threading.get_ident()
        self._begun = 0.0
        self._last = 0.0
        self._listener = _Listener(self)

    def __enter__(self) -> CompileWatch:
        self._thread = threading.get_ident()
        self._begun = self._last = time.monotonic()
        event.register("numba:compile", self._listener)  # type: ignore[no-untyped-call]
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        event.unregister("numba:compile", self._listener)  # type: ignore[no-untyped-call]
        if self.compiled:
            self.report(self.status(), True)

    def status(self) -> CompileStatus:
        current = self._names[-1] if self._names else ""
        return CompileStatus(self.compiled, current, time.monotonic() - self._begun)

    def _started(self, dispatcher: Any) -> None:
        if threading.get_ident() != self._thread:
            return
        function = getattr(dispatcher, "py_func", None)
        name = "?" if function is None else f"{function.__module__}.{function.__name__}"
        self._names.append(name)
        self._tick()

    def _ended(self) -> None:
        if threading.get_ident() != self._thread:
            return
        if self._names:
            self._names.pop()
        self.compiled += 1
        self._tick()

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self._last >= self.every:
            self._last = now
            self.report(self.status(), False)


def protocol_report(send: Callable[[str], None]) -> Callable[[CompileStatus, bool], None]:
    """A :class:`CompileWatch` report as an engine protocol's ``info string`` lines (``send``
    writes one line): what a GUI or a person at the terminal sees while ``isready`` waits."""

    def report(status: CompileStatus, final: bool) -> None:
        if final:
            send(
                f"info string engine compiled: {status.compiled} functions in "
                f"{status.elapsed:.1f} s (kept in numba's cache: later starts take about a second)"
            )
        else:
            doing = f", now {status.current.rpartition('.')[2]}" if status.current else ""
            send(
                "info string compiling the engine (first start after an install or upgrade): "
                f"{status.compiled} functions in {status.elapsed:.0f} s{doing}"
            )

    return report

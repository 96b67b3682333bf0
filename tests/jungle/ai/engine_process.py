"""The engine as a real ``python -m doushouqi engine`` child process, for the protocol tests."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable

#: The first `isready` waits for numba to compile (a minute on a cold cache, 2 CPUs shared).
READY_TIMEOUT = 300.0


class EngineProcess:
    """The engine as a child process, with a thread collecting its output lines."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "doushouqi", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def cpu_seconds(self) -> float:
        """The processor time the engine has used so far (all its threads; Linux's /proc):
        unlike the wall clock, it does not grow while a loaded machine keeps the engine
        waiting."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        user, system = int(fields[11]), int(fields[12])  # utime and stime, in clock ticks
        return (user + system) / os.sysconf("SC_CLK_TCK")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, done: Callable[[str], bool], timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first one for which ``done`` holds."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"timed out; got {seen}")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            seen.append(line)
            if done(line):
                return seen

    def lines_for(self, seconds: float) -> list[str]:
        """Every line the engine writes in the next ``seconds``."""
        deadline = time.monotonic() + seconds
        seen: list[str] = []
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                seen.append(self.lines.get(timeout=remaining))
            except queue.Empty:
                break
        return seen

    def ask(self, line: str, answer: str, timeout: float = 10.0) -> list[str]:
        self.send(line)
        return self.read_until(lambda text: text.startswith(answer), timeout)

    def display(self) -> tuple[str, str]:
        """The rule set name and the position string, from ``d``."""
        lines = self.ask("d", "Fen:")
        return lines[-2].removeprefix("Rules: "), lines[-1].removeprefix("Fen: ")

    def close(self) -> int:
        if self.process.poll() is None:
            self.send("quit")
        try:
            return self.process.wait(10)
        finally:
            if self.process.poll() is None:
                self.process.kill()

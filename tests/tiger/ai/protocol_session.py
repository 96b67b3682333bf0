"""The Tiger engine's protocol in process, for its tests: a session on a real, warmed-up
engine, command lines in, answer lines out."""

from __future__ import annotations

import io
import time

from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.ai.protocol import EngineProtocol


class Session:
    """A protocol session in process: lines in, lines out."""

    def __init__(self, engine: Searcher) -> None:
        self.out = io.StringIO()
        self.protocol = EngineProtocol(self.out, engine=engine)
        self.protocol._wait_warm()

    def say(self, *lines: str) -> list[str]:
        start = len(self.out.getvalue().splitlines())
        for line in lines:
            assert self.protocol.handle(line)
        return self.out.getvalue().splitlines()[start:]

    def search(self, go: str, timeout: float = 30.0) -> list[str]:
        """The lines a ``go`` answers, up to its ``bestmove`` (then an ``isready`` lets the
        search thread finish)."""
        start = len(self.out.getvalue().splitlines())
        self.protocol.handle(go)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.out.getvalue().splitlines()[start:]
            if any(line.startswith("bestmove") for line in lines):
                self.protocol.handle("isready")
                return lines
            time.sleep(0.01)
        raise AssertionError("no bestmove")

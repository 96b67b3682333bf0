"""The scripted seats that the cluster benchmarks share (``cluster_load.py``, ``ai_load.py``,
``ai_capacity.py``): ``server_load``'s seat, which knows its game, waits for the start signal
and comes back when a node closes its socket, and closing many of them at once."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import Any

import websockets

from server_load import Seat


class BenchSeat(Seat):
    """A server_load seat that knows its game, waits for the start signal before its first
    move, and comes back when the server closes its socket (as the web client does)."""

    def __init__(self, bench: Any, cookie: str, ws_url: str | None = None) -> None:
        super().__init__(bench, cookie, ws_url)
        self.game_id = ""
        self.go: asyncio.Event = bench.go

    async def connect(self, game_id: str, color: int) -> None:
        self.game_id = game_id
        await super().connect(game_id, color)

    async def think(self, dests: dict[str, list[str]]) -> None:
        await self.go.wait()
        with contextlib.suppress(websockets.ConnectionClosed):  # it reconnects and resyncs
            await super().think(dests)

    async def reconnect(self, closed: websockets.ConnectionClosed, counts: Counter[str]) -> None:
        """The server closed the socket (4408: the game moved to another node, or this one
        fell behind): connect again; the ``state`` it sends resumes play."""
        if isinstance(closed, websockets.ConnectionClosedOK):
            await asyncio.sleep(0.05)  # closed here: replaced by the next game's socket
            return
        code = closed.rcvd.code if closed.rcvd is not None else "no close frame"
        counts[str(code)] += 1
        for attempt in range(10):
            try:
                await self.connect(self.game_id, self.color)
                return
            except (OSError, TimeoutError, websockets.WebSocketException):
                counts["reconnect failed"] += 1
                await asyncio.sleep(0.5 * (attempt + 1))


async def close_sockets(seats: list[Any]) -> None:
    async def close(seat: Any) -> None:
        if seat.think_task is not None:
            seat.think_task.cancel()
        if seat.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(seat.ws.close(), 5)

    for start in range(0, len(seats), 200):
        await asyncio.gather(*(close(s) for s in seats[start : start + 200]))

"""What a cluster node publishes on Redis, sent in batches on a connection of its own.

Everything a node publishes (its games' events, forwarded commands, the owner's replies, the
accounts' messages) goes through one :class:`Outbox`: what is handed to it during one step of
the event loop leaves in one write, and while a batch waits for Redis's answers the next
gathers. Per batch it costs what redis-py's connection costs for its commands (packing, one
write, reading the answers), without a pipeline object or the pool's checkout around it: a
batch of one message measured 70-87 µs of the node's CPU here, against 87-106 µs through
``Redis.publish`` and 104-118 µs as a pipeline of one (docs/server.md, sixth round).

One batch is in flight at a time, so the messages leave in the order they were handed over
(one game's events are never reordered between two batches on two connections). A batch that
fails (Redis away) is dropped, as a failed publish always was: those that wait on it hear the
error, the sockets following a game from other nodes catch up from the database once their
node subscribes again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

__all__ = ["Outbox"]

log = logging.getLogger(__name__)

#: A message: (channel, payload, the future of its receivers' count or None).
_Message = tuple[str, str | bytes, asyncio.Future[int] | None]


class Outbox:
    """Publishes messages in batches, in their order, on a connection of its own."""

    def __init__(
        self,
        pool: aioredis.ConnectionPool,
        spawn: Callable[[Awaitable[Any]], None],
        timeout: float,
    ) -> None:
        # Made by the pool (its address and settings) but not one of its own: never lent to
        # another command, so a batch's answers are read in the order they were asked.
        self._connection = pool.make_connection()  # type: ignore[no-untyped-call]
        # A batch has one time limit (around the check, the write and every answer): the
        # connection's own for each command would add a timer to every answer read and a
        # task to every write (``asyncio.wait_for``), the most of a lone message's cost.
        self._connection.socket_timeout = None
        self._pool = pool
        self._spawn = spawn
        self._timeout = timeout
        self._queue: list[_Message] = []
        self._draining = False

    def send_later(
        self,
        channel: str,
        payload: str | bytes,
        receivers: asyncio.Future[int] | None = None,
    ) -> None:
        """Publish soon, with whatever else is handed over until then. ``receivers``, when
        given, is set to how many subscribers Redis handed the message to, or to the error
        that kept it from being published."""
        self._queue.append((channel, payload, receivers))
        if not self._draining:
            self._draining = True
            self._spawn(self._drain())

    async def _drain(self) -> None:
        try:
            await asyncio.sleep(0)  # let the rest of this loop step's messages join
            while self._queue:
                batch, self._queue = self._queue, []
                await self._send(batch)
        finally:
            self._draining = False
            for _, _, receivers in self._queue:  # stopped (cancelled) before sending these
                if receivers is not None:
                    receivers.cancel()
            if self._queue:
                self._queue = []

    async def _send(self, batch: list[_Message]) -> None:
        connection = self._connection
        counts: list[Any] = []
        error: BaseException | None = None
        try:
            async with asyncio.timeout(self._timeout):
                # As the pool checks a connection it lends: one that Redis closed meanwhile
                # (restarted) is made again here, rather than failing this batch.
                await self._pool.ensure_connection(connection)
                commands = [("PUBLISH", channel, payload) for channel, payload, _ in batch]
                await connection.send_packed_command(connection.pack_commands(commands))
                for _ in batch:
                    counts.append(await connection.read_response())
        except Exception as exc:
            # Redis away, or too slow: the answers still owed would be read as the next
            # batch's, so the connection starts again (it connects at the next send).
            error = exc
            await self._reset()
            log.warning("redis unavailable: %d messages not published (%r)", len(batch), exc)
        except BaseException as exc:  # cancelled: the node is stopping
            error = exc
            await self._reset()
            raise
        finally:
            for index, (_, _, receivers) in enumerate(batch):
                if receivers is None or receivers.done():
                    continue
                if index < len(counts):
                    receivers.set_result(int(counts[index]))
                elif isinstance(error, Exception):
                    receivers.set_exception(error)
                else:
                    receivers.cancel()

    async def _reset(self) -> None:
        try:
            await self._connection.disconnect(nowait=True)
        except Exception:  # a socket that cannot be closed cleanly is dropped all the same
            log.debug("could not close the outbox's connection", exc_info=True)

    def close(self) -> None:
        """Close the connection at once (the node is stopping; nothing is awaited)."""
        try:
            self._connection._close()
        except Exception:
            log.debug("could not close the outbox's connection", exc_info=True)

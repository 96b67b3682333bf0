"""TV: the game a node features, kept until it ends, then the best game in progress.

The featured game is chosen by ``pick(current)``, the caller's (``api/watch.py`` reads the
database: every node sees every node's games): given the game featured now, it answers that
game while it is still in progress, else the best one in progress, or None. A game keeps
the screen until it ends, as on lichess: a viewer follows one game to its end instead of
being moved on whenever a slightly better one starts.

Whoever watches TV subscribes (``/ws/tv``) and is told each game as it is featured. While
anyone subscribes, one task per node asks ``pick`` again every ``interval`` seconds and tells
every subscriber when the game changes; with nobody watching, nothing runs. Nodes choose on
their own, from the same database, so two nodes agree but for a game started or ended within
one interval (no Redis traffic for it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

__all__ = ["Tv"]

log = logging.getLogger(__name__)

#: A featured game as lists show it (``api/watch.py``'s ``live_entry``), or None.
Entry = dict[str, Any] | None
#: Given the featured game's id (or None), the game to feature now.
Pick = Callable[[str | None], Awaitable[Entry]]


class Tv:
    def __init__(self, pick: Pick, *, interval: float = 1.0) -> None:
        self._pick = pick
        self.interval = interval
        self.featured: Entry = None
        self._queues: set[asyncio.Queue[Entry]] = set()
        self._task: asyncio.Task[None] | None = None

    @property
    def featured_id(self) -> str | None:
        return None if self.featured is None else str(self.featured["id"])

    async def current(self) -> Entry:
        """The game featured now (chosen again if the one featured has ended)."""
        await self._refresh()
        return self.featured

    async def _refresh(self) -> None:
        entry = await self._pick(self.featured_id)
        changed = (entry is None) != (self.featured is None) or (
            entry is not None and entry["id"] != self.featured_id
        )
        self.featured = entry
        if changed:
            for queue in self._queues:
                queue.put_nowait(entry)

    @contextlib.asynccontextmanager
    async def watch(self) -> AsyncIterator[asyncio.Queue[Entry]]:
        """A queue of the featured games: the current one first, then each one as it changes."""
        queue: asyncio.Queue[Entry] = asyncio.Queue()
        featured = await self.current()
        # No await from here to the add: no change can fall between the first game and the rest.
        queue.put_nowait(featured)
        self._queues.add(queue)
        try:
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run())
            yield queue
        finally:
            self._queues.discard(queue)
            if not self._queues and self._task is not None:
                self._task.cancel()
                self._task = None

    async def _run(self) -> None:
        while self._queues:
            await asyncio.sleep(self.interval)
            try:
                await self._refresh()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database away: the next round tries again
                log.warning("could not choose TV's game now (%r)", exc)

"""Committing games: every accepted command's new game state and events, in one transaction,
before anyone hears of it.

Commits are grouped: while one batch is being written, the writes that arrive queue up and go
together in the next transaction. Under load, hundreds of games share one commit (one fsync
on PostgreSQL). A busy node's commit waits ``gather_for`` for more writes to join it, as a
commit costs much the same for one move as for several; a quiet node's goes at once.
Each game has at most one write in flight (its actor waits for it), so a game's writes stay
in order.

A write that finds its game stored at another version than the one it replaces fails with
:class:`StaleWriteError`, apart from every other failure (:class:`CommitError`): another node
wrote the game meanwhile, so the writer's copy is out of date and trying again cannot help.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.domain import Game
from doushouqi.server.infra.json_output import dumps
from doushouqi.server.infra.outage import ServiceUnavailable, is_outage

__all__ = [
    "CommitError",
    "FinishedHook",
    "GameStore",
    "GameWrite",
    "StaleWriteError",
    "StorageUnavailable",
]

#: Run for each game that ends, in the transaction that stores its end (the opening explorer
#: counts it): features hook in here, wired by the app, so the store imports none of them.
FinishedHook = Callable[[Session, Game], None]

log = logging.getLogger(__name__)


@dataclass
class GameWrite:
    """One game's change: its new state, the events to log, and games to create with it
    (a rematch is created in the same transaction as the event that announces it)."""

    game: Game
    #: The stored version this write replaces; None inserts a new game.
    previous_version: int | None
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Listed on Watch and TV (and, while open, in the lobby); a rematch made by this write is
    #: as public as its game.
    public: bool = True
    finished: bool = False
    rematch: Game | None = None
    #: The events' JSON text, one per event, where the writer has it already (the live game
    #: encodes each event once, for its sockets and its event rows); made here when empty.
    texts: list[str] = field(default_factory=list)
    #: The stored row's set-up columns (who plays, the rules, the clock's setting: those of
    #: ``Game.kept``) are this game's already, so a move's write leaves them out. The writer
    #: knows it (``Game.same_setup`` of the game it replaces); False writes them all.
    same_setup: bool = False
    #: With :attr:`same_setup`: the stored row's status is this game's already (the game it
    #: replaces had it: a move that neither starts nor ends the game), so the status column,
    #: and with it its index, is left alone too, and the columns that change only with the
    #: status (the result, the ending, the start and end times: the domain sets them only
    #: where it sets a new status); only the version and the stored game are written (on
    #: PostgreSQL, with one event, in one statement). False writes them.
    same_status: bool = False

    def payloads(self) -> list[str]:
        """Each event's stored text: :attr:`texts`, or the events encoded here."""
        if len(self.texts) == len(self.events):
            return self.texts
        return [dumps(event) for event in self.events]


def _write_batch(
    writes: list[GameWrite], on_finished: Sequence[FinishedHook], session: Session
) -> None:
    """All of ``writes`` in the caller's transaction, a few statements for the whole batch."""
    new = [(w.game, w.public) for w in writes if w.previous_version is None]
    new += [(w.rematch, w.public) for w in writes if w.rematch is not None]
    repo.insert_games(session, new)
    repo.update_games(
        session,
        [
            (w.game, w.previous_version, None if w.rematch is None else w.rematch.id)
            for w in writes
            if w.previous_version is not None
        ],
    )
    repo.append_many_events(session, [(w.game.id, w.events, w.payloads()) for w in writes])
    for write in writes:
        if write.finished:
            repo.record_result(session, write.game)
            for hook in on_finished:
                hook(session, write.game)


def _is_plain_move(write: GameWrite) -> bool:
    """A write of a game that goes on: an update and events, which need no session (nearly
    every write: the moves). A new game, an ending (its result and hooks) or a rematch do."""
    return write.previous_version is not None and not write.finished and write.rematch is None


def _ply_statement(write: GameWrite) -> tuple[Any, ...] | None:
    """The parameters of ``write`` in the statement that stores moves on PostgreSQL
    (``repo.plies_statement_postgresql``), or None where it takes more: a write that is not a
    plain move, changes the stored row's set-up or status, or has other than one event."""
    if not (_is_plain_move(write) and write.same_setup and write.same_status):
        return None
    assert write.previous_version is not None  # a plain move's
    return repo.ply_statement_parameters(
        write.game, write.previous_version, write.events, write.payloads()
    )


def _plies_statement(writes: list[GameWrite]) -> tuple[str, list[Any]] | None:
    """``writes`` as one statement and its parameters, where each is a move that one can store
    (:func:`_ply_statement`) of a game of its own (the statement tells the games it stored by
    their ids) and they are not too many; else None."""
    if len(writes) > repo.PLIES_PER_STATEMENT or len({w.game.id for w in writes}) < len(writes):
        return None
    parameters: list[Any] = []
    for write in writes:
        own = _ply_statement(write)
        if own is None:
            return None
        parameters.extend(own)
    return repo.plies_statement_postgresql(len(writes)), parameters


def _write_moves(writes: list[GameWrite], cursor: Any, dialect: Dialect) -> None:
    """Plain moves' writes through the driver (``Database.write_driver``): the statements of
    :func:`_write_batch` without the ORM session's bookkeeping, which cost more than them."""
    repo.store_moves(
        cursor,
        dialect,
        [
            (w.game, w.previous_version, w.same_setup, w.same_status)
            for w in writes
            if w.previous_version is not None
        ],
        [(w.game.id, w.events, w.payloads()) for w in writes],
    )


#: The gaps between writes are averaged with this weight for the newest (about the last eight
#: writes count), each gap counted as at most a second: one long pause makes a node quiet.
_GAP_WEIGHT = 1 / 8
_QUIET_GAP = 1.0
#: A node is busy, and a commit waits for more writes, when they come at least every this many
#: gathering times: at 8 ms, more than about 30 moves a second (docs/server.md, fourteenth round).
_BUSY_GAPS = 4


class GameStore:
    def __init__(
        self,
        db: Database,
        on_finished: Sequence[FinishedHook] = (),
        *,
        gather_for: float = 0.0,
    ) -> None:
        self.db = db
        self.on_finished = tuple(on_finished)
        #: Seconds a commit waits, when none is under way, for more writes to join it: one
        #: transaction's cost (round trips, the driver's work, the server's commit) is then
        #: shared by more moves, each acknowledged that much later. It waits only on a busy
        #: node, where writes come at least every few such waits (the decayed mean gap between
        #: them): on a quiet one a lone move is written at once, as waiting would gather
        #: little and save nothing that matters there.
        self.gather_for = gather_for
        self._mean_gap = _QUIET_GAP
        self._last_arrival = -_QUIET_GAP
        self._pending: list[tuple[GameWrite, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        #: Writes run on the event loop itself (SQLite), with no I/O to wait for: a batch is
        #: written by a plain callback, not a task (a task's creation, steps and end cost
        #: more than a small batch's write needs). It runs where the task's first step ran, at
        #: the loop's next turn (or after ``gather_for`` when busy), so the same writes share it.
        self._inline = db.inline_writes
        self._flush_handle: asyncio.Handle | None = None

    async def commit(self, write: GameWrite) -> None:
        """Return once ``write`` is committed; raise if it could not be."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((write, future))
        if self.gather_for > 0:
            now = loop.time()
            gap = min(now - self._last_arrival, _QUIET_GAP)
            self._last_arrival = now
            self._mean_gap += (gap - self._mean_gap) * _GAP_WEIGHT
        if self._inline:
            if self._flush_handle is None:
                if self._busy():
                    self._flush_handle = loop.call_later(self.gather_for, self._flush_inline)
                else:
                    self._flush_handle = loop.call_soon(self._flush_inline)
        elif self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await future

    def _busy(self) -> bool:
        """Whether writes come often enough for a commit to wait for more."""
        return self._mean_gap < _BUSY_GAPS * self.gather_for

    def _flush_inline(self) -> None:
        """:meth:`_flush` for writes on the loop: the same batches and retries, no awaits."""
        self._flush_handle = None
        batch, self._pending = self._pending, []
        if not batch:
            return
        try:
            self._write_inline([w for w, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                _settle(batch[0][1], _failure(batch[0][0], exc))
                return
            for write, future in batch:  # one by one, as _flush does
                try:
                    self._write_inline([write])
                except Exception as error:
                    _settle(future, _failure(write, error))
                else:
                    _settle(future)
            return
        for _, future in batch:
            _settle(future)

    def _write_inline(self, writes: list[GameWrite]) -> None:
        if all(_is_plain_move(w) for w in writes):
            self.db.run_driver(functools.partial(_write_moves, writes))
        else:
            self.db.run_sync(functools.partial(_write_batch, writes, self.on_finished))

    async def _flush(self) -> None:
        if self._busy():
            await asyncio.sleep(self.gather_for)
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                stale = await self._write([w for w, _ in batch])
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], _failure(batch[0][0], exc))
                    continue
                # One bad write must not fail the others (nor is it known which one it was: a
                # stale game fails the whole batch): retry them one by one.
                for write, future in batch:
                    try:
                        stale = await self._write([write])
                    except Exception as error:
                        _settle(future, _failure(write, error))
                    else:
                        _settle(future, _stale(write) if stale else None)
                continue
            for i, (write, future) in enumerate(batch):
                _settle(future, _stale(write) if i in stale else None)

    async def _write(self, writes: list[GameWrite]) -> set[int]:
        """Store ``writes``; return the indexes of those found stale (only the one-statement
        path tells them apart: the others raise for the whole batch, and nothing is stored)."""
        statement = None if self.db.is_sqlite else _plies_statement(writes)
        if statement is not None:  # moves, each stored or refused on its own
            stored = {row[0] for row in await self.db.write_statement(*statement)}
            return {i for i, write in enumerate(writes) if write.game.id not in stored}
        if all(_is_plain_move(w) for w in writes):
            await self.db.write_driver(functools.partial(_write_moves, writes))
        else:
            await self.db.write(functools.partial(_write_batch, writes, self.on_finished))
        return set()


class CommitError(RuntimeError):
    """The database refused or failed the write; the change did not happen."""


class StorageUnavailable(CommitError, ServiceUnavailable):
    """The database could not be reached: the change did not happen; try again later."""


class StaleWriteError(RuntimeError):
    """The stored game is newer than the version the write replaces: another writer (a node
    that also believed it owned the game) stored it meanwhile. The change did not happen, and
    the writer's copy of the game is out of date: it must read the game again, not retry."""


def _failure(write: GameWrite, exc: Exception) -> Exception:
    if isinstance(exc, repo.StaleGameError):
        log.warning("game %s was stored by another writer meanwhile", write.game.id)
        return StaleWriteError(f"game {write.game.id} is newer in the database")
    if is_outage(exc):
        log.warning("could not commit game %s: the database is away (%r)", write.game.id, exc)
        return StorageUnavailable("the change could not be saved: the database is away")
    log.error("could not commit game %s", write.game.id, exc_info=exc)
    return CommitError("the change could not be saved")


def _stale(write: GameWrite) -> Exception:
    """The failure of a write that found its game at another version than it replaces."""
    return _failure(write, repo.StaleGameError("the game was not at the version expected"))


def _settle(future: asyncio.Future[None], error: Exception | None = None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(None)

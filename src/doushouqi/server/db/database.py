"""The database connection: engine set-up, migrations, and running queries.

Writes are serialised (:meth:`Database.write`), so they never contend with each other:
SQLite allows one writer at a time anyway, and one ordered writer keeps PostgreSQL just as
simple. On PostgreSQL the writer is a thread, so network round trips never block the event
loop. On SQLite the writes run inline on the event loop: a WAL commit without fsync takes a
fraction of a millisecond, less than handing the work to a thread, and a writer thread would
have to win the GIL back from the busy event loop after every SQLite call (the "convoy"
effect), which measured 5-30 ms stalls per commit under load. Reads run on the default thread
pool, in parallel with the writer (SQLite runs in WAL mode for that).

The writes of every move go through :meth:`Database.write_driver`: the driver's own
connection and cursor, one transaction, none of the ORM session's bookkeeping (which cost more
than SQLite's work: docs/server.md "Efficiency"). Its errors are SQLAlchemy's, as if it had
run them, so that a caller tells an outage from a bug the same way for both paths. On
PostgreSQL the plainest of them, moves that only move, are single statements instead
(:meth:`Database.write_statement`), each a transaction of its own on an asynchronous connection
run by the event loop (docs/server.md, "Efficiency", eleventh round).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, column, create_engine, delete, event, insert, table
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.orm import Session, sessionmaker

from doushouqi.server.db.sqlite_lock import SqliteLock, sqlite_file

__all__ = ["LEGACY_REVISIONS", "MIGRATIONS_DIR", "Database", "alembic_config"]

T = TypeVar("T")
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The advisory lock's key ("DSQMIGR" in ASCII): one migration at a time per database.
MIGRATION_LOCK = 0x4453514D494752

#: The revision ids of the migration history before it was made linear, each with the revision
#: of today's history that creates the same tables. That history went 0001, 0002, 0003, then
#: one branch per feature off 0003 (0004_pairing, 0004_tournament, 0004_chat, 0004_explorer,
#: 0004_puzzle, added in that order, which is the order the linear history adds them in), and
#: 0005 joined them without changing anything. A database made by that code has these ids in
#: ``alembic_version``; :meth:`Database.migrate` stamps it with the new id before upgrading.
LEGACY_REVISIONS = {
    "0001": "0001_accounts_and_games",
    "0002": "0002_guest_names",
    "0003": "0003_record_quotas",
    "0004_pairing": "0004_notifications_and_pairing",
    "0004_tournament": "0005_tournaments",
    "0004_chat": "0006_chat",
    "0004_explorer": "0007_opening_explorer",
    "0004_puzzle": "0008_puzzles",
    "0005": "0008_puzzles",
}
_LEGACY_BRANCH_BASE = "0003_record_quotas"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers do not block the writer. synchronous=NORMAL in WAL mode loses nothing when
    # the *process* dies (SIGKILL): committed pages are in the OS's hands; only a power cut
    # could lose the last commits, which is the trade every WAL deployment makes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


def alembic_config() -> Config:
    """The migrations' Alembic configuration. A revision's file is named by its id alone
    (``command.revision(config, message, rev_id="0009_what_it_adds")`` writes
    ``versions/0009_what_it_adds.py``; docs/server.md shows how to add one)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("file_template", "%%(rev)s")
    return config


def linear_revision(legacy_heads: set[str], chain: list[str]) -> str:
    """The revision of the linear history (``chain``, oldest first) that a database whose
    ``alembic_version`` holds ``legacy_heads`` (ids of :data:`LEGACY_REVISIONS`) has reached.

    A trunk revision (0001-0003, 0005) had everything before it; a branch revision (0004_*) had
    the trunk up to 0003 and its own tables. What the heads had together must be the start of
    the linear history, or no single revision has that schema and this raises RuntimeError
    (a database with some features' branches but not the ones before them in the new order:
    no code ever made one, since the branches were added one after the other)."""
    applied: set[str] = set()
    for head in legacy_heads:
        new = LEGACY_REVISIONS[head]
        if head.startswith("0004_"):
            applied |= {*chain[: chain.index(_LEGACY_BRANCH_BASE) + 1], new}
        else:
            applied |= set(chain[: chain.index(new) + 1])
    reached = chain[: len(applied)]
    if set(reached) != applied:
        raise RuntimeError(
            f"the database is at revisions {sorted(legacy_heads)} of the old, branching "
            "migration history, which no revision of the linear history matches"
        )
    return reached[-1]


def adopt_legacy_revisions(connection: Connection, config: Config) -> str | None:
    """Stamp a database made before the migration history was made linear with the equivalent
    revision of today's history (its schema is already that revision's: no DDL runs). Returns
    the revision stamped, or None when ``alembic_version`` holds no old id (a new or empty
    database, or one already on the linear history)."""
    heads = set(MigrationContext.configure(connection).get_current_heads())
    if not heads & LEGACY_REVISIONS.keys():
        return None
    if not heads <= LEGACY_REVISIONS.keys():
        raise RuntimeError(f"the database mixes old and new migration revisions: {sorted(heads)}")
    script = ScriptDirectory.from_config(config)
    chain = [revision.revision for revision in script.walk_revisions("base", "heads")][::-1]
    new = linear_revision(heads, chain)
    version = table("alembic_version", column("version_num"))
    connection.execute(delete(version))
    connection.execute(insert(version).values(version_num=new))
    return new


def _check_foreign_keys(connection: Connection) -> None:
    """Raise RuntimeError (and so roll the migration back) if a row refers to a missing one."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"the migration left rows referring to missing ones: {broken[:5]}")


class Database:
    """One database: ``await db.read(fn)`` / ``await db.write(fn)`` run ``fn(session)`` in a
    transaction off the event loop (the write commits when ``fn`` returns)."""

    def __init__(self, url: str, *, inline_writes: bool | None = None) -> None:
        self.url = url
        self.engine = make_engine(url)
        # A SQLite file is marked in use while it is open here, so that ``doushouqi restore``
        # refuses to replace it (DatabaseInUseError here while a restore is running).
        file = sqlite_file(url)
        self._lock = None if file is None else SqliteLock.acquire(file, exclusive=False)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")
        self.inline_writes = inline_writes if inline_writes is not None else self.is_sqlite
        #: The pooled connection that driver writes keep between batches (checking one out and
        #: back in cost a fifth of a move's write on SQLite; on PostgreSQL the pool's ping is a
        #: round trip of its own before each batch), with a cursor of the driver's connection
        #: inside it, kept too (a cursor made and closed per batch is work for nothing); the
        #: commit goes to the driver's connection itself, as the pool's proxy
        #: (``_ConnectionFairy``) would pass it on through a Python ``__getattr__``. None until
        #: the first, or after one broke. Used by one thread only: the event loop's (inline) or
        #: the writer's.
        self._kept: tuple[Any, Any] | None = None
        #: PostgreSQL: the asynchronous connection (autocommit, none of the pool's) and its raw
        #: cursor that :meth:`write_statement` runs its statements on, with the event loop it
        #: belongs to and the lock that takes the statements in turn; None until the first, or
        #: after one broke.
        self._statements: tuple[Any, Any] | None = None
        self._statement_loop: asyncio.AbstractEventLoop | None = None
        self._statement_lock = asyncio.Lock()

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def migrate(self) -> None:
        """Bring the schema to the latest revision (``alembic upgrade head``; the history is
        one line, and a second head would fail here). A database made before the history was
        made linear is first stamped with the equivalent revision (:func:`adopt_legacy_revisions`),
        in the same transaction. On PostgreSQL, nodes of a cluster starting together take turns
        (an advisory lock held for the transaction): the first migrates, the others then find
        nothing left to do."""
        config = alembic_config()
        with self.migration_transaction() as connection:
            if not self.is_sqlite:
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            adopt_legacy_revisions(connection, config)
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextmanager
    def migration_transaction(self) -> Iterator[Connection]:
        """A transaction to change the schema in (migrations run in one; so can a downgrade).

        SQLite alters most things by copying the table (Alembic's batch mode), and dropping the
        old copy with foreign keys on would first delete its rows, with their ON DELETE actions:
        every game's events, every account's logins. So on SQLite the foreign keys are off for
        the transaction (the switch only works outside one, hence around it), and a check of
        every reference stands in for them before it commits."""
        with self.engine.connect() as connection:
            if self.is_sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            try:
                with connection.begin():
                    yield connection
                    if self.is_sqlite:
                        _check_foreign_keys(connection)
            finally:
                if self.is_sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()

    def run_sync(self, fn: Callable[[Session], T]) -> T:
        with self.sessions.begin() as session:
            return fn(session)

    async def write(self, fn: Callable[[Session], T]) -> T:
        if self.inline_writes:
            return self.run_sync(fn)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(self.run_sync, fn))

    def run_driver(self, fn: Callable[[Any, Dialect], T]) -> T:
        """``fn(cursor, dialect)`` in one transaction on a pooled connection of the driver's
        own (committed when ``fn`` returns, rolled back when it raises), kept for the next. A
        driver error comes out as SQLAlchemy's ``DBAPIError`` subclass for it; a connection
        that the error says is broken is dropped from the pool (so the next write opens a
        fresh one).

        The kept connection is not pinged before each write, as the pool's checkout would
        (PostgreSQL: a round trip per batch). When it turns out closed (the server restarted
        since) before anything was committed, ``fn`` runs once more on a connection checked out
        of the pool, which is pinged: nothing of the first try was stored, so it cannot be
        stored twice. A failure during the commit itself is never retried (it may have been
        stored)."""
        if self._kept is not None:
            try:
                return self._run_driver(fn, retry_if_closed=True)
            except _ClosedBeforeCommit:
                pass
        return self._run_driver(fn, retry_if_closed=False)

    def _run_driver(self, fn: Callable[[Any, Dialect], T], *, retry_if_closed: bool) -> T:
        dialect = self.engine.dialect
        connection: Any = None
        cursor: Any = None
        broken = committing = False
        try:
            if self._kept is None:
                connection = self.engine.raw_connection()
                cursor = connection.dbapi_connection.cursor()
            else:
                connection, cursor = self._kept
                self._kept = None  # until it is known to be fine
            result = fn(cursor, dialect)
            committing = True
            connection.dbapi_connection.commit()
            return result
        except dialect.loaded_dbapi.Error as exc:
            raw = None if connection is None else connection.dbapi_connection
            broken = dialect.is_disconnect(exc, raw, cursor)
            if connection is not None:
                _rollback_quietly(connection)
                if broken:
                    connection.invalidate(exc)
            if broken and retry_if_closed and not committing:
                raise _ClosedBeforeCommit from exc
            raise _sqlalchemy_error(exc, dialect, broken) from exc
        except BaseException:
            if connection is not None:
                _rollback_quietly(connection)
            raise
        finally:
            if connection is not None:
                if not broken and cursor is not None:
                    # Committed or rolled back: ready for the next, the cursor with it.
                    self._kept = (connection, cursor)
                else:  # discarded (it was invalidated), or no cursor could be made
                    _close_quietly(cursor)
                    connection.close()

    async def write_driver(self, fn: Callable[[Any, Dialect], T]) -> T:
        """:meth:`run_driver` where :meth:`write` runs its work: inline on SQLite, else on
        the writer thread (so it keeps its place among the other writes)."""
        if self.inline_writes:
            return self.run_driver(fn)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(self.run_driver, fn))

    async def write_statement(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """One statement, a transaction of its own, on PostgreSQL: ``sql`` with psycopg's
        positional parameters (``$1``, ``$2``, ...), prepared on the server at its first run;
        returns the rows it returns (its ``RETURNING``). The server commits it before it
        answers, so one round trip does what the driver's transaction (its ``BEGIN``, the
        statements, the ``COMMIT``) did in several, with less of the driver's Python per
        statement (a raw cursor, kept: no conversion of named parameters), and on the event
        loop itself (psycopg's asynchronous connection): no hand-over to the writer thread and
        back. Errors are SQLAlchemy's, as :meth:`run_driver`'s.

        It runs on a connection of its own in autocommit, never lent to the pool (whose
        sessions need transactions), one statement at a time. A connection found broken is
        closed, and the statement runs once more on a new one: whether the first try was
        stored cannot be known, so ``sql`` must be one that a second run cannot apply again (a
        game's update at the version it replaces: a first try that was stored leaves the
        second nothing to change, which the caller then takes for a stale write, as it is)."""
        if self.is_sqlite:
            raise RuntimeError("write_statement is for PostgreSQL (autocommit statements)")
        async with self._statement_turn():
            if self._statements is not None:
                try:
                    return await self._write_statement(sql, params, retry_if_closed=True)
                except _ClosedBeforeCommit:
                    pass
            return await self._write_statement(sql, params, retry_if_closed=False)

    @contextlib.asynccontextmanager
    async def _statement_turn(self) -> AsyncIterator[None]:
        """One statement at a time on the statements' connection, which belongs to the event
        loop it was made on (another loop, as each ``asyncio.run`` of a test, makes its own)."""
        loop = asyncio.get_running_loop()
        if self._statement_loop is not loop:
            self._drop_statements()
            self._statement_loop, self._statement_lock = loop, asyncio.Lock()
        async with self._statement_lock:
            yield

    async def _write_statement(
        self, sql: str, params: Sequence[Any], *, retry_if_closed: bool
    ) -> list[tuple[Any, ...]]:
        dialect = self.engine.dialect
        if self._statements is None:
            self._statements = await self._statement_connection()
        connection, cursor = self._statements
        try:
            await cursor.execute(sql, params, prepare=True)
            rows: list[tuple[Any, ...]] = await cursor.fetchall()
            return rows
        except dialect.loaded_dbapi.Error as exc:
            broken = bool(connection.closed or connection.broken)
            if broken:
                self._drop_statements()
                if retry_if_closed:
                    raise _ClosedBeforeCommit from exc
            raise _sqlalchemy_error(exc, dialect, broken) from exc

    async def _statement_connection(self) -> tuple[Any, Any]:
        """A new autocommit connection to the engine's database and a raw cursor on it (its
        errors are SQLAlchemy's, as the pool's would be)."""
        import psycopg  # the PostgreSQL driver: only a PostgreSQL database gets here

        dialect = self.engine.dialect
        args, kwargs = dialect.create_connect_args(self.engine.url)
        try:
            connection = await psycopg.AsyncConnection.connect(*args, autocommit=True, **kwargs)
        except psycopg.Error as exc:
            raise _sqlalchemy_error(exc, dialect, False) from exc
        return connection, psycopg.AsyncRawCursor(connection)

    def _drop_statements(self) -> None:
        """Close the statements' connection, if any (synchronously: libpq's own close, which
        needs no event loop)."""
        if self._statements is not None:
            (connection, _), self._statements = self._statements, None
            with contextlib.suppress(Exception):
                connection.pgconn.finish()

    async def read(self, fn: Callable[[Session], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(self.run_sync, fn))

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        if self._kept is not None:
            (kept, cursor), self._kept = self._kept, None
            _close_quietly(cursor)
            kept.close()
        self._drop_statements()
        self.engine.dispose()
        if self._lock is not None:
            self._lock.release()


class _ClosedBeforeCommit(Exception):
    """The kept connection was found closed before the write's commit: nothing was stored (or,
    for :meth:`Database.write_statement`, nothing a second run could store again)."""


def _sqlalchemy_error(exc: Exception, dialect: Dialect, broken: bool) -> StatementError:
    """The driver's error ``exc`` as SQLAlchemy raises it (``broken``: the connection is lost),
    so that a caller tells an outage from a bug the same way on every path."""
    return DBAPIError.instance(
        None, None, exc, dialect.loaded_dbapi.Error, connection_invalidated=broken, dialect=dialect
    )


def _close_quietly(cursor: Any) -> None:
    """Close a driver's cursor, if any; one whose connection broke may refuse."""
    if cursor is not None:
        with contextlib.suppress(Exception):
            cursor.close()


def _rollback_quietly(connection: Any) -> None:
    """Roll back after a failure; a connection too broken to roll back is dropped anyway."""
    with contextlib.suppress(Exception):
        connection.rollback()

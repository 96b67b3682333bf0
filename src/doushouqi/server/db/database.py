"""The database connection: engine set-up, migrations, and running queries.

Writes are serialised (:meth:`Database.write`), so they never contend with each other:
SQLite allows one writer at a time anyway, and one ordered writer keeps PostgreSQL just as
simple. On PostgreSQL the writer is a thread, so network round trips never block the event
loop. On SQLite the writes run inline on the event loop: a WAL commit without fsync takes a
fraction of a millisecond, less than handing the work to a thread, and a writer thread would
have to win the GIL back from the busy event loop after every SQLite call (the "convoy"
effect), which measured 5-30 ms stalls per commit under load. Reads run on the default thread
pool, in parallel with the writer (SQLite runs in WAL mode for that).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["MIGRATIONS_DIR", "Database", "alembic_config"]

T = TypeVar("T")
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The advisory lock's key ("DSQMIGR" in ASCII): one migration at a time per database.
MIGRATION_LOCK = 0x4453514D494752


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
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


class Database:
    """One database: ``await db.read(fn)`` / ``await db.write(fn)`` run ``fn(session)`` in a
    transaction off the event loop (the write commits when ``fn`` returns)."""

    def __init__(self, url: str, *, inline_writes: bool | None = None) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")
        self.inline_writes = inline_writes if inline_writes is not None else self.is_sqlite

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def migrate(self) -> None:
        """Bring the schema to the latest revisions (``alembic upgrade heads``: a feature may
        add its tables in a migration of its own, beside the others). On PostgreSQL, nodes of
        a cluster starting together take turns (an advisory lock held for the transaction):
        the first migrates, the others then find nothing left to do."""
        config = alembic_config()
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")

    def run_sync(self, fn: Callable[[Session], T]) -> T:
        with self.sessions.begin() as session:
            return fn(session)

    async def write(self, fn: Callable[[Session], T]) -> T:
        if self.inline_writes:
            return self.run_sync(fn)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, functools.partial(self.run_sync, fn))

    async def read(self, fn: Callable[[Session], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(self.run_sync, fn))

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.engine.dispose()

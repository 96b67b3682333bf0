"""Backing up and restoring the site's database: ``doushouqi backup`` and ``doushouqi restore``.

**SQLite** (the embedded site). A backup is SQLite's online backup API
(``sqlite3.Connection.backup``), copying every page in one step inside one read transaction:
the copy is the database as it stood at one instant, and the server goes on serving and
writing meanwhile (in WAL mode a reader never blocks the writer). The copy is written beside
its destination, checked (``PRAGMA integrity_check``), switched to a self-contained rollback
journal (no ``-wal`` file to carry along) and only then renamed into place, so a backup file
is always whole.

A restore first checks the file: a SQLite database whose ``alembic_version`` holds a revision
of this doushouqi's migration history (an older one is upgraded: on a copy, never the backup
itself), with its pages intact. It then takes the database's lock exclusively
(:mod:`~doushouqi.server.db.sqlite_lock`), so it is refused while a server is running on it,
keeps the database it replaces as ``<database>.before-restore-<time>``, and copies the checked
file over it with the same backup API (which deals with whatever ``-wal`` file a crashed server
left behind).

**PostgreSQL**: ``pg_dump`` and ``pg_restore`` do this job, and better (a consistent snapshot
of a database that is being written, without stopping the nodes). The commands print the
exact command lines instead (:func:`postgres_commands`); docs/deploy.md, "Backups", explains
them and the test suite runs them.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from doushouqi.server.db.database import LEGACY_REVISIONS, Database, alembic_config
from doushouqi.server.db.sqlite_lock import DatabaseInUseError, SqliteLock, sqlite_file

__all__ = [
    "BackupError",
    "Restored",
    "Summary",
    "backup_sqlite",
    "postgres_commands",
    "restore_sqlite",
]

#: How long to wait for SQLite's own locks (a checkpoint of the server's, say) before failing.
BUSY_TIMEOUT_S = 30.0


class BackupError(RuntimeError):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class Summary:
    """What a database file holds, in the terms an operator checks a backup by."""

    revision: str
    accounts: int
    games: int
    bytes: int

    def __str__(self) -> str:
        return (
            f"{self.accounts} accounts, {self.games} games, schema {self.revision}, "
            f"{self.bytes / 1e6:.1f} MB"
        )


@dataclasses.dataclass(frozen=True)
class Restored:
    summary: Summary
    #: The backup's revision when it was older than this doushouqi's (then upgraded).
    upgraded_from: str | None
    #: Where the database that the restore replaced was kept (None: there was none).
    kept: Path | None


def known_revisions() -> tuple[list[str], set[str]]:
    """This doushouqi's migration history, oldest first, and every revision id it can
    upgrade from (the history's and the old, branching history's)."""
    script = ScriptDirectory.from_config(alembic_config())
    chain = [revision.revision for revision in script.walk_revisions("base", "heads")][::-1]
    return chain, {*chain, *LEGACY_REVISIONS}


def _connect(path: Path, timeout: float = BUSY_TIMEOUT_S) -> sqlite3.Connection:
    return sqlite3.connect(path, timeout=timeout, isolation_level=None)


def _revision(connection: sqlite3.Connection, what: Path) -> str:
    """The database's Alembic revision (revisions joined by ``+``: a database of the old,
    branching history may hold several); BackupError for a file that is no doushouqi
    database."""
    try:
        rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError as exc:  # no such table, or no database at all
        raise BackupError(f"{what} is not a doushouqi database ({exc})") from None
    if not rows:
        raise BackupError(f"{what} is not a doushouqi database (no schema revision)")
    return "+".join(sorted(str(row[0]) for row in rows))


def _summary(path: Path, what: Path) -> Summary:
    """Check a database file whole (``integrity_check``) and say what it holds."""
    with closing(_connect(path)) as connection:
        try:
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:  # "file is not a database"
            raise BackupError(f"{what} is not a SQLite database ({exc})") from None
        if problems != ["ok"]:
            raise BackupError(f"{what} is damaged: {'; '.join(problems[:5])}")
        revision = _revision(connection, what)
        try:
            accounts = connection.execute("SELECT count(*) FROM accounts").fetchone()[0]
            games = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{what} is not a doushouqi database ({exc})") from None
    return Summary(revision, accounts, games, path.stat().st_size)


def _copy(source: Path, destination: Path) -> None:
    """``source``'s pages into ``destination`` (replacing what it held), in one step: one
    read transaction on the source, so the copy is one instant of it however busy it is."""
    with closing(_connect(source)) as src, closing(_connect(destination)) as dst:
        src.backup(dst)
        # A file of its own, with no -wal beside it (the source's header said WAL).
        dst.execute("PRAGMA journal_mode=DELETE")


@contextmanager
def _scratch(path: Path) -> Iterator[Path]:
    """A scratch file named after ``path`` in its folder, removed afterwards (with the
    journal files SQLite may have left beside it)."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        yield scratch
    finally:
        for end in ("", "-journal", "-wal", "-shm", ".lock"):
            Path(f"{scratch}{end}").unlink(missing_ok=True)


def _database_file(url: str) -> Path:
    database = sqlite_file(url)
    if database is None:
        raise BackupError(f"{url} is not an embedded SQLite database")
    return database


def backup_sqlite(url: str, destination: Path, *, overwrite: bool = False) -> Summary:
    """Copy the SQLite database at ``url`` to ``destination`` (safe while a server is using
    it); returns what the copy holds. BackupError when there is nothing to back up, or the
    destination exists and ``overwrite`` is false."""
    database = _database_file(url)
    if not database.is_file():
        raise BackupError(
            f"there is no database at {database} (DOUSHOUQI_DATA_DIR or "
            "DOUSHOUQI_DATABASE_URL names the site's)"
        )
    destination = destination.absolute()
    if destination.exists() and destination.resolve() == database.resolve():
        raise BackupError(f"{destination} is the database itself: back it up to another file")
    if destination.exists() and not overwrite:
        raise BackupError(f"{destination} exists (--force replaces it)")
    destination.parent.mkdir(parents=True, exist_ok=True)
    with _scratch(destination) as scratch:
        _copy(database, scratch)
        summary = _summary(scratch, database)
        os.replace(scratch, destination)
    return summary


def restore_sqlite(backup: Path, url: str) -> Restored:
    """Replace the SQLite database at ``url`` with ``backup`` (a file :func:`backup_sqlite`
    made, or any copy of a doushouqi database), upgraded to this doushouqi's schema if it is
    older. BackupError when the file is no doushouqi database, comes from a newer doushouqi,
    or a server is using the database."""
    database = _database_file(url)
    if not backup.is_file():
        raise BackupError(f"there is no file {backup}")
    if database.exists() and backup.resolve() == database.resolve():
        raise BackupError(f"{backup} is the database itself")
    chain, known = known_revisions()
    database.parent.mkdir(parents=True, exist_ok=True)
    with _scratch(database) as staged:
        # The checks and the upgrade run on a copy: the backup file is never changed.
        try:
            _copy(backup, staged)
        except sqlite3.DatabaseError as exc:  # "file is not a database"
            raise BackupError(f"{backup} is not a SQLite database ({exc})") from None
        revision = _summary(staged, backup).revision  # whole, and a doushouqi database
        if not set(revision.split("+")) <= known:
            raise BackupError(
                f"{backup} is at schema revision {revision!r}, which this doushouqi does not "
                f"know (its newest is {chain[-1]!r}): it was made by a newer doushouqi; "
                "restore it with that version"
            )
        try:
            lock = SqliteLock.acquire(database, exclusive=True)
        except DatabaseInUseError as exc:
            raise BackupError(str(exc)) from None
        try:
            staged_db = Database(f"sqlite:///{staged}")
            try:
                staged_db.migrate()
            finally:
                staged_db.close()
            with closing(_connect(staged)) as connection:
                connection.execute("PRAGMA journal_mode=DELETE")
            summary = _summary(staged, backup)
            kept = _keep(database)
            _replace(database, staged)
        finally:
            lock.release()
    return Restored(summary, revision if revision != summary.revision else None, kept)


def _keep(database: Path) -> Path | None:
    """Copy the database a restore is about to replace to ``<database>.before-restore-<time>``
    (None: there is none, or it is empty)."""
    if not database.is_file() or database.stat().st_size == 0:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = database.with_name(f"{database.name}.before-restore-{stamp}")
    _copy(database, kept)
    return kept


def _replace(database: Path, staged: Path) -> None:
    """Copy ``staged`` over ``database`` through SQLite, which first takes in whatever -wal a
    crashed server left (a file renamed over it would meet that stale -wal on the next open)."""
    # A short wait: the lock already rules out our servers, so a busy database is another
    # program's (a sqlite3 shell, say), and waiting for it would not help.
    with closing(_connect(database, timeout=5.0)) as target:
        try:
            # Checkpoints and drops the -wal; refused while any other program has it open.
            target.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.OperationalError as exc:
            raise BackupError(f"another program is using {database} ({exc})") from None
        with closing(_connect(staged)) as source:
            source.backup(target)
        problems = [row[0] for row in target.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:  # the disk failed under us: say so, the kept copy is intact
            raise BackupError(f"{database} is damaged after the restore: {problems[:5]}")


def postgres_commands(url: str, file: str) -> tuple[list[str], list[str]]:
    """The ``pg_dump`` and ``pg_restore`` command lines for a PostgreSQL database URL
    (SQLAlchemy's ``postgresql+psycopg://`` is libpq's ``postgresql://``). A password in the
    URL is left out, not printed: libpq takes it from ``PGPASSWORD`` or ``~/.pgpass``."""
    # URL.set() leaves out None values; the URL is a named tuple, so _replace clears one.
    plain = make_url(url)._replace(drivername="postgresql", password=None)
    shown = plain.render_as_string(hide_password=False)
    dump = ["pg_dump", "--format=custom", f"--file={file}", shown]
    restore = ["pg_restore", "--no-owner", "--single-transaction", f"--dbname={shown}", file]
    return dump, restore

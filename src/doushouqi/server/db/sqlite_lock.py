"""Who is using an embedded SQLite database: a lock file beside it, ``<database>.lock``.

Every process that opens a SQLite file through :class:`~doushouqi.server.db.database.Database`
(the server, ``doushouqi explorer rebuild``) holds a *shared* lock on it for as long as it has
the database open; ``doushouqi restore`` takes it *exclusively*. So a restore never replaces
the database under a running server (it is refused, saying so), and a server never starts on a
database that is being restored. Servers do not exclude one another: this lock is about
restores only.

The lock is flock(2)'s, held by the kernel for the open file: a process that dies, even by
SIGKILL, lets go of it, so there is no stale pid file to clean up after a crash. The file
itself stays (removing a lock file races with whoever opens it next). The AI's worker
processes are spawned, not forked, so they never inherit it. Where there is no flock
(Windows), no lock is taken, and the operator must stop the server before a restore, as the
command's help says.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

__all__ = ["DatabaseInUseError", "SqliteLock", "lock_path", "sqlite_file"]


class DatabaseInUseError(RuntimeError):
    """The lock is held the other way: a server has the database open (for a restore), or a
    restore is replacing it (for a server)."""


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL; None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class SqliteLock:
    """A held lock on a database's lock file; :meth:`release` (or closing the process) frees
    it."""

    def __init__(self, fd: int | None, path: Path) -> None:
        self._fd = fd
        self.path = path

    @classmethod
    def acquire(cls, database: Path, *, exclusive: bool) -> SqliteLock:
        """Take the lock without waiting; DatabaseInUseError where it is held the other way
        (or, for an exclusive lock, at all)."""
        path = lock_path(database)
        if sys.platform == "win32":  # no flock: see the module's docstring
            return cls(None, path)
        import fcntl

        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if exclusive:
                raise DatabaseInUseError(
                    f"a server is using {database} (it holds {path}): stop it first; "
                    "restore never replaces the database under a running server"
                ) from None
            raise DatabaseInUseError(
                f"{database} is being restored (doushouqi restore holds {path}); "
                "start again when the restore has finished"
            ) from None
        return cls(fd, path)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file frees its flock
            self._fd = None

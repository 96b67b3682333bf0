"""A real PostgreSQL server for the tests: initdb into a temporary directory, started on a free
loopback port, stopped afterwards. As root (CI), it runs as the ``postgres`` user, since
PostgreSQL refuses to run as root."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.ports import free_port

from doushouqi.server.db.database import Database

HOST = "127.0.0.1"


def find_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are (Debian keeps them out of PATH), or None."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


class PostgresServer:
    """A PostgreSQL server in its own data directory, which a test may stop (as a crash
    would: ``-m immediate``) and start again on the same port, with its data."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir = bindir
        self.root = root
        self.data, self.sockets = root / "data", root / "sockets"
        self.sockets.mkdir()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            for path in (root, self.sockets):
                os.chown(path, user.pw_uid, user.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self.running = False

    @property
    def url(self) -> str:
        """The URL of its ``postgres`` database (superuser, trust auth)."""
        return f"postgresql+psycopg://postgres@{HOST}:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def initdb(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.sockets} -c listen_addresses={HOST} -c max_connections=50"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        self.running = True

    def stop(self) -> None:
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"
        )
        self.running = False


@contextmanager
def stoppable_postgres() -> Iterator[PostgresServer]:
    """Start PostgreSQL; yield it (stopped and removed afterwards)."""
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed")
    server = PostgresServer(bindir, Path(tempfile.mkdtemp(prefix="doushouqi-pg-")))
    server.initdb()
    server.start()
    try:
        yield server
    finally:
        if server.running:
            server.stop()
        shutil.rmtree(server.root, ignore_errors=True)


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start PostgreSQL; yield the URL of its ``postgres`` database (superuser, trust auth)."""
    with stoppable_postgres() as server:
        yield server.url


def create_database(url: str, name: str) -> str:
    """A fresh, empty database beside ``url``'s; returns its URL."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"


def end_other_connections(db: Database) -> None:
    """End every connection to ``db``'s database but the one asking, as a restarted server
    would (the pool's, a writer's kept one, the moves' statements' one)."""
    rows = db.run_sync(
        lambda s: (
            s.connection()
            .exec_driver_sql(
                "SELECT pid FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            .all()
        )
    )
    for (pid,) in rows:
        db.run_sync(
            lambda s, p=int(pid): s.connection().exec_driver_sql(
                "SELECT pg_terminate_backend(%(pid)s)", {"pid": p}
            )
        )

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


@contextmanager
def postgres_server() -> Iterator[str]:
    """Start PostgreSQL; yield the URL of its ``postgres`` database (superuser, trust auth)."""
    bindir = find_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL is not installed")
    root = Path(tempfile.mkdtemp(prefix="doushouqi-pg-"))
    data, sockets = root / "data", root / "sockets"
    sockets.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in (root, sockets):
            os.chown(path, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    run(
        str(bindir / "initdb"),
        "-D",
        str(data),
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--no-sync",
    )
    options = f"-p {port} -k {sockets} -c listen_addresses={HOST} -c max_connections=50"
    run(
        str(bindir / "pg_ctl"),
        "-D",
        str(data),
        "-o",
        options,
        "-l",
        str(root / "log"),
        "-w",
        "-t",
        "60",
        "start",
    )
    try:
        yield f"postgresql+psycopg://postgres@{HOST}:{port}/postgres"
    finally:
        run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


def create_database(url: str, name: str) -> str:
    """A fresh, empty database beside ``url``'s; returns its URL."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + f"/{name}"

"""A real Redis for the tests: ``redis-server`` on a free loopback port, in a temporary
directory, without persistence (``--save "" --appendonly no``), stopped afterwards. It can be
killed and started again on the same port (a Redis restart loses everything it held)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.ports import free_port

HOST = "127.0.0.1"


def redis_server_path() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )


class RedisServer:
    def __init__(self, executable: str, root: Path) -> None:
        self.executable = executable
        self.root = root
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        assert self.process is None
        self.starts += 1
        log = (self.root / f"redis-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                self.executable,
                "--port",
                str(self.port),
                "--bind",
                HOST,
                "--dir",
                str(self.root),
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start (see {self.root})")
            time.sleep(0.01)

    def _answers(self) -> bool:
        try:
            with socket.create_connection((HOST, self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """Stop at once, as a crash would (nothing is saved: it saves nothing anyway)."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    executable = redis_server_path()
    if executable is None:
        raise RuntimeError("redis-server is not installed")
    root = Path(tempfile.mkdtemp(prefix="doushouqi-redis-"))
    server = RedisServer(executable, root)
    server.start()
    try:
        yield server
    finally:
        server.kill()
        shutil.rmtree(root, ignore_errors=True)

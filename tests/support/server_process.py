"""A test server in a process of its own, which a test kills and starts again.

The same app as ``tests/support/live.py`` (its test settings, the random AI, its own SQLite
file), but in a child process on a fixed port: ``kill`` ends it as a crash would (SIGKILL, no
goodbye to its sockets), and a new one started on the same data folder and port finds its
games in the database where they were. Run as ``python -m tests.support.server_process
DATA_DIR PORT`` (what ``ServerProcess`` does).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx
from tests.support.live import HOST, make_settings

ROOT = Path(__file__).resolve().parents[2]
START_S = 90  # a cold start imports the app on a busy machine


class ServerProcess:
    """``start`` runs the server and returns once it answers; ``kill`` ends it at once."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.data_dir = data_dir
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server-process.log"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.support.server_process",
                    str(self.data_dir),
                    str(self.port),
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + START_S
        while True:
            try:
                if httpx.get(f"{self.url}/api/lobby", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server did not start:\n{self.log_path.read_text()}")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.kill()


def main(argv: list[str]) -> None:
    import uvicorn

    from doushouqi.server.ai.pool import RandomAi
    from doushouqi.server.app import create_app
    from doushouqi.server.main import uvicorn_options

    data_dir, port = Path(argv[0]), int(argv[1])
    settings = make_settings(data_dir)
    app = create_app(settings, ai=RandomAi())
    uvicorn.run(app, host=HOST, port=port, log_level="warning", **uvicorn_options(settings))


if __name__ == "__main__":
    main(sys.argv[1:])

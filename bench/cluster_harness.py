"""The cluster the cluster benches run against, on this machine's loopback: PostgreSQL, Redis,
three ``doushouqi serve`` nodes sharing them, nginx in front (``deploy/nginx.conf``, rendered
by ``tests/support/nginx.py``) and ``doushouqi worker`` processes for the AI.

Shared by ``bench/cluster_load.py`` (the load and its comparison with one node) and
``bench/cluster_chaos.py`` (games played while nodes and Redis are killed). Every process
started here is recorded in :data:`STARTED` so that a bench can check, at its end, that none
is left running; :func:`running_cluster` stops them all when its block ends, on errors and
Ctrl-C too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import httpx
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from tests.support.nginx import nginx_path, write_config  # noqa: E402
from tests.support.postgres import create_database, postgres_server  # noqa: E402
from tests.support.redis_server import RedisServer, redis_server  # noqa: E402

from server_load import _free_port  # noqa: E402

NODES = 3
#: Engine processes: two ``doushouqi worker --processes 1`` in the cluster, an AI pool of two
#: in the single node.
ENGINES = 2
HOST = "127.0.0.1"
#: Every process this run started (PostgreSQL's and Redis's too), checked gone at the end.
STARTED: dict[int, str] = {}


class Processes:
    """The processes started here, stopped in reverse order (nodes before what they use)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started: list[tuple[str, subprocess.Popen[bytes], IO[bytes]]] = []

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        # Appended to: a node started again after a kill keeps its first life's log.
        log = (self.root / f"{name}.log").open("ab")
        # A session of its own: a Ctrl-C reaches this script, which then stops them in order.
        process = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.started.append((name, process, log))
        STARTED[process.pid] = name
        return process

    def process(self, name: str) -> subprocess.Popen[bytes]:
        """The latest process started under ``name``."""
        return next(p for n, p, _ in reversed(self.started) if n == name)

    def kill(self, name: str) -> None:
        """Kill ``name`` at once (SIGKILL, its whole process group: what it started too), as
        a crash of its machine would; it is forgotten here (started again: a new entry)."""
        for entry in list(self.started):
            entry_name, process, log = entry
            if entry_name != name:
                continue
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)
            log.close()
            self.started.remove(entry)

    def log_tail(self, name: str, lines: int = 20) -> str:
        path = self.root / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def exited(self) -> list[tuple[str, int]]:
        """The processes that stopped by themselves: (name, exit status)."""
        return [(n, p.returncode) for n, p, _ in self.started if p.poll() is not None]

    def check_alive(self) -> None:
        for name, code in self.exited():
            raise RuntimeError(f"{name} exited ({code}):\n{self.log_tail(name)}")

    def stop_all(self) -> None:
        for _, process, _ in reversed(self.started):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for _, process, log in reversed(self.started):
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
            log.close()
        self.started.clear()


def python_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "doushouqi", *args]


def bench_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOUSHOUQI_")}
    env.update(
        DOUSHOUQI_CREATE_RATE="1000000/60",
        DOUSHOUQI_LOGIN_RATE="1000000/60",
        # Part 1's players leave when it ends: their games must not end during Part 2.
        DOUSHOUQI_GRACE_PERIOD="3600",
    )
    env.update(extra)
    return env


def start_node(procs: Processes, name: str, env: dict[str, str], port: int | None = None) -> str:
    """Start the node ``name`` (on ``port``: a node started again after a kill keeps its
    address, as a restarted machine would); its URL."""
    port = port or _free_port()
    data = procs.root / name
    data.mkdir(exist_ok=True)
    command = python_command("serve", "--host", HOST, "--port", str(port), "--log-level", "warning")
    procs.start(name, command, {**env, "DOUSHOUQI_DATA_DIR": str(data)})
    return f"http://{HOST}:{port}"


def wait_ready(procs: Processes, urls: list[str], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    waiting = list(urls)
    while waiting:
        procs.check_alive()
        for url in list(waiting):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                    waiting.remove(url)
        if time.monotonic() > deadline:
            raise RuntimeError(f"not ready after {timeout:.0f} s: {waiting}")
        time.sleep(0.2)


def start_nginx(procs: Processes, node_urls: list[str]) -> str:
    """deploy/nginx.conf in front of the nodes, as ``tests/support/nginx.py`` renders it, with
    room for this bench's thousands of sockets."""
    executable = nginx_path()
    if executable is None:
        raise RuntimeError("nginx is not installed")
    root = procs.root / "nginx"
    root.mkdir()
    port = _free_port()
    node_ports = [urlsplit(u).port or 0 for u in node_urls]
    procs.start("nginx", [executable, *write_config(root, node_ports, port, 16384)], {})
    url = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 10
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return url
        procs.check_alive()
        if time.monotonic() > deadline:
            raise RuntimeError(f"nginx did not start: {(root / 'error.log').read_text()}")
        time.sleep(0.05)


def wait_workers(procs: Processes, redis_url: str, count: int, timeout: float) -> None:
    """Until ``count`` workers have loaded the engine and say they live (their heartbeat
    keys, see ``doushouqi.server.ai.jobs``)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    deadline = time.monotonic() + timeout
    try:
        while True:
            procs.check_alive()
            names = client.smembers("dsq:ai:workers")
            live = sum(bool(client.exists(f"dsq:ai:worker:{name}")) for name in names)
            if live >= count:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"{live} of {count} AI workers came up in {timeout:.0f} s")
            time.sleep(0.2)
    finally:
        client.close()


def postmaster_pid(database_url: str) -> int | None:
    port = urlsplit(database_url.replace("postgresql+psycopg", "postgresql")).port
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            argv = Path(entry.path, "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"postgres") and f"{port}".encode() in argv:
            return int(entry.name)
    return None


def alive(pid: int) -> bool:
    """Whether a process is still running (not gone, nor a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def tree_cpu(roots: list[int]) -> float:
    """User + system CPU seconds of these processes and all their descendants (Linux)."""
    children: dict[int, list[int]] = defaultdict(list)
    spent: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        pid = int(entry.name)
        children[int(fields[1])].append(pid)
        spent[pid] = (int(fields[11]) + int(fields[12])) / tick
    total, todo, seen = 0.0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += spent.get(pid, 0.0)
        todo.extend(children.get(pid, ()))
    return total


@dataclass
class Cluster:
    """A running cluster: what it is made of, and the means to kill and restart its parts."""

    database: str
    redis: RedisServer
    procs: Processes
    #: The environment every node was started with (a restarted node gets it again).
    env: dict[str, str]
    names: list[str]
    #: The nodes' own addresses, in the order of ``names``.
    nodes: list[str]
    front: str
    workers: list[subprocess.Popen[bytes]]

    def url_of(self, name: str) -> str:
        return self.nodes[self.names.index(name)]

    def restart_node(self, name: str) -> None:
        """Start ``name`` again on its own port (after :meth:`Processes.kill`); not waited
        for: its ``/readyz`` says when it serves."""
        port = urlsplit(self.url_of(name)).port
        start_node(self.procs, name, {**self.env, "DOUSHOUQI_NODE_NAME": name}, port)

    def restart_redis(self, down: float) -> None:
        """Kill redis-server, leave it down ``down`` seconds, start it on the same port: with
        no persistence it comes back empty (every lease and presence record lost)."""
        self.redis.kill()
        time.sleep(down)
        self.redis.start()
        assert self.redis.process is not None
        STARTED[self.redis.process.pid] = "redis-server"

    def pids(self) -> dict[str, list[int]]:
        """Process groups whose CPU is measured: name → root pids (as of now)."""
        postmaster = postmaster_pid(self.database)
        return {
            "nodes": [self.procs.process(n).pid for n in self.names],
            "workers": [w.pid for w in self.workers],
            "postgres": [postmaster] if postmaster else [],
            "redis": [self.redis.process.pid] if self.redis.process else [],
            "nginx": [self.procs.process("nginx").pid],
        }


@contextlib.contextmanager
def running_cluster(
    root: Path, setup_timeout: float, engines: int = ENGINES, **env: str
) -> Iterator[Cluster]:
    """Start PostgreSQL, Redis, :data:`NODES` nodes (with ``env`` added to their
    environment), ``engines`` AI workers and nginx; stop them all when the block ends."""
    with contextlib.ExitStack() as stack:
        database = create_database(stack.enter_context(postgres_server()), "jungle")
        redis_srv = stack.enter_context(redis_server())
        procs = Processes(root)
        stack.callback(procs.stop_all)
        node_env = bench_env(
            DOUSHOUQI_DATABASE_URL=database,
            DOUSHOUQI_REDIS_URL=redis_srv.url,
            DOUSHOUQI_TRUSTED_PROXIES=HOST,
            **env,
        )
        names = [f"node{i + 1}" for i in range(NODES)]
        # The first node migrates the new database alone: nodes migrating an empty database
        # at once collide (each tries to create alembic_version).
        nodes = [start_node(procs, names[0], {**node_env, "DOUSHOUQI_NODE_NAME": names[0]})]
        wait_ready(procs, nodes, setup_timeout)
        nodes += [start_node(procs, n, {**node_env, "DOUSHOUQI_NODE_NAME": n}) for n in names[1:]]
        workers = [
            procs.start(
                f"worker{i + 1}",
                python_command(
                    "worker", "--redis", redis_srv.url, "--processes", "1", "--log-level", "warning"
                ),
                bench_env(),
            )
            for i in range(engines)
        ]
        wait_ready(procs, nodes, setup_timeout)
        front = start_nginx(procs, nodes)
        if engines:
            wait_workers(procs, redis_srv.url, engines, setup_timeout)
        assert redis_srv.process is not None
        STARTED[redis_srv.process.pid] = "redis-server"
        if (postmaster := postmaster_pid(database)) is not None:
            STARTED[postmaster] = "postgres"
        yield Cluster(database, redis_srv, procs, node_env, names, nodes, front, workers)


async def post(http: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A set-up request, tried again when its connection broke (a node closes idle
    keep-alive connections after 5 s, and a request may race the close)."""
    for attempt in range(4):
        try:
            return await http.post(path, **kwargs)
        except httpx.TransportError:
            if attempt == 3:
                raise
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")

"""Server memory benchmark: what an idle live game and a connected socket cost, and whether
memory stays flat under steady play (issue 32).

    .venv/bin/python bench/server_memory.py                        # per game and per socket
    .venv/bin/python bench/server_memory.py --games 300
    .venv/bin/python bench/server_memory.py --soak                 # 30 minutes, 100 games
    .venv/bin/python bench/server_memory.py --soak --minutes 3 --games 50   # a short check

Starts ``doushouqi serve`` on a free loopback port with a fresh SQLite database, as
``bench/server_load.py`` does, but through this script, which starts ``tracemalloc`` in the
server first and answers on a loopback port of its own with the server's memory: its resident
set (RSS, from ``/proc``, less what tracemalloc itself holds) and the bytes Python has
allocated (``tracemalloc``), both after a full garbage collection.

**Per game and per socket** (the default): seats ``--games`` (N) online games, two guest
clients each, whose players make one move each and then sit idle (an untimed game waits for
ever); then N more; the difference between N and 2N games, divided by N, is what one idle
live game costs with its two players' sockets. Then N spectator sockets join the games and N
more: their difference is what one connected socket costs. A game on its own is the first
figure less two sockets.

**Soak** (``--soak``): ``--games`` games played for ``--minutes`` (30) by clients that move
every ``--think`` seconds (±50 %) and resign after ``--plies`` plies, each finished game
replaced by a new one (so games come and go, as they do on the site); the server's memory is
printed every ``--every`` seconds. The first ``--warmup`` minutes fill the caches and pools
and are not judged; after them, the memory at the end (the median of the last quarter of the
samples) must not exceed the memory at the start (the median of the first quarter) by more
than ``--tolerance`` MiB of RSS, or the run fails (exit status 1). The soak runs without
tracemalloc unless ``--tracemalloc`` is given (it slows every allocation).

**Where it goes** (``--top N``, per game and per socket): each measure also takes a
tracemalloc snapshot in the server, and the N source lines whose allocations grew most
between two measures are printed, per game or per socket (what the second N games, and the
second N spectator sockets, added), from the snapshots' totals by line. The probe's own
allocations are left out of those lines, but not out of the totals: with ``--top`` the
totals also hold the tables of lines it keeps and the RSS what the snapshots took (freed, not
given back), so read the totals from a run without it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

import websockets

from server_load import Bench, Seat, start_server

#: How this script is started as the server (``--serve-child``), and the port it answers on.
CHILD = "--serve-child"
PROBE_PORT_ENV = "DOUSHOUQI_BENCH_MEMORY_PORT"
#: How many lines of allocation growth each measure reports (``--top``; 0: none).
TOP_ENV = "DOUSHOUQI_BENCH_MEMORY_TOP"
MIB = 1024 * 1024


# ---------------------------------------------------------------------- in the server process


def _rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


#: The last measure's allocations by source line (``--top``): the next reports what grew since.
_last_lines: list[dict[str, tuple[int, int]]] = []


def _memory_now() -> dict[str, Any]:
    """The server's memory after a full collection (run on the probe's thread: the GIL keeps
    the event loop still while it runs)."""
    import tracemalloc

    gc.collect()
    tracing = tracemalloc.is_tracing()
    own = tracemalloc.get_tracemalloc_memory() if tracing else 0
    memory = {
        "rss": _rss_bytes() - own,
        "traced": tracemalloc.get_traced_memory()[0] if tracing else None,
        "objects": len(gc.get_objects()),
    }
    top = int(os.environ.get(TOP_ENV, "0"))
    if tracing and top > 0:
        # Only the totals by line are kept (a snapshot holds every block's trace: kept until
        # the next measure, it would be counted in it).
        snapshot = tracemalloc.take_snapshot()
        # This probe's own allocations (these totals, the snapshot's statistics) are left out.
        ignored = (__file__, tracemalloc.__file__)
        lines = {
            f"{s.traceback[0].filename}:{s.traceback[0].lineno}": (s.size, s.count)
            for s in snapshot.statistics("lineno")
            if s.traceback[0].filename not in ignored
        }
        del snapshot
        if _last_lines:
            before = _last_lines[0]
            grown = [
                (where, size - before.get(where, (0, 0))[0], count - before.get(where, (0, 0))[1])
                for where, (size, count) in lines.items()
            ]
            memory["top"] = sorted(grown, key=lambda g: -g[1])[:top]
        _last_lines[:] = [lines]
    return memory


def _serve_probe(port: int) -> None:
    """Answer each connection to ``port`` with one line of JSON: :func:`_memory_now`."""
    with socket.create_server(("127.0.0.1", port)) as server:
        while True:
            connection, _ = server.accept()
            with connection:
                connection.sendall(json.dumps(_memory_now()).encode() + b"\n")


def serve_child(argv: list[str]) -> int:
    """The server, with tracemalloc started first (when asked) and the memory probe running."""
    if os.environ.get("DOUSHOUQI_BENCH_TRACEMALLOC") == "1":
        import tracemalloc

        tracemalloc.start()
    port = int(os.environ[PROBE_PORT_ENV])
    threading.Thread(target=_serve_probe, args=(port,), daemon=True).start()
    from doushouqi.cli.main import main as doushouqi_main

    return doushouqi_main(argv)


# ---------------------------------------------------------------------- in the bench process


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def probe(port: int) -> dict[str, Any]:
    """The server's memory now (blocking: a few milliseconds, the collection included)."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        data = b""
        while not data.endswith(b"\n"):
            chunk = connection.recv(4096)
            if not chunk:
                break
            data += chunk
    return dict(json.loads(data))


class PacedSeat(Seat):
    """A client that plays ``--plies`` plies of a game and then, in a soak, resigns when it is
    to move (so that games end and new ones start); otherwise it sits idle."""

    async def connect(self, game_id: str, color: int) -> None:
        await super().connect(game_id, color)
        if color == 0:
            assert isinstance(self.bench, MemoryBench)
            self.bench.game_list.append(game_id)

    def on_turn(self, message: dict[str, Any]) -> None:
        bench = self.bench
        assert isinstance(bench, MemoryBench)
        ply = int(message.get("ply", 0))
        if ply < bench.args.plies:
            super().on_turn(message)
        elif message.get("to_move") == self.color and self.ws is not None:
            if bench.args.soak:
                # Kept as the seat's task, so that the run's end cancels it like a move.
                self.think_task = asyncio.create_task(self.send({"type": "resign"}))
            elif ply == bench.args.plies:
                bench.idle_games += 1


class MemoryBench(Bench):
    seat_type = PacedSeat

    def __init__(self, args: argparse.Namespace, url: str, pid: int, probe_port: int) -> None:
        super().__init__(args, url, pid)
        self.probe_port = probe_port
        #: Games that have played their plies and wait (each counted once, by its next mover).
        self.idle_games = 0
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.sockets: list[Any] = []
        #: Every game seated, in order.
        self.game_list: list[str] = []

    async def memory(self) -> dict[str, Any]:
        return await asyncio.to_thread(probe, self.probe_port)

    async def seat_games(self, count: int) -> None:
        """``count`` more games, each started and played to its idle point."""
        ready, barrier = asyncio.Event(), [0]
        target = self.idle_games + count
        saved, self.args.games = self.args.games, count
        for _ in range(count):
            self.tasks.append(asyncio.create_task(self.pair(ready, barrier, self.stop)))
            if len(self.tasks) % 20 == 0:
                await asyncio.sleep(0.05)  # stagger the set-up requests
        await asyncio.wait_for(ready.wait(), self.args.setup_timeout)
        self.args.games = saved
        deadline = time.monotonic() + self.args.setup_timeout
        while self.idle_games < target and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        if self.idle_games < target:
            raise SystemExit(f"only {self.idle_games} of {target} games reached their idle point")

    async def watch(self, game_ids: list[str]) -> None:
        """One spectator socket on each of ``game_ids`` (no cookie: a visitor)."""
        for game_id in game_ids:
            ws = await websockets.connect(self.ws_url + f"/ws/games/{game_id}", max_size=2**22)
            self.sockets.append(ws)

    async def settled_memory(self) -> dict[str, Any]:
        await asyncio.sleep(self.args.settle)
        return await self.memory()

    async def idle(self) -> None:
        n = self.args.games
        await self.seat_games(n)
        first = await self.settled_memory()
        await self.seat_games(n)
        second = await self.settled_memory()
        game_ids = self.game_list[:n]
        await self.watch(game_ids)
        watched = await self.settled_memory()
        await self.watch(game_ids)
        watched_twice = await self.settled_memory()
        self.stop.set()
        for ws in self.sockets:
            await ws.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.http.aclose()
        report_idle(n, first, second, watched, watched_twice)

    async def soak(self) -> bool:
        args = self.args
        ready, barrier = asyncio.Event(), [0]
        for _ in range(args.games):
            self.tasks.append(asyncio.create_task(self.pair(ready, barrier, self.stop)))
            if len(self.tasks) % 20 == 0:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(ready.wait(), args.setup_timeout)
        started = time.monotonic()
        end = started + args.minutes * 60
        self.stats.measuring = True
        samples: list[tuple[float, dict[str, Any]]] = []
        print(
            f"{args.games} games seated; playing {args.minutes:g} min "
            f"(think {args.think} s, resign after {args.plies} plies), memory every "
            f"{args.every:g} s; the first {args.warmup:g} min are not judged",
            flush=True,
        )
        print(
            f"{'min':>6} {'RSS MiB':>9} {'traced MiB':>11} {'objects':>9} {'moves':>8} "
            f"{'finished':>9} {'errors':>7}",
            flush=True,
        )
        while True:
            now = time.monotonic()
            memory = await self.memory()
            samples.append((now - started, memory))
            traced = memory["traced"]
            print(
                f"{(now - started) / 60:6.1f} {memory['rss'] / MIB:9.1f} "
                f"{'-' if traced is None else f'{traced / MIB:.1f}':>11} {memory['objects']:9d} "
                f"{self.stats.moves:8d} {self.stats.games_finished:9d} {self.stats.errors:7d}",
                flush=True,
            )
            if now >= end:
                break
            await asyncio.sleep(min(args.every, max(0.0, end - time.monotonic())))
        self.stats.measuring = False
        self.stop.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.http.aclose()
        return judge_soak(samples, args)


def report_idle(
    n: int,
    first: dict[str, Any],
    second: dict[str, Any],
    watched: dict[str, Any],
    watched_twice: dict[str, Any],
) -> None:
    def per(key: str, a: dict[str, Any], b: dict[str, Any]) -> float | None:
        if a[key] is None or b[key] is None:
            return None
        return (b[key] - a[key]) / n

    def kib(value: float | None) -> str:
        return "-" if value is None else f"{value / 1024:.1f} KiB"

    print("server memory (RSS less tracemalloc's own; traced: Python's allocations):")
    if second.get("top"):
        print("  (--top: the totals include the probe's own tables; read them without it)")
    for label, memory in (
        (f"{n} idle games", first),
        (f"{2 * n} idle games", second),
        (f"+ {n} spectator sockets", watched),
        (f"+ {2 * n} spectator sockets", watched_twice),
    ):
        traced = memory["traced"]
        print(
            f"  {label:26} RSS {memory['rss'] / MIB:7.1f} MiB   traced "
            f"{'-' if traced is None else f'{traced / MIB:.1f} MiB':>10}   "
            f"{memory['objects']} objects"
        )
    game_rss, game_traced = per("rss", first, second), per("traced", first, second)
    socket_rss = per("rss", watched, watched_twice)
    socket_traced = per("traced", watched, watched_twice)
    objects_game = per("objects", first, second)
    objects_socket = per("objects", watched, watched_twice)
    print(
        f"per idle live game with its 2 players' sockets: RSS {kib(game_rss)}, "
        f"traced {kib(game_traced)}, {objects_game:.0f} objects"
    )
    print(
        f"per connected socket (a spectator's):           RSS {kib(socket_rss)}, "
        f"traced {kib(socket_traced)}, {objects_socket:.0f} objects"
    )
    if game_traced is not None and socket_traced is not None:
        print(
            f"per idle live game, its sockets aside:          traced "
            f"{kib(game_traced - 2 * socket_traced)}"
        )
    for label, memory in (("a game with its 2 sockets", second), ("a socket", watched_twice)):
        if memory.get("top"):
            print(f"where the traced bytes of {label} grew most (per one, by source line):")
            for where, size, count in memory["top"]:
                print(f"  {size / n:9.0f} B  {count / n:6.1f} blocks  {_short(where)}")


def _short(path: str) -> str:
    """A source path from its package folder on (site-packages or the project's src)."""
    for marker in ("site-packages/", "/src/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def judge_soak(samples: list[tuple[float, dict[str, Any]]], args: argparse.Namespace) -> bool:
    """Whether memory stayed within ``--tolerance`` MiB after the warm-up (printed)."""
    judged = [(t, m) for t, m in samples if t >= args.warmup * 60]
    if len(judged) < 4:
        print(f"too few samples after the warm-up ({len(judged)}) to judge: run longer")
        return False
    quarter = max(1, len(judged) // 4)
    start = statistics.median(m["rss"] for _, m in judged[:quarter]) / MIB
    end = statistics.median(m["rss"] for _, m in judged[-quarter:]) / MIB
    peak = max(m["rss"] for _, m in judged) / MIB
    minutes = (judged[-1][0] - judged[0][0]) / 60
    growth = end - start
    print(
        f"RSS after the warm-up {start:.1f} MiB, at the end {end:.1f} MiB (medians of "
        f"{quarter} samples each), peak {peak:.1f} MiB: {growth:+.1f} MiB over {minutes:.0f} "
        f"min; tolerance {args.tolerance:g} MiB"
    )
    traced = [m["traced"] for _, m in judged if m["traced"] is not None]
    if len(traced) == len(judged):
        t_start = statistics.median(traced[:quarter]) / MIB
        t_end = statistics.median(traced[-quarter:]) / MIB
        print(f"traced after the warm-up {t_start:.1f} MiB, at the end {t_end:.1f} MiB")
    ok = growth <= args.tolerance
    print("memory flat: PASS" if ok else "memory grew beyond the tolerance: FAIL")
    return ok


async def run(args: argparse.Namespace, url: str, pid: int, probe_port: int) -> bool:
    bench = MemoryBench(args, url, pid, probe_port)
    if args.soak:
        return await bench.soak()
    await bench.idle()
    return True


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == CHILD:
        return serve_child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games (per game and socket: 200; soak: 100)")
    parser.add_argument("--soak", action="store_true", help="steady play, memory over time")
    parser.add_argument("--minutes", type=float, default=30.0, help="soak length (30)")
    parser.add_argument("--every", type=float, help="seconds between samples (soak: 60)")
    parser.add_argument("--warmup", type=float, help="minutes not judged (soak: 5)")
    parser.add_argument("--tolerance", type=float, default=16.0, help="MiB of RSS growth (16)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move (1)")
    parser.add_argument("--plies", type=int, help="plies per game (idle: 2, soak: 60)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before a measure")
    parser.add_argument("--tracemalloc", action="store_true", help="trace the soak's server")
    parser.add_argument("--setup-timeout", type=float, default=180.0)
    parser.add_argument(
        "--top", type=int, default=0, help="lines of allocation growth per game and socket"
    )
    args = parser.parse_args()
    soak = args.soak
    args.games = args.games or (100 if soak else 200)
    args.plies = args.plies or (60 if soak else 2)
    args.every = args.every or (60.0 if args.minutes >= 10 else max(5.0, args.minutes * 6))
    args.warmup = args.warmup if args.warmup is not None else min(5.0, args.minutes / 5)
    if not soak:
        args.think = min(args.think, 0.1)  # the first plies quickly: the games then sit idle
    if not 1 <= args.games <= 1000 or not 0 < args.minutes <= 24 * 60:
        parser.error("--games must be 1-1000 and --minutes up to a day")
    probe_port = _free_port()
    os.environ[PROBE_PORT_ENV] = str(probe_port)
    os.environ[TOP_ENV] = str(max(0, args.top))
    os.environ["DOUSHOUQI_BENCH_TRACEMALLOC"] = "1" if (args.tracemalloc or not soak) else "0"
    launcher = (os.path.abspath(__file__), CHILD)
    with tempfile.TemporaryDirectory(prefix="doushouqi-memory-") as data_dir:
        process, url = start_server(data_dir, launcher=launcher)
        try:
            ok = asyncio.run(run(args, url, process.pid, probe_port))
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except Exception:
                process.kill()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

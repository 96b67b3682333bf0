"""Cluster load benchmark: three server nodes behind nginx, beside one embedded node.

    .venv/bin/python bench/cluster_load.py                      # 1000 games, 100 vs AI, 30 s
    .venv/bin/python bench/cluster_load.py --games 50 --ai-games 10 --duration 10
    .venv/bin/python bench/cluster_load.py --chaos --games 20 --duration 40  # see below

Everything runs on this machine, on loopback, and stops by itself. It starts

* **the cluster**: PostgreSQL, Redis, three ``doushouqi serve`` nodes sharing them, nginx in
  front (``deploy/nginx.conf``, rendered by ``tests/support/nginx.py``) and two
  ``doushouqi worker`` processes (one engine process each) searching the AI's moves;
* then, once the cluster is stopped, **one embedded node**: ``doushouqi serve`` on SQLite,
  no Redis, with its in-process AI pool of two engine processes (as many as the cluster's
  workers).

Both get the same two loads, one after the other (``--duration`` seconds measured each, after
``--warmup``):

1. **Online games** (``--games``): two scripted guests a game, each moving a random legal
   move from the server's ``dests`` after ``--think`` seconds (±50 %), as
   ``bench/server_load.py`` does (its ``Seat`` plays here). In the cluster ``--direct-share``
   of the games (half by default; 0 for every socket through nginx, as deployed) have their
   players on two different nodes, connected to the nodes' own ports so that the
   split is certain (the game is created on Red's node, which owns it: Red's moves are
   played there, Blue's are forwarded to it through Redis and its events come back by
   pub/sub); the others go through nginx, which routes a game's sockets by the game (both
   players on one node, which the game's owner hands the game over to: docs/server.md,
   "Eighth round: affinity"; an older site file spread them round robin). Those are sorted
   after the start by where their sockets landed (read from Redis: the game's
   lease, and the presence records of nodes holding a socket to a game they do not own):
   *same-node* when both players are on the game's owner, else *cross-node*. Printed:
   moves/s and the move round trip (sending a move → its ``move_made``, sent only after the
   commit) at p50/p90/p99/max, for each kind of game.
2. **Games against level 10** (``--ai-games``), through nginx: the AI's reply time (the
   human's ``move_made`` → the AI's ``move_made``) at p50/p99, the ``ai_busy`` notices (the
   searches that got less time than they asked for, and what they got), and from every
   node's ``/metrics``, summed: ``doushouqi_ai_search_seconds``,
   ``doushouqi_ai_effort_reductions_total`` and ``doushouqi_ai_random_fallbacks_total``.

A table sets the cluster's figures beside the single node's at the end (``--single-scale``
scales the single node's loads down, which the table then says). The processes' CPU (each
with its children) is measured over the same windows; the client's event-loop lag says
whether the one client process kept up. Every process started here is stopped at the end,
on errors and Ctrl-C too.

``--chaos`` runs the chaos mode instead (``bench/cluster_chaos.py``, with options of its own):
online games on the same cluster while nodes are killed with -9, Redis restarts empty and
players' sockets are cut, on a schedule drawn from ``--seed``; it counts the acknowledged
moves the database lost, the moves refused as stale, the games stuck and the clock time
charged beyond the players' thinking. The processes are started by
``bench/cluster_harness.py`` for both modes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import shlex
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

import httpx
import redis.asyncio as aioredis
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from tests.support import nginx as nginx_support  # noqa: E402
from tests.support.nginx import nginx_path  # noqa: E402
from tests.support.postgres import find_bindir  # noqa: E402
from tests.support.redis_server import redis_server_path  # noqa: E402

from ai_load import AI_LEVEL, AiLoad  # noqa: E402
from cluster_figures import (  # noqa: E402
    Target,
    Window,
    delta,
    leases_lost,
    ms,
    pct,
    table,
)
from cluster_harness import (  # noqa: E402
    ENGINES,
    NODES,
    STARTED,
    Processes,
    alive,
    bench_env,
    post,
    running_cluster,
    start_node,
    wait_ready,
)
from cluster_seats import BenchSeat, close_sockets  # noqa: E402
from server_load import MAX_GAMES, Bench, Seat, Stats  # noqa: E402

MAX_AI_GAMES = 500
MAX_DURATION = 300.0

#: Part 1's kinds of game, in the order printed.
DIRECT_OWNER = "cross-node, direct ports: Red's moves (on the owner)"
DIRECT_FORWARDED = "cross-node, direct ports: Blue's moves (forwarded)"
NGINX_SAME = "same-node via nginx (both players on the owner)"
NGINX_CROSS = "cross-node via nginx (a player elsewhere)"
UNSORTED = "via nginx, not yet sorted"
SINGLE = "single node"
GROUPS = (DIRECT_OWNER, DIRECT_FORWARDED, NGINX_SAME, NGINX_CROSS, UNSORTED, SINGLE)
TOTALS = {
    "same-node games": (NGINX_SAME, SINGLE),
    "cross-node games": (DIRECT_OWNER, DIRECT_FORWARDED, NGINX_CROSS),
    "all games": GROUPS,
}


# ------------------------------------------------------------------------------ part 1


class Player(BenchSeat):
    """An online player; its socket goes to ``ws_url``, its games are created at
    ``create_url``."""

    def __init__(
        self, bench: OnlineLoad, cookie: str, ws_url: str, create_url: str, kind: str
    ) -> None:
        super().__init__(bench, cookie, ws_url)
        self.online = bench
        self.create_url = create_url
        self.kind = kind
        self.partner: Player | None = None

    def on_turn(self, message: dict[str, Any]) -> None:
        if message.get("type") == "game_started" and self.color == 0 and self.kind == "nginx":
            self.online.sort_later(self)
        super().on_turn(message)


class OnlineLoad(Bench):
    """Part 1: server_load's games, some on chosen nodes, the others through the front."""

    def __init__(self, args: argparse.Namespace, target: Target, games: int) -> None:
        super().__init__(args, target.front, None)
        self.target = target
        self.games = games
        self.groups = {name: Stats() for name in GROUPS}
        self.codes: Counter[str] = Counter()
        self.placed: Counter[str] = Counter()
        self.closed: Counter[str] = Counter()
        self.go = asyncio.Event()
        self.setup_failures: list[str] = []
        self.seats: list[Player] = []
        self.background: set[asyncio.Task[None]] = set()
        limits = httpx.Limits(max_connections=64)
        self.clients = {target.front: self.http}
        for url in target.nodes:
            if url not in self.clients:
                self.clients[url] = httpx.AsyncClient(
                    base_url=url, timeout=args.setup_timeout, limits=limits
                )
        self.redis = (
            aioredis.from_url(target.redis_url, decode_responses=True) if target.redis_url else None
        )

    def on_error(self, message: dict[str, Any]) -> None:
        self.stats.errors += 1
        self.codes[f"{message['type']}:{message.get('code')}"] += 1

    async def on_closed(self, seat: Seat, closed: websockets.ConnectionClosed) -> None:
        assert isinstance(seat, Player)
        await seat.reconnect(closed, self.closed)

    async def guest(self) -> str:
        response = await post(self.http, "/api/auth/guest")
        response.raise_for_status()
        return f"dsq_guest={response.cookies['dsq_guest']}"

    def seats_for(self, index: int, red: str, blue: str) -> tuple[Player, Player]:
        nodes, front = self.target.nodes, self.target.front
        ws = {url: "ws://" + urlsplit(url).netloc for url in [front, *nodes]}
        if self.redis is None:  # the single node
            seats = (
                Player(self, red, ws[front], front, "single"),
                Player(self, blue, ws[front], front, "single"),
            )
            seats[0].stats = seats[1].stats = self.groups[SINGLE]
        elif self.direct(index):  # Red on one node (which owns the game), Blue on the next
            placed = math.floor(index * self.args.direct_share)  # the direct games before it
            owner, other = nodes[placed % NODES], nodes[(placed + 1) % NODES]
            seats = (
                Player(self, red, ws[owner], owner, "direct"),
                Player(self, blue, ws[other], owner, "direct"),
            )
            seats[0].stats = self.groups[DIRECT_OWNER]
            seats[1].stats = self.groups[DIRECT_FORWARDED]
        else:
            seats = (
                Player(self, red, ws[front], front, "nginx"),
                Player(self, blue, ws[front], front, "nginx"),
            )
        seats[0].partner, seats[1].partner = seats[1], seats[0]
        return seats

    def direct(self, index: int) -> bool:
        """Whether game ``index`` is one of the ``--direct-share`` whose players connect to
        two nodes' own ports (spread evenly among the others)."""
        share: float = self.args.direct_share
        return math.floor((index + 1) * share) > math.floor(index * share)

    async def new_game(self, red: Seat, blue: Seat) -> None:
        assert isinstance(red, Player) and isinstance(blue, Player)
        response = await post(
            self.clients[red.create_url],
            "/api/games",
            json={"mode": "online", "color": "red", "public": False},
            headers={"Cookie": red.cookie},
        )
        response.raise_for_status()
        if red.kind == "nginx":
            red.stats = blue.stats = self.groups[UNSORTED]
        game_id = response.json()["id"]
        await red.connect(game_id, 0)
        await blue.connect(game_id, 1)
        await blue.send({"type": "join"})

    def sort_later(self, red: Player) -> None:
        task = asyncio.create_task(self._sort(red, red.game_id))
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _sort(self, red: Player, game_id: str) -> None:
        """Same-node or cross-node: the owner's lease, and which other nodes have sockets."""
        assert self.redis is not None and red.partner is not None
        await asyncio.sleep(0.1)  # presence is recorded as a socket subscribes
        owner = await self.redis.get(f"dsq:lease:{game_id}")
        records = await self.redis.hgetall(f"dsq:presence:{game_id}")
        elsewhere = any(node != owner and json.loads(text)["ids"] for node, text in records.items())
        if red.game_id == game_id:
            group = NGINX_CROSS if elsewhere else NGINX_SAME
            red.stats = red.partner.stats = self.groups[group]
            self.placed[group] += 1

    async def seat_pair(self, index: int, ready: asyncio.Event, stop: asyncio.Event) -> None:
        try:
            red, blue = self.seats_for(index, await self.guest(), await self.guest())
            self.seats += [red, blue]
            await self.new_game(red, blue)
        except Exception as exc:
            self.setup_failures.append(f"{type(exc).__name__}: {exc!r}")
            return
        finally:
            self.seated += 1
            if self.seated == self.games:
                ready.set()
        await asyncio.gather(self.listen(red, blue, stop), self.listen(blue, red, stop))

    async def run(self) -> dict[str, Any]:  # type: ignore[override]
        ready, stop = asyncio.Event(), asyncio.Event()
        self.seated = 0
        leases_before = leases_lost(self.target)
        started = time.perf_counter()
        tasks = []
        for index in range(self.games):
            tasks.append(asyncio.create_task(self.seat_pair(index, ready, stop)))
            if len(tasks) % 20 == 0:
                await asyncio.sleep(0.05)  # stagger the set-up requests
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), self.args.setup_timeout)
        seated = self.seated - len(self.setup_failures)
        print(
            f"  {seated} of {self.games} games seated in {time.perf_counter() - started:.1f} s"
            + (
                f" ({len(self.setup_failures)} failed, e.g. {self.setup_failures[0]})"
                if self.setup_failures
                else ""
            )
            + (" (the rest timed out, still seating)" if self.seated < self.games else "")
            + "; no move before all are seated; "
            + f"warming up {self.args.warmup:.0f} s, measuring {self.args.duration:.0f} s",
            flush=True,
        )
        self.go.set()
        await asyncio.sleep(self.args.warmup)
        window = Window(self.target)
        await window.open()
        for stats in self.groups.values():
            stats.measuring = True
        await asyncio.sleep(self.args.duration)
        for stats in self.groups.values():
            stats.measuring = False
        await window.close()
        self.leases = leases_lost(self.target) - leases_before
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self.background, return_exceptions=True)
        await close_sockets(self.seats)
        for client in self.clients.values():
            await client.aclose()
        if self.redis is not None:
            await self.redis.aclose()
        return self.report_online(window, seated)

    def report_online(self, window: Window, seated: int) -> dict[str, Any]:
        elapsed = window.elapsed
        print(f"  {'kind of game':54} {'moves':>6} {'moves/s':>8}   round trip (ms)")
        rows: dict[str, list[float]] = {}
        for name in GROUPS:
            rtts = self.groups[name].rtts
            if rtts:
                rows[name] = rtts
                print(f"  {name:54} {len(rtts):6} {len(rtts) / elapsed:8.0f}   {ms(rtts)}")
        for name, members in TOTALS.items():
            rtts = [r for m in members for r in self.groups[m].rtts]
            rows[name] = rtts
            if rtts:
                print(f"  {name:54} {len(rtts):6} {len(rtts) / elapsed:8.0f}   {ms(rtts)}")
        if self.placed:
            print(
                "  games through nginx, by where their sockets landed: "
                + ", ".join(f"{n} {c}" for n, c in sorted(self.placed.items()))
            )
        every = rows["all games"]
        if every:
            p99 = pct(every, 99) * 1000
            verdict = "met" if p99 < 100 else "NOT met"
            print(f"  target p99 < 100 ms: {verdict} (p99 {p99:.1f} ms)")
        print(f"  games finished     {self.stats.games_finished} (each replaced by a new one)")
        codes = ", ".join(f"{c} {n}" for c, n in self.codes.most_common()) or "none"
        print(f"  errors             {self.stats.errors} ({codes})")
        closed = ", ".join(f"{c}: {n}" for c, n in self.closed.most_common()) or "none"
        print(f"  closed by server   {closed} (reconnected)")
        print(f"  leases lost        {self.leases} (node logs, the whole part)")
        server_moves = delta(window.after, window.before, "doushouqi_moves_total")
        print(f"  server moves       {server_moves:.0f} (/metrics, all nodes)")
        print(f"  CPU (cores)        {window.cpu_line()}")
        if server_moves:
            print(f"  CPU a move         {window.per_move_line(server_moves / elapsed)}")
        for pid in self.target.sampled:
            print(f"  threads of {pid:<7} {window.threads_line(pid)} (cores)")
        print(f"  client loop lag    {window.lag_line()}")
        print(f"  load average       {window.load:.2f} on {os.cpu_count()} cores", flush=True)
        return {
            "games": seated,
            "moves": len(every),
            "moves/s": len(every) / elapsed,
            "rows": rows,
            "errors": self.stats.errors,
            "closed": sum(v for k, v in self.closed.items() if k != "reconnect failed"),
            "leases": self.leases,
            "window": window,
        }


# ------------------------------------------------------------------------------ settings


async def run_parts(args: argparse.Namespace, target: Target, scale: float) -> dict[str, Any]:
    games = max(1, round(args.games * scale))
    ai_games = round(args.ai_games * scale)
    results: dict[str, Any] = {}
    print(f"\n[{target.label}] Part 1: {games} online games", flush=True)
    results["online"] = await OnlineLoad(args, target, games).run()
    await asyncio.sleep(2)  # the players' departures settle
    if ai_games:
        print(f"\n[{target.label}] Part 2: {ai_games} games against level {AI_LEVEL}", flush=True)
        results["ai"] = await AiLoad(args, target, ai_games).run()
    return results


def games_per_worker(args: argparse.Namespace) -> str:
    """Admission control admits ``engines × this`` games against the AI per node: raised so
    that this bench's games are all admitted (its refusals are still counted)."""
    return str(max(20, math.ceil(args.ai_games / ENGINES) + 1))


def run_cluster(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    began = time.perf_counter()
    sampler: dict[str, str] = {}
    if args.cpu_profile:
        # Each node writes its own file: the sampler puts the node's name in for {node}.
        path = [str(Path(__file__).parent / "cpu_sampler"), os.environ.get("PYTHONPATH", "")]
        sampler = {
            "PYTHONPATH": os.pathsep.join(p for p in reversed(path) if p),
            "DOUSHOUQI_CPU_SAMPLES": f"{args.cpu_profile.resolve()}.{{node}}",
        }
    gather: dict[str, str] = {}
    if args.commit_gather_ms is not None:  # the nodes' own default otherwise
        gather["DOUSHOUQI_COMMIT_GATHER_MS"] = str(args.commit_gather_ms)
    # No AI games: no workers (their engines' start-up took two minutes of a busy machine).
    engines = ENGINES if args.ai_games else 0
    with running_cluster(
        root,
        args.setup_timeout,
        engines,
        DOUSHOUQI_AI_GAMES_PER_WORKER=games_per_worker(args),
        **sampler,
        **gather,
    ) as cluster:
        print(
            f"\ncluster up in {time.perf_counter() - began:.1f} s: nodes "
            + " ".join(cluster.nodes)
            + f", nginx {cluster.front}, Redis {cluster.redis.url}, PostgreSQL, {engines} workers",
            flush=True,
        )
        logs = [root / f"{name}.log" for name in cluster.names]
        pids = cluster.pids()
        target = Target(
            "cluster",
            cluster.front,
            cluster.nodes,
            cluster.redis.url,
            pids,
            logs,
            sampled=tuple(cluster.procs.process(n).pid for n in cluster.names)
            if args.cpu_profile
            else (),
        )
        results = asyncio.run(run_parts(args, target, 1.0))
        cluster.procs.check_alive()
    return results


def run_single(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    procs = Processes(root)
    try:
        began = time.perf_counter()
        env = bench_env(
            DOUSHOUQI_AI_WORKERS=str(ENGINES),
            DOUSHOUQI_AI_GAMES_PER_WORKER=games_per_worker(args),
        )
        url = start_node(procs, "single", env)
        wait_ready(procs, [url], args.setup_timeout)
        print(
            f"\nsingle node up in {time.perf_counter() - began:.1f} s: {url} "
            f"(SQLite, {ENGINES} in-process AI workers)",
            flush=True,
        )
        pids = {"node": [procs.started[0][1].pid]}
        target = Target("single node", url, [url], None, pids, [procs.root / "single.log"])
        results = asyncio.run(run_parts(args, target, args.single_scale))
        procs.check_alive()
        return results
    finally:
        procs.stop_all()


# ------------------------------------------------------------------------------ main


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops everything started here, as Ctrl-C does


@contextlib.contextmanager
def _uvloop() -> Iterator[None]:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    yield


def main() -> int:
    if "--chaos" in sys.argv[1:]:
        # The chaos mode has options of its own (bench/cluster_chaos.py --help lists them).
        import cluster_chaos

        return cluster_chaos.main([a for a in sys.argv[1:] if a != "--chaos"])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--chaos",
        action="store_true",
        help="games played while nodes are killed and Redis restarts, moves lost and games "
        "stuck counted (bench/cluster_chaos.py; --chaos --help for its options)",
    )
    parser.add_argument("--games", type=int, default=1000, help="Part 1: online games (1000)")
    parser.add_argument("--ai-games", type=int, default=100, help="Part 2: games vs level 10")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured a part")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (5)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move (1)")
    parser.add_argument(
        "--setup-timeout", type=float, default=300.0, help="seconds to seat the games (300)"
    )
    parser.add_argument(
        "--single-scale",
        type=float,
        default=1.0,
        help="the single node's loads as a fraction of the cluster's (1: the same)",
    )
    parser.add_argument(
        "--direct-share",
        type=float,
        default=0.5,
        help="Part 1 in the cluster: the share of games whose players connect to two nodes' "
        "own ports (0.5); 0: every socket through nginx, as in a real deployment",
    )
    parser.add_argument(
        "--commit-gather-ms",
        type=float,
        help="the cluster nodes' DOUSHOUQI_COMMIT_GATHER_MS (their default, 8, when not given): "
        "how long a busy node's first write waits for more moves to join its statement",
    )
    parser.add_argument(
        "--nginx-site",
        type=Path,
        default=None,
        help="the nginx site file to run (deploy/nginx.conf; another version's, to compare)",
    )
    parser.add_argument(
        "--cluster-only",
        action="store_true",
        help="skip the single node (side-by-side runs of the cluster: half the time)",
    )
    parser.add_argument(
        "--cpu-profile",
        type=Path,
        default=None,
        metavar="FILE",
        help="sample each cluster node's CPU over Part 1's measured window (bench/cpu_sampler) "
        "into FILE.node1, FILE.node2, ... and print each node's cores by thread; summed up by "
        "bench/cpu_profile_report.py",
    )
    args = parser.parse_args()
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games must be 1-{MAX_GAMES}")
    if not 0 <= args.ai_games <= MAX_AI_GAMES:
        parser.error(f"--ai-games must be 0-{MAX_AI_GAMES}")
    if not 0 < args.duration <= MAX_DURATION or not 0 <= args.warmup <= 60:
        parser.error(f"--duration must be 0-{MAX_DURATION:.0f} s and --warmup 0-60 s")
    if not 0.05 <= args.think <= 10 or not 1 <= args.setup_timeout <= 600:
        parser.error("--think must be 0.05-10 s and --setup-timeout 1-600 s")
    if not 0 < args.single_scale <= 1:
        parser.error("--single-scale must be in (0, 1]")
    if not 0 <= args.direct_share <= 1:
        parser.error("--direct-share must be in [0, 1]")
    if args.nginx_site is not None:
        if not args.nginx_site.is_file():
            parser.error(f"--nginx-site: no such file {args.nginx_site}")
        nginx_support.SITE = args.nginx_site.resolve()
    missing = [
        what
        for what, found in (
            ("PostgreSQL", find_bindir()),
            ("redis-server", redis_server_path()),
            ("nginx", nginx_path()),
        )
        if found is None
    ]
    if missing:
        parser.error(f"not installed: {', '.join(missing)}")
    signal.signal(signal.SIGTERM, _terminate)
    random.seed()
    print(f"command: {shlex.join([os.path.relpath(sys.executable), *sys.argv])}")
    print(
        f"started {time.strftime('%Y-%m-%d %H:%M:%S')}; {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}; games {args.games}, vs AI {args.ai_games}, "
        f"think {args.think} s ±50 %, warm-up {args.warmup:g} s, measured {args.duration:g} s "
        f"a part; single node at {args.single_scale:g}× the load; AI admission "
        f"{games_per_worker(args)} games per engine",
        flush=True,
    )
    began = time.perf_counter()
    with _uvloop(), tempfile.TemporaryDirectory(prefix="doushouqi-cluster-load-") as tmp:
        root = Path(tmp)
        (root / "cluster").mkdir()
        (root / "single").mkdir()
        cluster = run_cluster(args, root / "cluster")
        single = {} if args.cluster_only else run_single(args, root / "single")
    if single:
        table(cluster, single, args.single_scale, AI_LEVEL)
    left = {pid: name for pid, name in STARTED.items() if alive(pid)}
    print(
        f"\ntotal {time.perf_counter() - began:.0f} s; processes started: {len(STARTED)}, left "
        f"running: {left or 'none'}"
    )
    return 0 if not left else 1


if __name__ == "__main__":
    sys.exit(main())

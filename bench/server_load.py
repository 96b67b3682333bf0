"""Server load benchmark: N concurrent online games played by scripted websocket clients.

    .venv/bin/python bench/server_load.py                       # 500 games, 30 s
    .venv/bin/python bench/server_load.py --games 100 --duration 10 --think 0.5
    .venv/bin/python bench/server_load.py --url http://127.0.0.1:8000  # a running server
    .venv/bin/python bench/server_load.py --compare before=/tmp/main/src --compare after=src \
        --rounds 3 --games 400      # two versions of the code, side by side, in turn
    .venv/bin/python bench/server_load.py --compare before=/tmp/main/src --compare after=src \
        --rounds 3 --games 400 --together   # both at the same time, three times

Starts ``doushouqi serve`` on a free loopback port with a fresh SQLite database (unless
``--url`` names a server on this machine), seats two guest clients in each of ``--games``
online games, and lets them play: each client, when it is to move, waits ``--think`` seconds
(±50 %, so moves do not arrive in lockstep), then sends a random legal move taken from the
server's ``dests`` (the clients know no rules). A finished game is replaced by a new one.

Printed: games, moves played, moves/s, and the move round trip — from sending a move to
receiving its ``move_made`` event, which the server sends only after the move is committed
to the database — at p50 / p90 / p99 / max. Everything stays on loopback and stops by itself
after ``--duration`` seconds (plus set-up, itself bounded by ``--setup-timeout``).

``--compare NAME=DIR`` (twice or more) measures several versions of the server's code in one
invocation, for a change's before and after on a machine whose other work comes and goes: the
server is started from each ``DIR`` in turn (``PYTHONPATH=DIR``; e.g. ``git archive main src``
unpacked somewhere as the "before"), ``--rounds`` times round, each run on a fresh database,
and a table at the end gives each version's median over its runs. CPU per move is the figure
to trust on a busy machine; the round trip moves with whatever else runs.

With ``--together`` each round runs every version **at the same time** (a bench process and a
server each), so that whatever the machine does meanwhile meets them alike: this machine's
speed drifts by more between runs one after the other than many changes save (docs/server.md,
fourteenth round). Each version's CPU a move is then higher than alone (they share the cores),
and so is its round trip; the difference between them is the figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

MAX_GAMES = 2000
MAX_DURATION = 600.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    moves: int = 0
    games_finished: int = 0
    errors: int = 0
    measuring: bool = False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    data_dir: str,
    source: str | None = None,
    profile: str | None = None,
    launcher: tuple[str, ...] = ("-m", "doushouqi.cli.main"),
    cpu_samples: str | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a fresh SQLite database in ``data_dir``, from the code in ``source`` (a
    folder holding the ``doushouqi`` package) when given, under cProfile writing to
    ``profile`` when given. ``launcher`` is what the interpreter runs, given ``serve`` and its
    options (``bench/server_memory.py`` runs its own, which reports the server's memory).
    ``cpu_samples``: a file for ``bench/cpu_sampler``'s stacks (started and stopped by
    signals: :class:`Bench` samples the measured window)."""
    port = _free_port()
    env = {
        **os.environ,
        "DOUSHOUQI_DATA_DIR": data_dir,
        "DOUSHOUQI_CREATE_RATE": "1000000/60",
        "DOUSHOUQI_LOGIN_RATE": "1000000/60",
    }
    env.pop("DOUSHOUQI_DATABASE_URL", None)
    if source is not None:
        env["PYTHONPATH"] = os.path.abspath(source)
    if cpu_samples is not None:
        env["DOUSHOUQI_CPU_SAMPLES"] = os.path.abspath(cpu_samples)
        # After the code measured, so that its own path still comes first.
        paths = [env.get("PYTHONPATH"), os.path.join(os.path.dirname(__file__), "cpu_sampler")]
        env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    command = [
        sys.executable,
        *profiler,
        *launcher,
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/lobby", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


class Seat:
    """One client: a guest at one colour of the current game."""

    def __init__(self, bench: Bench, cookie: str, ws_url: str | None = None) -> None:
        self.bench = bench
        self.cookie = cookie
        #: Where its sockets go (the bench's server unless given) and where its moves count.
        self.ws_url = ws_url or bench.ws_url
        self.stats = bench.stats
        self.ws: Any = None
        self.color = -1
        self.sent_at: float | None = None
        self.sent_move: str | None = None
        self.think_task: asyncio.Task[None] | None = None
        # Moves carry an id, as the site's client sends them: each is then answered with an
        # ack besides its event (a third frame a move). Off: the earlier rounds' bench.
        self.move_ids = not getattr(bench.args, "no_move_ids", False)
        self.sent = 0
        self.id_prefix = f"{random.getrandbits(48):012x}-"  # ids are unique within a game

    async def connect(self, game_id: str, color: int) -> None:
        if self.ws is not None:
            await self.ws.close()
        self.color = color
        self.sent_at = self.sent_move = None
        if self.think_task is not None:  # a move thought over for the game before: not this one's
            self.think_task.cancel()
        url = self.ws_url + f"/ws/games/{game_id}"
        self.ws = await websockets.connect(
            url,
            additional_headers={"Cookie": self.cookie},
            max_size=2**22,
            open_timeout=self.bench.args.setup_timeout,
        )

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    def on_turn(self, message: dict[str, Any]) -> None:
        idle = self.think_task is None or self.think_task.done()
        if message.get("to_move") == self.color and message.get("dests") and idle:
            self.think_task = asyncio.create_task(self.think(message["dests"]))

    async def think(self, dests: dict[str, list[str]]) -> None:
        think = self.bench.args.think
        await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
        origin = random.choice(sorted(dests))
        text = origin + random.choice(dests[origin])
        self.sent_move, self.sent_at = text, time.perf_counter()
        message = {"type": "move", "move": text}
        if self.move_ids:
            self.sent += 1
            message["id"] = f"{self.id_prefix}{self.sent}"
        await self.send(message)

    def on_game_event(self, message: dict[str, Any]) -> bool:
        """Play on from a move, a turn's start or the game's state (on connecting); False for
        any other message, which the bench's own loop reads."""
        kind = message["type"]
        if kind == "move_made":
            self.on_move(message)
        elif kind in ("game_started", "timeout_passed", "takeback_applied"):
            self.on_turn(message)
        elif kind == "state":
            self.on_turn({**message["game"], "to_move": message["game"]["turn"]})
        else:
            return False
        return True

    def on_move(self, message: dict[str, Any]) -> None:
        stats = self.stats
        if message["color"] == self.color and message["move"] == self.sent_move:
            if self.sent_at is not None and stats.measuring:
                stats.rtts.append(time.perf_counter() - self.sent_at)
                stats.moves += 1
            self.sent_at = self.sent_move = None
        self.on_turn(message)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), to report the server's cost per move."""
    split = cpu_split(pid)
    return None if split is None else split[0] + split[1]


def cpu_split(pid: int) -> tuple[float, float] | None:
    """User and system CPU seconds of a process (Linux): the system part is the kernel's
    socket work (on loopback it includes the receiving side's TCP processing)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


class Bench:
    #: The clients it seats (a subclass may play differently).
    seat_type: type[Seat] = Seat

    def __init__(self, args: argparse.Namespace, url: str, server_pid: int | None) -> None:
        self.server_pid = server_pid
        self.args = args
        self.url = url
        self.ws_url = "ws://" + urlsplit(url).netloc
        self.stats = Stats()
        #: The server's system CPU seconds while measured (None: not known).
        self.system_cpu: float | None = None
        self.http = httpx.AsyncClient(
            base_url=url, timeout=args.setup_timeout, limits=httpx.Limits(max_connections=64)
        )

    async def guest(self) -> str:
        response = await self.http.post("/api/auth/guest")
        response.raise_for_status()
        return f"dsq_guest={response.cookies['dsq_guest']}"

    async def new_game(self, red: Seat, blue: Seat) -> None:
        response = await self.http.post(
            "/api/games",
            json={"mode": "online", "color": "red", "public": False},
            headers={"Cookie": red.cookie},
        )
        response.raise_for_status()
        game_id = response.json()["id"]
        await red.connect(game_id, 0)
        await blue.connect(game_id, 1)
        await blue.send({"type": "join"})

    async def listen(self, seat: Seat, partner: Seat, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                raw = await seat.ws.recv()
            except websockets.ConnectionClosed as closed:
                if stop.is_set():
                    return
                await self.on_closed(seat, closed)
                continue
            message = json.loads(raw)
            if seat.on_game_event(message):
                continue
            kind = message["type"]
            if kind in ("rejected", "error"):
                self.on_error(message)
            elif kind == "game_finished" and seat.color == 0:
                self.stats.games_finished += 1
                await self.new_game(seat, partner)

    def on_error(self, message: dict[str, Any]) -> None:
        self.stats.errors += 1

    async def on_closed(self, seat: Seat, closed: websockets.ConnectionClosed) -> None:
        await asyncio.sleep(0.05)  # replaced by the next game's connection

    async def pair(self, ready: asyncio.Event, barrier: list[int], stop: asyncio.Event) -> None:
        for attempt in range(3):
            try:
                red = self.seat_type(self, await self.guest())
                blue = self.seat_type(self, await self.guest())
                await self.new_game(red, blue)
                break
            except (httpx.HTTPError, OSError, websockets.WebSocketException):
                # A loaded server may drop a kept-alive connection as it is reused: again.
                if attempt == 2:
                    raise
                await asyncio.sleep(0.5)
        barrier[0] += 1
        if barrier[0] == self.args.games:
            ready.set()
        await asyncio.gather(self.listen(red, blue, stop), self.listen(blue, red, stop))
        for seat in (red, blue):
            if seat.think_task is not None:
                seat.think_task.cancel()
            await seat.ws.close()

    async def run(self) -> dict[str, float]:
        ready, stop = asyncio.Event(), asyncio.Event()
        barrier = [0]
        started = time.perf_counter()
        tasks = []
        for _ in range(self.args.games):
            tasks.append(asyncio.create_task(self.pair(ready, barrier, stop)))
            if len(tasks) % 20 == 0:
                await asyncio.sleep(0.05)  # stagger the set-up requests
        await asyncio.wait_for(ready.wait(), self.args.setup_timeout)
        print(
            f"{self.args.games} games seated in {time.perf_counter() - started:.1f} s; "
            f"warming up {self.args.warmup:.0f} s, measuring {self.args.duration:.0f} s",
            flush=True,
        )
        await asyncio.sleep(self.args.warmup)
        self.stats.measuring = True
        measured_from = time.perf_counter()
        server_cpu = cpu_seconds(self.server_pid) if self.server_pid else None
        split_before = cpu_split(self.server_pid) if self.server_pid else None
        client_cpu = time.process_time()
        sampled = bool(self.args.cpu_profile and self.server_pid)
        if sampled:
            os.kill(self.server_pid, signal.SIGUSR1)  # bench/cpu_sampler: start
        await asyncio.sleep(self.args.duration)
        if sampled:
            os.kill(self.server_pid, signal.SIGUSR2)  # stop, and write the stacks
        self.stats.measuring = False
        elapsed = time.perf_counter() - measured_from
        client_cpu = time.process_time() - client_cpu
        if server_cpu is not None and self.server_pid:
            server_cpu = (cpu_seconds(self.server_pid) or server_cpu) - server_cpu
        split_after = cpu_split(self.server_pid) if self.server_pid else None
        if split_before is not None and split_after is not None:
            self.system_cpu = split_after[1] - split_before[1]
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.http.aclose()
        return self.report(elapsed, server_cpu, client_cpu)

    def report(
        self, elapsed: float, server_cpu: float | None, client_cpu: float
    ) -> dict[str, float]:
        """Print the figures; return them (for ``--compare``'s table)."""
        rtts = sorted(self.stats.rtts)
        if not rtts:
            # Still worth a line: with a --think longer than the run, what the server does
            # per second for its games and sockets alone (clocks, pings, presence).
            print("no moves measured")
            if server_cpu is not None:
                share = server_cpu / elapsed
                print(f"server CPU         {server_cpu:.2f} s = {share:.1%} of a core")
            return {}

        def pct(p: float) -> float:
            return rtts[min(len(rtts) - 1, int(p / 100 * len(rtts)))] * 1000

        print(
            f"concurrent games   {self.args.games}  ({2 * self.args.games} websocket clients, "
            f"think {self.args.think} s ±50 %)"
        )
        print(
            f"moves              {self.stats.moves} in {elapsed:.1f} s "
            f"= {self.stats.moves / elapsed:.0f} moves/s"
        )
        print(f"games finished     {self.stats.games_finished} (each replaced by a new one)")
        print(
            f"round trip (ms)    p50 {pct(50):.1f}  p90 {pct(90):.1f}  p99 {pct(99):.1f}  "
            f"max {rtts[-1] * 1000:.1f}  mean {statistics.fmean(rtts) * 1000:.1f}"
        )
        print(f"errors             {self.stats.errors}")
        moves = max(1, self.stats.moves)
        if server_cpu is not None:
            print(
                f"server CPU         {server_cpu:.1f} s = {server_cpu / elapsed:.0%} of a core, "
                f"{server_cpu / moves * 1000:.2f} ms per move"
            )
        system = self.system_cpu
        if server_cpu is not None and system is not None:
            print(
                f"  of which system  {system:.1f} s = {system / moves * 1000:.2f} ms per move "
                "(the kernel: socket reads and writes)"
            )
        print(
            f"client CPU         {client_cpu:.1f} s = {client_cpu / elapsed:.0%} of a core, "
            f"{client_cpu / moves * 1000:.2f} ms per move"
        )
        load = os.getloadavg()[0]
        print(f"load average       {load:.2f} on {os.cpu_count()} cores (other work skews latency)")
        cpu = math.nan if server_cpu is None else server_cpu / moves * 1000
        return {
            "moves/s": self.stats.moves / elapsed,
            "p50 ms": pct(50),
            "p99 ms": pct(99),
            "max ms": rtts[-1] * 1000,
            "CPU ms/move": cpu,
            "cores": math.nan if server_cpu is None else server_cpu / elapsed,
            "sys ms/move": math.nan if system is None else system / moves * 1000,
            "errors": self.stats.errors,
            "load": load,
        }


def measure(args: argparse.Namespace, source: str | None, run: str = "") -> dict[str, float]:
    """One run against a server of its own (from ``source``), or against ``--url``; ``run``
    names it in the ``--cpu-profile`` file's name when several are measured."""
    process = None
    with tempfile.TemporaryDirectory(prefix="doushouqi-bench-") as data_dir:
        if args.url:
            url = args.url.rstrip("/")
        else:
            samples = f"{args.cpu_profile}{run}" if args.cpu_profile else None
            process, url = start_server(data_dir, source, args.profile, cpu_samples=samples)
        try:
            pid = None if process is None else process.pid
            return asyncio.run(Bench(args, url, pid).run())
        finally:
            if process is not None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()


def compare(args: argparse.Namespace, sources: dict[str, str]) -> None:
    """Each version ``--rounds`` times, in turn (a, b, a, b: what else the machine does falls
    on both alike) or all at once (``--together``), then each figure's median per version."""
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sources}
    for round_ in range(args.rounds):
        if args.together:
            print(f"\n--- round {round_ + 1} of {args.rounds}, all at once", flush=True)
            for name, result in measure_together(sources, round_ + 1).items():
                runs[name].append(result)
            continue
        for name, source in sources.items():
            print(f"\n--- {name} ({source}), round {round_ + 1} of {args.rounds}", flush=True)
            runs[name].append(measure(args, source, f".{name}.{round_ + 1}"))
    keys = (
        "moves/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "CPU ms/move",
        "sys ms/move",
        "cores",
        "errors",
        "load",
    )
    print(f"\nmedians of {args.rounds} runs each, {args.games} games:")
    print(f"  {'':12}" + "".join(f"{k:>13}" for k in keys))
    for name, results in runs.items():
        done = [r for r in results if r]
        cells = [statistics.median(r[k] for r in done) if done else math.nan for k in keys]
        print(f"  {name:12}" + "".join(f"{c:13.2f}" for c in cells))
    for name, results in runs.items():
        shown = ", ".join(f"{r.get('CPU ms/move', math.nan):.2f}" for r in results)
        print(f"  {name}: CPU ms/move per run {shown}")


def measure_together(sources: dict[str, str], round_: int) -> dict[str, dict[str, float]]:
    """One run of each version at the same time: this bench once a version (its own client
    process, its own server), its figures handed back as JSON."""
    shared = _without_options(sys.argv[1:], valued=("--compare", "--rounds"), flags=("--together",))
    with tempfile.TemporaryDirectory(prefix="doushouqi-bench-") as folder:
        results = {name: os.path.join(folder, f"{name}.json") for name in sources}
        processes = {
            name: subprocess.Popen(
                [
                    *(sys.executable, __file__, *shared),
                    *("--compare", f"{name}={source}", "--run-name", f".{name}.{round_}"),
                    *("--result-json", results[name]),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for name, source in sources.items()
        }
        figures = {}
        for name, process in processes.items():
            output, _ = process.communicate()
            print(f"--- {name} ({sources[name]})\n{output.strip()}", flush=True)
            figures[name] = {}
            if process.returncode == 0:
                with open(results[name], encoding="utf-8") as file:
                    figures[name] = json.load(file)
    return figures


def _without_options(argv: list[str], valued: tuple[str, ...], flags: tuple[str, ...]) -> list[str]:
    """``argv`` without the options ``valued`` (``--opt VALUE`` or ``--opt=VALUE``) and the
    ``flags``."""
    kept: list[str] = []
    skip_value = False
    for token in argv:
        if skip_value:
            skip_value = False
        elif token in valued:
            skip_value = True
        elif token not in flags and not token.startswith(tuple(f"{o}=" for o in valued)):
            kept.append(token)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="concurrent games (500)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per move (1)")
    parser.add_argument("--url", help="a server already running on this machine")
    parser.add_argument("--setup-timeout", type=float, default=120.0)
    parser.add_argument(
        "--compare",
        action="append",
        metavar="NAME=DIR",
        help="a version of the code to measure (a folder holding the doushouqi package); "
        "twice or more: measured in turn, side by side",
    )
    parser.add_argument(
        "--no-move-ids",
        action="store_true",
        help="send moves without an id (so without an ack), as the bench before round 5 did",
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each --compare (1)")
    parser.add_argument(
        "--together",
        action="store_true",
        help="with --compare: run the versions at the same time in each round, not in turn",
    )
    # How --together's runs hand their figures back (not for use by hand).
    parser.add_argument("--run-name", default="", help=argparse.SUPPRESS)
    parser.add_argument("--result-json", help=argparse.SUPPRESS)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server under cProfile, its statistics written to FILE when it stops "
        "(read them with python -m pstats FILE)",
    )
    parser.add_argument(
        "--cpu-profile",
        metavar="FILE",
        help="sample the server's stacks on CPU time during the measured window "
        "(bench/cpu_sampler), written to FILE (FILE.NAME.ROUND with --compare) as flame graph "
        "lines; summed up by bench/cpu_profile_report.py FILE",
    )
    args = parser.parse_args()
    if args.cpu_profile and args.url:
        parser.error("--cpu-profile samples a server the bench starts: no --url")
    if not 1 <= args.games <= MAX_GAMES or not 0 < args.duration <= MAX_DURATION:
        parser.error(f"--games must be 1-{MAX_GAMES} and --duration 0-{MAX_DURATION}")
    sources = dict(item.partition("=")[::2] for item in args.compare or [])
    if sources and (args.url or not all(os.path.isdir(d) for d in sources.values())):
        parser.error("--compare takes NAME=DIR with an existing DIR, and no --url")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be 1-20")
    if args.together and len(sources) < 2:
        parser.error("--together needs two or more --compare")
    if args.url and urlsplit(args.url).hostname not in LOOPBACK:
        parser.error("--url must be a server on this machine (loopback)")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.result_json:  # one version's run of --together
        source = next(iter(sources.values()), None)
        with open(args.result_json, "w", encoding="utf-8") as file:
            json.dump(measure(args, source, args.run_name), file)
    elif sources:
        compare(args, sources)
    else:
        measure(args, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Search benchmark: speed and time to depth on fixed positions, move-time keeping, start-up.

    .venv/bin/python bench/search.py                 # everything (cold start takes a while)
    .venv/bin/python bench/search.py --depth 12 --skip-startup
    .venv/bin/python bench/search.py --only startup
    .venv/bin/python bench/search.py --only positions --rules classic   # 7-3 / 17-5 on
    .venv/bin/python bench/search.py --only positions --tuning "" --tuning lmr_in_danger=0

Figures printed:

* per position: nodes, seconds and nodes/s of a fresh search to ``--depth`` (time to depth),
  and the totals with the CPU seconds of the searching thread (what a shared machine's load
  disturbs least: compare speed by those) — the engine's speed figure (under ``--rules``,
  WANGO by default: ``classic`` turns on the 7-3 / 17-5 move restrictions, whose bookkeeping
  costs time at every node);
  each ``--tuning`` (``key=value,...`` of ``DEFAULT_TUNING``; ``""``: the defaults) gets its own
  table and the totals side by side, to compare search settings on the same positions;
* move time: for ``go movetime`` of 0.1, 0.5 and 1 s, the worst time the answer took, in
  process (``Searcher.search``) and through the protocol (``go`` to ``bestmove``), and the
  margin the in-process engine has learnt to keep back (``core.time_plan.Overhead``);
* start-up: seconds from launching ``python -m doushouqi engine`` to ``uciok`` (``uci`` sent at
  once) and to ``readyok`` (``isready`` sent right after ``uciok``), warm (numba's cache in
  place) and cold (an empty cache directory, so everything compiles).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

#: The start, and positions from engine self-play at plies 12-70 (quiet and tactical).
POSITIONS = [
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1",
    "1l3t1/2d1c2/2p1w1e/1r5/7/5R1/E1WP3/1C2D2/1T3L1 w 12 7",
    "5t1/1ldwc2/2pe3/7/3P1R1/r6/1E1W1L1/1C2D2/1T5 w 30 16",
    "4tc1/1ldwL2/2p4/7/3eR2/1r5/2EP3/1C1WD2/1T5 w 50 26",
    "5L1/2d1t2/1l1w3/3p1R1/7/2re3/2E1P2/C2WD2/1T5 w 3 36",
    "1l4t/1d2c2/2p1w1e/7/7/5R1/rE1WP2/2C2D1/T4L1 w 12 7",
    "1l5/1d2c1e/4wt1/6R/3p3/1r5/T2WP2/2C2D1/1E3L1 w 30 16",
    "7/1d2c2/2lw2e/4R2/7/1r1L3/TW2t2/2C1D2/1E5 w 0 26",
    "7/2d1c2/2we3/L3R2/T6/1r5/W1l4/1EC2t1/4D2 w 20 36",
    "1l5/1d2ct1/2p1w1e/1r5/5R1/7/E1W1P2/T1C2D1/5L1 w 12 7",
]


def bench_positions(depth: int, rules: str = "wango", tuning: str = "") -> tuple[int, float]:
    """Time to ``depth`` on every position with the search settings ``tuning``
    (``key=value,...``); returns the total nodes and seconds."""
    engine = Searcher(rules, hash_mb=64)
    for item in tuning.split(","):
        if item.strip():
            key, value = item.split("=", 1)
            if key not in engine.tuning:
                raise SystemExit(f"unknown setting {key!r} (known: {', '.join(engine.tuning)})")
            engine.tuning[key] = int(value)
    engine.warm_up()
    print(f"time to depth {depth} under {rules} rules (fresh table each position), "
          f"settings: {tuning or 'default'}")  # fmt: skip
    print(f"{'#':>2} {'nodes':>10} {'seconds':>8} {'nodes/s':>10}  move  score")
    total_nodes = 0
    total_time = 0.0
    total_cpu = 0.0
    for index, fen in enumerate(POSITIONS):
        engine.new_game()
        started = time.perf_counter()
        # The search runs in this thread (a depth limit starts no timer): its CPU time.
        cpu_started = time.thread_time()
        result = engine.search(Board(fen, rules), Limit(depth=depth))
        total_cpu += time.thread_time() - cpu_started
        elapsed = time.perf_counter() - started
        nodes = result.info["nodes"]
        total_nodes += nodes
        total_time += elapsed
        print(
            f"{index:>2} {nodes:>10,} {elapsed:>8.3f} {nodes / elapsed:>10,.0f}  "
            f"{result.move}  {result.info.get('score')}"
        )
    print(f"total {total_nodes:,} nodes in {total_time:.2f} s: {total_nodes / total_time:,.0f} nps")
    print(f"cpu {total_cpu:.2f} s: {total_nodes / total_cpu:,.0f} nps")
    return total_nodes, total_time


class _Process:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "doushouqi", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix: str) -> str:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"engine ended before {prefix!r}")

    def close(self) -> None:
        self.send("quit")
        self.process.wait(30)


def bench_movetime(rounds: int = 10) -> None:
    engine = Searcher(hash_mb=64)
    engine.warm_up()
    board = Board(POSITIONS[3])
    process = _Process()
    # The easy stop would end most searches early: the deadline is kept only by whole ones.
    process.send("setoption name EasyStop value 0")
    process.send("isready")
    process.wait_for("readyok")
    process.send(f"position fen {POSITIONS[3]}")
    heading = "movetime   worst in process   worst via protocol   learnt margin"
    print(f"{heading}   ({rounds} searches each)")
    for movetime in (0.1, 0.5, 1.0):
        worst_in = worst_out = 0.0
        for _ in range(rounds):
            started = time.perf_counter()
            engine.search(board, Limit(movetime=movetime), whole_time=True)
            worst_in = max(worst_in, time.perf_counter() - started)
            started = time.perf_counter()
            process.send(f"go movetime {round(movetime * 1000)}")
            process.wait_for("bestmove")
            worst_out = max(worst_out, time.perf_counter() - started)
        print(
            f"{movetime:>6.1f} s   {worst_in:>8.3f} s ({1000 * (worst_in - movetime):+.0f} ms)"
            f"   {worst_out:>8.3f} s ({1000 * (worst_out - movetime):+.0f} ms)"
            f"   {1000 * engine.overhead.seconds:>8.1f} ms"
        )
    process.close()


def time_to_ready(env: dict[str, str] | None) -> tuple[float, float]:
    """Seconds from launch to ``uciok`` and to ``readyok``."""
    started = time.perf_counter()
    process = _Process(env)
    process.send("uci")
    process.wait_for("uciok")
    handshake = time.perf_counter() - started
    process.send("isready")
    process.wait_for("readyok")
    ready = time.perf_counter() - started
    process.close()
    return handshake, ready


def bench_startup(cold: bool) -> None:
    runs = [time_to_ready(None) for _ in range(3)]
    handshake, ready = min(run[0] for run in runs), min(run[1] for run in runs)
    print(f"start-up, warm cache (best of 3): uciok {handshake:.2f} s, readyok {ready:.2f} s")
    if cold:
        with tempfile.TemporaryDirectory() as cache:
            # An empty cache directory: every compiled function is built from scratch, as on a
            # fresh install, without touching the shared cache.
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            handshake, ready = time_to_ready(env)
            print(f"start-up, cold cache: uciok {handshake:.2f} s, readyok {ready:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=11, help="depth for time to depth (11)")
    parser.add_argument("--only", choices=("positions", "movetime", "startup"), default=None)
    parser.add_argument(
        "--rules", default="wango", help="rule set of the time-to-depth positions (wango)"
    )
    parser.add_argument(
        "--tuning",
        action="append",
        default=None,
        help="search settings key=value,... for time to depth (repeat to compare; default: none)",
    )
    parser.add_argument("--skip-startup", action="store_true", help="no start-up timings")
    parser.add_argument("--no-cold", action="store_true", help="no cold start (compiles)")
    args = parser.parse_args(argv)
    if args.only in (None, "positions"):
        settings = args.tuning or [""]
        totals = [bench_positions(args.depth, args.rules, tuning) for tuning in settings]
        if len(settings) > 1:
            print("side by side: settings, nodes, seconds")
            for tuning, (nodes, seconds) in zip(settings, totals, strict=True):
                print(f"  {tuning or 'default':<40} {nodes:>12,} {seconds:>8.2f} s")
    if args.only in (None, "movetime"):
        bench_movetime()
    if args.only == "startup" or (args.only is None and not args.skip_startup):
        bench_startup(cold=not args.no_cold)
    return 0


if __name__ == "__main__":
    sys.exit(main())

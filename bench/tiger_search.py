"""The 老虎棋 engine's speed: nodes/s and time to depth on fixed positions, move-time keeping,
start-up, and the compiled move generator's perft speed.

    .venv/bin/python bench/tiger_search.py                  # everything but the cold start
    .venv/bin/python bench/tiger_search.py --depth 14 --only positions
    .venv/bin/python bench/tiger_search.py --only startup --cold

Figures printed:

* per position (the start and positions from engine self-play under three rule sets): nodes,
  seconds and nodes/s of a fresh search to ``--depth``, and the totals (the speed figure);
* perft: leaves/s of the compiled generator (perft 7 of the start, laohuqi);
* move time: for ``go movetime`` 0.1, 0.5 and 1 s, the worst time the answer took in
  process (``Searcher.search``) and through ``doushouqi engine --game tiger``;
* start-up: seconds from launching the engine to ``uciok`` and to ``readyok``, warm (numba's
  cache in place) and, with ``--cold``, cold (an empty cache: everything compiles).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from doushouqi.tiger.ai import Position, Searcher
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.board import Board

#: (rule set, position): the start, then engine self-play at plies 12-100.
POSITIONS = [
    ("laohuqi", "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"),
    ("laohuqi", "3/3/9/9/9/9/5T3/9/9/MMMMMM2M/3MMMMM1 t 12 7"),
    ("laohuqi", "3/3/9/9/9/9/9/3T5/9/M2MMM1MM/1MMMMMM2 t 30 16"),
    ("laohuqi", "3/3/9/9/9/9/9/9/M2T3MM/1MMM2MM1/2MMMM3 t 60 31"),
    ("laohuqi", "3/3/9/9/9/9/9/M3T4/1MM4MM/1MM3M2/3MM1MM1 t 100 51"),
    ("laohuqi-18", "3/3/9/9/9/9/4T4/9/M1MM1MMM1/1MMMMMMM1/MM2M2MM t 30 16"),
    ("laohuqi-18", "3/3/9/9/9/6T2/MM7/MMMM4M/2MMMMMMM/4MMMM1/9 t 100 51"),
    ("laohuqi-south", "3/3/9/2T6/9/9/9/3T5/M8/M3MM1MM/1MMMMMM2 t 30 16"),
    ("laohuqi-south", "3/3/9/9/9/9/M1T6/M8/1MM3T2/1MMM5/3MM1MMM t 100 51"),
]


def bench_positions(depth: int) -> None:
    engines = {name: Searcher(name, hash_mb=64) for name, _ in POSITIONS}
    for engine in engines.values():
        engine.warm_up()
    print(f"time to depth {depth} (fresh table each position)")
    print(f"{'#':>2} {'rules':<14} {'nodes':>10} {'seconds':>8} {'nodes/s':>10}  move  score")
    total_nodes, total_time = 0, 0.0
    for index, (name, text) in enumerate(POSITIONS):
        engine = engines[name]
        engine.new_game()
        started = time.perf_counter()
        result = engine.search(Board(text, name), Limit(depth=depth))
        elapsed = time.perf_counter() - started
        nodes = result.info["nodes"]
        total_nodes += nodes
        total_time += elapsed
        print(f"{index:>2} {name:<14} {nodes:>10,} {elapsed:>8.3f} {nodes / elapsed:>10,.0f}  "
              f"{result.move}  {result.info.get('score')}")  # fmt: skip
    print(f"total {total_nodes:,} nodes in {total_time:.2f} s: {total_nodes / total_time:,.0f} nps")


def bench_perft() -> None:
    position = Position.from_board(Board())
    position.perft(4)  # load the compiled code
    started = time.perf_counter()
    leaves = position.perft(7)
    elapsed = time.perf_counter() - started
    print(f"perft 7 of the start: {leaves:,} leaves in {elapsed:.3f} s, "
          f"{leaves / elapsed:,.0f} leaves/s")  # fmt: skip


class _Process:
    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "doushouqi", "engine", "--game", "tiger"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, env=env,
        )  # fmt: skip

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


def bench_movetime() -> None:
    name, text = POSITIONS[3]
    engine = Searcher(name, hash_mb=64)
    engine.warm_up()
    process = _Process()
    process.send("isready")
    process.wait_for("readyok")
    process.send(f"position fen {text}")
    print("movetime   worst in process   worst via protocol   (3 searches each)")
    for movetime in (0.1, 0.5, 1.0):
        worst_in = worst_out = 0.0
        for _ in range(3):
            started = time.perf_counter()
            engine.search(Board(text, name), Limit(movetime=movetime))
            worst_in = max(worst_in, time.perf_counter() - started)
            started = time.perf_counter()
            process.send(f"go movetime {round(movetime * 1000)}")
            process.wait_for("bestmove")
            worst_out = max(worst_out, time.perf_counter() - started)
        print(f"{movetime:>6.1f} s   {worst_in:>8.3f} s ({1000 * (worst_in - movetime):+.0f} ms)"
              f"   {worst_out:>8.3f} s ({1000 * (worst_out - movetime):+.0f} ms)")  # fmt: skip
    process.close()


def time_to_ready(env: dict[str, str] | None) -> tuple[float, float]:
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
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            handshake, ready = time_to_ready(env)
            print(f"start-up, cold cache: uciok {handshake:.2f} s, readyok {ready:.2f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=14, help="depth for time to depth (14)")
    parser.add_argument("--only", choices=("positions", "perft", "movetime", "startup"))
    parser.add_argument("--cold", action="store_true", help="also a cold start (compiles)")
    args = parser.parse_args(argv)
    if args.only in (None, "positions"):
        bench_positions(args.depth)
    if args.only in (None, "perft"):
        bench_perft()
    if args.only in (None, "movetime"):
        bench_movetime()
    if args.only in (None, "startup"):
        bench_startup(args.cold)
    return 0


if __name__ == "__main__":
    sys.exit(main())

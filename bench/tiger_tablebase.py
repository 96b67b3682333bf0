"""The Tiger's endgame tables, measured: entries, bytes and generation time per table, and the
five men's table estimated from them.

    PYTHONPATH=src NUMBA_NUM_THREADS=1 .venv/bin/python bench/tiger_tablebase.py --out /tmp/ttb
    .venv/bin/python bench/tiger_tablebase.py --men 3 --diagonals none --out /tmp/ttb

Each table (the tiger against ``--men`` men, for each ``--diagonals`` option, men stepping
back or, with ``--forward``, not) is solved and written under ``--out`` (a table already there
is solved again: the figure is the point); the compile time is paid once before, on the
three men's table. Printed per table: the entries (both sides to move, the mirror folded),
the file's bytes (lzma), the CPU and wall seconds of the solve and of writing the file, the
peak resident memory of the process so far, the results for each side to move and the
longest distance. Then the five men's table, estimated: its entries, its working memory
(three bytes an entry) and the solve time and file size at the four men's rates.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]

from doushouqi.tiger.ai.tablebase.generate import (  # noqa: E402
    BYTES_PER_ENTRY,
    counts,
    encode_values,
    solve,
    table_path,
    write_table,
)
from doushouqi.tiger.points import Diagonals  # noqa: E402
from doushouqi.tiger.rules import RuleSet  # noqa: E402
from doushouqi.tiger.tablebase.file_format import table_size  # noqa: E402


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--men", type=int, nargs="+", default=[4], help="men counts (4)")
    parser.add_argument(
        "--diagonals", nargs="+", default=[d.value for d in Diagonals], help="options (all 3)"
    )
    parser.add_argument("--forward", action="store_true", help="men never step back")
    parser.add_argument("--out", type=Path, required=True, help="folder for the tables")
    args = parser.parse_args()

    started = time.process_time()
    solve(RuleSet(tiger_wins_below=3), 3)  # compile (or load) the kernels
    print(f"compile and warm-up: {time.process_time() - started:.1f} s CPU", flush=True)
    rates: list[tuple[float, float]] = []  # (CPU seconds, bytes) an entry, four men
    for diagonals in args.diagonals:
        for men in args.men:
            rules = RuleSet(
                diagonals=Diagonals(diagonals),
                men_retreat=not args.forward,
                tiger_wins_below=men,
            )
            cpu, wall = time.process_time(), time.perf_counter()
            solved = solve(rules, men)
            solve_cpu, solve_wall = time.process_time() - cpu, time.perf_counter() - wall
            cpu, wall = time.process_time(), time.perf_counter()
            data = encode_values(solved, rules)
            path = table_path(args.out, rules, men)
            write_table(path, data)
            write_cpu, write_wall = time.process_time() - cpu, time.perf_counter() - wall
            entries = table_size(men)
            if men == 4:
                rates.append((solve_cpu / entries, len(data) / entries))
            tiger, mover = counts(solved.tiger_to_move), counts(solved.men_to_move)
            longest = int(max(abs(solved.tiger_to_move).max(), abs(solved.men_to_move).max()))
            print(
                f"{path.parent.name}/{path.name}: {entries:,} entries, {len(data):,} bytes; "
                f"solve {solve_cpu:.1f} s CPU ({solve_wall:.1f} s wall, {solved.levels} "
                f"levels), file {write_cpu:.1f} s CPU ({write_wall:.1f} s wall); peak "
                f"{_peak_mb():,.0f} MB\n  tiger to move {tiger}\n  men to move {mover}\n"
                f"  longest distance {longest - 1} plies",
                flush=True,
            )
            del solved, data
    if rates:
        cpu_rate = max(r[0] for r in rates)
        byte_rate = max(r[1] for r in rates)
        five = table_size(5)
        estimate = dataclasses.asdict(
            Estimate(five, five * BYTES_PER_ENTRY / 1e9, five * cpu_rate / 60, five * byte_rate)
        )
        print(
            "five men, estimated at the four men's slowest rates: {entries:,} entries, "
            "{memory_gb:.1f} GB of working memory, {cpu_minutes:.0f} CPU-minutes, "
            "{file_bytes:,.0f} bytes".format(**estimate)
        )


@dataclasses.dataclass
class Estimate:
    entries: int
    memory_gb: float
    cpu_minutes: float
    file_bytes: float


if __name__ == "__main__":
    main()

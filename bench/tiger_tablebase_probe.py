"""The Tiger's tables in a running process: resident memory and probe time.

    PYTHONPATH=src .venv/bin/python bench/tiger_tablebase_probe.py
    PYTHONPATH=src .venv/bin/python bench/tiger_tablebase_probe.py --family all --probes 10000

One fresh process, one table (``--family``, the tiger against four men, as the site and the
engine read it): the resident memory (VmRSS, Linux) after the imports, after the table is
loaded (read, checked, and whatever the reader keeps), and after ``--probes`` random
positions probed through :func:`doushouqi.tiger.tablebase.probe.probe` (the board's own
``termination()`` included, as every caller pays it); the load time, the probe time (the
mean of the random probes: each one a position no probe met before, the worst case for a
reader that decompresses on demand, and then the same positions again), and the time of
:func:`~doushouqi.tiger.tablebase.probe.probe_moves` (each legal move's value: what the site's
tables view and the engine's root ask) on ``--moves`` of them. Only the public probing API is
used, so the same script measures an older reader (run it with that checkout's ``src``).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.append(str(ROOT / "src"))  # after $PYTHONPATH: another checkout's src wins

from doushouqi.tiger.rules import RuleSet  # noqa: E402
from doushouqi.tiger.tablebase.probe import load_table, probe, probe_moves  # noqa: E402
from doushouqi.tiger.tablebase.verify import random_board  # noqa: E402


def resident_mb() -> float:
    """The process's resident memory now (VmRSS), in MB; the peak where /proc is absent."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="none", help="diagonals family (none)")
    parser.add_argument("--probes", type=int, default=10_000, help="random probes (10,000)")
    parser.add_argument("--moves", type=int, default=1_000, help="probe_moves calls (1,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    args = parser.parse_args()

    from doushouqi.tiger.points import Diagonals

    rules = RuleSet(diagonals=Diagonals(args.family))
    rng = random.Random(args.seed)
    boards = [random_board(rng, rules, 4) for _ in range(args.probes)]
    imported = resident_mb()

    started = time.perf_counter()
    table = load_table(args.family, 4)
    load_s = time.perf_counter() - started
    assert table is not None, f"no table for {args.family}"
    loaded = resident_mb()

    started = time.perf_counter()
    covered = sum(probe(board) is not None for board in boards)
    cold_us = (time.perf_counter() - started) / len(boards) * 1e6
    probed = resident_mb()
    started = time.perf_counter()
    for board in boards:
        probe(board)
    again_us = (time.perf_counter() - started) / len(boards) * 1e6

    in_scope = [b for b in boards if b.termination() is None][: args.moves]
    started = time.perf_counter()
    for board in in_scope:
        probe_moves(board)
    moves_ms = (time.perf_counter() - started) / max(1, len(in_scope)) * 1e3
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(
        f"{args.family}/TvM4: resident {imported:.0f} MB after the imports, {loaded:.0f} MB "
        f"loaded ({load_s:.2f} s), {probed:.0f} MB after {len(boards):,} random probes "
        f"({covered:,} covered); table's own {loaded - imported:.1f} MB loaded, "
        f"{probed - imported:.1f} MB after the probes; peak {peak:.0f} MB\n"
        f"  probe {cold_us:.1f} us (random), {again_us:.1f} us (the same positions again); "
        f"probe_moves {moves_ms:.2f} ms ({len(in_scope):,} positions)"
    )


if __name__ == "__main__":
    main()

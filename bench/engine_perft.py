"""Benchmark of the numba engine core: perft 6 from the start position under ``international``
(100,453,636 leaves), plus the start-up cost of the compiled code.

    .venv/bin/python bench/engine_perft.py [--depth 6] [--repeat 3] [--rules international]
    .venv/bin/python bench/engine_perft.py --skip-startup --against /tmp/base/src --rounds 3

* cold start: a fresh interpreter with an empty numba cache (import + JIT compile + perft 2);
* warm start: the same again once the cache is filled (import + load from cache + perft 2);
* perft: best of ``--repeat`` runs in this process after a warm-up, and leaves per second.

Start-up is measured in subprocesses with their own ``NUMBA_CACHE_DIR``, so the project's
cache (``__pycache__``) is neither used nor disturbed by the cold measurement.

``--against SRC`` times perft side by side with another copy of the package (``SRC`` is the
directory holding its ``doushouqi``, e.g. ``git archive HEAD~1 src | tar -x -C /tmp/base``
gives ``/tmp/base/src``): each of ``--rounds`` rounds runs this tree's perft and then the
other's, each in a fresh interpreter, so that both see the same machine load; the best time of
each is kept. Under a rule set other than ``international`` the counts are not checked against
the published figures, but the two copies must agree.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START_PERFT = {1: 24, 2: 576, 3: 12_240, 4: 260_099, 5: 5_111_620, 6: 100_453_636}
SRC = Path(__file__).resolve().parent.parent / "src"

_STARTUP_SNIPPET = """
import time
start = time.perf_counter()
from doushouqi.jungle.ai import Position
assert Position(rules="international").perft(2) == 576
print(time.perf_counter() - start)
"""


def startup_seconds(cache_dir: str) -> float:
    """Seconds a fresh interpreter needs to import the core and run a small perft."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    result = subprocess.run(
        [sys.executable, "-c", _STARTUP_SNIPPET],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(result.stdout.strip().splitlines()[-1])


def time_perft(rules: str, depth: int, repeat: int) -> tuple[int, float]:
    """Leaves and best seconds of ``repeat`` perft runs in this process, after a warm-up."""
    from doushouqi.jungle.ai import Position

    position = Position(rules=rules)
    position.perft(3)  # warm-up: compile or load every function perft uses
    best = float("inf")
    leaves = 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = position.perft(depth)
        best = min(best, time.perf_counter() - start)
    if rules == "international" and leaves != START_PERFT[depth]:
        raise SystemExit(f"perft {depth} = {leaves}, expected {START_PERFT[depth]}")
    return leaves, best


def time_perft_in(src: Path, rules: str, depth: int, repeat: int) -> tuple[int, float]:
    """:func:`time_perft` in a fresh interpreter that imports ``doushouqi`` from ``src``."""
    snippet = (
        "from bench.engine_perft import time_perft\n"
        f"print(*time_perft({rules!r}, {depth}, {repeat}))"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(src), str(SRC.parent))))
    result = subprocess.run(
        [sys.executable, "-c", snippet], env=env, capture_output=True, text=True, check=True
    )
    leaves, seconds = result.stdout.split()[-2:]
    return int(leaves), float(seconds)


def report(label: str, args: argparse.Namespace, leaves: int, seconds: float, runs: int) -> None:
    print(
        f"{label}perft {args.depth} ({args.rules}, start): {leaves:,} leaves in {seconds:.3f} s "
        f"= {leaves / seconds / 1e6:.1f} M leaves/s (best of {runs})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, choices=sorted(START_PERFT))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default="international", help="rule set (international)")
    parser.add_argument("--skip-startup", action="store_true", help="only time perft")
    parser.add_argument(
        "--against", type=Path, help="time perft side by side with the package under this src"
    )
    parser.add_argument("--rounds", type=int, default=3, help="side-by-side rounds (3)")
    args = parser.parse_args()

    if not args.skip_startup:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
            cold = startup_seconds(cache_dir)
            warm = startup_seconds(cache_dir)
        print(f"cold start (import + compile, empty cache): {cold:6.2f} s")
        print(f"warm start (import + load cached code):     {warm:6.2f} s")

    if args.against is None:
        leaves, seconds = time_perft(args.rules, args.depth, args.repeat)
        report("", args, leaves, seconds, args.repeat)
        return
    trees = {"this tree": SRC, str(args.against): args.against.resolve()}
    best = dict.fromkeys(trees, float("inf"))
    counts: dict[str, int] = {}
    for _ in range(args.rounds):
        for label, src in trees.items():
            counts[label], seconds = time_perft_in(src, args.rules, args.depth, args.repeat)
            best[label] = min(best[label], seconds)
    if len(set(counts.values())) != 1:
        raise SystemExit(f"the two trees disagree: {counts}")
    width = max(map(len, trees)) + 2
    for label in trees:
        report(
            f"{label + ':':{width}}", args, counts[label], best[label], args.repeat * args.rounds
        )


if __name__ == "__main__":
    main()

"""Benchmark of the numba engine core: perft 6 from the start position under ``international``
(100,453,636 leaves), plus the start-up cost of the compiled code.

    .venv/bin/python bench/engine_perft.py [--depth 6] [--repeat 3]

* cold start: a fresh interpreter with an empty numba cache (import + JIT compile + perft 2);
* warm start: the same again once the cache is filled (import + load from cache + perft 2);
* perft: best of ``--repeat`` runs in this process after a warm-up, and leaves per second.

Start-up is measured in subprocesses with their own ``NUMBA_CACHE_DIR``, so the project's
cache (``__pycache__``) is neither used nor disturbed by the cold measurement.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

START_PERFT = {1: 24, 2: 576, 3: 12_240, 4: 260_099, 5: 5_111_620, 6: 100_453_636}

_STARTUP_SNIPPET = """
import time
start = time.perf_counter()
from doushouqi.ai import Position
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, choices=sorted(START_PERFT))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-startup", action="store_true", help="only time perft")
    args = parser.parse_args()

    if not args.skip_startup:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
            cold = startup_seconds(cache_dir)
            warm = startup_seconds(cache_dir)
        print(f"cold start (import + compile, empty cache): {cold:6.2f} s")
        print(f"warm start (import + load cached code):     {warm:6.2f} s")

    from doushouqi.ai import Position

    position = Position(rules="international")
    position.perft(3)  # warm-up: compile or load every function perft uses
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        leaves = position.perft(args.depth)
        best = min(best, time.perf_counter() - start)
        if leaves != START_PERFT[args.depth]:
            raise SystemExit(f"perft {args.depth} = {leaves}, expected {START_PERFT[args.depth]}")
    print(
        f"perft {args.depth} (international, start): {leaves:,} leaves in {best:.3f} s "
        f"= {leaves / best / 1e6:.1f} M leaves/s (best of {args.repeat})"
    )


if __name__ == "__main__":
    main()

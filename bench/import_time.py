"""How long ``import doushouqi`` takes: a fresh interpreter per run, so nothing is cached.

Usage: ``python bench/import_time.py [--module doushouqi] [--python PYTHON] [--runs 10]``.

Prints two figures per interpreter, each the median of ``--runs`` runs:

* ``python -c "import MODULE"``: the whole process, start-up included (what a script or a
  ``doushouqi`` command pays before its first line);
* ``python -X importtime -c "import MODULE"``: the cumulative microseconds of the module's own
  import, start-up left out.

To compare with python-chess, point ``--python`` at an interpreter that has it
(``python -m venv /tmp/chess && /tmp/chess/bin/pip install chess``) and pass ``--module chess``;
``--baseline`` measures a bare ``python -c pass`` for the start-up alone.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def process_seconds(python: str, code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], check=True, env=env)
    return time.perf_counter() - start


def importtime_us(python: str, module: str, env: dict[str, str]) -> int:
    """The cumulative import time of ``module`` as ``-X importtime`` reports it."""
    done = subprocess.run(
        [python, "-X", "importtime", "-c", f"import {module}"],
        check=True,
        env=env,
        capture_output=True,
        text=True,
    )
    pattern = rf"^import time:\s+\d+ \|\s+(\d+) \| {re.escape(module)}$"
    found = re.search(pattern, done.stderr, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no import time for {module}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Median import time of a package.")
    parser.add_argument("--module", default="doushouqi", help="module to import (doushouqi)")
    parser.add_argument("--python", default=sys.executable, help="interpreter (this one)")
    parser.add_argument("--runs", type=int, default=10, help="runs; the median counts (10)")
    parser.add_argument("--baseline", action="store_true", help="also time `python -c pass`")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    # This checkout's sources first, as the tests run them (harmless for another module).
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # Measured as an installed package runs: from its cached bytecode (pip writes it), not
    # compiled from source on every run as where PYTHONDONTWRITEBYTECODE is set.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.baseline:
        bare = [process_seconds(args.python, "pass", env) for _ in range(args.runs)]
        print(f"python -c pass: {statistics.median(bare) * 1000:.0f} ms (median of {args.runs})")
    code = f"import {args.module}"
    process_seconds(args.python, code, env)  # warm the file cache; write the .pyc files
    wall = [process_seconds(args.python, code, env) for _ in range(args.runs)]
    own = [importtime_us(args.python, args.module, env) for _ in range(args.runs)]
    print(
        f'python -c "{code}": {statistics.median(wall) * 1000:.0f} ms; '
        f"-X importtime: {statistics.median(own) / 1000:.1f} ms (medians of {args.runs})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

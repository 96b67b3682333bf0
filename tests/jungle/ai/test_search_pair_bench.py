"""bench/search_pair.py: source trees timed side by side through their own worker processes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_two_trees_search_the_same_nodes_and_are_compared() -> None:
    # The same tree twice: the same nodes (from each worker's own searches), a round's CPU
    # seconds for each, and a ratio against the first.
    src = str(ROOT / "src")
    bench = str(ROOT / "bench" / "search_pair.py")
    options = ["--rounds", "1", "--depth", "3", "--nice", "0"]
    done = subprocess.run(
        [sys.executable, bench, f"a={src}", f"b={src}", *options],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    nodes = dict(re.findall(r"^(\w+): nodes ([\d,]+)", done.stdout, re.M))
    assert set(nodes) == {"a", "b"} and nodes["a"] == nodes["b"]
    assert int(nodes["a"].replace(",", "")) > 1000
    assert re.search(r"^round 1: a [\d.]+  b [\d.]+", done.stdout, re.M)
    assert re.search(r"^a / b: [\d.]+x", done.stdout, re.M)

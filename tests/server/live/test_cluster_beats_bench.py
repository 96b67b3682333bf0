"""bench/cluster_beats.py runs end to end on a real Redis (small sizes): both beats measured,
and every owned game's presence read back (the bench checks it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.redis_server import redis_server_path

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")

ROOT = Path(__file__).resolve().parents[3]


def test_the_beats_bench_measures_both_beats() -> None:
    command = [sys.executable, str(ROOT / "bench" / "cluster_beats.py"), "--leases", "7",
               "--followed", "3", "--owned", "4", "--rounds", "1", "--beats", "2"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("lease keeper, 7 leases: ") and lines[0].endswith(" a beat")
    assert lines[1].startswith("presence, 3 games followed and 4 owned: ")

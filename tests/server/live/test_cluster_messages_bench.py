"""bench/cluster_messages.py runs end to end on a real Redis (a few round trips): every answer
comes back to its request (the bench checks it) and the CPU a message is printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.redis_server import redis_server_path

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")

ROOT = Path(__file__).resolve().parents[3]


def test_the_messages_bench_measures_round_trips() -> None:
    command = [sys.executable, str(ROOT / "bench" / "cluster_messages.py"), "--trips", "20",
               "--rounds", "2"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("a message between nodes: ")
    assert " µs of the nodes' CPU, Redis " in done.stdout

"""bench/server_load.py's ``--together`` runs two versions of the server at the same time
(each with its own bench process) and prints a median line for each, from real moves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_two_versions_measured_together_each_report_their_moves() -> None:
    src = str(ROOT / "src")
    command = [sys.executable, str(ROOT / "bench" / "server_load.py"), "--games", "4",
               "--duration", "2", "--warmup", "1", "--think", "0.2", "--together",
               "--compare", f"one={src}", "--compare", f"two={src}"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)
    assert done.returncode == 0, done.stderr
    medians = done.stdout.split("medians of 1 runs each, 4 games:")[1].splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in medians[2:4]}
    assert set(rows) == {"one", "two"}
    for figures in rows.values():
        moves_per_second, errors = float(figures[0]), float(figures[7])
        assert moves_per_second > 0 and errors == 0

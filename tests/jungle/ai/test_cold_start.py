"""``doushouqi engine`` on a fresh install: ``uci`` is answered before numba has compiled.

The engine imports its compiled modules in a background thread, so the handshake does not
wait for compilation (10-60 s with an empty cache); ``isready`` does. These tests give the
engine an empty ``NUMBA_CACHE_DIR`` of its own, as on a fresh install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from doushouqi.jungle.ai import protocol
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING, TUNING_RANGES

#: Far below a cold compile (over 10 s), far above a Python start on a busy machine.
HANDSHAKE_SECONDS = 3.0


def _cold_engine(cache: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "doushouqi", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)),
    )


def _read_until(process: subprocess.Popen[str], word: str) -> list[str]:
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.strip())
        if line.startswith(word):
            return lines
    raise AssertionError(f"the engine ended before {word}: {lines}")


def test_cold_engine_answers_uci_at_once(tmp_path: Path) -> None:
    started = time.monotonic()
    process = _cold_engine(tmp_path)
    try:
        assert process.stdin is not None
        process.stdin.write("uci\n")
        process.stdin.flush()
        lines = _read_until(process, "uciok")
        elapsed = time.monotonic() - started
        assert elapsed < HANDSHAKE_SECONDS, f"uciok after {elapsed:.1f} s"
        assert any(line.startswith("option name Contempt") for line in lines)
    finally:
        process.kill()  # compilation is still running: no need to wait for it
        process.wait(30)


def test_handshake_defaults_match_the_engine() -> None:
    # The handshake repeats them so that it needs no compiled module.
    assert DEFAULT_TUNING["contempt"] == protocol.DEFAULT_CONTEMPT
    assert DEFAULT_TUNING["easy_stop"] == protocol.DEFAULT_EASY_STOP
    assert TUNING_RANGES["contempt"] == protocol.CONTEMPT_RANGE


def test_importing_the_protocol_compiles_nothing() -> None:
    code = (
        "import sys, doushouqi.jungle.ai, doushouqi.jungle.ai.protocol\n"
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, 'compiled at import'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.slow
def test_cold_engine_compiles_before_readyok(tmp_path: Path) -> None:
    process = _cold_engine(tmp_path)
    try:
        assert process.stdin is not None
        process.stdin.write("uci\nsetoption name Hash value 4\nisready\n")
        process.stdin.flush()
        _read_until(process, "uciok")
        started = time.monotonic()
        loading = _read_until(process, "readyok")
        compiled = time.monotonic() - started
        # Said while it compiled (every two seconds), and when done.
        assert any(line.startswith("info string compiling the engine") for line in loading)
        assert loading[-2].startswith("info string engine compiled: ")
        process.stdin.write("position startpos\ngo depth 3\n")
        process.stdin.flush()
        started = time.monotonic()
        assert _read_until(process, "bestmove")[-1] != "bestmove 0000"
        assert time.monotonic() - started < 5.0, "compiled code was not ready at readyok"
        assert compiled > 1.0, "nothing compiled: is the cache really empty?"
    finally:
        process.kill()
        process.wait(30)

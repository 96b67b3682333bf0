"""Engine processes for the client and match tests.

``fake_command(*switches)`` is the scripted engine of ``fake_engine.py`` (a real process);
``real_engine_command`` is our own engine, ``python -m doushouqi engine``, and skips the test
while that command does not yet answer the handshake.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FAKE_ENGINE = Path(__file__).with_name("fake_engine.py")
REAL_ENGINE = [sys.executable, "-m", "doushouqi", "engine"]

FakeCommand = Callable[..., list[str]]


def _fake_command(*switches: str) -> list[str]:
    return [sys.executable, str(FAKE_ENGINE), *switches]


@pytest.fixture
def fake_command() -> FakeCommand:
    """``fake_command("--crash-after", "1")`` -> the command line of a misbehaving engine."""
    return _fake_command


@pytest.fixture(scope="session")
def real_engine_command() -> list[str]:
    """Our engine's command line, once ``doushouqi engine`` speaks the protocol."""
    try:
        done = subprocess.run(
            REAL_ENGINE,
            input="uci\nquit\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("`doushouqi engine` did not answer uci within 120 s")
    if "uciok" not in done.stdout:
        pytest.skip("`doushouqi engine` does not speak the protocol yet")
    return list(REAL_ENGINE)

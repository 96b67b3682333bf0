"""Fixtures for the server tests: a real app on loopback with an injected clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .live import LiveServer, ManualTime, make_settings, running


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
def server(tmp_path: Path, clock: ManualTime) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path), clock) as live:
        yield live

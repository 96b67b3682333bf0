"""Fixtures for the server tests: a real app on loopback with an injected clock."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.cluster_nodes import started_nodes
from tests.support.live import LiveServer, ManualTime, make_settings, running
from tests.support.postgres import create_database, postgres_server
from tests.support.redis_server import RedisServer, redis_server

_database_names = itertools.count()


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture
def server(tmp_path: Path, clock: ManualTime) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path), clock) as live:
        yield live


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of the test module's own (skip the module where there is none)."""
    with postgres_server() as url:
        yield url


@pytest.fixture
def database(postgres: str) -> str:
    """A fresh, empty database on it, for one test."""
    return create_database(postgres, f"test_{next(_database_names)}")


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    """A Redis server of the test module's own."""
    with redis_server() as server:
        yield server


@pytest.fixture
def nodes(tmp_path: Path, database: str, redis: RedisServer) -> Iterator[list[LiveServer]]:
    """Three nodes (a, b, c) on one fresh database and the module's Redis."""
    with started_nodes(tmp_path, database, redis) as started:
        yield started

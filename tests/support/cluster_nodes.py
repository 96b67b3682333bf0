"""Several real server nodes on one PostgreSQL and one Redis, for the tests of what must work
across nodes. The ``redis`` and ``nodes`` fixtures are in conftest.py; a module that needs
both servers marks itself with ``pytestmark = CLUSTER_MARKS``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.support.live import LiveServer, make_settings, running
from tests.support.postgres import find_bindir
from tests.support.redis_server import RedisServer, redis_server_path

__all__ = ["CLUSTER_MARKS", "node_settings", "started_nodes"]

CLUSTER_MARKS = [
    pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed"),
    pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL is not installed"),
]


def node_settings(tmp_path: Path, database: str, redis: RedisServer, name: str) -> Any:
    return make_settings(
        tmp_path / name,
        database_url=database,
        redis_url=redis.url,
        node_name=name,
        lease_seconds=2.0,
        grace_period=300.0,
    )


@contextmanager
def started_nodes(
    tmp_path: Path, database: str, redis: RedisServer, names: Sequence[str] = ("a", "b", "c")
) -> Iterator[list[LiveServer]]:
    """One running node per name, stopped in the end."""
    with ExitStack() as stack:
        yield [
            stack.enter_context(running(node_settings(tmp_path, database, redis, name)))
            for name in names
        ]

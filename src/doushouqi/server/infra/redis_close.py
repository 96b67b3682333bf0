"""Closing a redis-py asyncio client at once, for shutdown paths."""

from __future__ import annotations

import contextlib

import redis.asyncio as aioredis

__all__ = ["close_now"]


def close_now(client: aioredis.Redis) -> None:
    """Close the client's sockets at once, without awaiting anything (what redis-py does
    itself outside a task): shutting down must not wait on a connection that cannot be closed
    cleanly (the graceful ``aclose`` awaits locks and peers, and can wait forever on a
    connection whose reader was cancelled mid-read)."""
    pool = client.connection_pool
    try:
        connections = [*pool._available_connections, *pool._in_use_connections]
    except AttributeError:  # another redis-py: leave it to the garbage collector
        return
    for connection in connections:
        with contextlib.suppress(Exception):
            connection._close()  # type: ignore[no-untyped-call]

"""Reading a redis-py asyncio pub/sub connection with less of redis-py's work per message."""

from __future__ import annotations

from typing import Any

from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

__all__ = ["next_response"]


async def next_response(pubsub: PubSub, timeout: float) -> Any:
    """What comes next on ``pubsub``'s connection, as Redis sent it (a message is ``["message",
    channel, data]``); None when nothing came within ``timeout`` seconds.

    Read from the connection itself while it is up: ``PubSub.get_message`` wraps each read in
    its retries, health check, timing and a message dict (about a third of a message's read on
    a cluster node at 400 games, docs/server.md "Thirteenth round"). A read that fails, and a
    connection that is down, go through ``PubSub.parse_response`` as ``get_message`` does: it
    reads again, connecting (and subscribing to the channels) again as often as redis-py
    retries, and raises what it cannot mend. Anything but a message is the caller's to hand
    to ``PubSub.handle_message`` (subscriptions keep redis-py's bookkeeping)."""
    connection = pubsub.connection
    if connection is not None and connection.is_connected:
        try:  # (a try costs nothing here; contextlib.suppress was 0.5 % of a node)
            return await connection.read_response(
                timeout=timeout, disconnect_on_error=False, push_request=True
            )
        except (RedisError, OSError):
            pass
    return await pubsub.parse_response(block=False, timeout=timeout)

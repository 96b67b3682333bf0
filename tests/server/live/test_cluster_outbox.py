"""What a node publishes, on a real Redis (``live/outbox.py``): in the order handed over, many
messages of one loop step in one batch, each waiting sender told how many subscribers got its
message; a batch Redis cannot take fails its senders with the error, and the next batch,
once Redis is back, is published on a fresh connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import RedisError
from tests.support.redis_server import RedisServer, redis_server, redis_server_path

from doushouqi.server.live.outbox import Outbox

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A redis-server of this test's own: the tests stop and restart it."""
    with redis_server() as server:
        yield server


class Spawner:
    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[Any]] = []

    def __call__(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            await work

        self.tasks.append(asyncio.create_task(run()))


async def heard(pubsub: Any, count: int) -> list[tuple[str, str]]:
    """The next ``count`` messages published (the subscriptions' confirmations skipped)."""
    messages: list[tuple[str, str]] = []
    async with asyncio.timeout(5):
        while len(messages) < count:
            message = await pubsub.get_message(timeout=1)
            if message is not None and message["type"] == "message":
                messages.append((message["channel"], message["data"]))
    return messages


def test_messages_leave_in_order_with_their_receivers_counted(own_redis: RedisServer) -> None:
    async def scenario(url: str) -> None:
        pool = aioredis.ConnectionPool.from_url(url, decode_responses=True)
        listener = aioredis.Redis.from_url(url, decode_responses=True)
        pubsub = listener.pubsub()
        await pubsub.subscribe("a", "b")
        spawn = Spawner()
        outbox = Outbox(pool, spawn, timeout=5)
        counted = [asyncio.get_running_loop().create_future() for _ in range(3)]
        for index in range(60):  # one loop step: one batch
            channel = "a" if index % 2 else "b"
            outbox.send_later(channel, f"m{index}", counted[0] if index == 30 else None)
        outbox.send_later("nobody", "lost", counted[1])
        outbox.send_later("a", b"bytes", counted[2])
        assert len(spawn.tasks) == 1  # one drain for them all
        assert [await f for f in counted] == [1, 0, 1]
        messages = await heard(pubsub, 61)
        assert messages[:60] == [("a" if i % 2 else "b", f"m{i}") for i in range(60)]
        assert messages[60] == ("a", "bytes")
        # The next step's messages: another batch, after the first.
        outbox.send_later("b", "later")
        assert await heard(pubsub, 1) == [("b", "later")]
        outbox.close()
        await pubsub.aclose()
        await listener.aclose()
        await pool.aclose()

    asyncio.run(scenario(own_redis.url))


def test_a_batch_redis_cannot_take_fails_its_senders_and_the_next_goes_on_a_new_connection(
    own_redis: RedisServer,
) -> None:
    server = own_redis

    async def scenario() -> None:
        pool = aioredis.ConnectionPool.from_url(server.url, decode_responses=True)
        outbox = Outbox(pool, Spawner(), timeout=5)
        first = asyncio.get_running_loop().create_future()
        outbox.send_later("a", "before", first)
        assert await first == 0  # connected, nobody listening
        server.kill()
        failed = asyncio.get_running_loop().create_future()
        outbox.send_later("a", "while away", failed)
        with pytest.raises(RedisError):
            await failed
        server.start()  # the same port, empty
        listener = aioredis.Redis.from_url(server.url, decode_responses=True)
        pubsub = listener.pubsub()
        await pubsub.subscribe("a")
        again = asyncio.get_running_loop().create_future()
        outbox.send_later("a", "back", again)
        assert await again == 1
        assert await heard(pubsub, 1) == [("a", "back")]
        outbox.close()
        await pubsub.aclose()
        await listener.aclose()
        await pool.aclose()

    asyncio.run(scenario())


def test_a_connection_redis_closed_between_batches_is_made_again_not_failed(
    own_redis: RedisServer,
) -> None:
    server = own_redis

    async def scenario() -> None:
        pool = aioredis.ConnectionPool.from_url(server.url, decode_responses=True)
        outbox = Outbox(pool, Spawner(), timeout=5)
        first = asyncio.get_running_loop().create_future()
        outbox.send_later("a", "before", first)
        assert await first == 0
        server.restart()  # nothing sent meanwhile: the outbox's socket is closed, unnoticed
        after = asyncio.get_running_loop().create_future()
        outbox.send_later("a", "after", after)
        assert await after == 0  # published, not failed
        outbox.close()
        await pool.aclose()

    asyncio.run(scenario())

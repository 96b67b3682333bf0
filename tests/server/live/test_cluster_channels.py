"""A node's game channels on a real Redis: a socket here that follows a game owned elsewhere
hears what the owner published while the node's connection to Redis was cut (Redis restarting,
a network fault), read from the database, once the channel is subscribed again."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import redis as sync_redis
from tests.server.live.test_cluster_leases import LEASE, Registry, run_node
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.domain import Actor
from doushouqi.server.live.cluster import Cluster
from doushouqi.server.live.subscriber import Subscriber

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")


class StoredGame(Registry):
    """The node's registry, reading one game's events from "the database" (``events``)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[int, str]] = [(1, "event 1")]

    async def stored_view(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]:
        texts = [text for version, text in self.events if since is None or version > since]
        return texts, self.events[-1][0]


def queued(subscriber: Subscriber) -> list[str | None]:
    return [subscriber.queue.get_nowait() for _ in range(subscriber.queue.qsize())]


def test_a_follower_hears_what_was_published_while_its_channel_was_cut(
    redis: RedisServer,
) -> None:
    stored = StoredGame()

    async def scenario(cluster: Cluster) -> None:
        follower = Subscriber(None)
        assert await cluster.handle("g").open(follower, None) == ["event 1"]
        client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        # Cut the node's channels, and publish at once, before its loop can run again: the
        # owner's event (stored first, as owners do) is lost on the way.
        client.client_kill_filter(_type="pubsub")
        stored.events.append((2, "event 2"))
        message = {"from": "owner", "v": 2, "texts": ["event 2"], "notice": False}
        assert client.publish("dsq:game:g", json.dumps(message)) == 0
        client.close()
        deadline = time.monotonic() + 10
        while follower.queue.empty():
            assert time.monotonic() < deadline, "the follower never heard event 2"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # nothing else follows (no event twice)
        assert queued(follower) == ["event 2"]

    run_node(redis, scenario, stored)


class SlowRead(StoredGame):
    """A database read that the owner's next change overtakes: it sees the game as it was,
    and returns only after the owner has stored and published the next event."""

    def __init__(self, redis: RedisServer) -> None:
        super().__init__()
        self.redis = redis
        self.cluster: Cluster | None = None

    async def stored_view(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]:
        read = await super().stored_view(game_id, identity, since)
        assert self.cluster is not None
        self.events.append((2, "event 2"))
        message = {"from": "owner", "v": 2, "texts": ["event 2"], "notice": False}
        client = sync_redis.Redis.from_url(self.redis.url, decode_responses=True)
        assert client.publish("dsq:game:g", json.dumps(message)) == 1
        client.close()
        remote = self.cluster.handle("g")
        deadline = time.monotonic() + 10
        while remote.version < 2:  # the node has heard it (while this read was under way)
            assert time.monotonic() < deadline, "the node never heard event 2"
            await asyncio.sleep(0.01)
        return read


def test_a_socket_hears_what_was_published_while_its_first_read_was_under_way(
    redis: RedisServer,
) -> None:
    stored = SlowRead(redis)

    async def scenario(cluster: Cluster) -> None:
        stored.cluster = cluster
        joining = Subscriber(None)
        assert await cluster.handle("g").open(joining, None) == ["event 1", "event 2"]
        await asyncio.sleep(0.2)  # nothing else follows (no event twice)
        assert queued(joining) == []

    run_node(redis, scenario, stored)


def publish_calls(redis: RedisServer) -> int:
    client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
    try:
        return int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
    finally:
        client.close()


async def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


def test_a_game_nobody_follows_is_not_published_until_a_node_asks_to_follow_it(
    redis: RedisServer,
) -> None:
    """The owner stops publishing a game whose broadcast reached nobody; a node whose socket
    then opens the game tells the owner before it reads the database, and hears every later
    change, with nothing lost between its read and the owner's next broadcast."""
    stored = StoredGame()

    async def scenario(follower_node: Cluster) -> None:
        owner = Cluster(redis.url, "owner-node", lease_seconds=LEASE, claim_interval=60)
        await owner.start(Registry())  # type: ignore[arg-type]
        try:
            assert await owner.acquire("g")
            before = publish_calls(redis)
            owner.publish("g", 1, ["event 1"], False)  # nobody listens
            await until(lambda: publish_calls(redis) == before + 1, "event 1 never published")
            await asyncio.sleep(0.1)  # its count of receivers (none) has come back
            stored.events.append((2, "event 2"))
            owner.publish("g", 2, ["event 2"], False)
            await asyncio.sleep(0.2)
            assert publish_calls(redis) == before + 1  # event 2 was not published

            socket = Subscriber(None)
            # The owner has heard of the follower by the time it reads "the database".
            assert await follower_node.handle("g").open(socket, None) == ["event 1", "event 2"]
            stored.events.append((3, "event 3"))
            owner.publish("g", 3, ["event 3"], False)
            await until(lambda: not socket.queue.empty(), "the follower never heard event 3")
            assert queued(socket) == ["event 3"]
        finally:
            await owner.stop()

    run_node(redis, scenario, stored)

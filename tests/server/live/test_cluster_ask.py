"""A node's requests to another node and their answers, on a real Redis (``Cluster.ask``, which
forwarded commands, follows and hand-overs share): the answer comes back; a node nobody
listens for and a node that listens but never answers are told apart; and a hand-over answered
the way a node of the version before answers (``handed_over``) is heard, as during a rolling
upgrade."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.asyncio as aioredis
from tests.server.live.test_cluster_leases import LEASE, Registry, lease_holder, run_node
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.live import handover
from doushouqi.server.live.cluster import Cluster, ClusterUnavailable, NoAnswer, NobodyListens
from doushouqi.server.live.handover import HandOvers

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")


async def listening(url: str, channel: str) -> Any:
    """A subscriber of ``channel`` (confirmed by Redis), as a node that never answers."""
    pubsub = aioredis.Redis.from_url(url, decode_responses=True).pubsub()
    await pubsub.subscribe(channel)
    while (await pubsub.get_message(timeout=1)) is None:
        pass  # the subscription's confirmation
    return pubsub


def test_an_answer_comes_back_and_an_absent_node_is_told_from_a_silent_one(
    redis: RedisServer,
) -> None:
    async def scenario(asker: Cluster) -> None:
        other = Cluster(redis.url, "answering-node", lease_seconds=LEASE, claim_interval=60)
        await other.start(Registry())  # type: ignore[arg-type]
        other.node_ops["double"] = lambda data: other.reply(data["from"], data["id"], data["n"] * 2)
        silent = await listening(redis.url, "dsq:node:silent-node")
        try:
            assert await asker.ask("answering-node", "double", {"n": 21}, 5.0) == 42
            started = time.monotonic()
            with pytest.raises(NobodyListens):
                await asker.ask("gone-node", "double", {"n": 1}, 5.0)
            assert time.monotonic() - started < 2.5  # told at once, not after the time-out
            started = time.monotonic()
            with pytest.raises(NoAnswer):
                await asker.ask("silent-node", "double", {"n": 1}, 0.5)
            assert time.monotonic() - started >= 0.5
            assert asker._answers == {}  # nothing left waiting, answered or not
        finally:
            await silent.aclose()
            await other.stop()

    run_node(redis, scenario)


class NoGames:
    """The owner's side of the asking node: never asked here."""

    async def give_up(self, game_id: str, pass_lease: Callable[[], Awaitable[bool]]) -> bool:
        raise AssertionError("nobody asks this node for a game")


def test_a_hand_over_answered_as_the_version_before_answers_is_heard(
    redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner of the version before passes the lease and answers ``handed_over``: the asking
    node takes the game at once, rather than after waiting its time-out out and then finding
    the lease its own."""
    # The time-out made long tells "at once" from "after the time-out" by far more than a
    # loaded machine's delays.
    waited_at_most = 30.0
    monkeypatch.setattr(handover, "HAND_OVER_TIMEOUT", waited_at_most)

    async def old_owner(url: str, pubsub: Any) -> None:
        client = aioredis.Redis.from_url(url, decode_responses=True)
        try:
            while True:
                message = await pubsub.get_message(timeout=1)
                if message is None or message["type"] != "message":
                    continue
                request = json.loads(message["data"])
                assert request["op"] == "hand_over"
                await client.set(f"dsq:lease:{request['game']}", request["from"], px=60_000)
                answer = {"op": "handed_over", "id": request["id"], "handed": True}
                await client.publish(f"dsq:node:{request['from']}", json.dumps(answer))
                return
        finally:
            await client.aclose()

    async def scenario(cluster: Cluster) -> None:
        client = aioredis.Redis.from_url(redis.url, decode_responses=True)
        await client.set("dsq:lease:handed-as-before", "old-node", px=60_000)
        await client.aclose()
        pubsub = await listening(redis.url, "dsq:node:old-node")
        owner = asyncio.create_task(old_owner(redis.url, pubsub))
        try:
            hand_overs = HandOvers(cluster, NoGames())
            started = time.monotonic()
            assert await hand_overs.ask("handed-as-before")
            assert time.monotonic() - started < waited_at_most / 2
            assert "handed-as-before" in cluster.owned
            assert lease_holder(redis, "handed-as-before") == "node-under-test"
            await owner
        finally:
            owner.cancel()
            await pubsub.aclose()

    run_node(redis, scenario)


def outbox_timing_out(channel: str, payload: Any, receivers: Any = None) -> None:
    """The outbox's ``send_later`` when Redis does not take a batch within its time-out."""
    if receivers is not None:
        receivers.set_exception(TimeoutError())


def test_a_hand_over_request_that_cannot_be_published_leaves_the_game_as_it_was(
    redis: RedisServer,
) -> None:
    """The outbox gives up on a batch Redis does not take within its time-out (a
    ``TimeoutError`` on the request's receivers): the node goes on as before (forwarding to the
    owner) rather than the socket's open failing."""

    async def scenario(cluster: Cluster) -> None:
        client = aioredis.Redis.from_url(redis.url, decode_responses=True)
        await client.set("dsq:lease:unpublished", "other-node", px=60_000)
        await client.aclose()
        cluster.outbox.send_later = outbox_timing_out  # type: ignore[method-assign]
        assert not await HandOvers(cluster, NoGames()).ask("unpublished")
        assert "unpublished" not in cluster.owned
        assert lease_holder(redis, "unpublished") == "other-node"

    run_node(redis, scenario)


def test_a_follow_that_cannot_be_published_fails_as_the_cluster_unavailable(
    redis: RedisServer,
) -> None:
    """An owner that never heard the follow would not publish the game's broadcasts, so a
    socket that went on would miss them: the follow fails as Redis away does (the client tries
    again), unlike an owner that heard it and did not answer in time (a node of the version
    before, which publishes anyway)."""

    async def scenario(cluster: Cluster) -> None:
        client = aioredis.Redis.from_url(redis.url, decode_responses=True)
        await client.set("dsq:lease:unheard", "other-node", px=60_000)
        await client.aclose()
        cluster.outbox.send_later = outbox_timing_out  # type: ignore[method-assign]
        with pytest.raises(ClusterUnavailable):
            await cluster.follow("unheard")

    run_node(redis, scenario)

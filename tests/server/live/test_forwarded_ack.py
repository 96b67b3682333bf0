"""A command forwarded from a socket is answered with its ``ack`` alone: the sender's socket
hears the command's events as a subscriber on its own node, so the owner no longer turns
them into dicts for the answer, nor sends them through Redis a second time (docs/server.md,
"Thirteenth round"). A command forwarded for a caller without a socket (REST) still gets
the events as its answer."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from redis import Redis
from tests.server.live.test_cluster_leases import LEASE, Registry, run_node
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.live import ws
from doushouqi.server.live.cluster import Cluster

MOVE = {"type": "move_made", "move": "a3a4", "ply": 1}


class _Event:
    def to_dict(self) -> dict[str, Any]:
        return dict(MOVE)


def _client(**fields: Any) -> ws.Client:
    actor = SimpleNamespace(id="g1", version=5)
    return ws.Client(ctx=cast(Any, None), actor=cast(Any, actor), principal=None, **fields)


def test_an_accepted_command_forwarded_from_a_socket_is_answered_with_its_ack() -> None:
    message = ws.MoveMessage(type="move", move="a3a4", id="m1")
    events = [cast(Any, _Event())]
    assert ws._accepted(_client(forwarded=True, ack_only=True), message, events) == [
        {"type": "ack", "game_id": "g1", "version": 5, "id": "m1"}
    ]
    # Forwarded for REST (no socket on the sending node): the events are the answer.
    assert ws._accepted(_client(forwarded=True), message, events) == [MOVE]
    unnamed = ws.MoveMessage(type="move", move="a3a4")
    assert ws._accepted(_client(forwarded=True, ack_only=True), unnamed, events) == []


@pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")
def test_the_owner_is_told_whether_the_sender_wants_the_ack_alone(redis: RedisServer) -> None:
    heard: list[bool] = []

    async def scenario(sender: Cluster) -> None:
        owner = Cluster(redis.url, "owning-node", lease_seconds=LEASE, claim_interval=60)
        await owner.start(Registry())  # type: ignore[arg-type]

        async def on_command(
            game_id: str, message: dict[str, Any], principal: dict[str, Any], ack_only: bool
        ) -> list[dict[str, Any]]:
            heard.append(ack_only)
            return [{"type": "ack", "id": message["id"]}]

        owner.on_command = on_command
        client = Redis.from_url(redis.url, decode_responses=True)
        client.set("dsq:lease:forwarded-game", "owning-node", px=60_000)
        client.close()
        owner.owned.add("forwarded-game")
        try:
            move = {"type": "move", "move": "a3a4", "id": "m1"}
            for ack_only in (True, False):
                replies = await sender.forward("forwarded-game", move, {}, ack_only=ack_only)
                assert replies == [{"type": "ack", "id": "m1"}]
        finally:
            await owner.stop()

    run_node(redis, scenario)
    assert heard == [True, False]

"""A game's spectator count in a cluster (``live/watching.py``, on a real Redis): the owner writes
it to the hash every node's lists read *before* it tells the game's sockets, so a page that hears
a count and then asks any node's list sees the same; and a burst of changes leaves the hash with
the newest count, each told once in order."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
import redis as sync_redis
from tests.server.live.test_cluster_leases import run_node
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.live.cluster import Cluster
from doushouqi.server.live.watching import SPECTATORS, report_spectators

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")


class Watched:
    """A game's actor as the count sees it; ``broadcast`` notes, with each notice, what the
    hash held for the game when the sockets were told."""

    def __init__(self, game_id: str, redis_url: str) -> None:
        self.id, self.version, self.spectators = game_id, 7, None
        self.game: Any = SimpleNamespace(
            players=[SimpleNamespace(identity="red"), SimpleNamespace(identity="blue")],
            status=SimpleNamespace(is_over=False),
        )
        self.watcher_identities: set[Any] = {"red", "blue"}
        self.told: list[tuple[int, str | None]] = []
        self._hash = sync_redis.Redis.from_url(redis_url, decode_responses=True)

    def broadcast(self, texts: Iterable[str], *, notice: bool = False) -> None:
        assert notice
        for text in texts:
            held = self._hash.hget(SPECTATORS, self.id)  # blocking on purpose: at this instant
            self.told.append((orjson.loads(text)["count"], held))  # type: ignore[arg-type]


async def settled(cluster: Cluster) -> None:
    while cluster._tasks:
        await asyncio.sleep(0.01)


def test_a_count_is_in_every_nodes_lists_before_its_sockets_hear_it(redis: RedisServer) -> None:
    game = Watched("watched1", redis.url)

    async def scenario(cluster: Cluster) -> None:
        game.watcher_identities |= {"s1", "s2"}
        report_spectators(game, cluster)
        assert game.spectators == 2  # the owner's own lists read it at once
        await settled(cluster)

    run_node(redis, scenario)
    assert game.told == [(2, "2")]


def test_a_burst_of_changes_leaves_the_newest_count(redis: RedisServer) -> None:
    game = Watched("watched2", redis.url)

    async def scenario(cluster: Cluster) -> None:
        for n in (1, 2, 3, 2, 1, 4):  # faster than Redis answers: no await between them
            game.watcher_identities = {"red", "blue"} | {f"s{i}" for i in range(n)}
            report_spectators(game, cluster)
        await settled(cluster)
        game.watcher_identities = {"red", "blue", "s0", "s1", "s2", "s3"}
        game.game.status.is_over = True  # the game ends: off the hash, nobody told again
        report_spectators(game, cluster)
        await settled(cluster)

    run_node(redis, scenario)
    assert game.told[-1] == (4, "4")
    assert all(held == str(count) for count, held in game.told)
    assert sync_redis.Redis.from_url(redis.url).hget(SPECTATORS, "watched2") is None

"""Presence across nodes on a real Redis: at each beat a node records the players it has at the
boards of games owned elsewhere, and reads who the other nodes have at the boards of the games
it owns — a few hundred games to one script call — leaving out the records of a node that has
stopped writing them (dead, or cut off)."""

from __future__ import annotations

import json
import time

import pytest
import redis as sync_redis
from tests.server.live.test_cluster_leases import run_node
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.domain import Account, Guest
from doushouqi.server.live.cluster import Cluster
from doushouqi.server.live.subscriber import Subscriber

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")


def test_each_owned_game_sees_the_players_other_live_nodes_have_at_its_board(
    redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five owned games read in three calls (two to a call): each game gets its own players,
    a record older than three beats counts for nothing, and this node's own record of a game
    is not "elsewhere"."""
    monkeypatch.setattr("doushouqi.server.live.cluster._GAMES_A_CALL", 2)
    client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
    now = time.time()

    def record(node: str, game: str, *players: object, at: float = now) -> None:
        ids = [json.dumps(p.to_dict()) for p in players]  # type: ignore[attr-defined]
        client.hset(f"dsq:presence:{game}", node, json.dumps({"t": at, "ids": ids}))

    record("other", "g0", Guest("ann"))
    record("other", "g1", Account(7), Guest("bo"))
    record("third", "g1", Account(8))
    record("dead", "g2", Guest("gone"), at=now - 60)
    record("node-under-test", "g3", Guest("here"))

    async def scenario(cluster: Cluster) -> None:
        cluster.owned.update(f"g{n}" for n in range(5))
        await cluster._refresh_presence()
        assert cluster.present_elsewhere("g0") == {Guest("ann")}
        assert cluster.present_elsewhere("g1") == {Account(7), Guest("bo"), Account(8)}
        assert cluster.present_elsewhere("g2") == frozenset()
        assert cluster.present_elsewhere("g3") == frozenset()
        assert cluster.present_elsewhere("g4") == frozenset()
        assert cluster.is_connected_elsewhere("g1", Account(8))

    run_node(redis, scenario)
    client.close()


def test_a_node_records_the_players_it_has_at_boards_owned_elsewhere(
    redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three followed games written in two calls, each with its own sockets' players (a
    spectator without an identity is not listed), and written again when they change."""
    monkeypatch.setattr("doushouqi.server.live.cluster._GAMES_A_CALL", 2)
    client = sync_redis.Redis.from_url(redis.url, decode_responses=True)

    def players(game: str) -> list[str]:
        text = client.hget(f"dsq:presence:{game}", "node-under-test")
        assert text is not None
        return sorted(str(json.loads(i)["id"]) for i in json.loads(text)["ids"])

    async def scenario(cluster: Cluster) -> None:
        sockets = {
            "f0": [Subscriber(Guest("ann"))],
            "f1": [Subscriber(Account(7)), Subscriber(Guest("bo")), Subscriber(None)],
            "f2": [Subscriber(Account(9))],
        }
        for game, followers in sockets.items():
            remote = cluster.handle(game)
            cluster.remote[game] = remote
            for follower in followers:
                remote.subscribers[follower] = 0
        await cluster._refresh_presence()
        assert [players(g) for g in sockets] == [["ann"], ["7", "bo"], ["9"]]
        del cluster.remote["f1"].subscribers[sockets["f1"][1]]
        await cluster._refresh_presence()
        assert players("f1") == ["7"]

    run_node(redis, scenario)
    client.close()

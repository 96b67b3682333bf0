"""A node's game leases in Redis (real): kept while its event loop is busy, given up when the
loop is stuck, taken back when Redis lost them, and a lease another node has taken is dropped
here."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest
import redis as sync_redis
from tests.support.redis_server import RedisServer, redis_server_path

from doushouqi.server.infra.timesource import SystemTime
from doushouqi.server.live.cluster import Cluster

pytestmark = pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed")

LEASE = 1.0


class Registry:
    """What the cluster calls back on the node's registry."""

    def __init__(self) -> None:
        self.dropped: list[str] = []
        self.services = SimpleNamespace(time=SystemTime())

    def active_ai_games(self, now: float) -> int:
        return 0

    def drop(self, game_id: str) -> None:
        self.dropped.append(game_id)

    def reschedule(self, game_id: str) -> None:
        pass


def run_node(redis: RedisServer, scenario: Any, registry: Registry | None = None) -> Registry:
    registry = registry or Registry()

    async def main() -> None:
        cluster = Cluster(redis.url, "node-under-test", lease_seconds=LEASE, claim_interval=60)
        await cluster.start(registry)  # type: ignore[arg-type]
        try:
            await scenario(cluster)
        finally:
            await cluster.stop()

    asyncio.run(main())
    return registry


async def dropped(cluster: Cluster, game_id: str, seconds: float = 5.0) -> bool:
    """Whether the node stops counting ``game_id`` as its own within ``seconds`` (its lease
    keeper's next renewals)."""
    for _ in range(round(seconds / 0.1)):
        await asyncio.sleep(0.1)
        if game_id not in cluster.owned:
            return True
    return False


def lease_holder(redis: RedisServer, game_id: str) -> str | None:
    client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
    try:
        holder = client.get(f"dsq:lease:{game_id}")
        return None if holder is None else str(holder)
    finally:
        client.close()


def test_a_busy_event_loop_keeps_its_leases(redis: RedisServer) -> None:
    async def scenario(cluster: Cluster) -> None:
        assert await cluster.acquire("busy")
        time.sleep(3 * LEASE)  # the loop runs nothing for three lease lives (a burst of work)
        assert lease_holder(redis, "busy") == "node-under-test"
        await asyncio.sleep(0)
        assert "busy" in cluster.owned

    assert run_node(redis, scenario).dropped == []


def test_a_stuck_event_loop_lets_its_leases_lapse(redis: RedisServer) -> None:
    async def scenario(cluster: Cluster) -> None:
        assert await cluster.acquire("stuck")
        time.sleep(8 * LEASE)  # past five lease lives: stuck, not busy
        assert lease_holder(redis, "stuck") is None  # another node may claim it now

    run_node(redis, scenario)


def test_a_lease_taken_by_another_node_is_dropped_here(redis: RedisServer) -> None:
    async def scenario(cluster: Cluster) -> None:
        assert await cluster.acquire("taken")
        client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        client.set("dsq:lease:taken", "other-node", px=int(LEASE * 1000))  # cut off, then lost
        client.close()
        assert await dropped(cluster, "taken")
        assert lease_holder(redis, "taken") == "other-node"

    assert run_node(redis, scenario).dropped == ["taken"]


def test_a_lease_being_passed_on_is_left_to_the_hand_over(redis: RedisServer) -> None:
    """A hand-over passes a game's lease in Redis, then disowns the game when the loop resumes
    it; a renewal answered in between finds the lease another node's. The keeper leaves such a
    game to the hand-over (no "lost the lease", the registry keeps it); once the hand-over is
    done with it, a lease another node holds is a loss again."""

    async def scenario(cluster: Cluster) -> None:
        assert await cluster.acquire("passing")
        cluster.passing.add("passing")  # the hand-over's pass in flight
        client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        client.set("dsq:lease:passing", "new-owner", px=int(5 * LEASE * 1000))  # passed
        await asyncio.sleep(3 * cluster.beat_seconds)  # renewals meanwhile
        assert "passing" in cluster.owned
        cluster.passing.discard("passing")  # a hand-over that did not disown it
        assert await dropped(cluster, "passing")
        assert lease_holder(redis, "passing") == "new-owner"
        client.close()

    assert run_node(redis, scenario).dropped == ["passing"]


def test_leases_renewed_in_several_calls_each_answer_for_their_own_game(
    redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keeper renews its leases a few hundred to a call of the script: with two to a call,
    seven games take four calls, and the one lease another node took is the one dropped, the
    others renewed past their first life (each call's answers matched to its own games)."""
    monkeypatch.setattr("doushouqi.server.live.cluster._GAMES_A_CALL", 2)
    games = [f"g{n}" for n in range(7)]
    taken = "g4"

    async def scenario(cluster: Cluster) -> None:
        for game_id in games:
            assert await cluster.acquire(game_id)
        client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        client.set(f"dsq:lease:{taken}", "other-node", px=int(3 * LEASE * 1000))
        client.close()
        await asyncio.sleep(2 * LEASE)  # past the first life: kept only by renewals
        assert cluster.owned == set(games) - {taken}
        for game_id in games:
            expected = "other-node" if game_id == taken else "node-under-test"
            assert lease_holder(redis, game_id) == expected

    assert run_node(redis, scenario).dropped == [taken]


def test_a_lease_redis_lost_is_taken_back_by_its_node(redis: RedisServer) -> None:
    """Redis restarted without its data (here: flushed): the node's next renewal takes its
    leases back, and records it as their games' owner again, unless another node claimed one
    first (then it drops that game, as above)."""

    async def scenario(cluster: Cluster) -> None:
        assert await cluster.acquire("kept")
        assert await cluster.acquire("claimed")
        client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        client.flushall()
        client.set("dsq:lease:claimed", "other-node", px=int(LEASE * 1000))
        for _ in range(50):
            await asyncio.sleep(0.1)
            if lease_holder(redis, "kept") is not None and "claimed" not in cluster.owned:
                break
        assert lease_holder(redis, "kept") == "node-under-test"
        assert client.hget("dsq:owners", "kept") == "node-under-test"
        assert cluster.owned == {"kept"}
        assert lease_holder(redis, "claimed") == "other-node"
        client.close()

    assert run_node(redis, scenario).dropped == ["claimed"]


def test_following_a_game_while_redis_is_away_fails_clearly_then_works_again(
    redis: RedisServer,
) -> None:
    """A socket to a game owned elsewhere subscribes to its channel. With Redis away that
    fails at once with ClusterUnavailable (the client reconnects), and once Redis is back the
    next try subscribes again, rather than waiting on the lost try for ever."""
    from doushouqi.server.live.cluster import ClusterUnavailable

    async def scenario(cluster: Cluster) -> None:
        redis.kill()
        try:
            with pytest.raises(ClusterUnavailable):
                await cluster.listen(cluster.handle("away"))
        finally:
            redis.start()
        deadline = time.monotonic() + 15
        while True:
            try:
                await cluster.listen(cluster.handle("away"))
                break
            except ClusterUnavailable:
                assert time.monotonic() < deadline, "never subscribed again"
                await asyncio.sleep(0.2)

    run_node(redis, scenario)

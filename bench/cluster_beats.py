"""CPU of a cluster node's beat (docs/server.md, "The cluster's beats"): the lease keeper's
renewals and the presence beat, in-process against a real redis-server started here.

    .venv/bin/python bench/cluster_beats.py                    # 400 leases; 133 + 133 games
    .venv/bin/python bench/cluster_beats.py --leases 1000 --followed 300 --owned 300

Prints the best of ``--rounds`` rounds, each the mean of ``--beats`` beats, in ms of the
thread's CPU. Compare code with ``PYTHONPATH`` switched (``git archive … src``), one run after
the other."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from tests.support.redis_server import redis_server  # noqa: E402

from doushouqi.server.domain import Guest  # noqa: E402
from doushouqi.server.live import cluster as node  # noqa: E402
from doushouqi.server.live.subscriber import Subscriber  # noqa: E402

try:
    from doushouqi.server.live.cluster_keys import HOLD
except ImportError:  # a tree from before cluster_keys.py, timed side by side
    HOLD = node._HOLD  # type: ignore[attr-defined]


class _Registry:
    def reschedule(self, game_id: str) -> None:
        pass


def _best(rounds: int, beats: int, beat: object) -> float:
    """Best of ``rounds`` means of ``beats`` calls of ``beat`` (sync or async), ms of CPU."""

    async def measure() -> float:
        best = float("inf")
        for _ in range(rounds):
            start = time.thread_time()
            for _ in range(beats):
                done = beat()  # type: ignore[operator]
                if asyncio.iscoroutine(done):
                    await done
            best = min(best, (time.thread_time() - start) / beats * 1e3)
        return best

    return asyncio.run(measure())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leases", type=int, default=400)
    parser.add_argument("--followed", type=int, default=133, help="games followed here")
    parser.add_argument("--owned", type=int, default=133, help="games owned here")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--beats", type=int, default=20)
    args = parser.parse_args()
    with redis_server() as server:
        client = redis.Redis.from_url(server.url, decode_responses=True)
        cluster = node.Cluster(server.url, "bench-node", lease_seconds=6)
        cluster.registry = _Registry()  # type: ignore[assignment]
        for n in range(args.leases):
            client.set(f"dsq:lease:lease{n:05d}", "bench-node")
            cluster.owned.add(f"lease{n:05d}")
        renew = client.register_script(HOLD)
        leases = _best(args.rounds, args.beats, lambda: cluster._renew_with(client, renew))
        cluster.owned.clear()
        for n in range(args.followed):
            remote = node.RemoteGame(cluster, f"followed{n:05d}")
            remote.subscribers = {Subscriber(Guest(f"guest-{n:06d}")): 0}
            cluster.remote[remote.id] = remote
        now = time.time() + 3600  # fresh for the whole run
        for n in range(args.owned):
            game = f"owned{n:05d}"
            cluster.owned.add(game)
            ids = [json.dumps(Guest(f"elsewhere-{n:06d}").to_dict())]
            client.hset(f"dsq:presence:{game}", "other-node", json.dumps({"t": now, "ids": ids}))
        presence = _best(args.rounds, args.beats, cluster._refresh_presence)
        assert sum(len(p) for p in cluster._presence.values()) == args.owned
        print(f"lease keeper, {args.leases} leases: {leases:.2f} ms of CPU a beat")
        print(
            f"presence, {args.followed} games followed and {args.owned} owned: "
            f"{presence:.2f} ms of CPU a beat"
        )
        cluster.outbox.close()
        client.close()


if __name__ == "__main__":
    main()

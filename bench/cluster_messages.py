"""CPU of the cluster's messages between nodes (docs/server.md, "Thirteenth round"): one node
asks another and waits for its answer (``Cluster.ask`` and ``Cluster.reply``: a message each
way, as a forwarded move's command and its reply), in-process against a real redis-server
started here; both nodes run on this process's event loop.

    .venv/bin/python bench/cluster_messages.py                 # 2,000 round trips, best of 5

Prints the best of ``--rounds`` rounds, in µs of the event loop thread's CPU a message (its
publishing, reading and handling, both nodes together) and Redis's own. Compare code with
``PYTHONPATH`` switched (``git archive … src``), taking turns."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from tests.support.redis_server import redis_server  # noqa: E402

from doushouqi.server.infra.timesource import SystemTime  # noqa: E402
from doushouqi.server.live.cluster import Cluster  # noqa: E402


class _Registry:
    """What the cluster calls back on the node's registry: nothing happens here."""

    def __init__(self) -> None:
        self.services = SimpleNamespace(time=SystemTime())

    def active_ai_games(self, now: float) -> int:
        return 0

    def reschedule(self, game_id: str) -> None:
        pass


def _cpu_seconds(pid: int) -> float:
    """A process's user and system time (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _measure(url: str, redis_pid: int, rounds: int, trips: int) -> tuple[float, float]:
    asker = Cluster(url, "asking-node", lease_seconds=60, claim_interval=600)
    owner = Cluster(url, "answering-node", lease_seconds=60, claim_interval=600)
    for node in (asker, owner):
        await node.start(_Registry())  # type: ignore[arg-type]
    # A forwarded move's answer: the owner's ack of it.
    answer = [{"type": "ack", "id": 7}]
    owner.node_ops["echo"] = lambda data: owner.reply(data["from"], data["id"], answer)
    request: dict[str, Any] = {"game": "g" * 12, "message": {"type": "move", "move": "a1a2"}}
    best_cpu = best_redis = float("inf")
    try:
        for _ in range(rounds):
            cpu, redis_cpu = time.thread_time(), _cpu_seconds(redis_pid)
            for _ in range(trips):
                if await asker.ask("answering-node", "echo", request, 5.0) != answer:
                    raise SystemExit("a wrong answer came back")
            messages = 2 * trips
            best_cpu = min(best_cpu, (time.thread_time() - cpu) / messages * 1e6)
            best_redis = min(best_redis, (_cpu_seconds(redis_pid) - redis_cpu) / messages * 1e6)
    finally:
        for node in (asker, owner):
            await node.stop()
    return best_cpu, best_redis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=2000, help="round trips a round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with redis_server() as server:
        assert server.process is not None
        cpu, redis_cpu = asyncio.run(
            _measure(server.url, server.process.pid, args.rounds, args.trips)
        )
    print(f"a message between nodes: {cpu:.1f} µs of the nodes' CPU, Redis {redis_cpu:.1f} µs")


if __name__ == "__main__":
    main()

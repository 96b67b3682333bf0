"""The chaos bench's schedule (``bench/cluster_chaos.py``): which blows fall when, drawn from
a seed alone, so that a run can be repeated blow for blow (what the system does in between
is its own: the timings of a loaded machine are not).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

KILL, REDIS, CUT = "kill", "redis", "cut"


@dataclass(frozen=True)
class ChaosEvent:
    """One blow: ``at`` seconds after play began; ``down`` seconds before it is undone."""

    at: float
    kind: str
    #: The node killed, "redis", or the players whose sockets are cut (their indexes).
    target: str
    down: float
    players: tuple[int, ...] = ()

    def describe(self) -> str:
        if self.kind == KILL:
            return f"kill -9 {self.target}, started again after {self.down:.1f} s"
        if self.kind == REDIS:
            return f"Redis stopped, started again empty after {self.down:.1f} s"
        return f"sockets of {len(self.players)} players cut for {self.down:.1f} s"


def plan_chaos(
    seed: int,
    duration: float,
    kills: int,
    redis_restarts: int,
    cuts: int,
    nodes: list[str],
    players: int,
) -> list[ChaosEvent]:
    """The schedule, from ``seed`` alone: the blows in a shuffled order, one in each equal
    slot of the run's middle (the first seconds are left to play in, and the last quarter
    to recover in, so that a game stuck at the end was not just hit)."""
    rng = random.Random(seed)
    kinds = [KILL] * kills + [REDIS] * redis_restarts + [CUT] * cuts
    rng.shuffle(kinds)
    begin = min(5.0, 0.1 * duration)
    end = max(begin + 1.0, duration - max(10.0, 0.25 * duration))
    slot = (end - begin) / max(1, len(kinds))
    plan = []
    for index, kind in enumerate(kinds):
        at = round(begin + slot * index + rng.uniform(0, 0.5 * slot), 2)
        if kind == KILL:
            plan.append(ChaosEvent(at, kind, rng.choice(nodes), round(rng.uniform(2, 5), 2)))
        elif kind == REDIS:
            plan.append(ChaosEvent(at, kind, "redis", round(rng.uniform(1, 3), 2)))
        else:
            picked = tuple(sorted(rng.sample(range(players), max(1, players // 4))))
            plan.append(ChaosEvent(at, kind, "players", round(rng.uniform(1, 3), 2), picked))
    return plan

"""Arena tournaments: points per game and the pairing of waiting players. Pure: no IO, no clock
(the caller passes ``now``).

Points (learnt from lichess's arena, written here): a win is 2, a draw 1, a loss 0. Two wins in
a row put a player "on fire" (连胜): while on fire every game's points are doubled (a win 4, a
draw 2); anything but a win puts the fire out. A forfeit win (the opponent did not come) counts
as a win; a forfeit loss as a loss.

Pairing: whenever players are idle (not in a game, not withdrawn, not absent), they are paired
among themselves at once, preferring opponents close in the standings (a maximum-weight
matching over the idle players; the weight falls with the square of the rank distance), and
avoiding an immediate rematch of the same two: the last opponent is chosen only when nobody
else can be, and then only once both have waited ``REMATCH_HOLD`` seconds or nobody is left
playing who could free up. With an odd number idle, the player who has waited least sits out
(the others' waits are longer: they go first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

import networkx as nx

__all__ = [
    "REMATCH_HOLD",
    "ArenaPlayer",
    "Outcome",
    "game_points",
    "pair_waiting",
]

#: Seconds two players whose only possible opponent is the last one wait before a rematch.
REMATCH_HOLD = 15.0

WIN_POINTS, DRAW_POINTS, LOSS_POINTS = 2, 1, 0
#: Consecutive wins that light the fire (from the next game on, points are doubled).
FIRE_AFTER = 2

_B = 1 << 24


class Outcome(StrEnum):
    """One game's outcome for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def game_points(outcomes: Iterable[Outcome]) -> list[tuple[int, bool]]:
    """Each game's points, in order, and whether it was played on fire (doubled).

    >>> [p for p, _ in game_points([Outcome.WIN, Outcome.WIN, Outcome.WIN, Outcome.DRAW])]
    [2, 2, 4, 2]
    >>> [p for p, _ in game_points([Outcome.WIN, Outcome.WIN, Outcome.LOSS, Outcome.WIN])]
    [2, 2, 0, 2]
    """
    points: list[tuple[int, bool]] = []
    streak = 0
    for outcome in outcomes:
        on_fire = streak >= FIRE_AFTER
        base = {Outcome.WIN: WIN_POINTS, Outcome.DRAW: DRAW_POINTS, Outcome.LOSS: LOSS_POINTS}
        points.append((base[outcome] * (2 if on_fire else 1), on_fire))
        streak = streak + 1 if outcome is Outcome.WIN else 0
    return points


def is_on_fire(outcomes: Sequence[Outcome]) -> bool:
    """Whether the next game's points are doubled."""
    streak = 0
    for outcome in outcomes:
        streak = streak + 1 if outcome is Outcome.WIN else 0
    return streak >= FIRE_AFTER


@dataclass(frozen=True)
class ArenaPlayer:
    """An idle player: their key, rank in the standings now (0 = first), since when they have
    been waiting, and their last opponent (None before their first game)."""

    key: str
    rank: int
    idle_since: float
    last_opponent: str | None = None


def pair_waiting(
    idle: Sequence[ArenaPlayer], now: float, *, others_playing: bool = True
) -> list[tuple[str, str]]:
    """Pairs of idle players to start games for now (unordered; the caller gives colours).

    ``others_playing``: whether some players are in a game now (they may free up soon to spare
    two players an immediate rematch)."""
    if len(idle) < 2:
        return []
    by_key = {p.key: p for p in idle}
    graph = nx.Graph()
    for i, a in enumerate(idle):
        for b in idle[i + 1 :]:
            rematch = a.last_opponent == b.key or b.last_opponent == a.key
            if rematch and others_playing:
                waited = min(now - a.idle_since, now - b.idle_since)
                if waited < REMATCH_HOLD:
                    continue  # wait for someone else to free up
            cost = (1 if rematch else 0) * _B**2 + (a.rank - b.rank) ** 2
            graph.add_edge(a.key, b.key, weight=_B**3 - cost)
    if len(idle) % 2:
        # The pseudo-player "sit out": the shorter the wait, the cheaper to sit out.
        longest = max(now - p.idle_since for p in idle)
        for p in idle:
            waited = now - p.idle_since
            cost = round((waited / max(longest, 1e-9)) * 1000) * _B
            graph.add_edge(p.key, "\x00sit-out", weight=_B**3 - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = []
    for a, b in matching:
        if "\x00sit-out" in (a, b):
            continue
        first, second = sorted((a, b), key=lambda k: by_key[k].rank)
        pairs.append((first, second))
    pairs.sort(key=lambda pair: by_key[pair[0]].rank)
    return pairs

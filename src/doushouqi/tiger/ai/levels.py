"""Playing levels 1–10 of the Tiger's engine: how much a level may search, and how it picks.

The same scheme as Jungle's levels, with this game's numbers. Level 10 is the engine at full
strength. Below it, every level is a step down in each of these at once, for either side:

* effort — a node budget (levels 1-5 also a depth cap), about three times larger at each
  level from 6 up, so that a level is the same opponent on any machine at any load; level 10
  has no cap and uses all the time it gets. A share of the time budget is only a safety net
  for short clocks;
* evaluation noise — a fixed pseudo-random number of centipawns per position (the same within
  one search), smaller at each level; kept well below a man's value, so a weak tiger still
  takes a man left hanging and weak men still close a cage they see;
* choice — levels 1–5 score every root move exactly and pick at random among the moves
  within ``margin`` centipawns of the best, weighted by ``exp(score / temperature)``;
* foresight — levels 1–7 see only part of the evaluation's foresight terms (a man that can
  be jumped, a fork, a cage closing: ``awareness``). Depth alone does not make a weak level
  here: two plies and quiescence already see every single jump, and a level that sees a
  fork coming statically never walks into one, so without this every level from 2 up drew
  every game against every other (measured: ``bench/tiger_ladder.py``).

A beginner (level 1) looks one move ahead and judges the result as it stands (no
quiescence: a tiger at level 1 does not see the man it loses the chance of, men do not see
the jump they allow), but it always takes a win it sees (won scores are beyond any margin).
How far apart the levels are is measured, not assumed: ``bench/tiger_ladder.py``.

>>> settings_for(10).max_depth is None and settings_for(10).noise == 0
True
>>> [settings_for(level).max_depth for level in (1, 2, 3)]
[1, 2, 3]
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence

from doushouqi.tiger.analysis import WIN_SCORE

__all__ = ["LEVELS", "MAX_LEVEL", "MIN_LEVEL", "LevelSettings", "choose_root_move", "settings_for"]

MIN_LEVEL = 1
MAX_LEVEL = 10


@dataclasses.dataclass(frozen=True)
class LevelSettings:
    level: int
    #: Deepest iteration (None: no cap).
    max_depth: int | None
    #: Most nodes per search (None: no cap).
    max_nodes: int | None
    #: Share of the time budget the level uses.
    time_share: float
    #: Evaluation noise amplitude, centipawns.
    noise: int
    #: Softmax temperature for choosing among near-best root moves (0: always the best).
    temperature: float
    #: Only moves within this many centipawns of the best are candidates.
    margin: int
    #: Whether leaves are searched on until quiet (False: judged as they stand).
    quiescence: bool = True
    #: How much of the evaluation's foresight terms the level sees (1: all; see
    #: :func:`~doushouqi.tiger.ai.eval_params.with_awareness`).
    awareness: float = 1.0

    @property
    def exact_root(self) -> bool:
        """Whether every root move needs an exact score (to choose among them)."""
        return self.temperature > 0


LEVELS: dict[int, LevelSettings] = {
    s.level: s
    for s in (
        LevelSettings(1, 1, 3_000, 0.005, 90, 45.0, 260, quiescence=False, awareness=0.1),
        LevelSettings(2, 2, 8_000, 0.008, 70, 32.0, 200, awareness=0.2),
        LevelSettings(3, 3, 20_000, 0.012, 50, 22.0, 140, awareness=0.35),
        LevelSettings(4, 4, 40_000, 0.017, 38, 15.0, 90, awareness=0.5),
        LevelSettings(5, 6, 80_000, 0.024, 28, 10.0, 55, awareness=0.65),
        LevelSettings(6, None, 40_000, 0.035, 20, 0.0, 0, awareness=0.8),
        LevelSettings(7, None, 120_000, 0.06, 14, 0.0, 0, awareness=0.9),
        LevelSettings(8, None, 360_000, 0.15, 9, 0.0, 0),
        LevelSettings(9, None, 1_000_000, 0.5, 4, 0.0, 0),
        LevelSettings(10, None, None, 1.0, 0, 0.0, 0),
    )
}


def settings_for(level: int) -> LevelSettings:
    """The settings of ``level`` (clamped to 1..10)."""
    return LEVELS[min(MAX_LEVEL, max(MIN_LEVEL, int(level)))]


def _spread(score: int) -> int:
    """Won scores pulled a million centipawns apart per ply (they are one apart), so that no
    margin ever lets a level prefer a slower win, or hasten a loss."""
    bound = WIN_SCORE - 1000
    if score > bound:
        return WIN_SCORE * 1000 - (WIN_SCORE - score) * WIN_SCORE
    if score < -bound:
        return -WIN_SCORE * 1000 + (WIN_SCORE + score) * WIN_SCORE
    return score


def choose_root_move(
    scores: Sequence[int], settings: LevelSettings, rng: random.Random | None = None
) -> int:
    """Index of the move to play given exact centipawn ``scores`` of every root move."""
    if not scores:
        raise ValueError("no moves to choose from")
    best = max(range(len(scores)), key=lambda i: scores[i])
    if settings.temperature <= 0 or len(scores) == 1:
        return best
    rng = rng or random.Random()
    spread = [_spread(s) for s in scores]
    top = spread[best]
    candidates = [i for i, s in enumerate(spread) if s >= top - settings.margin]
    weights = [math.exp((spread[i] - top) / settings.temperature) for i in candidates]
    return rng.choices(candidates, weights=weights)[0]

"""Playing levels 1–10: how much a level may search, and how it picks among good moves.

Level 10 is the engine at full strength. Below it, every level is a strict step down in each
of these at once, so that each level beats the one below it (below about 0.3 s a move the
time limit, not the node budget, stops the top levels, and they come closer together):

* effort — a node budget (levels 1-5 also a depth cap), about three times larger at each
  level from 6 up, so a level is the same opponent on any machine at any load (measured
  in ``bench/ladder.py``); level 10 has no cap and uses the time it gets, stopping early
  once its best move has stood for a few depths (the ``easy_stop`` knob). A share of the
  time budget is only a safety net for short clocks: at the server's second a move, every
  level reaches its node cap well inside its share even on a busy machine;
* evaluation noise — a fixed pseudo-random number of centipawns per position (the same within
  one search, so the search stays consistent), smaller at each level; kept well below a
  minor animal's value, or the weak levels forget where the den is and wander (self-play
  games then end at the move limit instead of in a den);
* choice — levels 1–5 score every root move exactly and pick at random among the moves
  within ``margin`` centipawns of the best, weighted by ``exp(score / temperature)``;
* evaluation — by default (``Evaluation auto``) level 10 evaluates with the learned network
  and the levels below with the hand-tuned terms (``network``).

A beginner (level 1) still plays legal, plausible moves: it looks one move ahead and judges
the result as it stands (no quiescence: it does not see what it loses on the next move), so
it takes a free animal most of the time — its value is far above the noise — and always
enters the den when it can (den scores are beyond any margin).

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

from doushouqi.jungle.analysis import DEN_SCORE

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
    #: Whether the engine's default evaluation (``auto``) is the learned network here rather
    #: than the hand-tuned terms. Only level 10, where time stops the search: the network
    #: scores more per second there (docs/engine-research.md). The levels below are node
    #: budgets measured with the hand-tuned terms, which search twice the nodes a second.
    network: bool = False

    @property
    def exact_root(self) -> bool:
        """Whether every root move needs an exact score (to choose among them)."""
        return self.temperature > 0


LEVELS: dict[int, LevelSettings] = {
    s.level: s
    for s in (
        LevelSettings(1, 1, 3_000, 0.005, 120, 40.0, 300, quiescence=False),
        LevelSettings(2, 2, 8_000, 0.008, 80, 30.0, 220),
        LevelSettings(3, 3, 20_000, 0.012, 55, 22.0, 160),
        LevelSettings(4, 4, 40_000, 0.017, 40, 15.0, 100),
        LevelSettings(5, 5, 80_000, 0.024, 30, 10.0, 60),
        LevelSettings(6, None, 25_000, 0.035, 20, 0.0, 0),
        LevelSettings(7, None, 75_000, 0.06, 15, 0.0, 0),
        LevelSettings(8, None, 220_000, 0.15, 10, 0.0, 0),
        LevelSettings(9, None, 650_000, 0.5, 5, 0.0, 0),
        LevelSettings(10, None, None, 1.0, 0, 0.0, 0, network=True),
    )
}


def settings_for(level: int) -> LevelSettings:
    """The settings of ``level`` (clamped to 1..10)."""
    return LEVELS[min(MAX_LEVEL, max(MIN_LEVEL, int(level)))]


def _spread(score: int) -> int:
    """Den scores pulled a million centipawns apart per ply (they are one apart), so that no
    margin ever lets a level prefer a slower den win, or delay a den loss less."""
    bound = DEN_SCORE - 1000
    if score > bound:
        return DEN_SCORE * 1000 - (DEN_SCORE - score) * DEN_SCORE
    if score < -bound:
        return -DEN_SCORE * 1000 + (DEN_SCORE + score) * DEN_SCORE
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

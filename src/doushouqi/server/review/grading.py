"""How well each side played a game: the arithmetic of the replay's review (docs/server.md,
"Game review"). Pure: numbers in, numbers out; the web client never computes any of it.

Scores are the engine's, from Red's view, in centipawns, one per position of the game
(``scores[0]`` the start, ``scores[i]`` after ply ``i``; a forced den entry is about
±:data:`DEN_CP`; None where no score is known).

* **Win chance.** A score becomes the mover's expected result in percent with the logistic
  curve the engine's evaluation was tuned against (``tools/tuning/texel.py``, K in
  docs/engine-research.md): ``win% = 100 / (1 + exp(-K × cp))``. Centipawns mean little by
  themselves (a lost cat is nothing in a won game, everything in an even one); the expected
  result is what a move can waste.
* **Loss of a move** = the mover's win% before it minus after it (never below 0).
* **Per-move accuracy** = ``100 × exp(-loss / ACCURACY_SCALE)``: 100 for a move that loses
  nothing, about 78 for 5 points, 47 for 15, 22 for 30.
* **Game accuracy** of a side = the harmonic mean of its moves' accuracies (each floored at
  :data:`ACCURACY_FLOOR`). The plain mean lets a long run of obvious moves hide a blunder
  (30 perfect moves and one at 22 average 97.5); the harmonic mean weighs the bad moves more
  (89.7 for the same game), and the floor keeps one hopeless move from zeroing the game.
* **Grades** by the loss in win%: inaccuracy (?!) from :data:`INACCURACY`, mistake (?) from
  :data:`MISTAKE`, blunder (??) from :data:`BLUNDER`. A dog lost in an even position costs
  about 6 points, a tiger 12, a lion 19.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ACCURACY_FLOOR",
    "ACCURACY_SCALE",
    "BLUNDER",
    "DEN_CP",
    "INACCURACY",
    "MISTAKE",
    "Grade",
    "K",
    "MoveGrade",
    "SideSummary",
    "first_seat_cp",
    "game_accuracy",
    "grade_of",
    "move_accuracy",
    "review",
    "win_percent",
]

#: The logistic curve's slope per centipawn: the engine's evaluation against game results
#: (docs/engine-research.md: a 1414 cp lead predicts a 75 % score).
K = 0.000777
#: A forced den entry's score (beyond any material score; as api/analysis.py sends it).
DEN_CP = 10000
#: Win% lost from which a move is an inaccuracy, a mistake, a blunder.
INACCURACY = 5.0
MISTAKE = 10.0
BLUNDER = 15.0
#: Win% lost that takes a move's accuracy down to 1/e (37 %).
ACCURACY_SCALE = 20.0
#: No move counts below this in the harmonic mean.
ACCURACY_FLOOR = 5.0

Grade = Literal["inaccuracy", "mistake", "blunder"]


def first_seat_cp(score: Mapping[str, int], turn: int) -> int:
    """An engine score of the side to move (``turn``: 0 the first seat, 1 the second) as one
    number from the first seat's view (Red's in Jungle): centipawns ``{"cp": n}``, or a decided
    game (``{"den": n}``: Jungle's den entry in n moves, ``{"win": n}``: a game's forced win;
    n < 0: lost in -n) as ±:data:`DEN_CP`, the sooner the larger."""
    decided = score.get("den", score.get("win"))
    if decided is not None:
        value = DEN_CP - abs(decided) if decided > 0 else -(DEN_CP - abs(decided))
    else:
        value = score["cp"]
    return value if turn == 0 else -value


def win_percent(cp: float) -> float:
    """The expected result in percent (0-100) of the side whose score ``cp`` is."""
    x = max(-50.0, min(50.0, K * cp))  # beyond that the curve is flat, and exp overflows never
    return 100.0 / (1.0 + math.exp(-x))


def move_accuracy(loss: float) -> float:
    """A move's accuracy (0-100) from the win% it lost."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def grade_of(loss: float) -> Grade | None:
    """The grade of a move that lost ``loss`` win%; None for a good move."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def game_accuracy(accuracies: Sequence[float]) -> float | None:
    """A side's accuracy over its moves: the harmonic mean, each floored; None for none."""
    if not accuracies:
        return None
    return len(accuracies) / sum(1.0 / max(ACCURACY_FLOOR, a) for a in accuracies)


@dataclass(frozen=True)
class MoveGrade:
    ply: int
    #: 0 Red, 1 Blue.
    mover: int
    loss: float
    accuracy: float
    grade: Grade | None


@dataclass(frozen=True)
class SideSummary:
    accuracy: float | None
    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int


def review(
    scores: Sequence[float | None], first_turn: int, moves: Sequence[str] | None = None
) -> tuple[list[MoveGrade], tuple[SideSummary, SideSummary]]:
    """Every gradable ply's grade and each side's summary. ``first_turn`` is the side to move
    at the start (0 Red, 1 Blue); the turn changes every ply (a pass too). A ply is graded
    when both scores around it are known and it is not a pass (``"0000"`` in ``moves``: a
    timeout chose it, not the player)."""
    graded: list[MoveGrade] = []
    for ply in range(1, len(scores)):
        before, after = scores[ply - 1], scores[ply]
        if before is None or after is None:
            continue
        if moves is not None and ply <= len(moves) and moves[ply - 1] == "0000":
            continue
        mover = (first_turn + ply - 1) % 2
        sign = 1.0 if mover == 0 else -1.0
        loss = max(0.0, win_percent(sign * before) - win_percent(sign * after))
        graded.append(MoveGrade(ply, mover, loss, move_accuracy(loss), grade_of(loss)))
    summaries = []
    for side in (0, 1):
        mine = [g for g in graded if g.mover == side]
        summaries.append(
            SideSummary(
                accuracy=game_accuracy([g.accuracy for g in mine]),
                moves=len(mine),
                inaccuracies=sum(g.grade == "inaccuracy" for g in mine),
                mistakes=sum(g.grade == "mistake" for g in mine),
                blunders=sum(g.grade == "blunder" for g in mine),
            )
        )
    return graded, (summaries[0], summaries[1])

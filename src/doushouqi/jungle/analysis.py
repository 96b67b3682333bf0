"""Search limits, scores and search info in Jungle's words: the shared
:mod:`doushouqi.core.analysis` with Jungle's Red and Blue for its seats.

Both the engine (``doushouqi.jungle.ai``) and the engine client (``doushouqi.jungle.engine``)
speak in these terms, like python-chess's ``chess.engine.Limit`` / ``PovScore`` / ``InfoDict``.
The client's scores are :class:`PovScore`: the side to move's :class:`Score` that also knows
whose view it is, so ``info["score"].red()`` or ``.pov(BLUE)`` read it from a fixed side's
view. A den entry (or any other win) N own moves away is ``Score(mate=N)``; Jungle's protocol
writes it ``den N`` (:func:`score_text`).

>>> Score(mate=3)
Score(mate=3)
>>> Score(cp=40) < Score(mate=5) and Score(mate=-2) < Score(cp=-900)
True
>>> str(Limit(movetime=1.0)), Limit(red_clock=5.0) == Limit(white_clock=5.0)
('movetime 1000', True)
>>> score = PovScore(cp=40, turn=1)  # 40 cp for Blue, who is to move
>>> score.red(), score.blue(), score.relative, score == Score(cp=40)
(Score(cp=-40), Score(cp=40), Score(cp=40), True)
"""

from __future__ import annotations

from typing import Any

from doushouqi.core import analysis as _core
from doushouqi.core.analysis import (
    WIN_SCORE,
    InfoSelection,
    Score,
    Wdl,
    seat_clocks,
    select_info,
)
from doushouqi.jungle.moves import Move

__all__ = [
    "DEN_SCORE",
    "Info",
    "InfoSelection",
    "Limit",
    "PlayResult",
    "PovScore",
    "Score",
    "Wdl",
    "score_text",
    "select_info",
]

#: Centipawn value used to order den wins above every material score.
DEN_SCORE = WIN_SCORE

Info = _core.Info[Move]
PlayResult = _core.PlayResult[Move]


class Limit(_core.Limit):
    """:class:`doushouqi.core.analysis.Limit` with Red's and Blue's clocks by name:
    ``red_clock``/``red_inc`` are seat 0's (``white_clock``), ``blue_clock``/``blue_inc``
    seat 1's, both as keywords and as properties."""

    def __init__(
        self,
        *,
        red_clock: float | None = None,
        blue_clock: float | None = None,
        red_inc: float | None = None,
        blue_inc: float | None = None,
        **limits: Any,
    ) -> None:
        own = {"red_clock": red_clock, "blue_clock": blue_clock}
        own |= {"red_inc": red_inc, "blue_inc": blue_inc}
        standard = {key: limits.pop(key, None) for key in _STANDARD_CLOCKS}
        super().__init__(**limits, **seat_clocks(("red", "blue"), own | standard))

    @property
    def red_clock(self) -> float | None:
        return self.white_clock

    @property
    def blue_clock(self) -> float | None:
        return self.black_clock

    @property
    def red_inc(self) -> float | None:
        return self.white_inc

    @property
    def blue_inc(self) -> float | None:
        return self.black_inc


_STANDARD_CLOCKS = ("white_clock", "black_clock", "white_inc", "black_inc")


class PovScore(_core.PovScore):
    """:class:`doushouqi.core.analysis.PovScore` with ``red()`` and ``blue()`` (python-chess's
    ``white()`` and ``black()``, which it has too)."""

    def red(self) -> Score:
        return self.pov(0)

    def blue(self) -> Score:
        return self.pov(1)


def score_text(score: Score) -> str:
    """A score as Jungle's protocol writes it: ``cp 35``, or ``den 3`` for a win in 3.

    >>> score_text(Score(mate=-2)), score_text(Score(cp=35))
    ('den -2', 'cp 35')
    """
    moves = score.mate()
    return f"den {moves}" if moves is not None else f"cp {score.cp}"

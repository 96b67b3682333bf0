"""Search limits, scores and search info in 老虎棋's words: the shared
:mod:`doushouqi.core.analysis` (the same classes Jungle uses) with the tiger side and the men
for its seats.

A won or lost game is a :class:`Score` with ``mate``: the moves of the side to move until the
game is won (``mate=3``) or lost (``mate=-2``) — by trapping the tiger, taking enough men or
leaving the men no move. On the protocol it is written ``mate N``, the UCI word, which every
UCI tool reads.

Clocks are per seat: ``tiger_clock`` (protocol ``wtime``, ``white_clock``) is seat 0's,
``men_clock`` (``btime``, ``black_clock``) seat 1's, whichever side moves first.

>>> Score(mate=3) > Score(cp=900) > Score(cp=-40) > Score(mate=-2)
True
>>> str(Score(mate=-2)), str(Limit(movetime=0.5, men_clock=30.0))
('mate -2', 'movetime 500 btime 30000')
"""

from __future__ import annotations

from typing import Any

from doushouqi.core import analysis as _core
from doushouqi.core.analysis import (
    WIN_SCORE,
    InfoSelection,
    PovScore,
    Score,
    Wdl,
    seat_clocks,
    select_info,
)
from doushouqi.tiger.moves import Move

__all__ = [
    "WIN_SCORE",
    "Info",
    "InfoSelection",
    "Limit",
    "PlayResult",
    "PovScore",
    "Score",
    "Wdl",
    "select_info",
]

Info = _core.Info[Move]
PlayResult = _core.PlayResult[Move]


class Limit(_core.Limit):
    """:class:`doushouqi.core.analysis.Limit` with the seats' clocks by name: ``tiger_clock``
    / ``tiger_inc`` are seat 0's (``white_clock``), ``men_clock`` / ``men_inc`` seat 1's."""

    def __init__(
        self,
        *,
        tiger_clock: float | None = None,
        men_clock: float | None = None,
        tiger_inc: float | None = None,
        men_inc: float | None = None,
        **limits: Any,
    ) -> None:
        own = {"tiger_clock": tiger_clock, "men_clock": men_clock}
        own |= {"tiger_inc": tiger_inc, "men_inc": men_inc}
        standard = {key: limits.pop(key, None) for key in _STANDARD_CLOCKS}
        super().__init__(**limits, **seat_clocks(("tiger", "men"), own | standard))

    @property
    def tiger_clock(self) -> float | None:
        return self.white_clock

    @property
    def men_clock(self) -> float | None:
        return self.black_clock

    @property
    def tiger_inc(self) -> float | None:
        return self.white_inc

    @property
    def men_inc(self) -> float | None:
        return self.black_inc


_STANDARD_CLOCKS = ("white_clock", "black_clock", "white_inc", "black_inc")

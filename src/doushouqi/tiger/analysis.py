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

What the engine client reports is an :data:`Info` (moves are :class:`~doushouqi.tiger.moves.Move`
values), what it plays a :data:`PlayResult`:

>>> info = Info(depth=6, score=PovScore(Score(cp=-120), 1), pv=[Move.from_str("e2e3")])
>>> result = PlayResult(Move.from_str("e2e3"), info)
>>> result.move, result.info["score"].pov(0)
(Move.from_str('e2e3'), Score(cp=120))
"""

from __future__ import annotations

from doushouqi.core import analysis as _core
from doushouqi.core.analysis import (
    WIN_SCORE,
    InfoSelection,
    PovScore,
    Score,
    Wdl,
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

#: What the engine reports about a search (:class:`doushouqi.core.analysis.Info`), its moves
#: :class:`~doushouqi.tiger.moves.Move` values.
Info = _core.Info[Move]
#: The move a search chose, with its last info (:class:`doushouqi.core.analysis.PlayResult`).
PlayResult = _core.PlayResult[Move]


class Limit(_core.Limit, seats=("tiger", "men")):
    """:class:`doushouqi.core.analysis.Limit` with the seats' clocks by name: ``tiger_clock``
    / ``tiger_inc`` are seat 0's (``white_clock``), ``men_clock`` / ``men_inc`` seat 1's.

    >>> limit = Limit(tiger_clock=60.0, tiger_inc=1.0, men_clock=45.0)
    >>> str(limit), limit.clock(1)
    ('wtime 60000 btime 45000 winc 1000', (45.0, None))
    >>> Limit(tiger_clock=60.0, white_clock=50.0)
    Traceback (most recent call last):
    ...
    TypeError: Limit() got both tiger_clock and white_clock (the same clock)
    """

    @property
    def tiger_clock(self) -> float | None:
        """The tiger side's (seat 0's) remaining time in seconds: :attr:`white_clock`.

        >>> Limit(tiger_clock=60.0).tiger_clock, Limit(white_clock=60.0).tiger_clock
        (60.0, 60.0)
        """
        return self.white_clock

    @property
    def men_clock(self) -> float | None:
        """The men's (seat 1's) remaining time in seconds: :attr:`black_clock`.

        >>> Limit(men_clock=42.5).men_clock, Limit(men_clock=42.5).black_clock
        (42.5, 42.5)
        """
        return self.black_clock

    @property
    def tiger_inc(self) -> float | None:
        """The tiger side's increment per move in seconds: :attr:`white_inc`.

        >>> Limit(tiger_clock=60.0, tiger_inc=2.0).tiger_inc
        2.0
        """
        return self.white_inc

    @property
    def men_inc(self) -> float | None:
        """The men's increment per move in seconds: :attr:`black_inc`.

        >>> Limit(men_clock=60.0, men_inc=0.5).men_inc, Limit(men_clock=60.0).men_inc
        (0.5, None)
        """
        return self.black_inc

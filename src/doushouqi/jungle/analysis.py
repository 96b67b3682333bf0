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

What a search reports, and what ``play`` returns, hold Jungle's moves:

>>> info: Info = {"depth": 6, "score": PovScore(mate=2, turn=0), "pv": [Move.from_str("d7d8")]}
>>> info["score"].red() > Score(cp=DEN_SCORE - 100), info["score"].blue()
(True, Score(mate=-2))
>>> result = PlayResult(Move.from_str("d7d8"), info)
>>> result.move.uci(), result.ponder
('d7d8', None)
"""

from __future__ import annotations

from doushouqi.core import analysis as _core
from doushouqi.core.analysis import (
    WIN_SCORE,
    InfoSelection,
    Score,
    Wdl,
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

#: What an engine reports about its search, with Jungle's moves in ``pv`` and ``refutation``
#: (:class:`doushouqi.core.analysis.Info`, a dict whose keys are all optional).
Info = _core.Info[Move]
#: An engine's chosen move, the last info of its search and the reply it expects
#: (:class:`doushouqi.core.analysis.PlayResult` with Jungle's moves).
PlayResult = _core.PlayResult[Move]


class Limit(_core.Limit, seats=("red", "blue")):
    """:class:`doushouqi.core.analysis.Limit` with Red's and Blue's clocks by name:
    ``red_clock``/``red_inc`` are seat 0's (``white_clock``), ``blue_clock``/``blue_inc``
    seat 1's, both as keywords and as properties.

    >>> limit = Limit(red_clock=60.0, red_inc=1.0, blue_clock=45.5, depth=8)
    >>> limit.red_clock, limit.blue_clock, limit.white_clock, limit.depth
    (60.0, 45.5, 60.0, 8)
    """

    @property
    def red_clock(self) -> float | None:
        """Red's (seat 0) time left on the clock in seconds (``white_clock``); None if not given.

        >>> Limit(red_clock=30.0).red_clock, Limit(time=1.0).red_clock
        (30.0, None)
        """
        return self.white_clock

    @property
    def blue_clock(self) -> float | None:
        """Blue's (seat 1) time left on the clock in seconds (``black_clock``); None if not given.

        >>> Limit(blue_clock=30.0).blue_clock, Limit(time=1.0).blue_clock
        (30.0, None)
        """
        return self.black_clock

    @property
    def red_inc(self) -> float | None:
        """Red's (seat 0) increment per move in seconds (``white_inc``); None if not given.

        >>> Limit(red_clock=30.0, red_inc=2.0).red_inc, Limit(red_clock=30.0).red_inc
        (2.0, None)
        """
        return self.white_inc

    @property
    def blue_inc(self) -> float | None:
        """Blue's (seat 1) increment per move in seconds (``black_inc``); None if not given.

        >>> Limit(blue_clock=30.0, blue_inc=2.0).blue_inc, Limit(blue_clock=30.0).blue_inc
        (2.0, None)
        """
        return self.black_inc


class PovScore(_core.PovScore):
    """:class:`doushouqi.core.analysis.PovScore` with ``red()`` and ``blue()`` (python-chess's
    ``white()`` and ``black()``, which it has too).

    >>> score = PovScore(cp=120, turn=0)  # Red to move and 120 cp ahead
    >>> score.red(), score.blue(), score.white() == score.red()
    (Score(cp=120), Score(cp=-120), True)
    """

    def red(self) -> Score:
        """The score from Red's view, whoever is to move.

        >>> PovScore(mate=3, turn=1).red()  # Blue enters the den in 3
        Score(mate=-3)
        """
        return self.pov(0)

    def blue(self) -> Score:
        """The score from Blue's view, whoever is to move.

        >>> PovScore(cp=-50, turn=0).blue()
        Score(cp=50)
        """
        return self.pov(1)


def score_text(score: Score) -> str:
    """A score as Jungle's protocol writes it: ``cp 35``, or ``den 3`` for a win in 3.

    >>> score_text(Score(mate=-2)), score_text(Score(cp=35))
    ('den -2', 'cp 35')
    """
    moves = score.mate()
    return f"den {moves}" if moves is not None else f"cp {score.cp}"

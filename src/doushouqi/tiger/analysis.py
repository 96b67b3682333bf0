"""What a 老虎棋 engine and its callers say to each other: search limits, scores, search info.

The Tiger's counterpart of Jungle's ``doushouqi.jungle.analysis`` (games do not import each
other), in the same python-chess-like terms: a :class:`Limit` says when to stop, a
:class:`Score` is from the side to move's view, an :class:`Info` is what a search reports and
a :class:`PlayResult` the move it chose. Standard library only, so that the engine client and
the protocol need no compiled code.

A won or lost game is a :class:`Score` with ``win``: the moves of the side to move until the
game is won (``win=3``) or lost (``win=-2``) — by trapping the tiger, taking enough men or
leaving the men no move. On the protocol it is written ``mate N``, the UCI word, which
every UCI tool reads.

Clocks are per seat: ``tiger_clock`` (protocol ``wtime``) is seat 0's, ``men_clock``
(``btime``) seat 1's, whichever side moves first.

>>> Score(win=3) > Score(cp=900) > Score(cp=-40) > Score(win=-2)
True
>>> str(Score(win=-2)), str(Limit(movetime=0.5, men_clock=30.0))
('mate -2', 'movetime 500 btime 30000')
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from doushouqi.tiger.moves import Move

__all__ = ["WIN_SCORE", "Info", "Limit", "PlayResult", "Score"]

#: Centipawn value that orders won games above every evaluation (a man is about 100).
WIN_SCORE = 1_000_000


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search should stop. Times are in seconds; None means no limit of that kind."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    #: Seat 0's (the tiger side's) remaining time and increment.
    tiger_clock: float | None = None
    tiger_inc: float | None = None
    #: Seat 1's (the men's) remaining time and increment.
    men_clock: float | None = None
    men_inc: float | None = None
    #: The game's per-move time limit (a timeout passes the turn), if any.
    per_move: float | None = None
    infinite: bool = False

    def clock(self, seat: int) -> tuple[float | None, float | None]:
        """The remaining time and increment of ``seat`` (0 the tiger side, 1 the men)."""
        if seat == 0:
            return self.tiger_clock, self.tiger_inc
        return self.men_clock, self.men_inc

    def __str__(self) -> str:
        """The arguments of a protocol ``go`` command for this limit."""
        parts = []
        for key, value in (("depth", self.depth), ("nodes", self.nodes)):
            if value is not None:
                parts.append(f"{key} {value}")
        for key, seconds in (
            ("movetime", self.movetime),
            ("wtime", self.tiger_clock),
            ("btime", self.men_clock),
            ("winc", self.tiger_inc),
            ("binc", self.men_inc),
        ):
            if seconds is not None:
                parts.append(f"{key} {round(seconds * 1000)}")
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)


@dataclasses.dataclass(frozen=True)
class Score:
    """A score from the side to move's view: centipawns, or moves until the game is decided.

    ``win=N`` with N > 0: the side to move wins in N of its own moves; N < 0: it loses after
    -N moves of its own (``win=-1``: it has no move, or its only moves lose at once).
    """

    cp: int | None = None
    win: int | None = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.win is None):
            raise ValueError("a Score has exactly one of cp and win")

    def value(self) -> int:
        """A single comparable number: wins above every centipawn score, faster first."""
        if self.win is not None:
            return WIN_SCORE - self.win if self.win > 0 else -WIN_SCORE - self.win
        assert self.cp is not None
        return self.cp

    def __neg__(self) -> Score:
        return Score(win=-self.win) if self.win is not None else Score(cp=-(self.cp or 0))

    def __lt__(self, other: Score) -> bool:
        return self.value() < other.value()

    def __le__(self, other: Score) -> bool:
        return self.value() <= other.value()

    def __gt__(self, other: Score) -> bool:
        return self.value() > other.value()

    def __ge__(self, other: Score) -> bool:
        return self.value() >= other.value()

    def __repr__(self) -> str:
        return f"Score(win={self.win})" if self.win is not None else f"Score(cp={self.cp})"

    def __str__(self) -> str:
        """The protocol form: ``cp 35`` or ``mate 3``."""
        return f"mate {self.win}" if self.win is not None else f"cp {self.cp}"


class Info(TypedDict, total=False):
    """What an engine reports about its search (all keys optional)."""

    depth: int
    seldepth: int
    #: From the side to move's view.
    score: Score
    nodes: int
    nps: int
    time: float
    pv: list[Move]
    #: Which line of a MultiPV search (1 = the best).
    multipv: int
    hashfull: int
    string: str


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """An engine's chosen move (None when it has none) with the last info of its search, and
    the reply it expects (``bestmove … ponder …``), when it says."""

    move: Move | None
    info: Info = dataclasses.field(default_factory=lambda: Info())
    ponder: Move | None = None

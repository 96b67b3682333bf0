"""Values shared by every engine, in-process or external: search limits, scores, search info.

Both the engine (``doushouqi.jungle.ai``) and the engine client (``doushouqi.jungle.engine``) speak
in these
terms, like python-chess's ``chess.engine.Limit`` / ``PovScore`` / ``InfoDict``. The client's
scores are :class:`PovScore`: the side to move's :class:`Score` that also knows whose view it
is, so ``info["score"].red()`` or ``.pov(BLUE)`` read it from a fixed side's view.

>>> Score(den=3)
Score(den=3)
>>> Score(cp=40) < Score(den=5) and Score(den=-2) < Score(cp=-900)
True
>>> str(Limit(movetime=1.0))
'movetime 1000'
>>> score = PovScore(cp=40, turn=1)  # 40 cp for Blue, who is to move
>>> score.red(), score.blue(), score.relative, score == Score(cp=40)
(Score(cp=-40), Score(cp=40), Score(cp=40), True)
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from doushouqi.jungle.moves import Move

__all__ = ["DEN_SCORE", "Info", "Limit", "PlayResult", "PovScore", "Score"]

#: Centipawn value used to order den wins above every material score.
DEN_SCORE = 1_000_000


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search should stop. Times are in seconds; None means no limit of that kind."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    red_clock: float | None = None
    blue_clock: float | None = None
    red_inc: float | None = None
    blue_inc: float | None = None
    #: Per-move time limit of the game (a timeout passes the turn), if any.
    per_move: float | None = None
    infinite: bool = False
    #: Search for a win (a den entry, or the opponent left without animals or moves) in at
    #: most this many own moves, and stop once one is proven (UCI's ``go mate N``).
    mate: int | None = None
    #: Moves until the clock's next time control (UCI's ``movestogo``; None: not known).
    moves_to_go: int | None = None

    def __str__(self) -> str:
        """The arguments of a protocol ``go`` command for this limit."""
        parts = []
        for key, value in (("depth", self.depth), ("nodes", self.nodes)):
            if value is not None:
                parts.append(f"{key} {value}")
        for key, seconds in (
            ("movetime", self.movetime),
            ("wtime", self.red_clock),
            ("btime", self.blue_clock),
            ("winc", self.red_inc),
            ("binc", self.blue_inc),
        ):
            if seconds is not None:
                parts.append(f"{key} {round(seconds * 1000)}")
        if self.moves_to_go is not None:
            parts.append(f"movestogo {self.moves_to_go}")
        if self.mate is not None:
            parts.append(f"mate {self.mate}")
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)


@dataclasses.dataclass(frozen=True, order=False)
class Score:
    """A score from the side to move's view: centipawns, or moves until a den entry.

    ``den=N`` with N > 0: the side to move enters the den in N of its moves; N < 0: it is
    entered (or otherwise loses) in -N moves.
    """

    cp: int | None = None
    den: int | None = None

    def __post_init__(self) -> None:
        if (self.cp is None) == (self.den is None):
            raise ValueError("a Score has exactly one of cp and den")

    def value(self) -> int:
        """A single comparable number: den wins above every centipawn score, faster first."""
        if self.den is not None:
            return DEN_SCORE - self.den if self.den > 0 else -DEN_SCORE - self.den
        assert self.cp is not None
        return self.cp

    def __neg__(self) -> Score:
        return Score(den=-self.den) if self.den is not None else Score(cp=-(self.cp or 0))

    def __lt__(self, other: Score) -> bool:
        return self.value() < other.value()

    def __le__(self, other: Score) -> bool:
        return self.value() <= other.value()

    def __gt__(self, other: Score) -> bool:
        return self.value() > other.value()

    def __ge__(self, other: Score) -> bool:
        return self.value() >= other.value()

    def __repr__(self) -> str:
        return f"Score(den={self.den})" if self.den is not None else f"Score(cp={self.cp})"

    def __str__(self) -> str:
        """The protocol form: ``cp 35`` or ``den 3``."""
        return f"den {self.den}" if self.den is not None else f"cp {self.cp}"


@dataclasses.dataclass(frozen=True, eq=False)
class PovScore(Score):
    """A :class:`Score` from the view of ``turn`` (0 Red, 1 Blue), the side to move where it
    was reported; equal to the plain Score of the same view.

    ``relative`` is the plain side-to-move Score, ``pov(color)`` the Score for ``color``,
    ``red()`` / ``blue()`` (python-chess's ``white()`` / ``black()``) for a fixed side.
    """

    turn: int = 0

    @classmethod
    def of(cls, score: Score, turn: int) -> PovScore:
        return cls(cp=score.cp, den=score.den, turn=turn)

    @property
    def relative(self) -> Score:
        return Score(cp=self.cp, den=self.den)

    def pov(self, color: int) -> Score:
        """The score for ``color`` (negated when that side was not to move)."""
        return self.relative if color == self.turn else -self.relative

    def red(self) -> Score:
        return self.pov(0)

    def blue(self) -> Score:
        return self.pov(1)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovScore):
            return (self.relative, self.turn) == (other.relative, other.turn)
        if isinstance(other, Score):
            return self.relative == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.relative)

    def __repr__(self) -> str:
        kind = f"den={self.den}" if self.den is not None else f"cp={self.cp}"
        return f"PovScore({kind}, turn={self.turn})"


class Info(TypedDict, total=False):
    """What an engine reports about its search (all keys optional)."""

    depth: int
    seldepth: int
    #: From the side to move's view (a :class:`PovScore` from the engine client).
    score: Score
    nodes: int
    nps: int
    time: float
    pv: list[Move]
    #: Which line of a MultiPV search (1 = the best).
    multipv: int
    hashfull: int
    #: Positions scored from the endgame tables.
    tbhits: int
    currmove: Move
    currmovenumber: int
    string: str


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """An engine's chosen move (None when it has none) with the last info of its search, and
    the reply it expects (``bestmove … ponder …``), when it says."""

    move: Move | None
    info: Info = dataclasses.field(default_factory=lambda: Info())
    ponder: Move | None = None

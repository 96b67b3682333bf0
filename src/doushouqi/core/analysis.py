"""What every game's engine and its callers say to each other: search limits, scores, search
info, the chosen move.

One module for every game (each game's ``analysis`` module re-exports it and adds its own
names for the two seats), in the terms of python-chess's ``chess.engine``: a :class:`Limit`
says when a search stops, a :class:`Score` is centipawns or moves until the game is won or lost
(python-chess's ``Cp`` and ``Mate``) from the side to move's view, a :class:`PovScore` is one
that knows whose view it is, an :class:`Info` is what a search reports, :class:`InfoSelection`
which of it a caller wants, and a :class:`PlayResult` the move a search chose.

Seats: seat 0 moves with the protocol's ``wtime``/``winc`` and seat 1 with ``btime``/``binc``,
python-chess's White and Black (Jungle's Red and Blue, 老虎棋's tiger side and men).

A won game is ``Score(mate=N)``: N > 0, the side to move wins in N of its own moves; N < 0,
it loses after -N moves of its own. In Jungle a win is usually a den entry (its protocol writes
``den N``), in 老虎棋 the tiger trapped or enough men taken; every way to win counts.

>>> Score(mate=3) > Score(cp=900) > Score(cp=-40) > Score(mate=-2)
True
>>> Score(mate=3).score(mate_score=100_000), Score(cp=-40).score(), Score(mate=-2).mate()
(99997, -40, -2)
>>> str(Limit(time=0.5, black_clock=30.0, remaining_moves=20))
'movetime 500 btime 30000 movestogo 20'
>>> score = PovScore(Score(cp=40), 1)  # 40 cp for seat 1, who is to move
>>> score.white(), score.black(), score.relative, score == Score(cp=40)
(Score(cp=-40), Score(cp=40), Score(cp=40), True)
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from typing import Any, Generic, NamedTuple, TypedDict, TypeVar, cast

__all__ = [
    "WDL_SCALE",
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

#: Centipawn value that orders won games above every evaluation (``score(mate_score=…)``'s
#: default is None, as in python-chess; the engines order wins with this).
WIN_SCORE = 1_000_000

#: The logistic scale of :meth:`Score.wdl`: Jungle's evaluation fitted to self-play results
#: (docs/engine-research.md, Texel tuning: K = 0.000777, a 1414 cp lead scores 75%).
WDL_SCALE = 0.000777

MoveT = TypeVar("MoveT")


# ------------------------------------------------------------------------------- limits


@dataclasses.dataclass(frozen=True, init=False)
class Limit:
    """When a search should stop. Times are in seconds; None means no limit of that kind.

    python-chess's fields and names (``time``, ``depth``, ``nodes``, ``mate``,
    ``white_clock`` … ``remaining_moves``), and this project's older names as keywords and
    properties: ``movetime`` is ``time``, ``moves_to_go`` is ``remaining_moves``. Each game's
    ``Limit`` also names the seats' clocks its own way (Jungle ``red_clock``, 老虎棋
    ``tiger_clock``). ``per_move`` (a per-move time limit of the game: a timeout passes the
    turn) and ``infinite`` are this project's.

    >>> Limit(movetime=1.0) == Limit(time=1.0), Limit(time=1.0).movetime
    (True, 1.0)
    >>> Limit(time=1.0, movetime=2.0)
    Traceback (most recent call last):
    ...
    TypeError: Limit() got both time and movetime (the same limit)
    """

    time: float | None
    depth: int | None
    nodes: int | None
    #: Search for a win in at most this many own moves, and stop once one is proven.
    mate: int | None
    #: Seat 0's (python-chess's White) remaining time and increment.
    white_clock: float | None
    black_clock: float | None
    white_inc: float | None
    black_inc: float | None
    #: Moves until the clock's next time control (None: sudden death or not known).
    remaining_moves: int | None
    per_move: float | None
    infinite: bool

    def __init__(
        self,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        mate: int | None = None,
        white_clock: float | None = None,
        black_clock: float | None = None,
        white_inc: float | None = None,
        black_inc: float | None = None,
        remaining_moves: int | None = None,
        per_move: float | None = None,
        infinite: bool = False,
        movetime: float | None = None,
        moves_to_go: int | None = None,
    ) -> None:
        values = {
            "time": _one_of("time", time, "movetime", movetime),
            "depth": depth,
            "nodes": nodes,
            "mate": mate,
            "white_clock": white_clock,
            "black_clock": black_clock,
            "white_inc": white_inc,
            "black_inc": black_inc,
            "remaining_moves": _one_of(
                "remaining_moves", remaining_moves, "moves_to_go", moves_to_go
            ),
            "per_move": per_move,
            "infinite": bool(infinite),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def movetime(self) -> float | None:
        """:attr:`time`, by the protocol's word."""
        return self.time

    @property
    def moves_to_go(self) -> int | None:
        """:attr:`remaining_moves`, by the protocol's word."""
        return self.remaining_moves

    def clock(self, seat: int) -> tuple[float | None, float | None]:
        """The remaining time and increment of ``seat`` (0 or 1)."""
        if seat == 0:
            return self.white_clock, self.white_inc
        return self.black_clock, self.black_inc

    def __repr__(self) -> str:
        # As python-chess: only the limits that are set.
        shown = [
            f"{field.name}={getattr(self, field.name)!r}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) not in (None, False)
        ]
        return f"{type(self).__name__}({', '.join(shown)})"

    def __str__(self) -> str:
        """The arguments of a protocol ``go`` command for this limit."""
        parts = []
        for key, value in (("depth", self.depth), ("nodes", self.nodes)):
            if value is not None:
                parts.append(f"{key} {value}")
        for key, seconds in (
            ("movetime", self.time),
            ("wtime", self.white_clock),
            ("btime", self.black_clock),
            ("winc", self.white_inc),
            ("binc", self.black_inc),
        ):
            if seconds is not None:
                parts.append(f"{key} {round(seconds * 1000)}")
        if self.remaining_moves is not None:
            parts.append(f"movestogo {self.remaining_moves}")
        if self.mate is not None:
            parts.append(f"mate {self.mate}")
        if self.infinite:
            parts.append("infinite")
        return " ".join(parts)


def _one_of(name: str, value: Any, alias: str, alias_value: Any) -> Any:
    """The value given under ``name`` or its older name ``alias`` (TypeError for both)."""
    if value is not None and alias_value is not None:
        raise TypeError(f"Limit() got both {name} and {alias} (the same limit)")
    return value if value is not None else alias_value


def seat_clocks(names: tuple[str, str], given: Mapping[str, float | None]) -> dict[str, Any]:
    """A game's own clock keywords (``red_clock`` …, ``names`` the seats' words) as
    :class:`Limit`'s (``white_clock`` …), for the games' ``Limit`` subclasses; TypeError when
    a clock is given under both names.

    >>> seat_clocks(("red", "blue"), {"red_clock": 5.0, "black_inc": 1.0})
    {'white_clock': 5.0, 'black_inc': 1.0}
    """
    result: dict[str, Any] = {}
    for own, standard in zip(names, ("white", "black"), strict=True):
        for kind in ("clock", "inc"):
            mine, theirs = f"{own}_{kind}", f"{standard}_{kind}"
            a, b = given.get(mine), given.get(theirs)
            if a is not None and b is not None:
                raise TypeError(f"Limit() got both {mine} and {theirs} (the same clock)")
            if a is not None or b is not None:
                result[theirs] = a if a is not None else b
    return result


# ------------------------------------------------------------------------------- scores


class Wdl(NamedTuple):
    """Wins, draws and losses per mille (python-chess's ``Wdl``)."""

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        return self.draws / self.total()

    def losing_chance(self) -> float:
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected score, 0 (lost) to 1 (won)."""
        return (self.wins + 0.5 * self.draws) / self.total()


@dataclasses.dataclass(frozen=True, init=False)
class Score:
    """A score from the side to move's view: centipawns (``cp``), or the moves until the game
    is decided (``Score(mate=N)``, read back as :meth:`mate`; python-chess's ``Mate.moves``).

    Ordered as python-chess orders scores: a faster win above a slower one above any
    centipawns, a slower loss above a faster one.
    """

    cp: int | None
    #: Own moves until the side to move wins (> 0) or loses (< 0); None for centipawns.
    moves: int | None

    def __init__(self, *, cp: int | None = None, mate: int | None = None) -> None:
        if (cp is None) == (mate is None):
            raise ValueError("a Score has exactly one of cp and mate")
        object.__setattr__(self, "cp", cp)
        object.__setattr__(self, "moves", mate)

    def score(self, *, mate_score: int | None = None) -> int | None:
        """The centipawns; for a won or lost game None, or with ``mate_score`` that value
        less the moves (a win) or its negation less them (a loss), as python-chess.

        >>> Score(mate=-3).score(mate_score=1000), Score(mate=-3).score()
        (-997, None)
        """
        if self.moves is None:
            return self.cp
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int | None:
        """Own moves until the game is won (> 0) or lost (< 0); None for centipawns."""
        return self.moves

    def is_mate(self) -> bool:
        """Whether the score is a won or lost game."""
        return self.moves is not None

    def wdl(self, *, scale: float = WDL_SCALE) -> Wdl:
        """Win, draw and loss chances per mille: a logistic curve of the centipawns
        (``scale``: see :data:`WDL_SCALE`), certain for a won or lost game. The curve gives
        an expected score and no draws (python-chess's models are fitted to chess engines).

        >>> Score(cp=0).wdl(), Score(mate=2).wdl(), Score(cp=1414).wdl().expectation()
        (Wdl(wins=500, draws=0, losses=500), Wdl(wins=1000, draws=0, losses=0), 0.75)
        """
        if self.moves is not None:
            return Wdl(1000, 0, 0) if self.moves > 0 else Wdl(0, 0, 1000)
        assert self.cp is not None
        wins = round(1000 / (1 + math.exp(-scale * self.cp)))
        return Wdl(wins, 0, 1000 - wins)

    def value(self) -> int:
        """A single comparable number: wins above every centipawn score, faster first."""
        if self.moves is not None:
            return WIN_SCORE - self.moves if self.moves > 0 else -WIN_SCORE - self.moves
        assert self.cp is not None
        return self.cp

    def __neg__(self) -> Score:
        if self.moves is not None:
            return Score(mate=-self.moves)
        return Score(cp=-(self.cp or 0))

    def __abs__(self) -> Score:
        return -self if self.value() < 0 else Score(cp=self.cp, mate=self.moves)

    def __lt__(self, other: Score) -> bool:
        return self.value() < other.value()

    def __le__(self, other: Score) -> bool:
        return self.value() <= other.value()

    def __gt__(self, other: Score) -> bool:
        return self.value() > other.value()

    def __ge__(self, other: Score) -> bool:
        return self.value() >= other.value()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Score):
            return (self.cp, self.moves) == (other.cp, other.moves)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.cp, self.moves))

    def __repr__(self) -> str:
        return f"Score(mate={self.moves})" if self.moves is not None else f"Score(cp={self.cp})"

    def __str__(self) -> str:
        """The protocol form: ``cp 35`` or ``mate 3`` (Jungle's engine writes ``den 3``)."""
        return f"mate {self.moves}" if self.moves is not None else f"cp {self.cp}"


class PovScore(Score):
    """A :class:`Score` from the view of ``turn`` (seat 0 or 1, the side to move where it was
    reported); equal to the plain Score of the same view. ``PovScore(Score(cp=40), 1)`` as
    python-chess, or ``PovScore(cp=40, turn=1)``.

    ``relative`` is the plain side-to-move Score, ``pov(seat)`` the Score for that seat,
    ``white()`` / ``black()`` for seats 0 and 1 (each game adds its own names).
    """

    turn: int

    def __init__(
        self,
        relative: Score | None = None,
        turn: int = 0,
        *,
        cp: int | None = None,
        mate: int | None = None,
    ) -> None:
        if relative is not None:
            if cp is not None or mate is not None:
                raise TypeError("PovScore() takes a relative Score or cp/mate, not both")
            cp, mate = relative.cp, relative.moves
        super().__init__(cp=cp, mate=mate)
        object.__setattr__(self, "turn", turn)

    @classmethod
    def of(cls, score: Score, turn: int) -> PovScore:
        return cls(score, turn)

    @property
    def relative(self) -> Score:
        return Score(cp=self.cp, mate=self.moves)

    def pov(self, seat: int) -> Score:
        """The score for ``seat`` (negated when that side was not to move)."""
        return self.relative if seat == self.turn else -self.relative

    def white(self) -> Score:
        return self.pov(0)

    def black(self) -> Score:
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
        kind = f"mate={self.moves}" if self.moves is not None else f"cp={self.cp}"
        return f"{type(self).__name__}({kind}, turn={self.turn})"


# --------------------------------------------------------------------------------- info


class InfoSelection(enum.IntFlag):
    """Which parts of a search's info a caller wants (python-chess's ``chess.engine.Info``
    flags, passed as ``info=`` to ``play``, ``analyse`` and ``analysis``)."""

    NONE = 0
    #: depth, seldepth, multipv, nodes, nps, time, hashfull, tbhits, currmove, string …
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


class Info(TypedDict, Generic[MoveT], total=False):
    """What an engine reports about its search (all keys optional)."""

    depth: int
    seldepth: int
    #: From the side to move's view (a :class:`PovScore` from the engine clients).
    score: Score
    nodes: int
    nps: int
    time: float
    pv: list[MoveT]
    #: Which line of a MultiPV search (1 = the best).
    multipv: int
    hashfull: int
    #: Positions scored from endgame tables.
    tbhits: int
    currmove: MoveT
    currmovenumber: int
    string: str


_SELECTED_BY = {"score": InfoSelection.SCORE, "pv": InfoSelection.PV}


def select_info(info: Info[MoveT], selection: InfoSelection) -> Info[MoveT]:
    """The part of ``info`` that ``selection`` asks for (a new dict; ``ALL`` keeps all).

    >>> select_info(Info(depth=3, score=Score(cp=5), pv=[]), InfoSelection.SCORE)
    {'score': Score(cp=5)}
    """
    kept = {
        key: value
        for key, value in info.items()
        if selection & _SELECTED_BY.get(key, InfoSelection.BASIC)
    }
    return cast("Info[MoveT]", kept)


@dataclasses.dataclass(frozen=True)
class PlayResult(Generic[MoveT]):
    """An engine's chosen move (None when it has none) with the last info of its search, and
    the reply it expects (``bestmove … ponder …``), when it says."""

    move: MoveT | None
    info: Info[MoveT] = dataclasses.field(default_factory=lambda: cast("Info[MoveT]", {}))
    ponder: MoveT | None = None

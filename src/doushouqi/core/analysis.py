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

Won games order above every evaluation by :data:`WIN_SCORE`, and :data:`WDL_SCALE` turns
centipawns into an expected score:

>>> Score(mate=3).value() == WIN_SCORE - 3, Score(cp=-40).value()
(True, -40)
>>> round(Score(cp=500).wdl(scale=WDL_SCALE).expectation(), 3)
0.596
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, NamedTuple, TypedDict, TypeVar, cast

__all__ = [
    "WDL_SCALE",
    "WIN_SCORE",
    "Info",
    "InfoSelection",
    "Limit",
    "LinesByDepth",
    "PlayResult",
    "PovScore",
    "Score",
    "Wdl",
    "best_lines_first",
    "select_info",
    "send_ranked_lines",
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
    ``tiger_clock``): a subclass declared with ``seats=`` (the seats' two words) takes
    ``{word}_clock`` and ``{word}_inc`` keywords for seat 0's and seat 1's clocks.
    ``per_move`` (a per-move time limit of the game: a timeout passes the turn) and
    ``infinite`` are this project's.

    >>> Limit(movetime=1.0) == Limit(time=1.0), Limit(time=1.0).movetime
    (True, 1.0)
    >>> Limit(time=1.0, movetime=2.0)
    Traceback (most recent call last):
    ...
    TypeError: Limit() got both time and movetime (the same limit)
    >>> class GameLimit(Limit, seats=("north", "south")):
    ...     pass
    >>> GameLimit(south_clock=30.0, white_inc=1.0).clock(1), GameLimit(north_inc=1.0).clock(0)
    ((30.0, None), (None, 1.0))
    >>> GameLimit(east_clock=1.0)
    Traceback (most recent call last):
    ...
    TypeError: GameLimit() got an unexpected keyword argument 'east_clock'
    """

    #: The words of the seats' own clock keywords (``seats=`` of a subclass; None: only
    #: python-chess's ``white_clock`` …).
    _seat_words: ClassVar[tuple[str, str] | None] = None

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
        **seat_clock: float | None,
    ) -> None:
        clocks = {"white_clock": white_clock, "black_clock": black_clock}
        clocks |= {"white_inc": white_inc, "black_inc": black_inc}
        if seat_clock:
            clocks |= self._standard_clocks(seat_clock, clocks)
        values = {
            "time": _one_of("time", time, "movetime", movetime),
            "depth": depth,
            "nodes": nodes,
            "mate": mate,
            **clocks,
            "remaining_moves": _one_of(
                "remaining_moves", remaining_moves, "moves_to_go", moves_to_go
            ),
            "per_move": per_move,
            "infinite": bool(infinite),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __init_subclass__(cls, *, seats: tuple[str, str] | None = None, **kwargs: Any) -> None:
        # A game's Limit takes its seats' clocks by its own words (a subclass of it inherits
        # them); its properties of those names are its own, typed and documented.
        super().__init_subclass__(**kwargs)
        if seats is not None:
            cls._seat_words = seats

    def _standard_clocks(
        self, seat_clock: Mapping[str, float | None], standard: Mapping[str, float | None]
    ) -> dict[str, Any]:
        """The clocks given under the seats' own words and python-chess's, as the latter's."""
        words = self._seat_words
        known = {f"{word}_{kind}" for word in words or () for kind in ("clock", "inc")}
        for name in seat_clock:
            if name not in known:
                raise TypeError(
                    f"{type(self).__name__}() got an unexpected keyword argument {name!r}"
                )
        assert words is not None  # a keyword was known, so the class names its seats
        return dict.fromkeys(standard) | seat_clocks(words, {**seat_clock, **standard})

    @property
    def movetime(self) -> float | None:
        """:attr:`time`, by the protocol's word (``go movetime``).

        >>> Limit(time=0.25).movetime, Limit(depth=6).movetime
        (0.25, None)
        """
        return self.time

    @property
    def moves_to_go(self) -> int | None:
        """:attr:`remaining_moves`, by the protocol's word (``go movestogo``).

        >>> Limit(white_clock=60.0, moves_to_go=30).moves_to_go
        30
        >>> Limit(white_clock=60.0, moves_to_go=30).remaining_moves
        30
        """
        return self.remaining_moves

    def clock(self, seat: int) -> tuple[float | None, float | None]:
        """The remaining time and increment of ``seat`` (0 or 1), in seconds; None for what
        the limit does not set.

        >>> limit = Limit(white_clock=60.0, white_inc=2.0, black_clock=45.5)
        >>> limit.clock(0), limit.clock(1)
        ((60.0, 2.0), (45.5, None))
        """
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
    """Wins, draws and losses per mille (python-chess's ``Wdl``), from the view of the side
    the score was for.

    >>> wdl = Score(cp=300).wdl()
    >>> wdl, wdl.total()
    (Wdl(wins=558, draws=0, losses=442), 1000)
    """

    wins: int
    draws: int
    losses: int

    def total(self) -> int:
        """The number of games the chances are out of (1000 for an engine's per mille).

        >>> Wdl(wins=3, draws=4, losses=1).total()
        8
        """
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        """The share of wins, 0 to 1.

        >>> Wdl(wins=600, draws=300, losses=100).winning_chance()
        0.6
        """
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        """The share of draws, 0 to 1.

        >>> Wdl(wins=600, draws=300, losses=100).drawing_chance()
        0.3
        """
        return self.draws / self.total()

    def losing_chance(self) -> float:
        """The share of losses, 0 to 1.

        >>> Wdl(wins=600, draws=300, losses=100).losing_chance()
        0.1
        """
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected score, 0 (lost) to 1 (won): a draw counts half.

        >>> Wdl(wins=600, draws=300, losses=100).expectation()
        0.75
        """
        return (self.wins + 0.5 * self.draws) / self.total()


@dataclasses.dataclass(frozen=True, init=False)
class Score:
    """A score from the side to move's view: centipawns (``cp``), or the moves until the game
    is decided (``Score(mate=N)``, read back as :meth:`mate`; python-chess's ``Mate.moves``).

    Ordered as python-chess orders scores: a faster win above a slower one above any
    centipawns, a slower loss above a faster one.

    >>> sorted([Score(cp=120), Score(mate=-1), Score(mate=4), Score(mate=2), Score(cp=-30)])
    [Score(mate=-1), Score(cp=-30), Score(cp=120), Score(mate=4), Score(mate=2)]
    >>> -Score(mate=2), str(Score(cp=35))
    (Score(mate=-2), 'cp 35')
    >>> Score(cp=1, mate=2)
    Traceback (most recent call last):
    ...
    ValueError: a Score has exactly one of cp and mate
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
        """Own moves until the game is won (> 0) or lost (< 0); None for centipawns.

        >>> Score(mate=3).mate(), Score(mate=-2).mate(), Score(cp=50).mate()
        (3, -2, None)
        """
        return self.moves

    def is_mate(self) -> bool:
        """Whether the score is a won or lost game.

        >>> Score(mate=-2).is_mate(), Score(cp=50).is_mate()
        (True, False)
        """
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
        """A single comparable number: wins above every centipawn score, faster first
        (:data:`WIN_SCORE` less the moves; losses the negation).

        >>> Score(cp=-40).value(), Score(mate=2).value(), Score(mate=-2).value()
        (-40, 999998, -999998)
        """
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

    >>> score = PovScore(cp=-120, turn=0)  # seat 0 to move, 120 cp behind
    >>> score, score.pov(1), score.is_mate()
    (PovScore(cp=-120, turn=0), Score(cp=120), False)
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
        """``score``, from the view of seat ``turn`` (the same as ``PovScore(score, turn)``).

        >>> PovScore.of(Score(mate=2), 1)
        PovScore(mate=2, turn=1)
        """
        return cls(score, turn)

    @property
    def relative(self) -> Score:
        """The plain :class:`Score`, from the view of the side that was to move.

        >>> PovScore(Score(cp=55), 1).relative
        Score(cp=55)
        """
        return Score(cp=self.cp, mate=self.moves)

    def pov(self, seat: int) -> Score:
        """The score for ``seat`` (negated when that side was not to move).

        >>> PovScore(Score(mate=3), 0).pov(0), PovScore(Score(mate=3), 0).pov(1)
        (Score(mate=3), Score(mate=-3))
        """
        return self.relative if seat == self.turn else -self.relative

    def white(self) -> Score:
        """The score for seat 0 (python-chess's White: Jungle's Red, 老虎棋's tiger side).

        >>> PovScore(Score(cp=55), 1).white()
        Score(cp=-55)
        """
        return self.pov(0)

    def black(self) -> Score:
        """The score for seat 1 (python-chess's Black: Jungle's Blue, 老虎棋's men).

        >>> PovScore(Score(cp=55), 1).black()
        Score(cp=55)
        """
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
    flags, passed as ``info=`` to ``play``, ``analyse`` and ``analysis``). Flags combine
    with ``|``.

    >>> wanted = InfoSelection.SCORE | InfoSelection.PV
    >>> InfoSelection.PV in wanted, InfoSelection.BASIC in wanted
    (True, False)
    >>> InfoSelection.ALL & ~InfoSelection.CURRLINE & ~InfoSelection.REFUTATION == (
    ...     InfoSelection.BASIC | wanted
    ... )
    True
    """

    NONE = 0
    #: depth, seldepth, multipv, nodes, nps, time, hashfull, tbhits, currmove, string …
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


class Info(TypedDict, Generic[MoveT], total=False):
    """What an engine reports about its search (all keys optional): a plain dict, typed.

    >>> info = Info(depth=12, score=PovScore(Score(cp=35), 0), nodes=48_000, pv=["a3a4"])
    >>> info["score"].pov(1), info.get("seldepth")
    (Score(cp=-35), None)
    """

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
    the reply it expects (``bestmove … ponder …``), when it says.

    >>> result = PlayResult("a3a4", Info(depth=8, score=Score(cp=20)), ponder="g7g6")
    >>> result.move, result.ponder, result.info["depth"], PlayResult(None).info
    ('a3a4', 'g7g6', 8, {})
    """

    move: MoveT | None
    info: Info[MoveT] = dataclasses.field(default_factory=lambda: cast("Info[MoveT]", {}))
    ponder: MoveT | None = None


LineT = TypeVar("LineT")


def best_lines_first(lines: list[tuple[LineT, Info[MoveT]]]) -> list[tuple[LineT, Info[MoveT]]]:
    """One iteration's MultiPV lines (each with what the caller keeps of it), best score first:
    a line searched after the first can score above it (the search's window and table differ
    between lines), and is then the better line. A stable sort: equal scores keep the search's
    order; a line without a score comes last.

    >>> lines = [("a", Info(score=Score(cp=10))), ("b", Info(score=Score(cp=30))), ("c", Info())]
    >>> [key for key, _ in best_lines_first(lines)]
    ['b', 'a', 'c']
    """
    return sorted(lines, key=lambda line: _line_score(line[1]), reverse=True)


def send_ranked_lines(
    lines: list[tuple[LineT, Info[MoveT]]], on_info: Callable[[Info[MoveT]], None] | None
) -> tuple[LineT, Info[MoveT]]:
    """Send one iteration's MultiPV lines to ``on_info`` best first, numbered ``multipv`` 1 … N
    (as GUIs read them, once every line of the iteration is searched); return the best.

    >>> sent = []
    >>> lines = [("a", Info(depth=4, score=Score(cp=10))), ("b", Info(depth=4, score=Score(cp=30)))]
    >>> send_ranked_lines(lines, sent.append)[0], [(i["multipv"], i["score"]) for i in sent]
    ('b', [(1, Score(cp=30)), (2, Score(cp=10))])
    """
    ranked = best_lines_first(lines)
    if on_info is not None:
        for number, (_, line) in enumerate(ranked, 1):
            on_info(cast("Info[MoveT]", {**line, "multipv": number}))
    return ranked[0]


def _line_score(info: Info[Any]) -> Score:
    return info.get("score", Score(mate=-1))


class LinesByDepth(Generic[MoveT]):
    """A MultiPV search's lines, kept by iteration (pass :meth:`keep` as the search's
    ``on_info``); :meth:`best` picks the lines to show.

    >>> lines = LinesByDepth()
    >>> for depth, n, cp in [(1, 1, 10), (1, 2, 30), (2, 1, 20)]:
    ...     lines.keep(Info(depth=depth, multipv=n, score=Score(cp=cp), pv=[f"m{n}"]))
    >>> [(i["pv"], i["score"], i["multipv"]) for i in lines.best(2, PlayResult("m1"))]
    [(['m2'], Score(cp=30), 1), (['m1'], Score(cp=10), 2)]
    """

    def __init__(self) -> None:
        self.by_depth: dict[int, dict[int, Info[MoveT]]] = {}

    def keep(self, info: Info[MoveT]) -> None:
        """Note a line (an info without a ``pv`` is no line, and is left out).

        >>> lines = LinesByDepth()
        >>> lines.keep(Info(depth=3, multipv=2, pv=["a3a4"])); lines.keep(Info(depth=4))
        >>> lines.by_depth
        {3: {2: {'depth': 3, 'multipv': 2, 'pv': ['a3a4']}}}
        """
        if info.get("pv"):
            self.by_depth.setdefault(info.get("depth", 0), {})[info.get("multipv", 1)] = info

    def best(self, wanted: int, result: PlayResult[MoveT]) -> list[Info[MoveT]]:
        """The ``wanted`` lines of the deepest iteration that reported them all, so that
        their scores are comparable (a line of a deeper, unfinished iteration beside lines of
        the one before could look better or worse only for being deeper), best score first
        and numbered so: a line searched after the first can come out higher (the search's
        window and table differ between lines), and is then the better line to show. When
        no iteration reported them all, the move the engine would play, alone; none when it
        has none.

        >>> lines = LinesByDepth()
        >>> lines.keep(Info(depth=1, multipv=1, score=Score(cp=3), pv=["a", "b"]))
        >>> lines.best(2, PlayResult("c", Info(depth=2, pv=["d"])))  # line 2 never came
        [{'depth': 2, 'pv': ['c'], 'multipv': 1}]
        """
        if result.move is None:
            return []
        numbers = range(1, max(1, wanted) + 1)
        complete = [d for d, got in self.by_depth.items() if all(n in got for n in numbers)]
        if complete:
            deepest = self.by_depth[max(complete)]
            ranked = best_lines_first([(n, deepest[n]) for n in numbers])
            return [
                cast("Info[MoveT]", {**info, "multipv": n}) for n, (_, info) in enumerate(ranked, 1)
            ]
        best = cast("Info[MoveT]", {**result.info, "multipv": 1})
        if best.get("pv", [])[:1] != [result.move]:
            best["pv"] = [result.move]
        return [best]

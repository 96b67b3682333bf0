"""Moves of 老虎棋 and their strings: the points a piece passes, from first to last.

A move string is the from-point followed by every point the piece lands on (docs/tiger.md):
``e10e9`` (a step), ``e5e7`` (a jump over the man on e6), ``e5e7e9`` (a multi-jump, rule
option ``multi_jump``). Points are named as :mod:`doushouqi.tiger.points` names them, so a
name is a file letter and its digits and the string splits without separators. ``0000`` is
the pass a per-move timeout makes (docs/rules.md 5.3), never a move a player chooses.

Reading takes any case and spaces around (``E10E9 ``); writing is always the canonical lower
case form. Whether a move is a jump is geometry, not rules: a step goes to a neighbouring
point, a jump two points along a straight line, so :attr:`Move.captured` needs no position.

>>> move = Move.from_str("e5e7e9")
>>> move.from_point == parse_point("e5"), str(move), [point_name(p) for p in move.captured]
(True, 'e5e7e9', ['e6', 'e8'])
>>> Move.from_str("e10e9").is_jump, str(Move.null())
(False, '0000')

A move string names at most :data:`MAX_MOVE_POINTS` points:

>>> len(Move.from_str("a1a3" + "a5" * (MAX_MOVE_POINTS - 2)).path) == MAX_MOVE_POINTS
True
>>> Move((0,) * (MAX_MOVE_POINTS + 1))
Traceback (most recent call last):
...
doushouqi.core.game.MoveError: a move names 2 to 19 points, got 20
"""

from __future__ import annotations

import dataclasses
import re
from itertools import pairwise

from doushouqi.core.game import IllegalMoveError, MoveError
from doushouqi.tiger.points import BETWEEN, NUM_POINTS, parse_point, point_name

__all__ = ["MAX_MOVE_POINTS", "IllegalMoveError", "Move", "MoveError"]

#: The most points a move string may name: the from-point and one landing per man taken (a
#: move can take at most every man of the largest start, 18).
MAX_MOVE_POINTS = 19

_POINT_TOKEN = re.compile(r"[a-z][0-9]+")
_MOVE_SHAPE = re.compile(r"(?:[a-z][0-9]+){2,}")
_PASS = "0000"


@dataclasses.dataclass(frozen=True)
class Move:
    """The points a move passes: the from-point, then each landing point (empty: a pass).
    A value (frozen, hashable); whether it is legal is the board's question.

    >>> move = Move((parse_point("e5"), parse_point("e7")))
    >>> move, move == Move.from_str("E5E7"), move.is_jump
    (Move.from_str('e5e7'), True, True)
    >>> bool(move), bool(Move.null())
    (True, False)
    """

    path: tuple[int, ...]

    def __post_init__(self) -> None:
        path = self.path
        if not isinstance(path, tuple) or any(
            not isinstance(p, int) or not 0 <= p < NUM_POINTS for p in path
        ):
            raise MoveError(f"a move's path is a tuple of points 0-{NUM_POINTS - 1}: {path!r}")
        if len(path) == 1 or len(path) > MAX_MOVE_POINTS:
            raise MoveError(f"a move names 2 to {MAX_MOVE_POINTS} points, got {len(path)}")

    @classmethod
    def null(cls) -> Move:
        """The pass (``0000``): what a per-move timeout plays; false as a truth value.

        >>> Move.null(), Move.null().path, Move.null() == Move.from_str("0000")
        (Move.from_str('0000'), (), True)
        """
        return cls(())

    @classmethod
    def step(cls, from_point: int, to_point: int) -> Move:
        """A move from ``from_point`` to ``to_point`` (a step, or a single jump), by point number.

        >>> Move.step(parse_point("e10"), parse_point("e9"))
        Move.from_str('e10e9')
        """
        return cls((from_point, to_point))

    @classmethod
    def from_str(cls, text: str) -> Move:
        """The move a move string names; MoveError saying why when it is none.

        >>> Move.from_str("e10")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.MoveError: not a move string: 'e10' (a move is a from-point and ...
        >>> Move.from_str("e10z9")
        Traceback (most recent call last):
        ...
        doushouqi.core.game.MoveError: not a move string: 'e10z9' (no point 'z9' on the board ...
        """
        if not isinstance(text, str):
            raise MoveError(f"a move string must be text, got {type(text).__name__}")
        clean = text.strip().lower()
        if clean == _PASS:
            return cls.null()
        if len(clean) > 4 * MAX_MOVE_POINTS or not _MOVE_SHAPE.fullmatch(clean):
            raise MoveError(
                f"not a move string: {text[:80]!r} (a move is a from-point and the points it "
                f"lands on, such as e10e9 or e5e7e9)"
            )
        names = _POINT_TOKEN.findall(clean)
        try:
            path = tuple(parse_point(name) for name in names)
        except ValueError as exc:
            raise MoveError(f"not a move string: {text!r} ({exc})") from None
        return cls(path)

    def __str__(self) -> str:
        return "".join(point_name(p) for p in self.path) if self.path else _PASS

    def __repr__(self) -> str:
        return f"Move.from_str({str(self)!r})"

    def __bool__(self) -> bool:
        """False for the pass."""
        return bool(self.path)

    @property
    def from_point(self) -> int:
        """The point the piece moves from (IndexError for the pass).

        >>> point_name(Move.from_str("e5e7e9").from_point)
        'e5'
        """
        return self.path[0]

    @property
    def to_point(self) -> int:
        """The point the piece ends on: a multi-jump's last landing (IndexError for the pass).

        >>> point_name(Move.from_str("e5e7e9").to_point)
        'e9'
        """
        return self.path[-1]

    @property
    def is_jump(self) -> bool:
        """Whether the move takes men: its first segment spans two points.

        >>> Move.from_str("e5e7").is_jump, Move.from_str("e5e6").is_jump, Move.null().is_jump
        (True, False, False)
        """
        return len(self.path) >= 2 and (self.path[0], self.path[1]) in BETWEEN

    @property
    def captured(self) -> tuple[int, ...]:
        """The points of the men a jump takes, in order (empty for a step or a pass); a
        segment that spans no point in between contributes nothing (such a move is never
        legal, and checking is the board's part).

        >>> [point_name(point) for point in Move.from_str("c5e5e7").captured]
        ['d5', 'e6']
        >>> Move.from_str("e10e9").captured
        ()
        """
        path = self.path
        return tuple(BETWEEN[segment] for segment in pairwise(path) if segment in BETWEEN)

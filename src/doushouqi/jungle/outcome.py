"""How a game ended: :class:`Termination` and :class:`Outcome`.

>>> from doushouqi.jungle.board import Board
>>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
>>> _ = board.push_move("d8d9")
>>> board.outcome(), board.outcome().result()
(Outcome(termination=<Termination.DEN_ENTERED: 'den_entered'>, winner=0), '1-0')
"""

from __future__ import annotations

import dataclasses
import enum

__all__ = ["Outcome", "Termination"]


class Termination(enum.Enum):
    """Every way a game can end: on the board (docs/rules.md 5.1) and off it (5.2, 5.3). The
    values are the keys that records and the server store.

    >>> Termination("den_entered"), Termination.TIMEOUTS.value
    (<Termination.DEN_ENTERED: 'den_entered'>, 'timeouts')
    >>> [t.value for t in Termination if not t.is_on_board][:3]
    ['resignation', 'draw_agreed', 'time_forfeit']
    """

    DEN_ENTERED = "den_entered"  # 入穴
    ALL_CAPTURED = "all_captured"  # 被吃光
    NO_LEGAL_MOVES = "no_legal_moves"  # 困毙
    #: Only moves forbidden by a move restriction (7-3, 17-5, must-vary repetition) are left.
    MOVE_RESTRICTIONS = "move_restrictions"  # 违例
    REPETITION = "repetition"
    NO_CAPTURE_LIMIT = "no_capture_limit"
    RESIGNATION = "resignation"  # 认输
    DRAW_AGREED = "draw_agreed"  # 和棋
    TIME_FORFEIT = "time_forfeit"  # 走棋时间用完
    TIMEOUTS = "timeouts"  # 超时: the fourth per-move timeout
    ABANDONMENT = "abandonment"  # 逃跑
    ABORTED = "aborted"  # cancelled before both sides moved; counts for nobody

    @property
    def is_on_board(self) -> bool:
        """Whether the position itself decides this ending (the rules library detects it).

        >>> Termination.REPETITION.is_on_board, Termination.RESIGNATION.is_on_board
        (True, False)
        """
        return self in _ON_BOARD


_ON_BOARD = frozenset(
    {
        Termination.DEN_ENTERED,
        Termination.ALL_CAPTURED,
        Termination.NO_LEGAL_MOVES,
        Termination.MOVE_RESTRICTIONS,
        Termination.REPETITION,
        Termination.NO_CAPTURE_LIMIT,
    }
)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and who won (0 = Red, 1 = Blue, None = draw).

    >>> Outcome(Termination.DEN_ENTERED, 0).result()
    '1-0'
    >>> Outcome(Termination.DRAW_AGREED, None).result()
    '1/2-1/2'
    """

    termination: Termination
    winner: int | None

    def result(self) -> str:
        """``1-0`` (Red won), ``0-1`` (Blue won), ``1/2-1/2`` (draw) or ``*`` (aborted).

        >>> Outcome(Termination.TIME_FORFEIT, 1).result()
        '0-1'
        >>> Outcome(Termination.ABORTED, None).result()  # counts for nobody
        '*'
        """
        if self.termination is Termination.ABORTED:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"

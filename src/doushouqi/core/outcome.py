"""How a game ended, for every game: platform endings, the game's own board ending, the winner seat.

A game ends in one of two ways. Either the position decides it (Jungle's den entry, 老虎棋's
hemmed-in tiger): only the game knows those endings, so the game names them with a
:class:`BoardEnding`, a key of its own. Or something off the board decides it (a resignation,
a flag fall, a player leaving): those are the same in every game, so the platform names them
with :class:`PlatformEnding` and settles them without asking the game.

The winner is a *seat* (0 or 1, the order of the game's seat names), not a colour: the seat
named first is Red in Jungle and the tiger in 老虎棋, and platform code must not care which.

>>> Outcome(PlatformEnding.RESIGNATION, 1).result()
'0-1'
>>> Outcome(BoardEnding("den_entered"), 0).key
'den_entered'
>>> Outcome(PlatformEnding.ABORTED, None).result()
'*'

Code that takes any ending is typed with :data:`Ending`, and walks the seats with
:data:`SEATS`:

>>> endings: list[Ending] = [PlatformEnding.TIMEOUTS, BoardEnding("tiger_trapped")]
>>> [(Outcome(ending, seat).key, Outcome(ending, seat).result())
...  for ending in endings for seat in SEATS]  # doctest: +NORMALIZE_WHITESPACE
[('timeouts', '1-0'), ('timeouts', '0-1'), ('tiger_trapped', '1-0'), ('tiger_trapped', '0-1')]
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable

__all__ = ["SEATS", "BoardEnding", "Ending", "Outcome", "PlatformEnding", "ending_from_key"]

#: The seats of a two-player game, in turn order of the seat names (``Game.seat_names``).
SEATS = (0, 1)


class PlatformEnding(enum.Enum):
    """The endings that happen off the board, alike in every game (docs/rules.md 5.2-5.4).

    The values are the keys stored with a finished game; Jungle's
    :class:`~doushouqi.jungle.outcome.Termination` uses the same ones for its off-board members.

    >>> PlatformEnding("time_forfeit"), PlatformEnding.RESIGNATION.value
    (<PlatformEnding.TIME_FORFEIT: 'time_forfeit'>, 'resignation')
    """

    RESIGNATION = "resignation"  # 认输
    DRAW_AGREED = "draw_agreed"  # 和棋
    TIME_FORFEIT = "time_forfeit"  # 走棋时间用完: the main time ran out
    TIMEOUTS = "timeouts"  # 超时: one timeout more than the per-move rule allows
    ABANDONMENT = "abandonment"  # 逃跑: left and did not come back in time
    ABORTED = "aborted"  # cancelled before both sides moved; counts for nobody

    @property
    def is_draw(self) -> bool:
        """Whether this ending never has a winner (so :class:`Outcome` refuses one).

        >>> [ending.value for ending in PlatformEnding if ending.is_draw]
        ['draw_agreed', 'aborted']
        """
        return self in (PlatformEnding.DRAW_AGREED, PlatformEnding.ABORTED)


_PLATFORM_KEYS = frozenset(ending.value for ending in PlatformEnding)


@dataclasses.dataclass(frozen=True)
class BoardEnding:
    """An ending that the game's rules decide, named by the game (``"den_entered"``).

    The key is stored beside the platform's keys, so it may not be one of them: a stored key
    then always says by itself whether the game or the platform ended the game.

    >>> BoardEnding("resignation")
    Traceback (most recent call last):
    ...
    ValueError: 'resignation' is a platform ending, not a board ending
    """

    key: str

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise ValueError(f"a board ending needs a non-empty key, got {self.key!r}")
        if self.key in _PLATFORM_KEYS:
            raise ValueError(f"{self.key!r} is a platform ending, not a board ending")


#: Every ending: decided off the board (the platform's) or on it (the game's).
Ending = PlatformEnding | BoardEnding


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and which seat won (None: a draw, or aborted).

    Checked on creation, because an outcome is stored and shown: a winner that is not a seat,
    or a winner for an ending that has none, would be a bug far from where it began.

    >>> Outcome(PlatformEnding.DRAW_AGREED, 0)
    Traceback (most recent call last):
    ...
    ValueError: draw_agreed has no winner, got seat 0
    """

    ending: Ending
    winner: int | None

    def __post_init__(self) -> None:
        if not isinstance(self.ending, PlatformEnding | BoardEnding):
            raise ValueError(f"expected a PlatformEnding or a BoardEnding, got {self.ending!r}")
        winner = self.winner
        is_seat = isinstance(winner, int) and not isinstance(winner, bool) and winner in SEATS
        if winner is not None and not is_seat:
            raise ValueError(f"the winner must be seat 0, seat 1 or None, got {winner!r}")
        if winner is not None and isinstance(self.ending, PlatformEnding) and self.ending.is_draw:
            raise ValueError(f"{self.ending.value} has no winner, got seat {winner}")

    @property
    def key(self) -> str:
        """The ending's stored key: a :class:`PlatformEnding` value or the board ending's key.

        >>> Outcome(PlatformEnding.TIME_FORFEIT, 0).key, Outcome(BoardEnding("den_entered"), 1).key
        ('time_forfeit', 'den_entered')
        """
        return self.ending.value if isinstance(self.ending, PlatformEnding) else self.ending.key

    @property
    def is_on_board(self) -> bool:
        """Whether the game's rules decided it (rather than the platform).

        >>> Outcome(BoardEnding("den_entered"), 0).is_on_board
        True
        >>> Outcome(PlatformEnding.RESIGNATION, 0).is_on_board
        False
        """
        return isinstance(self.ending, BoardEnding)

    def result(self) -> str:
        """``1-0`` (seat 0 won), ``0-1`` (seat 1 won), ``1/2-1/2`` (draw), ``*`` (aborted).

        >>> Outcome(BoardEnding("den_entered"), 0).result()
        '1-0'
        >>> Outcome(PlatformEnding.DRAW_AGREED, None).result()
        '1/2-1/2'
        """
        if self.ending is PlatformEnding.ABORTED:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == 0 else "0-1"


def ending_from_key(key: str, board_endings: Iterable[str]) -> Ending:
    """The ending a stored key names: a platform ending, or one of the game's ``board_endings``.

    ValueError for any other key, so that a stored game of one game cannot carry an ending
    that only another game knows.

    >>> ending_from_key("timeouts", ["den_entered"])
    <PlatformEnding.TIMEOUTS: 'timeouts'>
    >>> ending_from_key("den_entered", ["den_entered"])
    BoardEnding(key='den_entered')
    >>> ending_from_key("tiger_trapped", ["den_entered"])
    Traceback (most recent call last):
    ...
    ValueError: unknown ending 'tiger_trapped' (board endings of this game: den_entered)
    """
    if key in _PLATFORM_KEYS:
        return PlatformEnding(key)
    known = tuple(board_endings)
    if key in known:
        return BoardEnding(key)
    raise ValueError(f"unknown ending {key!r} (board endings of this game: {', '.join(known)})")

"""The time of an engine-versus-engine match, for every game: a time control (``--tc``) and the
two seats' clocks while a game is played (the search limit each move gets, the time each move
took off its seat's clock, a flag fall).

>>> clocks = MatchClocks((MatchTimeControl.parse("10+0.1"), MatchTimeControl.parse("10+0.1")))
>>> clocks.limit(0, Limit)
Limit(white_clock=10.0, black_clock=10.0, white_inc=0.1, black_inc=0.1)
>>> clocks.spend(0, 2.5), clocks.clocks
(True, [7.6, 10.0])
"""

from __future__ import annotations

import dataclasses
import math
from typing import TypeVar

from doushouqi.core.analysis import Limit

__all__ = ["MatchClocks", "MatchTimeControl"]

LimitT = TypeVar("LimitT", bound=Limit)


@dataclasses.dataclass(frozen=True)
class MatchTimeControl:
    """Seconds per move (``0.5``), or a clock of base seconds plus increment (``10+0.1``).

    >>> str(MatchTimeControl(movetime=0.5)), str(MatchTimeControl(base=10, increment=0.1))
    ('0.5s/move', '10+0.1')
    """

    movetime: float | None = None
    base: float | None = None
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> MatchTimeControl:
        """Parse ``--tc`` (``0.5``, ``0.5s`` or ``10+0.1``); ValueError for anything else.

        >>> MatchTimeControl.parse("10+0.1"), MatchTimeControl.parse("0.25s").movetime
        (MatchTimeControl(movetime=None, base=10.0, increment=0.1), 0.25)
        >>> MatchTimeControl.parse("inf")
        Traceback (most recent call last):
        ...
        ValueError: invalid time control 'inf': times must be positive
        """
        base_text, plus, inc_text = text.strip().partition("+")
        try:
            base = float(base_text.removesuffix("s"))
            increment = float(inc_text) if plus else 0.0
        except ValueError:
            raise ValueError(
                f"invalid time control {text!r}: expected seconds per move (0.5) "
                f"or base+increment in seconds (10+0.1)"
            ) from None
        if not (base > 0 and increment >= 0 and math.isfinite(base + increment)):
            raise ValueError(f"invalid time control {text!r}: times must be positive")
        return cls(base=base, increment=increment) if plus else cls(movetime=base)

    def __str__(self) -> str:
        if self.movetime is not None:
            return f"{self.movetime:g}s/move"
        return f"{self.base:g}+{self.increment:g}"


class MatchClocks:
    """The two seats' clocks in one game, each seat under its own control (time odds).

    >>> control = MatchTimeControl(movetime=0.5)
    >>> clocks = MatchClocks((control, control))
    >>> clocks.limit(1, Limit), clocks.spend(1, 9.0)  # a move time has no clock to run out
    (Limit(time=0.5), True)
    """

    def __init__(self, controls: tuple[MatchTimeControl, MatchTimeControl]) -> None:
        self.controls = controls
        #: Each seat's time left in seconds (None: the seat plays a time per move).
        self.clocks: list[float | None] = [controls[0].base, controls[1].base]

    def limit(self, seat: int, limit_type: type[LimitT]) -> LimitT:
        """The search limit of ``seat``'s next move, as ``limit_type`` (the game's Limit).

        >>> clocks = MatchClocks((MatchTimeControl(base=60.0), MatchTimeControl(movetime=1.0)))
        >>> clocks.limit(0, Limit).white_clock, clocks.limit(1, Limit).movetime
        (60.0, 1.0)
        """
        control = self.controls[seat]
        if control.movetime is not None:
            return limit_type(movetime=control.movetime)
        return limit_type(
            white_clock=self.clocks[0],
            black_clock=self.clocks[1],
            white_inc=self.controls[0].increment,
            black_inc=self.controls[1].increment,
        )

    def spend(self, seat: int, seconds: float, margin: float = 0.1) -> bool:
        """Take a move's ``seconds`` off ``seat``'s clock and add its increment; False when
        the clock has run out (more than ``margin`` seconds over).

        >>> clocks = MatchClocks((MatchTimeControl(base=1.0), MatchTimeControl(base=1.0)))
        >>> clocks.spend(1, 1.05), clocks.spend(1, 0.2)
        (True, False)
        """
        clock = self.clocks[seat]
        if clock is None:
            return True
        clock -= seconds
        if clock < -margin:
            return False
        self.clocks[seat] = max(clock, 0.0) + self.controls[seat].increment
        return True

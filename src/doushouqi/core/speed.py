"""Speeds: how fast a game is played, which rating it counts for (as lichess keeps one rating
per speed: a player's bullet and classical strengths differ).

A live game's speed comes from its estimated duration, the main time plus 40 increments (a
game of about 40 moves each): under 3 minutes bullet, under 8 blitz, under 25 rapid, longer
classical. A per-move timer (``10+0/30s``) only caps each move inside the main time, so it
leaves the estimate alone; with no main time at all (``/30s``) the per-move limit is the time
each move may take, and stands in for the increment. Days per move are correspondence. A game
without a clock has no speed, and is never rated.

>>> from doushouqi.core.clock import TimeControl
>>> [speed_of(TimeControl.parse(t)).value for t in ("1+0", "3+0", "5+3", "10+0/30s", "30+0")]
['bullet', 'blitz', 'blitz', 'rapid', 'classical']
>>> speed_of(TimeControl.parse("/30s")).value
'rapid'
>>> speed_of(TimeControl.parse("3d")), speed_of(None)
(<Speed.CORRESPONDENCE: 'correspondence'>, None)
"""

from __future__ import annotations

from enum import StrEnum

from doushouqi.core.clock import TimeControl

__all__ = ["INCREMENTS_PER_GAME", "SPEED_LIMITS", "Speed", "estimated_seconds", "speed_of"]


class Speed(StrEnum):
    """The speeds, fastest first (the order lists and tabs show them in)."""

    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


#: The increments a game's duration is estimated with (moves per player in a typical game).
INCREMENTS_PER_GAME = 40
#: Each live speed's upper bound on the estimated duration in seconds (exclusive).
SPEED_LIMITS: tuple[tuple[Speed, float], ...] = (
    (Speed.BULLET, 3 * 60.0),
    (Speed.BLITZ, 8 * 60.0),
    (Speed.RAPID, 25 * 60.0),
)


def estimated_seconds(control: TimeControl) -> float:
    """A live game's estimated duration for each player: base + 40 × increment (with no main
    time, 40 × the per-move limit).

    >>> estimated_seconds(TimeControl.parse("3+2")), estimated_seconds(TimeControl.parse("/10s"))
    (260.0, 400.0)
    """
    step = control.increment
    if control.base == 0 and control.per_move is not None:
        step = max(step, control.per_move)
    return control.base + INCREMENTS_PER_GAME * step


def speed_of(control: TimeControl | None) -> Speed | None:
    """The speed of a game played at ``control``; None for a game without a clock."""
    if control is None:
        return None
    if control.is_correspondence:
        return Speed.CORRESPONDENCE
    seconds = estimated_seconds(control)
    for speed, limit in SPEED_LIMITS:
        if seconds < limit:
            return speed
    return Speed.CLASSICAL

"""Speeds: how fast a game is played, which rating it counts for (as lichess keeps one rating
per speed: a player's bullet and classical strengths differ).

The bands are ``TimeControl.speed``'s (one rule for the Watch page's filters and the
ratings): a live game's estimated duration, the main time plus 40 increments (a game of
about 40 moves each; with no main time, 40 per-move limits), under 3 minutes bullet, under 8
blitz, under 25 rapid, longer classical. Days per move are correspondence. A game without a
clock has no speed, and is never rated.

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

__all__ = ["Speed", "speed_of"]


class Speed(StrEnum):
    """The speeds, fastest first (the order lists and tabs show them in).

    >>> [speed.value for speed in Speed][:3], Speed("blitz") is Speed.BLITZ
    (['bullet', 'blitz', 'rapid'], True)
    """

    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


def speed_of(control: TimeControl | None) -> Speed | None:
    """The speed of a game played at ``control``; None for a game without a clock.

    >>> from doushouqi.core.clock import TimeControl
    >>> speed_of(TimeControl.parse("3+2")), speed_of(TimeControl.parse("15+10"))
    (<Speed.BLITZ: 'blitz'>, <Speed.RAPID: 'rapid'>)
    """
    return None if control is None else Speed(control.speed)

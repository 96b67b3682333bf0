"""Rank titles (级别): the name a player's ladder score gives them, as the Chinese game sites
show one beside every name, and what the ranks page explains.

The titles are the ladder's levels (``doushouqi.core.scoring.LEVELS``, docs/rules.md 5.4), not a
second table: the rules already use the level for the points a win earns, so one score has one
name everywhere (profile, leaderboard, player bars, the ranks page). This module adds what the
site needs around them: each band's upper bound, the player's progress to the next title, and
the table the ranks page draws.

=====  ==========  ==============  ===========
level  title (zh)  title (en)      score band
=====  ==========  ==============  ===========
1      新手        Novice          below 50 (negative scores too)
2      入门        Beginner        50–119
3      初级        Elementary      120–219
4      中级        Intermediate    220–349
5      高级        Advanced        350–519
6      精英        Elite           520–749
7      专家        Expert          750–1049
8      大师        Master          1050–1449
9      宗师        Grandmaster     1450–1999
10     棋王        Champion        2000 and above
=====  ==========  ==============  ===========

Pure: no IO, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doushouqi.core import rating, scoring

__all__ = ["RANKS", "Rank", "rank_for_score", "ranks_page"]


@dataclass(frozen=True, slots=True)
class Rank:
    """A title and its band of scores: ``min_score`` ≤ score ≤ ``max_score`` (None: no top;
    the first band also holds every score below its minimum)."""

    number: int
    zh: str
    en: str
    min_score: int
    max_score: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "zh": self.zh,
            "en": self.en,
            "label": f"{self.number}级 {self.zh}",
            "min_score": self.min_score,
            "max_score": self.max_score,
        }


def _bands() -> tuple[Rank, ...]:
    levels = scoring.LEVELS
    tops = [nxt.min_score - 1 for nxt in levels[1:]] + [None]
    return tuple(
        Rank(lv.number, lv.zh, lv.en, lv.min_score, top)
        for lv, top in zip(levels, tops, strict=True)
    )


#: Every title, lowest first.
RANKS: tuple[Rank, ...] = _bands()


def rank_for_score(score: int) -> Rank:
    """The title a ladder score gives.

    >>> rank_for_score(-12).zh, rank_for_score(49).en, rank_for_score(50).en
    ('新手', 'Novice', 'Beginner')
    >>> rank_for_score(10**6).number
    10
    """
    return RANKS[scoring.level_for_score(score).number - 1]


def progress(score: int) -> dict[str, Any]:
    """The player's title and how far the next one is (``to_next`` None at the top)."""
    rank = rank_for_score(score)
    following = RANKS[rank.number] if rank.number < len(RANKS) else None
    return {
        "rank": rank.to_dict(),
        "next": None if following is None else following.to_dict(),
        "to_next": None if following is None else following.min_score - score,
    }


def ranks_page() -> dict[str, Any]:
    """What ``GET /api/ranks`` serves: the titles, how scores move, and the rating's start."""
    return {
        "ranks": [rank.to_dict() for rank in RANKS],
        "scoring": {
            "win_base": scoring.WIN_BASE,
            "win_min": scoring.WIN_MIN,
            "win_max": scoring.WIN_MAX,
            "loss_points": scoring.LOSS_POINTS,
            "abandon_penalty": scoring.ABANDON_PENALTY,
            "min_rounds": scoring.MIN_ROUNDS,
        },
        "rating": {
            "system": "glicko-2",
            "start": rating.DEFAULT_RATING,
            "start_rd": rating.DEFAULT_RD,
            "start_volatility": rating.DEFAULT_VOLATILITY,
        },
    }

"""Ladder scoring (计分) after a game, following docs/rules.md 5.4.

The rules say the winner "gains points according to level" (胜利方按级别取得赢分) without a
table, so this module defines one:

* A player's level comes from their score (:data:`LEVELS`, :func:`level_for_score`).
  The AI's levels 1-10 sit on the same ladder: an AI of level n counts as a level-n player.
* A win earns :data:`WIN_BASE` points against a player of the same level, one more per level
  the loser stands above the winner and one fewer per level below, kept within
  :data:`WIN_MIN`..:data:`WIN_MAX` (:func:`win_points`). Farming weak players pays little.
* The loser loses :data:`LOSS_POINTS`. Every draw changes nobody's score: the rules say so for
  a draw by agreement, and a draw by repetition or by the no-capture limit is no less equal.
* Leaving (逃跑/断线) costs the leaver :data:`ABANDON_PENALTY` more on top of the loss.
* A game that ends within :data:`MIN_ROUNDS` rounds scores nothing (防止刷分), except in a
  tournament. The leaving penalty is a penalty for conduct, not a game result, so it still
  applies: otherwise leaving early would be a free way out of a bad game.
* The AI has no account: its score never changes.

>>> result = GameResult(winner=0, ending=Ending.NORMAL, rounds=25, scores=(130, 60))
>>> score_changes(result)
ScoreChange(deltas=(3, -2), new_scores=(133, 58), voided=False)
>>> level_for_score(133).label
'3级 初级'
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from enum import StrEnum

WIN_BASE = 4
WIN_MIN = 1
WIN_MAX = 8
LOSS_POINTS = 2
ABANDON_PENALTY = 10
MIN_ROUNDS = 10
AI_LEVEL_RANGE = range(1, 11)


class ScoringError(ValueError):
    """A game result is inconsistent (e.g. a draw with a winner)."""


class Ending(StrEnum):
    """How a game ended, as far as scoring needs to know."""

    NORMAL = "normal"  # decided on the board: den, annihilation, no legal move (5.1)
    RESIGNATION = "resignation"  # 认输
    TIME = "time"  # main time ran out, or a fourth per-move timeout (5.2, 5.3)
    ABANDONMENT = "abandonment"  # the loser left and did not return (逃跑)
    DRAW_AGREED = "draw_agreed"  # 和棋: offered and accepted
    DRAW_OTHER = "draw_other"  # repetition, no-capture limit or any other drawn ending

    @property
    def is_draw(self) -> bool:
        """Whether this ending is a draw (no winner)."""
        return self in (Ending.DRAW_AGREED, Ending.DRAW_OTHER)


@dataclass(frozen=True, slots=True)
class Level:
    """A rung of the ladder, reached at ``min_score`` points."""

    number: int
    zh: str
    en: str
    min_score: int

    @property
    def label(self) -> str:
        """The name players see, e.g. ``'1级 新手'``."""
        return f"{self.number}级 {self.zh}"


#: The ladder. Gaps widen as levels rise, so each level takes more wins than the last.
#: Level 1 also covers negative scores (losses can take a new player below zero).
LEVELS: tuple[Level, ...] = (
    Level(1, "新手", "Novice", 0),
    Level(2, "入门", "Beginner", 50),
    Level(3, "初级", "Elementary", 120),
    Level(4, "中级", "Intermediate", 220),
    Level(5, "高级", "Advanced", 350),
    Level(6, "精英", "Elite", 520),
    Level(7, "专家", "Expert", 750),
    Level(8, "大师", "Master", 1050),
    Level(9, "宗师", "Grandmaster", 1450),
    Level(10, "棋王", "Champion", 2000),
)
_THRESHOLDS = [level.min_score for level in LEVELS]


def level_for_score(score: int) -> Level:
    """The level a score puts a player at.

    >>> level_for_score(-7).en, level_for_score(50).en, level_for_score(99_999).number
    ('Novice', 'Beginner', 10)
    """
    return LEVELS[max(0, bisect_right(_THRESHOLDS, score) - 1)]


def win_points(winner_level: int, loser_level: int) -> int:
    """Points for a win by a level ``winner_level`` player over a level ``loser_level`` one.

    >>> win_points(3, 3), win_points(3, 5), win_points(6, 1), win_points(1, 10)
    (4, 6, 1, 8)
    """
    return max(WIN_MIN, min(WIN_MAX, WIN_BASE + loser_level - winner_level))


def rounds_from_plies(plies: int) -> int:
    """Rounds played in a game of ``plies`` moves; a started round counts (回合: both sides).

    >>> rounds_from_plies(20), rounds_from_plies(21)
    (10, 11)
    """
    if plies < 0:
        raise ScoringError(f"plies must be non-negative, not {plies}")
    return (plies + 1) // 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """What scoring needs to know about a finished game; index 0 = Red, 1 = Blue.

    ``winner`` is 0, 1 or None for a draw. With ``Ending.ABANDONMENT`` the loser is the side
    that left. ``scores`` are the players' scores before the game; ``ai_levels[c]`` is the AI's
    level (1-10) when side c is played by the AI, whose entry in ``scores`` is then ignored.
    """

    winner: int | None
    ending: Ending
    rounds: int
    scores: tuple[int, int] = (0, 0)
    tournament: bool = False
    ai_levels: tuple[int | None, int | None] = (None, None)

    def __post_init__(self) -> None:
        try:
            # Accept the plain strings too ("normal", ...), e.g. when read back from storage.
            object.__setattr__(self, "ending", Ending(self.ending))
        except ValueError:
            raise ScoringError(f"unknown ending {self.ending!r}") from None
        if self.winner not in (None, 0, 1):
            raise ScoringError(f"winner must be 0, 1 or None, not {self.winner!r}")
        if self.ending.is_draw != (self.winner is None):
            raise ScoringError(f"ending {self.ending} does not fit winner {self.winner}")
        if self.rounds < 0:
            raise ScoringError(f"rounds must be non-negative, not {self.rounds}")
        for ai in self.ai_levels:
            if ai is not None and ai not in AI_LEVEL_RANGE:
                raise ScoringError(f"AI level must be 1-10, not {ai}")

    @property
    def leaver(self) -> int | None:
        """The side that left the game, if it ended by abandonment."""
        if self.ending is Ending.ABANDONMENT and self.winner is not None:
            return 1 - self.winner
        return None

    def level(self, color: int) -> int:
        """The ladder level of side ``color`` (the AI's own level for the AI)."""
        ai = self.ai_levels[color]
        return ai if ai is not None else level_for_score(self.scores[color]).number


@dataclass(frozen=True, slots=True)
class ScoreChange:
    """Each side's score change and new score; ``voided`` when the 10-round rule applied."""

    deltas: tuple[int, int]
    new_scores: tuple[int, int]
    voided: bool


def score_changes(result: GameResult) -> ScoreChange:
    """Apply docs/rules.md 5.4 to a finished game.

    >>> quick = GameResult(1, Ending.ABANDONMENT, rounds=3, scores=(40, 40))
    >>> score_changes(quick)  # too short to score, but leaving still costs the leaver
    ScoreChange(deltas=(-10, 0), new_scores=(30, 40), voided=True)
    """
    voided = result.rounds <= MIN_ROUNDS and not result.tournament
    deltas = [0, 0]
    if result.winner is not None and not voided:
        winner, loser = result.winner, 1 - result.winner
        deltas[winner] = win_points(result.level(winner), result.level(loser))
        deltas[loser] = -LOSS_POINTS
    if result.leaver is not None:
        deltas[result.leaver] -= ABANDON_PENALTY
    for color, ai in enumerate(result.ai_levels):
        if ai is not None:
            deltas[color] = 0  # the AI keeps no score
    red, blue = deltas
    return ScoreChange(
        deltas=(red, blue),
        new_scores=(result.scores[0] + red, result.scores[1] + blue),
        voided=voided,
    )

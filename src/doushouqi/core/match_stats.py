"""The statistics of a match, small pure functions: the Elo difference a score means, its 95%
error bar, and the sequential probability ratio test (SPRT). Public path:
:mod:`doushouqi.jungle.engine.match`,
whose description gives the formulas.

>>> round(score_from_elo(190.8), 3)
0.75
>>> elo_estimate(10, 0, 10)
(0.0, ...)
"""

from __future__ import annotations

import dataclasses
import math

__all__ = [
    "Z95",
    "MatchScore",
    "Sprt",
    "elo_estimate",
    "elo_from_score",
    "score_from_elo",
    "sprt_bounds",
    "sprt_llr",
]

#: Two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def score_from_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic model).

    >>> score_from_elo(0.0)
    0.5
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """Elo difference that gives the score fraction ``score`` (±inf at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def _mean_and_variance(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Score fraction and per-game variance of the results (trinomial)."""
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    return score, variance


def elo_estimate(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Elo difference and the half-width of its 95% confidence interval.

    The interval is symmetric in score, not in Elo; the half-width is half its Elo span
    (infinite when it reaches a score of 0 or 1).

    >>> elo, error = elo_estimate(30, 40, 30)
    >>> elo, round(error, 1)
    (0.0, 53.2)
    """
    if wins + draws + losses == 0:
        return 0.0, math.inf
    score, variance = _mean_and_variance(wins, draws, losses)
    if score in (0.0, 1.0):
        return elo_from_score(score), math.inf
    margin = Z95 * math.sqrt(variance / (wins + draws + losses))
    low, high = elo_from_score(score - margin), elo_from_score(score + margin)
    return elo_from_score(score), (high - low) / 2


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``), GSPRT approximation.

    It is 0 while the variance cannot be estimated (no games, or every result the same).
    """
    games = wins + draws + losses
    if games == 0:
        return 0.0
    score, variance = _mean_and_variance(wins, draws, losses)
    if variance == 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return games * (s1 - s0) * (2 * score - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Lower and upper LLR bounds: accept H0 below ``ln(β/(1-α))``, H1 above ``ln((1-β)/α)``."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclasses.dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test: H0 ``elo = elo0`` against H1 ``elo = elo1``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("SPRT alpha and beta must lie between 0 and 1")
        if self.elo0 >= self.elo1:
            raise ValueError("SPRT elo0 must be below elo1")

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0,elo1[,alpha,beta]``, e.g. ``0,10,0.05,0.05``."""
        try:
            numbers = [float(part) for part in text.split(",")]
        except ValueError:
            numbers = []
        if len(numbers) not in (2, 4):
            raise ValueError(f"invalid --sprt {text!r}: expected elo0,elo1[,alpha,beta]")
        return cls(*numbers)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, score: MatchScore) -> float:
        return sprt_llr(score.wins, score.draws, score.losses, self.elo0, self.elo1)

    def decision(self, llr: float) -> str | None:
        """``"H0"`` or ``"H1"`` once the LLR crosses a bound, else None."""
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else None


@dataclasses.dataclass
class MatchScore:
    """Results from the first engine's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def add(self, points: float) -> None:
        if points == 1:
            self.wins += 1
        elif points == 0:
            self.losses += 1
        else:
            self.draws += 1

    def __str__(self) -> str:
        return (
            f"W/D/L {self.wins}/{self.draws}/{self.losses}, {100 * self.score:.1f}% "
            f"({self.games} game{'s' if self.games != 1 else ''})"
        )

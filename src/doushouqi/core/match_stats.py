"""The statistics of a match, small pure functions: the Elo difference a score means, its 95%
error bar, and the sequential probability ratio test (SPRT). Public path:
:mod:`doushouqi.jungle.engine.match`,
whose description gives the formulas.

>>> round(score_from_elo(190.8), 3)
0.75
>>> elo_estimate(10, 0, 10)
(0.0, ...)

A match of 120 wins, 40 draws and 40 losses, tested for a gain of 0 against 10 Elo:

>>> result = MatchScore(wins=120, draws=40, losses=40)
>>> sprt = Sprt(elo0=0, elo1=10)
>>> str(result), round(elo_from_score(result.score))
('W/D/L 120/40/40, 70.0% (200 games)', 147)
>>> round(sprt.llr(result), 2), sprt.decision(sprt.llr(result))
(3.47, 'H1')

:data:`Z95` is the 95% quantile that the error bar multiplies by: a score's standard error of
2.5 points makes a half-width of about 4.9 points.

>>> round(Z95 * 0.025, 4)
0.049
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
    """Elo difference that gives the score fraction ``score`` (±inf at 0 and 1); the inverse
    of :func:`score_from_elo`.

    >>> round(elo_from_score(0.75), 1), elo_from_score(0.5), elo_from_score(1.0)
    (190.8, 0.0, inf)
    """
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

    >>> round(sprt_llr(60, 20, 20, 0.0, 10.0), 2), round(sprt_llr(20, 20, 60, 0.0, 10.0), 2)
    (1.73, -1.86)
    >>> sprt_llr(5, 0, 0, 0.0, 10.0)
    0.0
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
    """Lower and upper LLR bounds: accept H0 below ``ln(β/(1-α))``, H1 above ``ln((1-β)/α)``.

    >>> [round(bound, 3) for bound in sprt_bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclasses.dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test: H0 ``elo = elo0`` against H1 ``elo = elo1``,
    with the error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (the reverse).

    >>> sprt = Sprt(elo0=0, elo1=5, alpha=0.05, beta=0.1)
    >>> score = MatchScore(wins=30, draws=40, losses=30)
    >>> round(sprt.llr(score), 3), sprt.decision(sprt.llr(score))
    (-0.017, None)
    >>> Sprt(elo0=10, elo1=0)
    Traceback (most recent call last):
    ...
    ValueError: SPRT elo0 must be below elo1
    """

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
        """A test from the text ``elo0,elo1[,alpha,beta]``, e.g. ``0,10,0.05,0.05`` (the
        match command's ``--sprt``); ValueError for anything else.

        >>> Sprt.parse("0,10")
        Sprt(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
        >>> Sprt.parse("0,10,0.05")
        Traceback (most recent call last):
        ...
        ValueError: invalid --sprt '0,10,0.05': expected elo0,elo1[,alpha,beta]
        """
        try:
            numbers = [float(part) for part in text.split(",")]
        except ValueError:
            numbers = []
        if len(numbers) not in (2, 4):
            raise ValueError(f"invalid --sprt {text!r}: expected elo0,elo1[,alpha,beta]")
        return cls(*numbers)

    @property
    def bounds(self) -> tuple[float, float]:
        """The lower and upper LLR bounds of this test's error rates (:func:`sprt_bounds`).

        >>> [round(bound, 2) for bound in Sprt(0, 10, alpha=0.05, beta=0.1).bounds]
        [-2.25, 2.89]
        """
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, score: MatchScore) -> float:
        """The log-likelihood ratio of ``score``'s results (:func:`sprt_llr`).

        >>> round(Sprt(0, 10).llr(MatchScore(wins=60, draws=20, losses=20)), 2)
        1.73
        """
        return sprt_llr(score.wins, score.draws, score.losses, self.elo0, self.elo1)

    def decision(self, llr: float) -> str | None:
        """``"H0"`` or ``"H1"`` once the LLR crosses a bound, else None (play on).

        >>> sprt = Sprt(0, 10)
        >>> sprt.decision(3.1), sprt.decision(-3.0), sprt.decision(1.2)
        ('H1', 'H0', None)
        """
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else None


@dataclasses.dataclass
class MatchScore:
    """Results from the first engine's point of view, counted as the games finish.

    >>> match = MatchScore()
    >>> for points in (1, 0.5, 1, 0):
    ...     match.add(points)
    >>> match, str(match)
    (MatchScore(wins=2, draws=1, losses=1), 'W/D/L 2/1/1, 62.5% (4 games)')
    """

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """The number of games played.

        >>> MatchScore(wins=3, draws=2, losses=1).games
        6
        """
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The score fraction, 0 to 1 (a draw counts half); 0 before any game.

        >>> MatchScore(wins=3, draws=2, losses=1).score, MatchScore().score
        (0.6666666666666666, 0.0)
        """
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def add(self, points: float) -> None:
        """Count one game by the first engine's points: 1 a win, 0 a loss, anything else
        (½) a draw.

        >>> match = MatchScore(wins=1)
        >>> match.add(0.5); match.add(0)
        >>> match
        MatchScore(wins=1, draws=1, losses=1)
        """
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

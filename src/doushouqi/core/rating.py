"""Glicko-2 ratings, after Mark Glickman's "Example of the Glicko-2 system".

A :class:`Rating` is shown on the familiar Glicko scale (1500 ± RD); the update works on the
Glicko-2 scale (mu, phi), where ``mu = (r - 1500) / 173.7178`` and ``phi = RD / 173.7178``.
All games of one rating period are rated together against the opponents' ratings *before*
the period, which is how the system is meant to be used; :func:`rate_game` treats a single
game as its own period for servers that rate game by game.

The worked example from the paper:

>>> player = Rating(1500.0, 200.0, 0.06)
>>> games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0),
...          (Rating(1700.0, 300.0), 0.0)]
>>> new = update(player, games)
>>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper prints 1464.06 and 0.05999 because it rounds its intermediate values.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Converts between the Glicko and Glicko-2 scales (400 / ln 10).
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: A rating whose RD is above this is provisional, shown with a "?" ("1500?"), as lichess does:
#: too few games yet to say much (a new player's RD of 350 falls below it after some 10-15
#: games against settled opponents).
PROVISIONAL_RD = 110.0
#: The system constant: smaller values keep volatility from changing quickly (paper: 0.3-1.2).
DEFAULT_TAU = 0.5
#: Convergence tolerance of the volatility iteration (the paper's epsilon).
EPSILON = 1e-6
_MAX_ITERATIONS = 1000


class RatingError(ValueError):
    """A rating, score or system constant is out of range."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation (RD) and volatility.

    >>> Rating().mu, Rating().phi == 350.0 / SCALE
    (0.0, True)
    """

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not all(math.isfinite(v) for v in (self.rating, self.rd, self.volatility)):
            raise RatingError(f"rating values must be finite: {self!r}")
        if self.rd <= 0 or self.volatility <= 0:
            raise RatingError(f"RD and volatility must be positive: {self!r}")

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain (RD above :data:`PROVISIONAL_RD`).

        >>> Rating().provisional, Rating(1500, 110).provisional, Rating(1500, 60).provisional
        (True, False, False)
        """
        return self.rd > PROVISIONAL_RD

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The rating deviation on the Glicko-2 scale."""
        return self.rd / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        """Build a rating from Glicko-2 scale values."""
        return cls(mu * SCALE + DEFAULT_RATING, phi * SCALE, volatility)


def _g(phi: float) -> float:
    # Discounts a game by how uncertain the opponent's rating is.
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (win 1, draw 0.5).

    Only the opponent's RD enters, as in the paper's E(mu, mu_j, phi_j).

    >>> expected_score(Rating(), Rating())
    0.5
    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    return _expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: solve f(x) = 0 for x = ln(sigma'^2) by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        fit = ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2)
        return fit - (x - a) / (tau * tau)

    # Bracket the root between A and B.
    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<= 0", not "< 0": with an exact root at C the strict test would never narrow A..B.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0  # the Illinois step: halve the stale end so it cannot stall
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    rating: Rating, results: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU
) -> Rating:
    """The rating after one rating period with ``results`` as (opponent, score) pairs.

    Scores are 1 for a win, 0.5 for a draw and 0 for a loss. With no games, only the RD grows
    (the player's strength has become less certain).

    >>> idle = update(Rating(1500, 200, 0.06), [])
    >>> idle.rating, round(idle.rd, 2), idle.volatility
    (1500.0, 200.27, 0.06)
    """
    if not (math.isfinite(tau) and tau > 0):
        raise RatingError(f"tau must be positive, not {tau}")
    for _, score in results:
        if not 0.0 <= score <= 1.0:
            raise RatingError(f"scores must lie in [0, 1], not {score}")
    mu, phi, sigma = rating.mu, rating.phi, rating.volatility
    if not results:
        return Rating.from_glicko2(mu, math.sqrt(phi * phi + sigma * sigma), sigma)

    # Steps 3 and 4: estimated variance v and estimated improvement delta.
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement

    # Steps 5-7: new volatility, then the pre-period RD grown by it, then the new values.
    new_sigma = _new_volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating.from_glicko2(new_mu, new_phi, new_sigma)


def rate_game(
    a: Rating, b: Rating, score_a: float, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game; ``score_a`` is a's score (1, 0.5 or 0).

    >>> winner, loser = rate_game(Rating(), Rating(), 1.0)
    >>> round(winner.rating, 1), round(loser.rating, 1)
    (1662.3, 1337.7)
    """
    return update(a, [(b, score_a)], tau), update(b, [(a, 1.0 - score_a)], tau)

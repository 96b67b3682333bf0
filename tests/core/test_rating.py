"""Tests for doushouqi.core.rating:
Glicko-2 against Glickman's worked example and its invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi.core import rating as rating_module
from doushouqi.core.rating import (
    SCALE,
    Rating,
    RatingError,
    expected_score,
    rate_game,
    update,
)

PLAYER = Rating(1500.0, 200.0, 0.06)
OPPONENTS = [Rating(1400.0, 30.0), Rating(1550.0, 100.0), Rating(1700.0, 300.0)]
SCORES = [1.0, 0.0, 0.0]


def test_glickman_worked_example() -> None:
    # Published figures from "Example of the Glicko-2 system" (Glickman, 2022 revision).
    new = update(PLAYER, list(zip(OPPONENTS, SCORES, strict=True)))
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    assert new.mu == pytest.approx(-0.2069, abs=1e-4)
    assert new.phi == pytest.approx(0.8722, abs=1e-4)


def test_worked_example_intermediate_values() -> None:
    # Step 2 of the example: the Glicko-2 scale values.
    assert PLAYER.mu == 0.0
    assert PLAYER.phi == pytest.approx(1.1513, abs=1e-4)
    assert [o.mu for o in OPPONENTS] == pytest.approx([-0.5756, 0.2878, 1.1513], abs=1e-4)
    # Step 3: the expected scores E.
    expected = [expected_score(PLAYER, o) for o in OPPONENTS]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=1e-3)


def test_volatility_iteration_solves_the_equation() -> None:
    # The paper's values v = 1.7785, delta = -0.4834 give sigma' = 0.05999.
    sigma = rating_module._new_volatility(PLAYER.phi, 0.06, -0.4834, 1.7785, 0.5)
    assert sigma == pytest.approx(0.05999, abs=1e-5)


def _f(x: float, phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    # The paper's step-5 function, written out again independently of the module.
    ex, a = math.exp(x), math.log(sigma**2)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


def _volatility_by_bisection(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    # A slow independent solver; valid where f has a single root (checked for these cases).
    low, high = math.log(sigma**2) - 30.0, math.log(sigma**2) + 30.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if _f(mid, phi, sigma, delta, v, tau) > 0 else (low, mid)
    return math.exp(low / 2)


@pytest.mark.parametrize(
    ("phi", "sigma", "delta", "v", "tau"),
    [
        (1.1513, 0.06, -0.4834, 1.7785, 0.5),  # the paper's example
        (0.3, 0.06, -4.0, 1.2, 1.0),  # delta^2 > phi^2 + v: the other bracket
        (0.17, 0.06, 5.0, 1.0, 1.2),  # ditto, with a large tau
        (2.0, 0.09, 0.01, 20.0, 0.3),
        (0.5, 0.03, 3.0, 0.8, 0.2),
    ],
)
def test_volatility_matches_an_independent_solver(
    phi: float, sigma: float, delta: float, v: float, tau: float
) -> None:
    got = rating_module._new_volatility(phi, sigma, delta, v, tau)
    assert got == pytest.approx(_volatility_by_bisection(phi, sigma, delta, v, tau), rel=1e-6)


def test_volatility_picks_the_root_nearest_the_old_value() -> None:
    # Here f has three roots (x ~ -5.58, -0.51, 1.99); the paper's bracket starts at the old
    # volatility, so the iteration must find the nearby root, not a wild volatility of 2.7.
    args = (0.17, 0.06, -30.0, 3.0, 0.5)
    got = rating_module._new_volatility(*args)
    assert _f(2 * math.log(got), *args) == pytest.approx(0.0, abs=1e-4)
    assert got == pytest.approx(math.exp(-5.582 / 2), rel=1e-3)


def test_big_upset_takes_the_other_bracket() -> None:
    # delta^2 > phi^2 + v here, so the iteration starts from B = ln(delta^2 - phi^2 - v).
    player = Rating(1500.0, 30.0, 0.06)
    new = update(player, [(Rating(900.0, 30.0), 0.0)] * 10)
    assert new.volatility > player.volatility  # a surprise makes the rating more volatile
    assert new.rating < player.rating
    assert all(math.isfinite(x) for x in (new.rating, new.rd, new.volatility))


def test_no_games_only_grows_rd() -> None:
    idle = update(PLAYER, [])
    assert idle.rating == PLAYER.rating
    assert idle.volatility == PLAYER.volatility
    assert idle.phi == pytest.approx(math.sqrt(PLAYER.phi**2 + 0.06**2))
    assert idle.rd > PLAYER.rd


def test_rate_game() -> None:
    winner, loser = rate_game(Rating(), Rating(), 1.0)
    assert winner.rating > 1500.0 > loser.rating
    assert winner.rating - 1500.0 == pytest.approx(1500.0 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd) and winner.rd < 350.0
    a, b = rate_game(Rating(), Rating(), 0.5)
    assert a.rating == pytest.approx(1500.0) and b.rating == pytest.approx(1500.0)


def test_expected_score() -> None:
    assert expected_score(Rating(), Rating()) == 0.5
    strong, weak = Rating(1900.0, 60.0), Rating(1500.0, 60.0)
    assert expected_score(strong, weak) > 0.9
    assert expected_score(strong, weak) + expected_score(weak, strong) == pytest.approx(1.0)
    # An uncertain opponent pulls the expectation towards 0.5.
    assert expected_score(strong, Rating(1500.0, 350.0)) < expected_score(strong, weak)


def test_glicko2_scale_round_trip() -> None:
    r = Rating(1723.5, 88.0, 0.07)
    assert r.mu == pytest.approx((1723.5 - 1500.0) / SCALE)
    back = Rating.from_glicko2(r.mu, r.phi, r.volatility)
    assert back.rating == pytest.approx(r.rating) and back.rd == pytest.approx(r.rd)


@pytest.mark.parametrize(
    ("rating", "rd", "volatility"),
    [
        (1500.0, 0.0, 0.06),
        (1500.0, -5.0, 0.06),
        (1500.0, 100.0, 0.0),
        (math.nan, 100.0, 0.06),
        (1500.0, math.inf, 0.06),
    ],
)
def test_invalid_ratings(rating: float, rd: float, volatility: float) -> None:
    with pytest.raises(RatingError):
        Rating(rating, rd, volatility)


def test_invalid_update_arguments() -> None:
    with pytest.raises(RatingError):
        update(Rating(), [(Rating(), 1.5)])
    with pytest.raises(RatingError):
        update(Rating(), [(Rating(), -0.1)])
    with pytest.raises(RatingError):
        update(Rating(), [], tau=0.0)
    assert issubclass(RatingError, ValueError)


_ratings = st.builds(
    Rating,
    rating=st.floats(500.0, 2500.0),
    rd=st.floats(30.0, 350.0),
    volatility=st.floats(0.03, 0.1),
)


@given(player=_ratings, opponent=_ratings)
def test_win_raises_and_loss_lowers(player: Rating, opponent: Rating) -> None:
    won = update(player, [(opponent, 1.0)])
    lost = update(player, [(opponent, 0.0)])
    drawn = update(player, [(opponent, 0.5)])
    assert lost.rating < drawn.rating < won.rating
    assert lost.rating < player.rating < won.rating
    for new in (won, lost, drawn):
        assert new.rd > 0 and new.volatility > 0 and math.isfinite(new.rating)


@given(player=_ratings, opponent=_ratings, score=st.sampled_from([0.0, 0.5, 1.0]))
def test_rate_game_matches_update(player: Rating, opponent: Rating, score: float) -> None:
    a, b = rate_game(player, opponent, score)
    assert a == update(player, [(opponent, score)])
    assert b == update(opponent, [(player, 1.0 - score)])

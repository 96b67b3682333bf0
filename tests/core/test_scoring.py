"""Tests for doushouqi.core.scoring: docs/rules.md 5.4 and the level ladder."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi.core.scoring import (
    ABANDON_PENALTY,
    LEVELS,
    LOSS_POINTS,
    MIN_ROUNDS,
    WIN_BASE,
    WIN_MAX,
    WIN_MIN,
    Ending,
    GameResult,
    ScoreChange,
    ScoringError,
    level_for_score,
    rounds_from_plies,
    score_changes,
    win_points,
)

DECISIVE = [Ending.NORMAL, Ending.RESIGNATION, Ending.TIME, Ending.ABANDONMENT]
DRAWS = [Ending.DRAW_AGREED, Ending.DRAW_OTHER]

# --- levels ----------------------------------------------------------------------------------


def test_ladder_is_well_formed() -> None:
    assert [level.number for level in LEVELS] == list(range(1, 11))
    assert LEVELS[0].min_score == 0
    thresholds = [level.min_score for level in LEVELS]
    assert thresholds == sorted(set(thresholds))
    assert all(level.zh and level.en for level in LEVELS)
    assert LEVELS[0].label == "1级 新手"


@pytest.mark.parametrize(
    ("score", "number"),
    [(-100, 1), (0, 1), (49, 1), (50, 2), (119, 2), (120, 3), (1999, 9), (2000, 10), (10**9, 10)],
)
def test_level_for_score(score: int, number: int) -> None:
    assert level_for_score(score).number == number


@given(st.integers(-(10**6), 10**6))
def test_level_bounds(score: int) -> None:
    level = level_for_score(score)
    assert level.min_score <= max(score, 0)
    if level.number < len(LEVELS):
        assert score < LEVELS[level.number].min_score


@given(st.integers(-(10**6), 10**6), st.integers(0, 10**6))
def test_level_is_monotonic(score: int, more: int) -> None:
    assert level_for_score(score).number <= level_for_score(score + more).number


def test_win_points() -> None:
    assert win_points(4, 4) == WIN_BASE == 4
    assert win_points(4, 5) == 5  # beating a stronger player earns more
    assert win_points(4, 3) == 3  # beating a weaker one earns less
    assert win_points(10, 1) == WIN_MIN == 1  # never nothing for a win
    assert win_points(1, 10) == WIN_MAX == 8


# --- score changes ---------------------------------------------------------------------------


def result(**kwargs: object) -> GameResult:
    fields: dict[str, object] = {"winner": 0, "ending": Ending.NORMAL, "rounds": 30}
    fields.update(kwargs)
    return GameResult(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("ending", [e for e in DECISIVE if e is not Ending.ABANDONMENT])
def test_winner_gains_by_level_loser_loses_two(ending: Ending) -> None:
    change = score_changes(result(winner=1, ending=ending, scores=(500, 100)))
    # Blue (level 2) beat Red (level 5): 4 + 3 points.
    assert change == ScoreChange(deltas=(-LOSS_POINTS, 7), new_scores=(498, 107), voided=False)


@pytest.mark.parametrize("ending", DRAWS)
@pytest.mark.parametrize("tournament", [False, True])
def test_draws_change_nobody(ending: Ending, tournament: bool) -> None:
    change = score_changes(
        result(winner=None, ending=ending, scores=(300, 40), tournament=tournament)
    )
    assert change.deltas == (0, 0)
    assert change.new_scores == (300, 40)


def test_abandonment_costs_the_leaver_ten_more() -> None:
    game = result(winner=0, ending=Ending.ABANDONMENT, scores=(0, 0))
    assert game.leaver == 1
    change = score_changes(game)
    assert change.deltas == (WIN_BASE, -LOSS_POINTS - ABANDON_PENALTY) == (4, -12)
    assert change.new_scores == (4, -12)
    assert result().leaver is None


@pytest.mark.parametrize("rounds", [0, 1, 9, MIN_ROUNDS])
def test_game_within_ten_rounds_scores_nothing(rounds: int) -> None:
    change = score_changes(result(rounds=rounds, scores=(60, 60)))
    assert change == ScoreChange(deltas=(0, 0), new_scores=(60, 60), voided=True)


def test_eleventh_round_scores() -> None:
    change = score_changes(result(rounds=MIN_ROUNDS + 1, scores=(60, 60)))
    assert change.deltas == (4, -2) and not change.voided
    assert rounds_from_plies(20) == 10  # Blue's 10th move ends round 10: still too short
    assert rounds_from_plies(21) == 11  # Red's 11th move starts round 11
    with pytest.raises(ScoringError):
        rounds_from_plies(-1)


@pytest.mark.parametrize("rounds", [0, 5, MIN_ROUNDS])
def test_tournament_games_always_score(rounds: int) -> None:
    change = score_changes(result(rounds=rounds, tournament=True, scores=(60, 60)))
    assert change.deltas == (4, -2) and not change.voided


def test_short_abandonment_still_costs_the_penalty() -> None:
    change = score_changes(result(winner=1, ending=Ending.ABANDONMENT, rounds=2, scores=(9, 9)))
    assert change == ScoreChange(deltas=(-ABANDON_PENALTY, 0), new_scores=(-1, 9), voided=True)


def test_beating_the_ai_depends_on_its_level() -> None:
    # A level-1 human beating AI levels 1..10 earns 4, 5, ... capped at 8.
    earned = [
        score_changes(result(winner=0, scores=(0, 0), ai_levels=(None, ai))).deltas
        for ai in range(1, 11)
    ]
    assert earned == [(min(WIN_MAX, 3 + ai), 0) for ai in range(1, 11)]
    # A level-6 human beating AI level 2 earns the minimum.
    strong = score_changes(result(winner=1, scores=(0, 600), ai_levels=(2, None)))
    assert strong.deltas == (0, WIN_MIN)


def test_losing_to_the_ai_and_the_ai_keeps_no_score() -> None:
    change = score_changes(result(winner=0, scores=(123, 400), ai_levels=(7, None)))
    assert change.deltas == (0, -LOSS_POINTS)
    assert change.new_scores == (123, 398)


def test_plain_strings_are_accepted_for_the_ending() -> None:
    game = result(ending="resignation")
    assert game.ending is Ending.RESIGNATION


@pytest.mark.parametrize(
    "kwargs",
    [
        {"winner": None, "ending": Ending.NORMAL},
        {"winner": 0, "ending": Ending.DRAW_AGREED},
        {"winner": 2},
        {"rounds": -1},
        {"ending": "checkmate"},
        {"ai_levels": (0, None)},
        {"ai_levels": (None, 11)},
    ],
)
def test_inconsistent_results_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(ScoringError):
        result(**kwargs)
    assert issubclass(ScoringError, ValueError)


@given(
    winner=st.sampled_from([0, 1, None]),
    rounds=st.integers(0, 200),
    scores=st.tuples(st.integers(-500, 5000), st.integers(-500, 5000)),
    tournament=st.booleans(),
    leave=st.booleans(),
)
def test_score_change_invariants(
    winner: int | None, rounds: int, scores: tuple[int, int], tournament: bool, leave: bool
) -> None:
    if winner is None:
        ending = Ending.DRAW_AGREED
    else:
        ending = Ending.ABANDONMENT if leave else Ending.NORMAL
    game = GameResult(winner, ending, rounds, scores, tournament)
    change = score_changes(game)
    assert change.new_scores == (scores[0] + change.deltas[0], scores[1] + change.deltas[1])
    assert change.voided == (rounds <= MIN_ROUNDS and not tournament)
    if winner is None:
        assert change.deltas == (0, 0)
        return
    loser = 1 - winner
    penalty = ABANDON_PENALTY if leave else 0
    if change.voided:
        assert change.deltas[winner] == 0 and change.deltas[loser] == -penalty
    else:
        assert WIN_MIN <= change.deltas[winner] <= WIN_MAX
        assert change.deltas[loser] == -LOSS_POINTS - penalty

"""Game review's arithmetic (server/grading.py): win chance, per-move accuracy, grades by
the win% lost, and each side's accuracy and counts (docs/server.md, "Game review")."""

from __future__ import annotations

import math

import pytest

from doushouqi.server.review import grading
from doushouqi.server.review.grading import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    game_accuracy,
    grade_of,
    move_accuracy,
    review,
    win_percent,
)


def test_win_chance_is_even_at_zero_and_symmetric() -> None:
    assert win_percent(0) == 50.0
    for cp in (100, 640, 1414, 5000):
        assert win_percent(cp) + win_percent(-cp) == pytest.approx(100.0)
        assert win_percent(cp) > 50.0
    assert win_percent(1414) == pytest.approx(75.0, abs=0.1)  # the engine's fitted curve
    assert win_percent(grading.DEN_CP) > 99.9 and win_percent(-grading.DEN_CP) < 0.1
    assert win_percent(10**9) <= 100.0  # no overflow


def test_move_accuracy_falls_with_the_win_chance_lost() -> None:
    assert move_accuracy(0) == 100.0
    assert move_accuracy(-3) == 100.0  # a move that gains is no better than a perfect one
    assert move_accuracy(grading.ACCURACY_SCALE) == pytest.approx(100 / math.e)
    assert move_accuracy(5) > move_accuracy(10) > move_accuracy(30) > 0


def test_grades_start_at_their_thresholds() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    assert grade_of(INACCURACY - 0.01) is None
    assert grade_of(INACCURACY) == "inaccuracy"
    assert grade_of(MISTAKE - 0.01) == "inaccuracy"
    assert grade_of(MISTAKE) == "mistake"
    assert grade_of(BLUNDER) == "blunder"
    assert grade_of(90) == "blunder"


def test_losing_animals_in_an_even_position_grades_by_their_worth() -> None:
    """In an even position: a cat is no mark, a dog an inaccuracy, a tiger a mistake, a lion
    a blunder (the material values of the engine, eval_params.py)."""
    losses = {name: 50.0 - win_percent(-cp) for name, cp in
              {"cat": 216, "dog": 316, "tiger": 640, "lion": 1028}.items()}  # fmt: skip
    assert [grade_of(loss) for loss in losses.values()] == [
        None,
        "inaccuracy",
        "mistake",
        "blunder",
    ]


def test_game_accuracy_is_the_harmonic_mean_with_a_floor() -> None:
    assert game_accuracy([]) is None
    assert game_accuracy([80.0, 80.0]) == pytest.approx(80.0)
    # One bad move among perfect ones weighs more than in the plain mean.
    mixed = [100.0] * 30 + [22.0]
    assert game_accuracy(mixed) == pytest.approx(31 / (30 / 100 + 1 / 22))
    assert game_accuracy(mixed) < sum(mixed) / len(mixed)
    # A hopeless move counts at the floor, not at zero.
    assert game_accuracy([100.0, 0.0]) == pytest.approx(2 / (1 / 100 + 1 / grading.ACCURACY_FLOOR))


def test_review_grades_each_side_from_its_own_view() -> None:
    # Red to move first. Ply 1 (Red) keeps the balance, ply 2 (Blue) hands Red a lion,
    # ply 3 (Red) gives it back, ply 4 (Blue) is a pass (never graded), ply 5 unknown.
    scores: list[float | None] = [0, 0, 1028, 0, 0, None]
    graded, (red, blue) = review(scores, 0, ["a3a4", "g7g6", "a4a5", "0000", "g6g5"])
    by_ply = {g.ply: g for g in graded}
    assert sorted(by_ply) == [1, 2, 3]
    assert by_ply[1].grade is None and by_ply[1].mover == 0 and by_ply[1].accuracy == 100.0
    assert by_ply[2].mover == 1 and by_ply[2].grade == "blunder"
    assert by_ply[3].mover == 0 and by_ply[3].grade == "blunder"
    assert (red.moves, red.blunders, blue.moves, blue.blunders) == (2, 1, 1, 1)
    assert red.accuracy is not None and blue.accuracy is not None
    assert blue.accuracy < red.accuracy  # Blue's one move was its blunder
    assert red.mistakes == red.inaccuracies == 0


def test_review_starts_from_the_side_to_move() -> None:
    # Blue moves first and loses a tiger's worth: Blue's mistake, not Red's.
    graded, (red, blue) = review([0, 640], 1)
    assert graded[0].mover == 1 and graded[0].grade == "mistake"
    assert (red.moves, blue.mistakes) == (0, 1)


def test_walking_into_a_den_loss_is_a_blunder() -> None:
    graded, _ = review([200, -(grading.DEN_CP - 3)], 0)
    assert graded[0].grade == "blunder" and graded[0].loss > 50

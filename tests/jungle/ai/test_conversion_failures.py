"""bench/conversion_failures.py: a failed conversion's class from the judge's scores, and the
judge scoring the attacker's positions of a real game."""

from __future__ import annotations

from bench import conversion_failures as failures

WON, DROP = 600, 300


def _game(*scores: int) -> dict:
    """A failed game whose attacker positions the judge scored ``scores`` (2 plies apart)."""
    moves = ["a3a4", "g7g6"] * len(scores)
    judged = [(2 * i, moves[2 * i], s) for i, s in enumerate(scores)]
    return {"index": 0, "result": "draw", "reason": "repetition", "judged": judged}


def test_each_failure_falls_in_its_class() -> None:
    assert failures.classify(_game(450, 900), WON, DROP) == (
        "not won by the judge", "start +450"
    )  # fmt: skip
    # The worst move played at a won score, even one that stays above it.
    kind, words = failures.classify(_game(1500, 1400, 800, 700, 500), WON, DROP)
    assert (kind, words) == ("blunder", "ply 2 a3a4: +1400 -> +800")
    assert failures.classify(_game(1500, 1300, 1100, 900), WON, DROP)[0] == "no progress"
    assert failures.classify(_game(900, 700, 550, 300), WON, DROP) == (
        "slid away", "start +900, end +300, lowest +300"
    )  # fmt: skip
    # A drop from a score that was not won already is no blunder of the conversion.
    assert failures.classify(_game(700, 500, 100), WON, DROP)[0] == "slid away"
    assert failures.classify(_game(), WON, DROP)[0] == "not judged"


def test_the_judge_scores_each_position_with_the_attacker_to_move() -> None:
    # Red (to move) far ahead: four plies, Red to move at plies 0, 2 and 4 (the end).
    game = {"fen": "l6/7/7/7/7/7/7/3E3/L1T4 w 0 1", "rules": "international"}
    game["moves"] = "d2d3 a9a8 d3d4 a8a7"
    judged = failures.judge_game((game, 2_000))["judged"]
    assert [(ply, move) for ply, move, _ in judged] == [(0, "d2d3"), (2, "d3d4"), (4, None)]
    assert all(score > WON for *_, score in judged)

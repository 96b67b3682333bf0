"""Conversion's third round (issue 31), the den when ahead. The home guard: the side ahead in
material counts its den races lost a move earlier and dearer; the side behind, and an equal
position, are evaluated as before, and with both knobs at 0 the evaluation is the one before.
``danger_lead``: the root side well ahead searches with the danger rule's guard test."""

from __future__ import annotations

import numpy as np

from doushouqi.jungle.ai import Position, Searcher
from doushouqi.jungle.ai.eval_params import (
    P_HOME_GUARD,
    P_HOME_MARGIN,
    P_RACE,
    RACE_TABLE_SIZE,
    default_params,
)
from doushouqi.jungle.ai.evaluate import static_eval
from doushouqi.jungle.ai.work import C_DANGER_GUARDS, C_DANGER_MOVES, C_DANGER_SIDE
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

# Blue's cat on d5, three moves from Red's trap d2; Red's dog on g1, three moves from standing
# next to it: with Red to move the dog is just in time. Red's lion on g9 makes Red the side
# ahead; with the lion Blue's instead, Blue is.
RED_AHEAD = "6L/7/7/7/3c3/7/7/7/6D w 0 1"
BLUE_AHEAD = "6l/7/7/7/3c3/7/7/7/6D w 0 1"


def _weights(guard: int = 0, margin: int = 0, races: bool = True) -> np.ndarray:
    params = default_params()
    params[P_HOME_GUARD] = guard
    params[P_HOME_MARGIN] = margin
    if not races:
        params[P_RACE : P_RACE + RACE_TABLE_SIZE] = 0
    return params


def _eval(fen: str, params: np.ndarray) -> int:
    return static_eval(Position.from_board(Board(fen)), params)


def test_the_default_weights_have_the_home_guard_off() -> None:
    params = default_params()
    assert params[P_HOME_GUARD] == 0 and params[P_HOME_MARGIN] == 0


def test_the_side_ahead_loses_a_race_a_move_earlier() -> None:
    race = int(default_params()[P_RACE + 3])
    assert race > 0
    # Without the margin Red's dog is in time; with it the race for d2 (the cat three moves
    # away) is lost: race[3] more for Red, nothing else (Blue's races are its own).
    before = _eval(RED_AHEAD, _weights())
    assert before - _eval(RED_AHEAD, _weights(margin=1)) == race
    # And dearer with home_guard: more than once, at most twice for 100 %.
    dearer = before - _eval(RED_AHEAD, _weights(guard=100, margin=1))
    assert race < dearer <= 2 * race
    # Not ahead, not charged: with the races off the knobs change nothing.
    assert _eval(RED_AHEAD, _weights(races=False)) == _eval(
        RED_AHEAD, _weights(guard=100, margin=1, races=False)
    )


def test_the_side_behind_and_an_equal_position_are_evaluated_as_before() -> None:
    on = _weights(guard=200, margin=2)
    for fen in (BLUE_AHEAD, Board().fen(), BLUE_AHEAD.replace(" w ", " b ")):
        assert _eval(fen, on) == _eval(fen, _weights()), fen


def _searched(fen: str, **tuning: int) -> tuple[str, int]:
    engine = Searcher("wango", hash_mb=8)
    engine.use_tablebase = False
    engine.tuning.update(tuning)
    result = engine.search(Board(fen), Limit(depth=6))
    return repr(result.info["score"]), int(result.info["nodes"])


def test_the_searcher_applies_the_knobs() -> None:
    # The knobs reach the search's weights (a score the margin lowers) and leave them again.
    engine = Searcher("wango", hash_mb=8)
    engine.use_tablebase = False
    engine.tuning["home_margin"] = 1
    engine.tuning["home_guard"] = 150
    engine.search(Board(RED_AHEAD), Limit(depth=2))
    assert engine._in_use[P_HOME_MARGIN] == 1 and engine._in_use[P_HOME_GUARD] == 150
    engine.tuning["home_margin"] = engine.tuning["home_guard"] = 0
    engine.search(Board(RED_AHEAD), Limit(depth=2))
    assert engine._in_use[P_HOME_MARGIN] == 0 and engine._in_use[P_HOME_GUARD] == 0
    # On the start position nothing is ahead: the same search, node for node.
    assert _searched(Board().fen(), home_margin=1, home_guard=150) == _searched(Board().fen())


def test_the_side_well_ahead_searches_with_the_guard_test() -> None:
    engine = Searcher("wango", hash_mb=8)
    engine.use_tablebase = False
    engine.tuning["danger_lead"] = 400
    engine.search(Board(RED_AHEAD), Limit(depth=3))  # Red, a lion and a dog against a cat
    assert (engine._work[C_DANGER_MOVES], engine._work[C_DANGER_GUARDS]) == (2, 1)
    for fen in (BLUE_AHEAD, Board().fen()):  # Red to move behind, or equal: as before
        engine.search(Board(fen), Limit(depth=3))
        assert (engine._work[C_DANGER_MOVES], engine._work[C_DANGER_GUARDS]) == (0, 0), fen
    assert engine._work[C_DANGER_SIDE] == 0  # at both sides' nodes ...
    engine.tuning["danger_lead_side"] = 1
    engine.search(Board(RED_AHEAD), Limit(depth=3))
    assert engine._work[C_DANGER_SIDE] == 1  # ... or at Red's (colour 0) only
    engine.search(Board(BLUE_AHEAD), Limit(depth=3))
    assert engine._work[C_DANGER_SIDE] == 0  # Red behind: not at all
    engine.tuning["danger_lead"] = 0  # off
    engine.search(Board(RED_AHEAD), Limit(depth=3))
    assert (engine._work[C_DANGER_MOVES], engine._work[C_DANGER_GUARDS]) == (0, 0)
    # Where it applies, the search is the guard test's, node for node (a suite position,
    # Red a lion up: 10,500 nodes to depth 6 against 24,702 without, on the day it was written).
    won = "5p1/2d3c/4L2/7/7/5R1/6P/l3D2/2T4 w 0 1"
    ahead = _searched(won, danger_lead=400)
    assert ahead == _searched(won, danger_moves=2, danger_guards=1)
    assert ahead[1] < _searched(won)[1]

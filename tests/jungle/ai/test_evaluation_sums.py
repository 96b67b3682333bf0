"""The evaluation's sums over single animals, kept per search ply and moved on along the path
(jungle/ai/evaluate.py, ``evaluate_in_search``), equal the sums taken from scratch, and the
evaluation in the search equals the evaluation from scratch: along random games and back up
them, with passes, evaluating only some plies (so that the sums move on by several moves at
once), both colours, several rule sets (custom ones with 7-3, 17-5 and must-vary included)
and weights."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from tests.jungle.ai.helpers import INTERNATIONAL_RESTRICTED

from doushouqi.jungle.ai import Position
from doushouqi.jungle.ai.eval_params import NUM_PARAMS, P_PRESS_LEAD, default_params
from doushouqi.jungle.ai.evaluate import (
    CAPTURED_ROW,
    SQUARE_COL,
    SQUARE_ROW,
    SUM_ATTACK_BLUE,
    SUM_ATTACK_RED,
    SUM_COLS_BLUE,
    SUM_COLS_RED,
    SUM_MATERIAL,
    SUM_MATERIAL_BLUE,
    SUM_PRESS_BLUE,
    SUM_PRESS_RED,
    SUM_RANKS_BLUE,
    SUM_RANKS_RED,
    SUM_ROWS_BLUE,
    SUM_ROWS_RED,
    SUM_SCORE,
    SUM_WORDS,
    _animal_terms,
    _lanes_from_scratch,
    _sums_from_scratch,
    _sums_in_search,
    _terms_at,
    build_eval_terms,
    evaluate,
    evaluate_in_search,
)
from doushouqi.jungle.ai.tables import RULE_RANK
from doushouqi.jungle.ai.work import C_ROOT_PLY, W_EVAL_CACHE, W_EVAL_TERMS, new_work
from doushouqi.jungle.rules import RuleSet, find_rules

RULE_SETS = [
    find_rules("wango"),
    find_rules("classic"),
    find_rules("classic-dog"),  # the dog and the wolf swap ranks: material by rank
    find_rules("international"),
    RuleSet(name="wango-7-3-17-5", rule_7_3=True, rule_17_5=True),
    INTERNATIONAL_RESTRICTED,
    dataclasses.replace(find_rules("wango"), name="blue-first", first_player=1),
]


def _weights() -> dict[str, np.ndarray]:
    """The engine's weights, and random ones of either sign with a low lead threshold (the
    lead terms, which read the material and press sums, then take part in most positions)."""
    rng = np.random.default_rng(4)
    noisy = rng.integers(-500, 500, NUM_PARAMS).astype(np.int64)
    noisy[P_PRESS_LEAD] = 50
    return {"default": default_params(), "random": noisy}


def _check(position: Position, params: np.ndarray, work: np.ndarray) -> int:
    """Compare the search's sums and evaluation with the scratch ones; return the evaluation."""
    state, history, rules = position.state, position.history, position.compiled_rules
    full = int(evaluate(state, rules, params))
    assert int(evaluate_in_search(state, history, rules, params, work)) == full
    at = int(_sums_in_search(state, history, rules, params, work))
    words = (SUM_SCORE, SUM_MATERIAL, SUM_ATTACK_RED, SUM_ATTACK_BLUE, SUM_PRESS_RED)
    kept = [int(work[at + word]) for word in (*words, SUM_PRESS_BLUE)]
    assert kept == [int(value) for value in _sums_from_scratch(state, rules, params)]
    lanes = (SUM_MATERIAL_BLUE, SUM_ROWS_RED, SUM_COLS_RED, SUM_RANKS_RED, SUM_ROWS_BLUE)
    kept = [int(work[at + word]) for word in (*lanes, SUM_COLS_BLUE, SUM_RANKS_BLUE)]
    assert kept == [int(value) for value in _lanes_from_scratch(state, rules, params)]
    return full


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_the_sums_kept_along_the_path_equal_the_sums_from_scratch(rules: RuleSet) -> None:
    rng = random.Random(rules.name)
    for name, params in _weights().items():
        for _game in range(4):
            position = Position(None, rules)
            work = new_work()
            work[C_ROOT_PLY] = position.ply
            path: list[bool] = []
            for _ply in range(80):
                if rng.random() < 0.5:  # some plies are never evaluated on the way down
                    _check(position, params, work)
                moves = position.legal_moves()
                if not moves or position.is_game_over_on_board():
                    break
                if rng.random() < 0.05:
                    position.push_pass()  # the search's null move: the board stands still
                else:
                    position.push(*rng.choice(moves))
                path.append(True)
            # Back up the path (unmake), with a sibling now and then (the search's next
            # branch), evaluated from the slots its parent left.
            while path:
                if rng.random() < 0.5:
                    _check(position, params, work)
                moves = position.legal_moves()
                if moves and not position.is_game_over_on_board() and rng.random() < 0.5:
                    position.push(*rng.choice(moves))
                    _check(position, params, work)
                    position.pop()
                path.pop()
                position.pop()
            assert _check(position, params, work) == int(
                evaluate(Position(None, rules).state, position.compiled_rules, params)
            ), name


def test_a_position_off_the_search_path_is_summed_from_scratch() -> None:
    position = Position(None, "wango")
    position.push(*position.legal_moves()[0])
    params = default_params()
    work = new_work()
    work[C_ROOT_PLY] = position.ply + 500  # as a quiescence call outside any search
    _check(position, params, work)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: rules.name)
def test_the_table_of_terms_holds_each_animals_terms_by_square(rules: RuleSet) -> None:
    compiled = Position(None, rules).compiled_rules
    for name, params in _weights().items():
        work = new_work()
        build_eval_terms(compiled, params, work)
        assert work[W_EVAL_TERMS] != 0
        for code in range(17):
            for square in range(64):
                at = int(_terms_at(code, square))
                entry = [int(work[at + word]) for word in range(1, SUM_WORDS)]
                expected = [0] * (SUM_WORDS - 1)
                if code != 0 and square != 63:
                    value, worth, units, guards, press = (
                        int(term) for term in _animal_terms(compiled, params, code, square)
                    )
                    sign = 1 if code <= 8 else -1
                    expected[SUM_SCORE - 1] = sign * value
                    expected[SUM_MATERIAL - 1] = sign * worth
                    own, enemy = (
                        (SUM_ATTACK_RED, SUM_ATTACK_BLUE)
                        if code <= 8
                        else (SUM_ATTACK_BLUE, SUM_ATTACK_RED)
                    )
                    expected[own - 1] = units
                    expected[enemy - 1] = -guards
                    expected[(SUM_PRESS_RED if code <= 8 else SUM_PRESS_BLUE) - 1] = press
                    if code > 8:
                        expected[SUM_MATERIAL_BLUE - 1] = worth
                    # Lanes: the row relative to a captured animal's (the sums start at 40).
                    lane = 7 * ((code - 1) % 8)
                    rows, cols, ranks = (
                        (SUM_ROWS_RED, SUM_COLS_RED, SUM_RANKS_RED)
                        if code <= 8
                        else (SUM_ROWS_BLUE, SUM_COLS_BLUE, SUM_RANKS_BLUE)
                    )
                    expected[rows - 1] = (int(SQUARE_ROW[square]) - CAPTURED_ROW) << lane
                    expected[cols - 1] = int(SQUARE_COL[square]) << lane
                    expected[ranks - 1] = int(compiled[RULE_RANK + code]) << lane
                assert entry == expected, (name, code, square)


def test_other_weights_after_the_cache_is_cleared_remake_the_table() -> None:
    """The driver clears the evaluation cache (and the table after it) when the weights or
    the rules change; the next evaluation makes the table from the new ones."""
    position = Position(None, "wango")
    for move in position.legal_moves()[:1]:
        position.push(*move)
    weights = _weights()
    work = new_work()
    work[C_ROOT_PLY] = position.ply
    _check(position, weights["default"], work)
    work[W_EVAL_CACHE:] = 0
    _check(position, weights["random"], work)

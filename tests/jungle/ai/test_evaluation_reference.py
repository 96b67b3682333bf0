"""The compiled hand-tuned evaluation equals a straightforward reference (eval_reference.py)
on many positions from random games, under several rule sets and weight vectors: the
evaluation is restructured for speed, and every value must stay exactly what it was."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.jungle.ai.eval_reference import reference_evaluate

from doushouqi.jungle.ai import Position
from doushouqi.jungle.ai.eval_params import (
    NUM_PARAMS,
    P_HANGING_SECOND,
    P_HANGING_SINGLE,
    P_HOME_GUARD,
    P_HOME_MARGIN,
    P_MOBILITY,
    P_PRESS_LEAD,
    P_THREAT_ON_MOVE,
    default_params,
)
from doushouqi.jungle.ai.evaluate import evaluate, evaluate_batch


def _weights() -> dict[str, np.ndarray]:
    """The engine's weights; the same with the move-based terms on (mobility, threats,
    hanging animals: the tuners' case); with the home guard on (a side ahead loses its den
    races a move earlier, at a higher price); and random weights, large and of either sign, with a
    low lead threshold so that the lead terms take part in most positions."""
    default = default_params()
    with_moves = default.copy()
    with_moves[P_MOBILITY + 1 : P_MOBILITY + 9] = np.arange(3, 11)
    with_moves[P_HANGING_SINGLE] = 20
    with_moves[P_HANGING_SECOND] = 40
    with_moves[P_THREAT_ON_MOVE] = 12
    home_guard = default.copy()
    home_guard[P_HOME_GUARD] = 150
    home_guard[P_HOME_MARGIN] = 1
    home_guard[P_PRESS_LEAD] = 100
    rng = np.random.default_rng(31)
    noisy = rng.integers(-500, 500, NUM_PARAMS).astype(np.int64)
    noisy[P_PRESS_LEAD] = 50
    return {
        "default": default,
        "with moves": with_moves,
        "home guard": home_guard,
        "random": noisy,
    }


def _random_game_positions(rules: str, seed: int, games: int, plies: int) -> list[Position]:
    """Positions along random games (captures happen often: every position a random move
    leads to), each a copy."""
    rng = random.Random(seed)
    positions = []
    for _game in range(games):
        position = Position(None, rules)
        for _ply in range(plies):
            if position.is_game_over_on_board():
                break
            moves = position.legal_moves()
            if not moves:
                break
            positions.append(position.copy())
            position.push(*rng.choice(moves))
    return positions


@pytest.mark.parametrize("rules", ["wango", "classic", "classic-dog", "international"])
def test_the_evaluation_equals_the_reference_on_random_games(rules: str) -> None:
    positions = _random_game_positions(rules, seed=len(rules), games=8, plies=120)
    assert len(positions) > 300
    for name, params in _weights().items():
        states = np.array([p.state for p in positions])
        batch = np.zeros(len(positions), dtype=np.int64)
        evaluate_batch(states, positions[0].compiled_rules, params, batch)
        for index, position in enumerate(positions):
            expected = reference_evaluate(position.state, position.compiled_rules, params)
            got = int(evaluate(position.state, position.compiled_rules, params))
            assert (got, int(batch[index])) == (expected, expected), (
                name,
                position.to_board().fen(),
            )

"""The PettingZoo AEC environment (doushouqi.jungle.rl.pettingzoo_env): PettingZoo's own API and
seed tests, and games checked move by move against the rules library."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from doushouqi import BUILTIN_RULE_SETS, Board
from doushouqi.jungle.rl import NUM_ACTIONS, action_to_move, encode_observation
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, outcome_info
from doushouqi.jungle.rl.env import IllegalActionError
from doushouqi.jungle.rl.pettingzoo_env import ENV_NAME, JungleAECEnv, env, raw_env

RULE_SETS = list(BUILTIN_RULE_SETS)

# api_test's advice that is not for this environment: the agents are named after their colours
# (not "player_0"), the observation is a dict (as in PettingZoo's own board games, which the
# test recognises by name only), and a finished game's action mask is all zeros.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "We recommend agents to be named",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
)


def run_api_test(game, num_cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(game, num_cycles=num_cycles)
    messages = {str(warning.message) for warning in caught}
    assert not {text for text in messages if not text.startswith(EXPECTED_WARNINGS)}


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_api_test_passes(rules) -> None:
    run_api_test(env(rules=rules), num_cycles=300)


def test_api_test_passes_on_the_raw_env_with_ansi_rendering() -> None:
    run_api_test(raw_env(rules="classic", render_mode="ansi", max_plies=60), num_cycles=100)


@pytest.mark.parametrize("rules", ["wango", "classic"])
def test_seeded_games_are_deterministic(rules) -> None:
    seed_test(lambda: env(rules=rules), num_cycles=200)


def play_random(game, seed: int) -> list[str]:
    """A game of uniformly random legal actions; the agent of each step."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    agents = []
    for agent in game.agent_iter():
        observation, _, termination, truncation, _ = game.last()
        agents.append(agent)
        if termination or truncation:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return agents


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_games_follow_the_library(rules) -> None:
    game = JungleAECEnv(rules, max_plies=None)
    rng = np.random.default_rng(3)
    game.reset(seed=3)
    board = Board(rules=rules)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            assert termination and not truncation  # no move limit: the rules end it
            outcome = board.outcome()
            assert outcome is not None and info["outcome"] == outcome_info(outcome)
            winner = info["outcome"]["winner"]
            assert reward == (0.0 if winner is None else 1.0 if winner == agent else -1.0)
            game.step(None)
            continue
        color = game.possible_agents.index(agent)
        assert color == board.turn and reward == 0.0 and info == {}
        assert np.array_equal(observation["observation"], encode_observation(board))
        legal = {action_to_move(int(a), color) for a in np.flatnonzero(observation["action_mask"])}
        assert legal == set(board.legal_moves)
        other = game.possible_agents[1 - color]
        assert not game.observe(other)["action_mask"].any()  # not its turn
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
        board.push(action_to_move(action, color))
    assert game.agents == [] and board.outcome() is not None


def test_den_entry_rewards_winner_and_loser() -> None:
    game = JungleAECEnv("wango")
    game.reset(options={"fen": "2L4/7/7/7/7/7/7/7/r6 w"})  # Red lion c9 next to Blue's den
    winning = int(np.flatnonzero(game.observe("red")["action_mask"])[0])
    for action in np.flatnonzero(game.observe("red")["action_mask"]):
        if str(action_to_move(int(action), 0)) == "c9d9":
            winning = int(action)
    game.step(winning)
    assert game.rewards == {"red": 1.0, "blue": -1.0}
    assert game.terminations == {"red": True, "blue": True}
    expected = {"termination": "den_entered", "winner": "red", "result": "1-0"}
    assert game.infos == {"red": {"outcome": expected}, "blue": {"outcome": expected}}
    assert game.agent_selection == "blue"
    assert game.last()[1] == -1.0  # the loser sees its -1 at once
    game.step(None)
    assert game.agent_selection == "red" and game.last()[1] == 1.0
    game.step(None)
    assert game.agents == []


def test_default_move_limit_truncates() -> None:
    assert JungleAECEnv().max_plies == DEFAULT_MAX_PLIES
    game = env(rules="wango", max_plies=6)
    agents = play_random(game, seed=1)
    assert agents == ["red", "blue"] * 4  # 6 plies, then a last turn each: done
    game.reset(seed=1)
    for _ in range(6):
        game.step(int(np.flatnonzero(game.last()[0]["action_mask"])[0]))
    assert game.truncations == {"red": True, "blue": True}
    assert game.rewards == {"red": 0.0, "blue": 0.0}
    assert not any(game.terminations.values())


def test_illegal_actions() -> None:
    raw = JungleAECEnv("wango")
    raw.reset()
    with pytest.raises(IllegalActionError):
        raw.step(1)  # a1 one step down: off the board
    with pytest.raises(ValueError, match="outside the action space"):
        raw.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="None"):
        raw.step(None)
    wrapped = env(rules="wango")
    wrapped.reset()
    wrapped.step(1)  # the wrapper ends the game instead (it logs a warning): -1 Red, 0 Blue
    assert wrapped.terminations == {"red": True, "blue": True}
    assert wrapped.rewards == {"red": -1, "blue": 0}


def test_reset_options_rules_and_rendering() -> None:
    game = raw_env("classic", render_mode="ansi")
    fen = "l5t/1d3c1/r1p1w1e/7/E6/7/2W1P1R/1C3D1/T5L b 1 1"
    game.reset(options={"fen": fen})
    assert game.agent_selection == "blue" and game.board.fen() == fen
    assert game.rules.name == "classic" and str(game) == ENV_NAME
    text = game.render()
    assert text.splitlines()[0] == "9 l . . . . . t" and "blue to move" in text
    assert raw_env("wango").render() is None
    with pytest.raises(ValueError, match="already over"):
        game.reset(options={"fen": "3L3/7/7/7/7/7/7/7/r6 b"})
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")

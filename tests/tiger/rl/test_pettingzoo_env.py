"""The Tiger's PettingZoo AEC environment (doushouqi.tiger.rl.pettingzoo_env): PettingZoo's own
API and seed tests, and games checked action by action against the rules library."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test
from tests.tiger.helpers import place
from tests.tiger.rl.games import RULE_SETS, rule_id, variant

from doushouqi.tiger.board import Board
from doushouqi.tiger.rl import STOP_ACTION, ActionBoard, IllegalActionError, encode_observation
from doushouqi.tiger.rl.common import DEFAULT_MAX_PLIES, outcome_info
from doushouqi.tiger.rl.pettingzoo_env import ENV_NAME, TigerAECEnv, env, raw_env

# api_test's advice that is not for this environment: the agents are named after their sides
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


@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_id)
def test_pettingzoo_api_test_passes(rules) -> None:
    run_api_test(env(rules=rules), num_cycles=300)


def test_api_test_passes_on_the_raw_env_with_ansi_rendering() -> None:
    run_api_test(raw_env(rules="laohuqi-18", render_mode="ansi", max_plies=60), num_cycles=100)


@pytest.mark.parametrize(
    "rules", ["laohuqi", variant(multi_jump=True, diagonals="all")], ids=rule_id
)
def test_seeded_games_are_deterministic(rules) -> None:
    seed_test(lambda: env(rules=rules), num_cycles=200)


@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_id)
def test_random_games_follow_the_library(rules) -> None:
    game = TigerAECEnv(rules, max_plies=None)
    rng = np.random.default_rng(3)
    game.reset(seed=3)
    twin = ActionBoard(Board(rules=rules))  # the same actions, played beside it
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        board = twin.board
        if termination or truncation:
            assert termination and not truncation  # no move limit: the rules end it
            outcome = board.outcome()
            assert outcome is not None and info["outcome"] == outcome_info(outcome)
            winner = info["outcome"]["winner"]
            assert reward == (0.0 if winner is None else 1.0 if winner == agent else -1.0)
            game.step(None)
            continue
        seat = game.possible_agents.index(agent)
        assert seat == twin.turn and reward == 0.0 and info == {}
        assert np.array_equal(observation["observation"], encode_observation(board, twin.chain))
        legal = np.flatnonzero(observation["action_mask"])
        assert list(legal) == twin.legal_actions()
        other = game.possible_agents[1 - seat]
        assert not game.observe(other)["action_mask"].any()  # not its turn
        action = int(rng.choice(legal))
        game.step(action)
        twin.apply(action)
        assert game.board.move_stack == twin.board.move_stack
    assert game.agents == [] and twin.board.outcome() is not None


def test_a_chain_keeps_the_tiger_agent_selected() -> None:
    game = TigerAECEnv(variant(multi_jump=True), render_mode="ansi")
    game.reset(options={"fen": place("e5", "e6 f7 g6 f5 a1 b1 c1 d1", "t")})
    actions = game.move_to_actions("e5e7g7")
    assert actions[-1] == STOP_ACTION and len(actions) == 3
    for action in actions[:-1]:
        game.step(action)
        assert game.agent_selection == "tiger" and game.chain is not None
        assert game.rewards == {"tiger": 0.0, "men": 0.0}
    assert game.chain == "e5e7g7" and "jump chain open: e5e7g7" in game.render()
    assert game.observe("tiger")["action_mask"][STOP_ACTION] == 1
    game.step(STOP_ACTION)
    assert game.agent_selection == "men" and game.chain is None
    assert str(game.board.peek()) == "e5e7g7"


def test_the_winning_chain_rewards_winner_and_loser() -> None:
    game = TigerAECEnv(variant(multi_jump=True))
    game.reset(options={"fen": place("e5", "e6 f7 g6 f5 a1 b1 c1", "t")})
    for action in game.move_to_actions("e5e7g7g5e5"):
        game.step(action)
    assert game.rewards == {"tiger": 1.0, "men": -1.0}
    assert game.terminations == {"tiger": True, "men": True}
    expected = {"termination": "men_captured", "winner": "tiger", "result": "1-0"}
    assert game.infos == {"tiger": {"outcome": expected}, "men": {"outcome": expected}}
    assert game.agent_selection == "men" and game.last()[1] == -1.0  # the loser sees its -1
    game.step(None)
    assert game.agent_selection == "tiger" and game.last()[1] == 1.0
    game.step(None)
    assert game.agents == []


def test_default_move_limit_truncates() -> None:
    assert TigerAECEnv().max_plies == DEFAULT_MAX_PLIES
    game = env(rules="laohuqi", max_plies=6)
    game.reset(seed=1)
    for _ in range(6):
        game.step(int(np.flatnonzero(game.last()[0]["action_mask"])[0]))
    assert game.truncations == {"tiger": True, "men": True}
    assert game.rewards == {"tiger": 0.0, "men": 0.0}
    assert not any(game.terminations.values())


def test_illegal_actions() -> None:
    raw = TigerAECEnv("laohuqi")
    raw.reset()
    with pytest.raises(IllegalActionError, match="no jump chain"):
        raw.step(STOP_ACTION)
    with pytest.raises(ValueError, match="outside the action space"):
        raw.step(577)
    with pytest.raises(ValueError, match="None"):
        raw.step(None)
    wrapped = env(rules="laohuqi")
    wrapped.reset()
    wrapped.step(STOP_ACTION)  # the wrapper ends the game instead (it logs a warning)
    assert wrapped.terminations == {"tiger": True, "men": True}
    assert wrapped.rewards == {"tiger": -1, "men": 0}


def test_reset_options_rules_and_rendering() -> None:
    game = raw_env("laohuqi-18", render_mode="ansi")
    fen = place("e9", [f"{f}1" for f in "abcdefghi"], "m", 3, 2)
    game.reset(options={"fen": fen})
    assert game.agent_selection == "men" and game.board.position_string() == fen
    assert game.rules.name == "laohuqi-18" and str(game) == ENV_NAME
    text = game.render()
    assert text.splitlines()[2] == " 9 . . . . T . . . ." and "men to move" in text
    assert raw_env("laohuqi").render() is None
    with pytest.raises(ValueError, match="already over"):
        game.reset(options={"fen": place("e9", "a1 b1 c1", "m")})
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")

"""The Tiger's PettingZoo parallel environment, the human rendering and the illegal-action
rules (doushouqi.tiger.rl.pettingzoo_env): PettingZoo's parallel_api_test, render_test and
max_cycles_test, and what the parallel step does with each agent's action."""

from __future__ import annotations

import warnings
from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test
from tests.tiger.rl.games import rule_id, variant

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl import STOP_ACTION, action_to_pair
from doushouqi.tiger.rl.pettingzoo_env import env, parallel_env, raw_env


def passes_without_warnings(test, *args, **kwargs) -> None:
    """Run a PettingZoo test; it must pass, warning only its advice on names and spaces."""
    expected = (
        "Observation is not a NumPy array",
        "We recommend agents to be named",
        "Observation space for each agent probably should be",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test(*args, **kwargs)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(expected)}


@pytest.mark.parametrize(
    "rules", ["laohuqi", variant(multi_jump=True, diagonals="all")], ids=rule_id
)
@pytest.mark.parametrize("illegal_action", ["terminate", "random"])
def test_parallel_api_test_passes(rules, illegal_action) -> None:
    game = parallel_env(rules, max_plies=400, illegal_action=illegal_action)
    passes_without_warnings(parallel_api_test, game, num_cycles=1000)


def test_render_test_passes_in_human_and_ansi_modes(capsys) -> None:
    render_test(partial(env, max_plies=50))
    render_test(partial(raw_env, max_plies=50))
    assert "tiger to move, ply 0" in capsys.readouterr().out  # human mode printed the boards


def test_max_cycles_test_passes_when_illegal_actions_play_a_random_move() -> None:
    # max_cycles_test samples actions without the masks; under the default rule its first
    # illegal action would end the game before the cycles it counts.
    module = SimpleNamespace(
        env=partial(env, illegal_action="random"),
        parallel_env=partial(parallel_env, illegal_action="random"),
    )
    max_cycles_test(module)
    with pytest.raises(AssertionError):
        max_cycles_test(SimpleNamespace(env=env, parallel_env=parallel_env))


def test_api_test_passes_when_illegal_actions_play_a_random_move() -> None:
    rules = variant(multi_jump=True)
    passes_without_warnings(api_test, env(rules, illegal_action="random", max_plies=200), 300)


def test_the_parallel_step_plays_the_movers_action_and_ignores_the_others() -> None:
    game = parallel_env("laohuqi")
    observations, infos = game.reset(seed=0)
    assert not observations["men"]["action_mask"].any()
    action = int(np.flatnonzero(observations["tiger"]["action_mask"])[0])
    observations, rewards, terminations, truncations, infos = game.step(
        {"tiger": action, "men": 99999}  # the men's action, out of turn, is ignored
    )
    board = Board()
    board.push(Move(action_to_pair(action)))
    assert game.unwrapped.board.position_string() == board.position_string()
    assert infos["tiger"]["active_agent"] == "men" and observations["men"]["action_mask"].any()
    assert rewards == {"tiger": 0.0, "men": 0.0} and not any(terminations.values())
    assert not any(truncations.values())


def test_max_cycles_counts_cycles_in_each_api() -> None:
    assert env(max_cycles=3).unwrapped.max_plies == 6  # a cycle: both agents act once
    assert parallel_env(max_cycles=3).unwrapped.max_plies == 3  # a cycle: one step
    with pytest.raises(ValueError, match="max_cycles"):
        parallel_env(max_cycles=0)


def test_an_illegal_action_plays_a_random_legal_action_and_says_so() -> None:
    game = env("laohuqi", illegal_action="random")
    game.reset(seed=5)
    game.step(STOP_ACTION)  # no chain is open
    board = game.unwrapped.board
    assert board.ply() == 1 and Board().is_legal(board.peek())
    assert game.infos["tiger"] == {"illegal_action": True} and game.infos["men"] == {}
    assert game.rewards == {"tiger": 0.0, "men": 0.0}
    with pytest.raises(ValueError, match="illegal_action"):
        env(illegal_action="skip")

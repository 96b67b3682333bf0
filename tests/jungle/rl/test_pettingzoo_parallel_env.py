"""Jungle's PettingZoo parallel environment, the human rendering and the illegal-action rules
(doushouqi.jungle.rl.pettingzoo_env): PettingZoo's parallel_api_test, render_test and
max_cycles_test, and what the parallel step does with each agent's action."""

from __future__ import annotations

import warnings
from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, render_test

from doushouqi import Board
from doushouqi.jungle.rl import action_to_move
from doushouqi.jungle.rl.pettingzoo_env import env, parallel_env, raw_env


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


@pytest.mark.parametrize("rules", ["wango", "classic", "international"])
@pytest.mark.parametrize("illegal_action", ["terminate", "random"])
def test_parallel_api_test_passes(rules, illegal_action) -> None:
    game = parallel_env(rules, max_plies=400, illegal_action=illegal_action)
    passes_without_warnings(parallel_api_test, game, num_cycles=1000)


def test_render_test_passes_in_human_and_ansi_modes(capsys) -> None:
    render_test(partial(env, max_plies=50))
    render_test(partial(raw_env, max_plies=50))
    assert "red to move, ply 0" in capsys.readouterr().out  # human mode printed the boards


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
    passes_without_warnings(api_test, env(illegal_action="random", max_plies=200), 300)


def test_the_parallel_step_plays_the_movers_action_and_ignores_the_others() -> None:
    game = parallel_env("wango")
    observations, infos = game.reset(seed=0)
    assert set(observations) == {"red", "blue"} and not observations["blue"]["action_mask"].any()
    action = int(np.flatnonzero(observations["red"]["action_mask"])[0])
    observations, rewards, terminations, truncations, infos = game.step(
        {"red": action, "blue": 12345}  # Blue's action, out of turn, is ignored
    )
    board = Board()
    board.push(action_to_move(action, 0))
    assert game.unwrapped.board.fen() == board.fen()
    assert infos["red"]["active_agent"] == "blue" and observations["blue"]["action_mask"].any()
    assert rewards == {"red": 0.0, "blue": 0.0} and not any(terminations.values())
    assert not any(truncations.values())


def test_max_cycles_counts_cycles_in_each_api() -> None:
    aec = env(max_cycles=3)
    aec.reset(seed=1)
    assert aec.unwrapped.max_plies == 6  # a cycle: both agents act once
    assert parallel_env(max_cycles=3).unwrapped.max_plies == 3  # a cycle: one step
    assert env(max_plies=4, max_cycles=3).unwrapped.max_plies == 4
    with pytest.raises(ValueError, match="max_cycles"):
        env(max_cycles=0)


def test_an_illegal_action_plays_a_random_legal_move_and_says_so() -> None:
    game = env("wango", illegal_action="random")
    game.reset(seed=5)
    game.step(1)  # a1 one step down: off the board
    board = game.unwrapped.board
    assert board.ply() == 1 and Board().is_legal(board.peek())
    assert game.infos["red"] == {"illegal_action": True} and game.infos["blue"] == {}
    assert game.rewards == {"red": 0.0, "blue": 0.0} and not any(game.terminations.values())
    again = env("wango", illegal_action="random")
    again.reset(seed=5)
    again.step(1)
    assert again.unwrapped.board.peek() == board.peek()  # drawn from the seeded generator
    with pytest.raises(ValueError, match="illegal_action"):
        env(illegal_action="skip")

"""Jungle's PettingZoo parallel step and illegal-action rule
(doushouqi.jungle.rl.pettingzoo_env): what the parallel step does with each agent's action, and
the random legal move played for an illegal one. PettingZoo's own tests run over both games in
tests/rl_common/test_pettingzoo_env.py."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from doushouqi import Board
from doushouqi.jungle.rl import action_to_move
from doushouqi.jungle.rl.pettingzoo_env import env, parallel_env


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

"""The Tiger's PettingZoo parallel step and illegal-action rule
(doushouqi.tiger.rl.pettingzoo_env): what the parallel step does with each agent's action, and
the random legal action played for an illegal one. PettingZoo's own tests run over both games in
tests/rl_common/test_pettingzoo_env.py."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl import STOP_ACTION, action_to_pair
from doushouqi.tiger.rl.pettingzoo_env import env, parallel_env


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

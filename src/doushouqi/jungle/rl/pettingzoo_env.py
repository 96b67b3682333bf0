"""Jungle as a PettingZoo AEC environment: two agents, ``"red"`` and ``"blue"``, taking turns.

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo). Shaped like PettingZoo's classic board
games (chess, connect four): :func:`env` is the environment wrapped as they are (an illegal
action ends the game with -1 for the agent that played it; an action outside the space, or one
given out of turn, is an error), :class:`JungleAECEnv` (also ``raw_env``) the bare one, and
:func:`parallel_env` the same game through PettingZoo's parallel API.

>>> from doushouqi.jungle.rl.pettingzoo_env import env
>>> game = env(rules="wango", render_mode="ansi")
>>> game.reset(seed=0)
>>> game.agent_selection, game.possible_agents
('red', ['red', 'blue'])
>>> observation, reward, termination, truncation, info = game.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((31, 9, 7), 24)
>>> game.metadata["name"] == ENV_NAME, ILLEGAL_ACTION_RULES
(True, ('terminate', 'random', 'raise'))

- **Observation** of an agent: a dict, ``"observation"`` the planes of
  :func:`~doushouqi.jungle.rl.encoding.encode_observation` seen from that agent's seat (float32,
  ``(31, 9, 7)``), ``"action_mask"`` (int8, ``(504,)``) 1 for each legal action of the agent,
  all 0 when it is not its turn or the game is over.
- **Actions:** ``Discrete(504)``, the encoding of :mod:`doushouqi.jungle.rl.encoding`, in the acting
  agent's view.
- **Rewards:** 0 during the game; at its end +1 to the winner and -1 to the loser, 0 each for a
  draw, both in the same step (``rewards``), so each agent finds its own in ``last()``.
- **Episode end:** every agent *terminates* when the rules end the game (each agent's info then
  holds ``"outcome"``, plain data: ``{"termination": …, "winner": "red" | "blue" | None,
  "result": …}``); every agent is *truncated* after ``max_plies`` plies since the reset
  (default :data:`~doushouqi.jungle.rl.common.DEFAULT_MAX_PLIES`, 1000; ``None``: no limit).
- ``reset(seed=…, options={"fen": …})``: the game has no randomness (the seed is accepted and
  stored); the ``"fen"`` option starts from a position string, other options are ignored.
- ``render_mode="ansi"``: :meth:`~JungleAECEnv.render` returns the board as text;
  ``"human"`` prints it to stdout after every reset and step (as PettingZoo's classic games
  draw theirs), and ``render()`` prints it and returns None.
- ``illegal_action``: what an action that is not legal does. :func:`env`'s default,
  ``"terminate"``, is PettingZoo's classic games' rule (the game ends, -1 to the agent that
  played it); ``"random"`` plays a uniformly random legal move instead (drawn from the
  environment's generator, seeded by ``reset(seed=…)``), with ``"illegal_action": True`` in that
  agent's info and no reward of its own, so a game always stays a legal game; the raw
  environment's ``"raise"`` raises :class:`~doushouqi.jungle.rl.env.IllegalActionError`.
- **Parallel API** (:func:`parallel_env`): the game is turn-based, so it is converted with
  PettingZoo's ``turn_based_aec_to_parallel`` (``aec_to_parallel`` needs agents acting in a
  cycle, all at once): each ``step(actions)`` plays one ply, the action of the agent to move
  (``infos[agent]["active_agent"]`` names it, and only its ``"action_mask"`` has ones); the
  other agent's action is ignored, whatever it is. ``max_cycles`` is PettingZoo's limit in its
  own unit: in the AEC environment a cycle is every agent acting once (two plies), in the
  parallel one a cycle is a step (one ply).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.rl.common import (
    AGENT_NAMES,
    DEFAULT_MAX_PLIES,
    board_text,
    outcome_info,
    rewards_by_name,
)
from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    action_to_move,
    encode_observation,
    move_to_action,
)
from doushouqi.jungle.rl.env import IllegalActionError
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.rl_common.pettingzoo_env import (
    ILLEGAL_ACTION_RULES,
    TurnBasedAECEnv,
    classic_env,
    classic_metadata,
    parallel_of,
)

__all__ = ["ENV_NAME", "ILLEGAL_ACTION_RULES", "JungleAECEnv", "env", "parallel_env", "raw_env"]

#: The environment's name in PettingZoo's convention (``metadata["name"]``).
ENV_NAME = "jungle_v0"


class JungleAECEnv(TurnBasedAECEnv):
    """Jungle (斗兽棋) for two agents under one rule set; see the module docstring.

    ``rules``: a rule set or its name; ``max_plies``: the truncation limit (None: none);
    ``render_mode``: None, ``"human"`` or ``"ansi"``; ``illegal_action``: ``"raise"`` or
    ``"random"`` (:func:`env` wraps it for PettingZoo's ``"terminate"``). A game to its end,
    with PettingZoo's agent loop:

    >>> game = JungleAECEnv(rules="classic")
    >>> game.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
    >>> for agent in game.agent_iter():
    ...     observation, reward, termination, truncation, info = game.last()
    ...     if termination or truncation:
    ...         action = None
    ...     else:
    ...         action = move_to_action(Move.from_str("d8d9"), game.board.turn)
    ...     game.step(action)
    ...     print(agent, reward, info)
    red 0.0 {}
    blue -1.0 {'outcome': {'termination': 'den_entered', 'winner': 'red', 'result': '1-0'}}
    red 1.0 {'outcome': {'termination': 'den_entered', 'winner': 'red', 'result': '1-0'}}
    """

    # pettingzoo reads this class attribute; it is never mutated.
    metadata = classic_metadata(ENV_NAME, render_fps=1)
    # What the Gymnasium environment raises too: one error for an illegal Jungle action.
    _illegal_action_error = IllegalActionError

    def __init__(
        self,
        rules: str | RuleSet = "wango",
        *,
        max_plies: int | None = DEFAULT_MAX_PLIES,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.rules = find_rules(rules)
        super().__init__(
            AGENT_NAMES,
            NUM_ACTIONS,
            OBSERVATION_SHAPE,
            max_plies=max_plies,
            render_mode=render_mode,
            illegal_action=illegal_action,
        )
        self._board = Board(rules=self.rules)
        self._outcome: Outcome | None = None
        self.agent_selection = self.possible_agents[self._board.turn]

    @property
    def board(self) -> Board:
        """A copy of the current position, with its history since the reset.

        >>> game = JungleAECEnv()
        >>> game.reset()
        >>> game.step(move_to_action(Move.from_str("a3a4"), 0))
        >>> game.board.move_stack, game.board.fen()
        ([Move.from_str('a3a4')], 'l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1')
        """
        return self._board.copy()

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> str | None:
        board = Board(fen, rules=self.rules)
        outcome = board.outcome()
        if outcome is not None:
            return str(outcome)
        self._board, self._outcome = board, None
        return None

    def _turn(self) -> int:
        return self._board.turn

    def _legal_actions(self) -> list[int]:
        turn = self._board.turn
        return [move_to_action(move, turn) for move in self._board.generate_legal_moves()]

    def _why_illegal(self, action: int) -> str | None:
        if self._legal_move(action) is not None:
            return None
        return f" in {self._board.fen()}"

    def _apply(self, action: int) -> bool:
        self._board.push(action_to_move(action, self._board.turn))
        self._outcome = self._board.outcome()
        return True

    def _ending(self) -> tuple[dict[str, float], dict[str, str | None]] | None:
        if self._outcome is None:
            return None
        return rewards_by_name(self._outcome), outcome_info(self._outcome)

    def _ply(self) -> int:
        return self._board.ply()

    def _observation(self, seat: int) -> NDArray[np.float32]:
        return encode_observation(self._board, seat)

    def _text(self) -> str:
        return board_text(self._board, self._outcome)

    def _legal_move(self, action: int) -> Move | None:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError:
            return None
        if self._outcome is not None or not self._board.is_legal(move):
            return None
        return move


#: PettingZoo's name for the environment without wrappers.
raw_env = JungleAECEnv


def env(
    rules: str | RuleSet = "wango",
    *,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> Any:
    """:class:`JungleAECEnv` wrapped like PettingZoo's classic games: by default an illegal
    action ends the game with reward -1 for the agent that played it (0 for the other); an
    action outside the space raises, and so does calling the API out of order (``step`` before
    ``reset``). ``max_cycles`` (PettingZoo's name) truncates after that many cycles of both
    agents, ``2 * max_cycles`` plies, or ``max_plies`` if fewer.

    >>> game = env(max_cycles=1)
    >>> game.reset()
    >>> game.step(move_to_action(Move.from_str("a3a4"), 0))
    >>> game.step(504)  # outside the space
    Traceback (most recent call last):
    ...
    AssertionError: action is not in action space
    >>> game.step(4)  # Blue's jump from g9, which borders no lake: illegal, the game ends
    >>> game.rewards, game.terminations["blue"]
    ({'red': 0, 'blue': -1.0}, True)
    """
    return classic_env(JungleAECEnv, rules, max_plies, max_cycles, render_mode, illegal_action)


def parallel_env(
    rules: str | RuleSet = "wango",
    *,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> Any:
    """The game through PettingZoo's parallel API: :func:`env` converted with PettingZoo's
    ``turn_based_aec_to_parallel``. Each step plays the action of the agent to move and ignores
    the other's; ``max_cycles`` truncates after that many steps (plies), or ``max_plies``.

    >>> game = parallel_env(max_cycles=2)
    >>> observations, infos = game.reset()
    >>> {agent: int(seen["action_mask"].sum()) for agent, seen in observations.items()}
    {'red': 24, 'blue': 0}
    >>> step_up = move_to_action(Move.from_str("a3a4"), 0)  # for Blue: g7g6
    >>> observations, rewards, terminations, truncations, infos = game.step(
    ...     {"red": step_up, "blue": 4}
    ... )  # Blue's action is ignored: it is Red's turn
    >>> infos["red"]["active_agent"], truncations
    ('blue', {'red': False, 'blue': False})
    >>> _, _, _, truncations, _ = game.step({"red": 4, "blue": step_up})
    >>> truncations
    {'red': True, 'blue': True}
    """
    return parallel_of(env, rules, max_plies, max_cycles, render_mode, illegal_action)

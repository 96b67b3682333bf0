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

from typing import Any, SupportsInt

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
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

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
except ImportError as exc:  # pragma: no cover - the rl extra brings pettingzoo
    raise ImportError(
        "the PettingZoo environment needs pettingzoo: pip install 'doushouqi[rl]' "
        f"(importing pettingzoo failed: {exc})"
    ) from exc

__all__ = ["ENV_NAME", "ILLEGAL_ACTION_RULES", "JungleAECEnv", "env", "parallel_env", "raw_env"]

ENV_NAME = "jungle_v0"

#: What an illegal action may do: ``env()`` takes the three, the raw environment the last two.
ILLEGAL_ACTION_RULES = ("terminate", "random", "raise")

Observation = dict[str, NDArray[Any]]


class JungleAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type information
    """Jungle (斗兽棋) for two agents under one rule set; see the module docstring."""

    # pettingzoo reads this class attribute; it is never mutated.
    metadata = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "name": ENV_NAME,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: str | RuleSet = "wango",
        *,
        max_plies: int | None = DEFAULT_MAX_PLIES,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        super().__init__()
        self.rules = find_rules(rules)
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if illegal_action not in ("random", "raise"):
            raise ValueError(f"illegal_action must be 'random' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if max_plies is not None and max_plies < 1:
            raise ValueError(f"max_plies must be a positive number of plies, got {max_plies}")
        self.max_plies = max_plies
        self.possible_agents: list[str] = list(AGENT_NAMES)
        self.agents: list[str] = []
        # One space object per agent, the same object at every call (seeding relies on it).
        self.observation_spaces = {agent: _observation_space() for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._board = Board(rules=self.rules)
        self._outcome: Outcome | None = None
        self.agent_selection = self.possible_agents[self._board.turn]
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    # ------------------------------------------------------------------ pettingzoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        fen = (options or {}).get("fen")
        board = Board(fen, rules=self.rules)
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(f"the game is already over in {fen!r}: {outcome}")
        self._board, self._outcome = board, None
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[board.turn]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        color = self.possible_agents.index(agent)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if self._outcome is None and agent == self.agent_selection and agent in self.agents:
            for move in self._board.generate_legal_moves():
                mask[move_to_action(move, color)] = 1
        return {"observation": encode_observation(self._board, color), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is an action only once an agent is done")
        index = int(action)
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action {action} is outside the action space 0..{NUM_ACTIONS - 1}")
        board = self._board
        move = self._legal_move(index)
        replaced = move is None
        if move is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"illegal action {index} for {agent} in {board.fen()}")
            legal = list(board.generate_legal_moves())
            move = legal[int(self.np_random.integers(len(legal)))]
        self._cumulative_rewards[agent] = 0.0  # what it had, it saw in last() before acting
        board.push(move)
        self._outcome = outcome = board.outcome()
        self.infos = {name: {} for name in self.agents}
        if outcome is not None:
            self.rewards = rewards_by_name(outcome)
            self.terminations = dict.fromkeys(self.agents, True)
            info = outcome_info(outcome)
            self.infos = {name: {"outcome": dict(info)} for name in self.agents}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.max_plies is not None and board.ply() >= self.max_plies:
                self.truncations = dict.fromkeys(self.agents, True)
        if replaced:
            self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[board.turn]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = board_text(self._board, self._outcome)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    # ------------------------------------------------------------------ helpers

    @property
    def board(self) -> Board:
        """A copy of the current position, with its history since the reset."""
        return self._board.copy()

    def _legal_move(self, action: int) -> Move | None:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError:
            return None
        if self._outcome is not None or not self._board.is_legal(move):
            return None
        return move


def _observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        }
    )


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
    agents, ``2 * max_cycles`` plies, or ``max_plies`` if fewer."""
    game: Any = JungleAECEnv(
        rules,
        max_plies=_ply_limit(max_plies, max_cycles, plies_per_cycle=2),
        render_mode=render_mode,
        illegal_action="raise" if illegal_action == "terminate" else illegal_action,
    )
    if illegal_action == "terminate":
        game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


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
    the other's; ``max_cycles`` truncates after that many steps (plies), or ``max_plies``."""
    game = env(
        rules,
        max_plies=_ply_limit(max_plies, max_cycles, plies_per_cycle=1),
        render_mode=render_mode,
        illegal_action=illegal_action,
    )
    return turn_based_aec_to_parallel(game)


def _ply_limit(max_plies: int | None, max_cycles: int | None, plies_per_cycle: int) -> int | None:
    """The move limit in plies from PettingZoo's ``max_cycles`` and ours, whichever is lower."""
    if max_cycles is None:
        return max_plies
    if max_cycles < 1:
        raise ValueError(f"max_cycles must be a positive number of cycles, got {max_cycles}")
    cycles = max_cycles * plies_per_cycle
    return cycles if max_plies is None else min(max_plies, cycles)

"""老虎棋 as a PettingZoo AEC environment: two agents, ``"tiger"`` and ``"men"``.

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo). Shaped like PettingZoo's classic board
games and Jungle's (:mod:`doushouqi.jungle.rl.pettingzoo_env`): :func:`env` is the environment
wrapped as they are (an illegal action ends the game with -1 for the agent that played it; an
action outside the space, or one given out of turn, is an error), :class:`TigerAECEnv` (also
``raw_env``) the bare one, and :func:`parallel_env` the same game through PettingZoo's parallel
API.

>>> from doushouqi.tiger.rl.pettingzoo_env import env
>>> game = env(rules="laohuqi", render_mode="ansi")
>>> game.reset(seed=0)
>>> game.agent_selection, game.possible_agents
('tiger', ['tiger', 'men'])
>>> observation, reward, termination, truncation, info = game.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((16, 11, 9), 4)

- **Observation** of an agent: a dict, ``"observation"`` the planes of
  :func:`~doushouqi.tiger.rl.encoding.encode_observation` (float32, ``(16, 11, 9)``, the same
  for both agents), ``"action_mask"`` (int8, one per action) 1 for each legal action of the
  agent, all 0 when it is not its turn or the game is over.
- **Actions:** ``Discrete(n)``, the segments of :mod:`doushouqi.tiger.rl.encoding` (577, 597 or
  1057 by the ``diagonals`` option). Under ``multi_jump`` the tiger agent acts again while its
  jump chain is open (``agent_selection`` stays ``"tiger"``): the next jump or *stop*.
- **Rewards:** 0 during the game; at its end +1 to the winner and -1 to the loser, 0 each for
  a draw, both in the same step (``rewards``), so each agent finds its own in ``last()``.
- **Episode end:** every agent *terminates* when the rules end the game (each agent's info
  then holds ``"outcome"``, plain data: ``{"termination": …, "winner": "tiger" | "men" |
  None, "result": …}``); every agent is *truncated* after ``max_plies`` whole moves since the
  reset (default :data:`~doushouqi.tiger.rl.common.DEFAULT_MAX_PLIES`; ``None``: no limit).
- ``reset(seed=…, options={"fen": …})``: the game has no randomness (the seed is accepted and
  stored); the ``"fen"`` option starts from a position string, other options are ignored.
- ``render_mode="ansi"``: :meth:`~TigerAECEnv.render` returns the board as text;
  ``"human"`` prints it to stdout after every reset and step (as PettingZoo's classic games
  draw theirs), and ``render()`` prints it and returns None.
- ``illegal_action``: what an action that is not legal does, as in Jungle's
  (:mod:`doushouqi.jungle.rl.pettingzoo_env`): :func:`env`'s ``"terminate"`` (the default: the
  game ends, -1 to the agent that played it), ``"random"`` (a uniformly random legal action
  instead, from the environment's seeded generator, with ``"illegal_action": True`` in that
  agent's info) or the raw environment's ``"raise"``.
- **Parallel API** (:func:`parallel_env`): :func:`env` converted with PettingZoo's
  ``turn_based_aec_to_parallel`` (the game is turn-based): each ``step(actions)`` plays one
  action of the agent to move (``infos[agent]["active_agent"]``) and ignores the other's.
  ``max_cycles`` is PettingZoo's limit in its own unit: every agent acting once (two moves) in
  the AEC environment, one step (one move) in the parallel one; it counts whole moves, so a
  multi-jump chain's actions are one.
"""

from __future__ import annotations

from typing import Any, SupportsInt

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray

from doushouqi.core.outcome import Outcome
from doushouqi.tiger.board import Board
from doushouqi.tiger.rl.action_board import ActionBoard, IllegalActionError
from doushouqi.tiger.rl.common import (
    AGENT_NAMES,
    DEFAULT_MAX_PLIES,
    board_text,
    find_rules,
    outcome_info,
    rewards_by_name,
)
from doushouqi.tiger.rl.encoding import OBSERVATION_SHAPE
from doushouqi.tiger.rules import RuleSet

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
except ImportError as exc:  # pragma: no cover - the rl extra brings pettingzoo
    raise ImportError(
        "the PettingZoo environment needs pettingzoo: pip install 'doushouqi[rl]' "
        f"(importing pettingzoo failed: {exc})"
    ) from exc

__all__ = ["ENV_NAME", "ILLEGAL_ACTION_RULES", "TigerAECEnv", "env", "parallel_env", "raw_env"]

ENV_NAME = "tiger_v0"

#: What an illegal action may do: ``env()`` takes the three, the raw environment the last two.
ILLEGAL_ACTION_RULES = ("terminate", "random", "raise")

Observation = dict[str, NDArray[Any]]


class TigerAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """老虎棋 for two agents taking turns; see the module docstring."""

    # pettingzoo reads this class attribute; it is never mutated.
    metadata = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "name": ENV_NAME,
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: str | RuleSet = "laohuqi",
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
        self._game = ActionBoard(Board(rules=self.rules))
        size = self._game.num_actions
        self.possible_agents: list[str] = list(AGENT_NAMES)
        self.agents: list[str] = []
        # One space object per agent, the same object at every call (seeding relies on it).
        self.observation_spaces = {
            agent: _observation_space(size) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self._outcome: Outcome | None = None
        self.agent_selection = self.possible_agents[self._game.turn]
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
        game = ActionBoard(Board(fen, rules=self.rules))
        outcome = game.outcome()
        if outcome is not None:
            raise ValueError(f"the game is already over in {fen!r}: {outcome.key}")
        self._game, self._outcome = game, None
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.turn]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        mask = np.zeros(self._game.num_actions, dtype=np.int8)
        if self._outcome is None and agent == self.agent_selection and agent in self.agents:
            mask[self._game.legal_actions()] = 1
        return {"observation": self._game.observation(), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is an action only once an agent is done")
        game = self._game
        index = int(action)
        if not 0 <= index < game.num_actions:
            raise ValueError(
                f"action {action} is outside the action space 0..{game.num_actions - 1}"
            )
        reason = game.explain_illegal(index)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"illegal action {index} for {agent}: {reason}")
            legal = game.legal_actions()
            index = legal[int(self.np_random.integers(len(legal)))]
        self._cumulative_rewards[agent] = 0.0  # what it had, it saw in last() before acting
        move = game.apply_legal(index)
        self._outcome = outcome = game.outcome()
        self.infos = {name: {} for name in self.agents}
        if outcome is not None:
            self.rewards = rewards_by_name(outcome)
            self.terminations = dict.fromkeys(self.agents, True)
            info = outcome_info(outcome)
            self.infos = {name: {"outcome": dict(info)} for name in self.agents}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            board = game.board
            if move is not None and self.max_plies is not None and board.ply() >= self.max_plies:
                self.truncations = dict.fromkeys(self.agents, True)
        if reason is not None:
            self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[game.turn]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = board_text(self._game.board, self._outcome, self._game.chain)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    # ------------------------------------------------------------------ helpers

    @property
    def board(self) -> Board:
        """A copy of the current position (without an open chain's jumps), with its history."""
        return self._game.board.copy()

    @property
    def chain(self) -> str | None:
        """The open jump chain as a move string (``"e3e5"``), or None."""
        return self._game.chain_string()

    def move_to_actions(self, move: str) -> list[int]:
        """The actions that play a whole legal move (``"e10e9"``, ``"e3e5e7"``) from here."""
        return self._game.move_to_actions(move)


def _observation_space(size: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        }
    )


#: PettingZoo's name for the environment without wrappers.
raw_env = TigerAECEnv


def env(
    rules: str | RuleSet = "laohuqi",
    *,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> Any:
    """:class:`TigerAECEnv` wrapped like PettingZoo's classic games: by default an illegal
    action ends the game with reward -1 for the agent that played it (0 for the other); an
    action outside the space raises, and so does calling the API out of order (``step`` before
    ``reset``). ``max_cycles`` (PettingZoo's name) truncates after that many cycles of both
    agents, ``2 * max_cycles`` moves, or ``max_plies`` if fewer."""
    if illegal_action not in ILLEGAL_ACTION_RULES:
        raise ValueError(
            f"illegal_action must be one of {ILLEGAL_ACTION_RULES}, got {illegal_action!r}"
        )
    game: Any = TigerAECEnv(
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
    rules: str | RuleSet = "laohuqi",
    *,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> Any:
    """The game through PettingZoo's parallel API: :func:`env` converted with PettingZoo's
    ``turn_based_aec_to_parallel``. Each step plays the action of the agent to move and ignores
    the other's; ``max_cycles`` truncates after that many moves, or ``max_plies``."""
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

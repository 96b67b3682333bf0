"""The PettingZoo side of a two-agent, turn-based game, for every game's environment
(:class:`doushouqi.jungle.rl.pettingzoo_env.JungleAECEnv`,
:class:`doushouqi.tiger.rl.pettingzoo_env.TigerAECEnv`).

:class:`TurnBasedAECEnv` keeps PettingZoo's bookkeeping (agents, rewards, terminations,
truncations, infos, the action masks, ``illegal_action``, rendering); a game's subclass says
what a position is through a few hooks. :func:`classic_env` wraps a raw environment the way
PettingZoo's classic games are wrapped, :func:`parallel_of` turns that into the parallel API.

>>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
>>> issubclass(JungleAECEnv, TurnBasedAECEnv), ILLEGAL_ACTION_RULES
(True, ('terminate', 'random', 'raise'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsInt

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray

from doushouqi.rl_common.move_limit import checked_max_plies

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
except ImportError as exc:  # pragma: no cover - the rl extra brings pettingzoo
    raise ImportError(
        "the PettingZoo environment needs pettingzoo: pip install 'doushouqi[rl]' "
        f"(importing pettingzoo failed: {exc})"
    ) from exc

__all__ = [
    "ILLEGAL_ACTION_RULES",
    "TurnBasedAECEnv",
    "classic_env",
    "classic_metadata",
    "parallel_of",
    "ply_limit",
]

#: What an illegal action may do: ``env()`` takes the three, the raw environment the last two.
ILLEGAL_ACTION_RULES = ("terminate", "random", "raise")

#: An agent's observation: ``"observation"`` (the planes) and ``"action_mask"``.
Observation = dict[str, NDArray[Any]]


class TurnBasedAECEnv(AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """A turn-based game for two agents (seat 0 and seat 1) as a PettingZoo AEC environment.

    The constructor checks the options every game's environment takes (``max_plies``: the
    truncation limit in whole moves, None: none; ``render_mode``: None, ``"human"`` or
    ``"ansi"``; ``illegal_action``: ``"raise"`` or ``"random"``) and builds one observation and
    action space per agent (``agents``: their names by seat) for ``num_actions`` actions. A
    subclass sets ``metadata`` and ``_illegal_action_error``, and implements the hooks:
    ``_start(fen)``, ``_turn()``, ``_legal_actions()``, ``_why_illegal(action)``,
    ``_apply(action)``, ``_ending()``, ``_ply()``, ``_observation(seat)`` and ``_text()``.

    >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
    >>> game = JungleAECEnv(max_plies=1)
    >>> game.reset()
    >>> game.step(game._legal_actions()[0])
    >>> game.truncations, game.agent_selection
    ({'red': True, 'blue': True}, 'blue')
    """

    #: What the raw environment raises for an illegal action under ``illegal_action="raise"``.
    _illegal_action_error: type[Exception] = ValueError

    def __init__(
        self,
        agents: tuple[str, str],
        num_actions: int,
        observation_shape: tuple[int, ...],
        *,
        max_plies: int | None,
        render_mode: str | None,
        illegal_action: str,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if illegal_action not in ("random", "raise"):
            raise ValueError(f"illegal_action must be 'random' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.max_plies = checked_max_plies(max_plies)
        self.num_actions = num_actions
        self.possible_agents: list[str] = list(agents)
        self.agents: list[str] = []
        # One space object per agent, the same object at every call (seeding relies on it).
        self.observation_spaces = {
            agent: _observation_space(observation_shape, num_actions) for agent in agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in agents}
        self.np_random, _ = seeding.np_random(None)
        self._over = False
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}

    # ------------------------------------------------------------------ pettingzoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: a dict of the planes and the action mask (the same
        object at every call).

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> space = JungleAECEnv().observation_space("red")
        >>> space["observation"].shape, space["action_mask"].shape
        ((31, 9, 7), (504,))
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: ``Discrete(num_actions)``.

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> JungleAECEnv().action_space("blue")
        Discrete(504)
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: from the start, or from ``options["fen"]`` (ValueError when that game
        is already over); ``seed`` seeds the generator of ``illegal_action="random"``.

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> game = JungleAECEnv()
        >>> game.reset(seed=1, options={"fen": "l5t/7/7/7/7/7/7/7/T5L b 0 1"})
        >>> game.agents, game.agent_selection  # Blue moves first in this position
        (['red', 'blue'], 'blue')
        """
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        fen = (options or {}).get("fen")
        over = self._start(fen)
        if over is not None:
            raise ValueError(f"the game is already over in {fen!r}: {over}")
        self._over = False
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._turn()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """The agent's observation: the planes from its seat and its action mask (ones only
        on its turn, before the game's end).

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> game = JungleAECEnv()
        >>> game.reset()
        >>> [int(game.observe(agent)["action_mask"].sum()) for agent in game.agents]
        [24, 0]
        """
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if not self._over and agent == self.agent_selection and agent in self.agents:
            mask[self._legal_actions()] = 1
        seat = self.possible_agents.index(agent)
        return {"observation": self._observation(seat), "action_mask": mask}

    def step(self, action: SupportsInt | None) -> None:
        """Play the selected agent's action (None once that agent is done); the rewards,
        terminations, truncations and infos then say what it did.

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> from doushouqi.jungle.rl.encoding import move_to_action
        >>> from doushouqi.jungle.moves import Move
        >>> game = JungleAECEnv()
        >>> game.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> game.step(move_to_action(Move.from_str("d8d9"), 0))  # Red's lion enters the den
        >>> game.rewards, game.terminations
        ({'red': 1.0, 'blue': -1.0}, {'red': True, 'blue': True})

        With the raw environment's ``illegal_action="raise"``, an illegal action raises:

        >>> game.reset()
        >>> game.step(4)  # a jump up from a1, which borders no lake
        Traceback (most recent call last):
        ...
        doushouqi.jungle.rl.env.IllegalActionError: illegal action 4 for red in ...
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is an action only once an agent is done")
        index = int(action)
        if not 0 <= index < self.num_actions:
            raise ValueError(
                f"action {action} is outside the action space 0..{self.num_actions - 1}"
            )
        why = self._why_illegal(index)
        if why is not None:
            if self.illegal_action == "raise":
                raise self._illegal_action_error(f"illegal action {index} for {agent}{why}")
            legal = self._legal_actions()
            index = legal[int(self.np_random.integers(len(legal)))]
        self._cumulative_rewards[agent] = 0.0  # what it had, it saw in last() before acting
        moved = self._apply(index)
        ending = self._ending()
        self.infos = {name: {} for name in self.agents}
        if ending is not None:
            self._over = True
            self.rewards, info = ending
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {name: {"outcome": dict(info)} for name in self.agents}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if moved and self.max_plies is not None and self._ply() >= self.max_plies:
                self.truncations = dict.fromkeys(self.agents, True)
        if why is not None:
            self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[self._turn()]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text with ``render_mode="ansi"``; printed with ``"human"`` (and None
        returned); None without a render mode.

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> game = JungleAECEnv(render_mode="ansi")
        >>> game.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> print(game.render().splitlines()[1], game.render().splitlines()[-1], sep="\\n")
        8 . . . L . . .
        red to move, ply 0
        """
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process).

        >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
        >>> game = JungleAECEnv()
        >>> game.reset()
        >>> game.close()
        """

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> str | None:
        """Set up the position ``fen`` (None: the start); why its game is already over, or
        None when it goes on."""
        raise NotImplementedError

    def _turn(self) -> int:
        """The seat that acts next."""
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        """The legal actions of the seat that acts next (the random choice draws from them
        in this order)."""
        raise NotImplementedError

    def _why_illegal(self, action: int) -> str | None:
        """None for a legal action; else what follows ``illegal action N for AGENT`` in the
        error (``" in FEN"``, ``": why"``)."""
        raise NotImplementedError

    def _apply(self, action: int) -> bool:
        """Play a legal action; whether it completed a move (a truncation counts moves)."""
        raise NotImplementedError

    def _ending(self) -> tuple[dict[str, float], dict[str, str | None]] | None:
        """The rewards by agent and the outcome's plain data once the game is over, else
        None."""
        raise NotImplementedError

    def _ply(self) -> int:
        """The number of whole moves since the start of the game."""
        raise NotImplementedError

    def _observation(self, seat: int) -> NDArray[np.float32]:
        """The planes ``seat``'s agent observes."""
        raise NotImplementedError

    def _text(self) -> str:
        """The position as text, for ``render``."""
        raise NotImplementedError


def classic_metadata(name: str, render_fps: int) -> dict[str, Any]:
    """A game's ``metadata`` as PettingZoo's classic games have it: both render modes, its
    ``name`` and the frame rate of ``"human"`` rendering; not parallelizable (it is
    turn-based).

    >>> classic_metadata("jungle_v0", 1)["render_modes"]
    ['human', 'ansi']
    """
    return {
        "render_modes": ["human", "ansi"],
        "name": name,
        "is_parallelizable": False,
        "render_fps": render_fps,
    }


def _observation_space(shape: tuple[int, ...], size: int) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        }
    )


def classic_env(
    raw_env: Callable[..., TurnBasedAECEnv],
    rules: Any,
    max_plies: int | None,
    max_cycles: int | None,
    render_mode: str | None,
    illegal_action: str,
) -> Any:
    """``raw_env(rules, …)`` wrapped like PettingZoo's classic games (each game's ``env()``):
    ``illegal_action="terminate"`` ends the game with -1 for the agent that played an illegal
    action, an action outside the space raises, and so does the API called out of order.
    ``max_cycles`` truncates after that many cycles of both agents (two moves each).

    >>> from doushouqi.jungle.rl.pettingzoo_env import JungleAECEnv
    >>> game = classic_env(JungleAECEnv, "classic", None, 3, None, "terminate")
    >>> game.unwrapped.max_plies, type(game).__name__
    (6, 'OrderEnforcingWrapper')
    >>> classic_env(JungleAECEnv, "classic", None, None, None, "forfeit")
    Traceback (most recent call last):
    ...
    ValueError: illegal_action must be one of ('terminate', 'random', 'raise'), got 'forfeit'
    """
    if illegal_action not in ILLEGAL_ACTION_RULES:
        raise ValueError(
            f"illegal_action must be one of {ILLEGAL_ACTION_RULES}, got {illegal_action!r}"
        )
    game: Any = raw_env(
        rules,
        max_plies=ply_limit(max_plies, max_cycles, plies_per_cycle=2),
        render_mode=render_mode,
        illegal_action="raise" if illegal_action == "terminate" else illegal_action,
    )
    if illegal_action == "terminate":
        game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


def parallel_of(
    env: Callable[..., Any],
    rules: Any,
    max_plies: int | None,
    max_cycles: int | None,
    render_mode: str | None,
    illegal_action: str,
) -> Any:
    """A game's ``env(rules, …)`` through PettingZoo's parallel API (each game's
    ``parallel_env()``), converted with ``turn_based_aec_to_parallel``: each step plays the
    action of the agent to move and ignores the other's; ``max_cycles`` counts steps (moves).

    >>> from doushouqi.jungle.rl.pettingzoo_env import env
    >>> game = parallel_of(env, "classic", None, 3, None, "terminate")
    >>> game.aec_env.unwrapped.max_plies, game.possible_agents
    (3, ['red', 'blue'])
    """
    game = env(
        rules,
        max_plies=ply_limit(max_plies, max_cycles, plies_per_cycle=1),
        render_mode=render_mode,
        illegal_action=illegal_action,
    )
    return turn_based_aec_to_parallel(game)


def ply_limit(max_plies: int | None, max_cycles: int | None, plies_per_cycle: int) -> int | None:
    """The move limit in plies from PettingZoo's ``max_cycles`` and ours, whichever is lower.

    >>> ply_limit(1000, None, 2), ply_limit(1000, 5, 2), ply_limit(None, 5, 1)
    (1000, 10, 5)
    """
    if max_cycles is None:
        return max_plies
    if max_cycles < 1:
        raise ValueError(f"max_cycles must be a positive number of cycles, got {max_cycles}")
    cycles = max_cycles * plies_per_cycle
    return cycles if max_plies is None else min(max_plies, cycles)

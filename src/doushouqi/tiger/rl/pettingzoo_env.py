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
>>> game.metadata["name"] == ENV_NAME, ILLEGAL_ACTION_RULES
(True, ('terminate', 'random', 'raise'))

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

from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.outcome import Outcome
from doushouqi.rl_common.pettingzoo_env import (
    ILLEGAL_ACTION_RULES,
    TurnBasedAECEnv,
    classic_env,
    classic_metadata,
    parallel_of,
)
from doushouqi.tiger.board import Board
from doushouqi.tiger.rl.action_board import (
    ActionBoard,
    ActionBoardViews,
    IllegalActionError,
)
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

__all__ = ["ENV_NAME", "ILLEGAL_ACTION_RULES", "TigerAECEnv", "env", "parallel_env", "raw_env"]

#: The environment's name in PettingZoo's convention (``metadata["name"]``).
ENV_NAME = "tiger_v0"


class TigerAECEnv(ActionBoardViews, TurnBasedAECEnv):
    """老虎棋 for two agents taking turns; see the module docstring.

    ``rules``: a rule set or its name; ``max_plies``: the truncation limit in whole moves
    (None: none); ``render_mode``: None, ``"human"`` or ``"ansi"``; ``illegal_action``:
    ``"raise"`` or ``"random"`` (:func:`env` wraps it for PettingZoo's ``"terminate"``). A
    double jump to the game's end, with PettingZoo's agent loop: the tiger acts twice in a row.

    >>> from doushouqi.tiger.rules import rules_from_mapping
    >>> game = TigerAECEnv(rules_from_mapping("chains", {"multi_jump": True}))
    >>> game.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
    >>> jumps = iter(game.move_to_actions("e3e5e7"))
    >>> for agent in game.agent_iter():
    ...     observation, reward, termination, truncation, info = game.last()
    ...     game.step(None if termination or truncation else next(jumps))
    ...     print(agent, reward, game.chain, info.get("outcome"))
    tiger 0.0 e3e5 None
    tiger 0.0 None None
    men -1.0 None {'termination': 'men_captured', 'winner': 'tiger', 'result': '1-0'}
    tiger 1.0 None {'termination': 'men_captured', 'winner': 'tiger', 'result': '1-0'}

    With the raw environment's ``illegal_action="raise"``, an illegal action raises:

    >>> game.reset()
    >>> game.step(0)
    Traceback (most recent call last):
    ...
    doushouqi.tiger.rl.action_board.IllegalActionError: illegal action 0 for tiger: stop: ...
    """

    # pettingzoo reads this class attribute; it is never mutated.
    metadata = classic_metadata(ENV_NAME, render_fps=4)
    # The error of the action board, which says why an action is illegal.
    _illegal_action_error = IllegalActionError

    def __init__(
        self,
        rules: str | RuleSet = "laohuqi",
        *,
        max_plies: int | None = DEFAULT_MAX_PLIES,
        render_mode: str | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.rules = find_rules(rules)
        self._game = ActionBoard(Board(rules=self.rules))
        super().__init__(
            AGENT_NAMES,
            self._game.num_actions,
            OBSERVATION_SHAPE,
            max_plies=max_plies,
            render_mode=render_mode,
            illegal_action=illegal_action,
        )
        self._outcome: Outcome | None = None
        self.agent_selection = self.possible_agents[self._game.turn]

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> str | None:
        game = ActionBoard(Board(fen, rules=self.rules))
        outcome = game.outcome()
        if outcome is not None:
            return outcome.key
        self._game, self._outcome = game, None
        return None

    def _turn(self) -> int:
        return self._game.turn

    def _legal_actions(self) -> list[int]:
        return self._game.legal_actions()

    def _why_illegal(self, action: int) -> str | None:
        reason = self._game.explain_illegal(action)
        return None if reason is None else f": {reason}"

    def _apply(self, action: int) -> bool:
        move = self._game.apply_legal(action)
        self._outcome = self._game.outcome()
        return move is not None  # a jump of an open chain is no whole move yet

    def _ending(self) -> tuple[dict[str, float], dict[str, str | None]] | None:
        if self._outcome is None:
            return None
        return rewards_by_name(self._outcome), outcome_info(self._outcome)

    def _ply(self) -> int:
        return self._game.board.ply()

    def _observation(self, seat: int) -> NDArray[np.float32]:
        return self._game.observation()  # the same planes for both seats

    def _text(self) -> str:
        return board_text(self._game.board, self._outcome, self._game.chain)


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
    """:class:`TigerAECEnv` with the wrappers of PettingZoo's classic games, as Jungle's
    (:func:`~doushouqi.rl_common.pettingzoo_env.classic_env` wraps both): ``"terminate"`` ends
    the game on an illegal action, -1 to the side that played it. ``max_cycles`` counts both
    sides' whole moves, so three cycles are six moves:

    >>> env(max_cycles=3).unwrapped.max_plies
    6
    >>> game = env()
    >>> game.reset()
    >>> game.step(0)  # "stop" with no jump chain open: illegal, the game ends
    >>> game.rewards, game.terminations
    ({'tiger': -1.0, 'men': 0}, {'tiger': True, 'men': True})
    """
    return classic_env(TigerAECEnv, rules, max_plies, max_cycles, render_mode, illegal_action)


def parallel_env(
    rules: str | RuleSet = "laohuqi",
    *,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    max_cycles: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "terminate",
) -> Any:
    """:func:`env` through PettingZoo's parallel API
    (:func:`~doushouqi.rl_common.pettingzoo_env.parallel_of`): a step is one whole move (or one
    jump of a chain), the action of ``infos[agent]["active_agent"]``; ``max_cycles`` counts
    steps.

    >>> game = parallel_env(max_cycles=1)
    >>> _ = game.reset()
    >>> _, rewards, _, truncations, _ = game.step({"tiger": 555, "men": 0})  # e10e9
    >>> truncations, game.agents  # one move: the game is cut short
    ({'tiger': True, 'men': True}, [])
    """
    return parallel_of(env, rules, max_plies, max_cycles, render_mode, illegal_action)

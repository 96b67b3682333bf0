"""``TigerEnv``: 老虎棋 as a Gymnasium environment, registered as ``doushouqi/Tiger-v0``.

The observation and the actions are those of :mod:`doushouqi.tiger.rl.encoding`: ``(16, 11,
9)`` planes, the same for both seats, and ``Discrete(n)`` actions (577, 597 or 1057 by the
rule set's ``diagonals``), one per step or jump segment, plus *stop* for multi-jump chains.
The legal actions come as a boolean mask, ``info["action_mask"]`` and
:meth:`TigerEnv.action_masks` (the method name sb3-contrib's ``MaskablePPO`` calls).

Two ways to play:

* **Self-play** (``opponent=None``, the default): each step plays one action for whoever is
  to act; the reward is from the seat of the side that just acted: +1 when its move won, 0
  otherwise (a move can win or draw the game, never lose it).
* **Against an opponent** (``opponent="random"``, or any callable ``Board -> Move`` such as an
  engine's best move): the agent plays ``agent_side`` ("tiger", "men" or "random": drawn at
  each reset); each step plays the agent's action and, when that completes its move, the
  opponent's whole reply. The observation is always the agent's, the reward +1 for a win, -1
  for a loss, 0 for a draw, at the end.

**Multi-jump chains** (rule option ``multi_jump``): a jump from which the tiger could jump on
leaves the chain open: the step returns with the same side to act (``info["chain"]`` is the
chain so far, ``"e3e5"``), the mask holds the next jumps and *stop*, and no opponent moves
until the chain ends. ``info["ply"]`` counts whole moves.

**Both sides' rewards.** Every step's info has ``info["rewards"]``: the reward of each side
for that step, ``{"tiger": …, "men": …}``, 0 and 0 until the end; at the end +1 to the winner
and -1 to the loser (0 and 0 for a draw or a truncation; after an illegal action the penalty
to the side that played it, 0 to the other).

An episode *terminates* when the rules library's :meth:`~doushouqi.tiger.board.Board.outcome`
says the game is over (tiger trapped, men captured or blocked, repetition, round limit), with
``info["outcome"]`` as plain data (``{"termination": "men_captured", "winner": "tiger",
"result": "1-0"}``, see :func:`doushouqi.tiger.rl.common.outcome_info`), ``info["winner"]`` (0,
1 or None) and ``info["reward_by_seat"]`` (the tiger side's and the men's rewards). It is
*truncated* when ``max_plies`` whole moves have been played since the reset (default
:data:`~doushouqi.tiger.rl.common.DEFAULT_MAX_PLIES`; ``None``: no limit; checked after each
step, so against an opponent the episode may run to ``max_plies + 1``).

**Illegal actions** (in the space but not legal now): with ``illegal_action="penalty"`` (the
default, so that unmasked agents and ``check_env`` work) the episode terminates at once with
reward ``illegal_action_penalty`` (-1.0), ``info["illegal_action"] = True`` and the board
unchanged; with ``illegal_action="raise"`` the step raises :class:`IllegalActionError` and
the episode goes on. An action outside the space always raises.

``reset(seed=…)`` seeds the random opponent and the ``agent_side="random"`` draw;
``reset(options={"fen": "…"})`` starts from a position string (docs/tiger.md). When the
opponent moves first from it and its move ends the game, the reset's info already has
``"outcome"`` and an empty mask, and the next step (any action of the space) plays nothing
and returns the agent's final reward with ``terminated=True``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.outcome import Outcome
from doushouqi.rl_common.gym_env import TurnBasedGymEnv
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
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
    reward_by_seat,
)
from doushouqi.tiger.rl.encoding import OBSERVATION_SHAPE, action_name
from doushouqi.tiger.rules import RuleSet

__all__ = ["IllegalActionError", "Opponent", "TigerEnv"]

#: An opponent: given a copy of the board (its side to move), the whole move it plays.
Opponent = Callable[[Board], Move]


class TigerEnv(ActionBoardViews, TurnBasedGymEnv):
    """老虎棋 under one rule set; see the module docstring for the conventions.

    ``rules``: a rule set or its name; ``opponent``: None (self-play), ``"random"`` or an
    :data:`Opponent` callable; ``agent_side``: the agent's seat against an opponent;
    ``max_plies``: the truncation limit; ``illegal_action``: ``"penalty"`` or ``"raise"``;
    ``render_mode``: None or ``"ansi"``. The episode, the opponent, the rewards and the infos
    are :class:`~doushouqi.rl_common.gym_env.TurnBasedGymEnv`'s, as in Jungle's.

    The men against an opponent that always plays its first legal move:

    >>> def first_move(board: Board) -> Move:
    ...     return next(iter(board.generate_legal_moves()))
    >>> opponent: Opponent = first_move
    >>> env = TigerEnv(opponent=opponent, agent_side="men", max_plies=3)
    >>> observation, info = env.reset()
    >>> observation.shape, info["turn"], info["opponent_move"]  # the tiger moved first
    ((16, 11, 9), 1, 'e10e9')
    >>> _, reward, terminated, truncated, info = env.step(env.move_to_actions("d2d3")[0])
    >>> reward, terminated, truncated, info["opponent_move"], info["ply"]
    (0.0, False, True, 'e9e8', 3)

    From a position where the tiger jumps the fourth man and wins:

    >>> env = TigerEnv()
    >>> observation, info = env.reset(options={"fen": "3/3/9/9/9/9/9/4M4/4T4/9/MMM6 t"})
    >>> info["fen"], [env.action_name(a) for a in info["action_mask"].nonzero()[0]]
    ('3/3/9/9/9/9/9/4M4/4T4/9/MMM6 t 0 1', ['e3e2', 'e3d3', 'e3f3', 'e3e5'])
    >>> _, reward, terminated, truncated, info = env.step(env.move_to_actions("e3e5")[0])
    >>> reward, terminated, truncated, info["outcome"]["termination"], info["rewards"]
    (1.0, True, False, 'men_captured', {'tiger': 1.0, 'men': -1.0})
    """

    _seat_option = "agent_side"
    _reward_info_key = "reward_by_seat"
    _move_type = Move
    _illegal_action_error = IllegalActionError

    def __init__(
        self,
        rules: str | RuleSet = "laohuqi",
        *,
        opponent: str | Opponent | None = None,
        agent_side: str | int | None = None,
        max_plies: int | None = DEFAULT_MAX_PLIES,
        illegal_action: str = "penalty",
        illegal_action_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = find_rules(rules)
        self._game = ActionBoard(Board(rules=self.rules))
        super().__init__(
            AGENT_NAMES,
            self._game.num_actions,
            OBSERVATION_SHAPE,
            opponent=opponent,
            agent_seat=agent_side,
            max_plies=max_plies,
            illegal_action=illegal_action,
            illegal_action_penalty=illegal_action_penalty,
            render_mode=render_mode,
        )

    @property
    def agent_side(self) -> int:
        """The agent's seat this episode, 0 (the tiger side) or 1 (the men); in self-play the
        side that acted first.

        >>> TigerEnv(opponent="random", agent_side="men").agent_side, TigerEnv().agent_side
        (1, 0)
        """
        return self._agent_seat

    def action_name(self, action: int) -> str:
        """The action as text: its segment (``e10e9``) or ``stop``.

        >>> env = TigerEnv()
        >>> env.action_name(555), env.action_name(0)
        ('e10e9', 'stop')
        """
        return action_name(action)

    def ansi(self) -> str:
        """The board as text (rank 11 at the top) with whose turn it is, and the open chain.

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> env = TigerEnv(rules_from_mapping("chains", {"multi_jump": True}))
        >>> _ = env.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
        >>> _ = env.step(env.move_to_actions("e3e5e7")[0])
        >>> print(*env.ansi().splitlines()[5:7], *env.ansi().splitlines()[-2:], sep="\\n")
         6 . . . . M . . . .
         5 . . . . T . . . .
        tiger to move, ply 0
        jump chain open: e3e5 (jump on or stop)
        """
        return board_text(self._game.board, self._outcome, self._game.chain)

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> None:
        self._game = ActionBoard(Board(fen, rules=self.rules))

    def _current_outcome(self) -> Outcome | None:
        return self._game.outcome()

    def _ending_text(self, outcome: Outcome) -> str:
        return outcome.key

    def _turn(self) -> int:
        return self._game.turn

    def _rules_board(self) -> Board:
        return self._game.board

    def _push(self, move: Move) -> None:
        self._game.push_move(move)

    def _play(self, action: int) -> bool | None:
        if self._game.explain_illegal(action) is not None:
            return None
        return self._game.apply_legal(action) is not None  # False: a chain's jump, no move yet

    def _illegal_reason(self, action: int) -> str:
        return f"illegal action {action}: {self._game.explain_illegal(action)}"

    def _legal_mask(self) -> NDArray[np.bool_]:
        return self._game.action_mask()

    def _planes(self, seat: int) -> NDArray[np.float32]:
        return self._game.observation()  # the same planes for both seats

    def _position_details(self) -> dict[str, Any]:
        return {"chain": self._game.chain_string()}

    def _outcome_data(self, outcome: Outcome) -> dict[str, str | None]:
        return outcome_info(outcome)

    def _final_rewards(self, outcome: Outcome | None) -> tuple[float, float]:
        return reward_by_seat(outcome)

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
from typing import Any, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from doushouqi.core.outcome import Outcome
from doushouqi.rl_common.move_limit import checked_max_plies
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl.action_board import ActionBoard, IllegalActionError
from doushouqi.tiger.rl.common import (
    AGENT_NAMES,
    DEFAULT_MAX_PLIES,
    board_text,
    find_rules,
    outcome_info,
    reward_by_seat,
)
from doushouqi.tiger.rl.encoding import OBSERVATION_SHAPE, action_name
from doushouqi.tiger.rules import MEN_SIDE, TIGER_SIDE, RuleSet

__all__ = ["IllegalActionError", "Opponent", "TigerEnv"]

#: An opponent: given a copy of the board (its side to move), the whole move it plays.
Opponent = Callable[[Board], Move]

_ILLEGAL_ACTION_MODES = ("penalty", "raise")


def _parse_side(value: str | int) -> int | None:
    """0 (the tiger side), 1 (the men) or None for "random"; ValueError for anything else."""
    if not isinstance(value, bool):  # True == 1: a flag is no seat
        if value in ("tiger", TIGER_SIDE):
            return TIGER_SIDE
        if value in ("men", MEN_SIDE):
            return MEN_SIDE
        if value == "random":
            return None
    raise ValueError(f"agent_side must be 'tiger', 'men', 'random', 0 or 1, got {value!r}")


class TigerEnv(gym.Env[NDArray[np.float32], np.int64]):
    """老虎棋 under one rule set; see the module docstring for the conventions.

    ``rules``: a rule set or its name; ``opponent``: None (self-play), ``"random"`` or an
    :data:`Opponent` callable; ``agent_side``: the agent's seat against an opponent;
    ``max_plies``: the truncation limit; ``illegal_action``: ``"penalty"`` or ``"raise"``;
    ``render_mode``: None or ``"ansi"``.

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
    """

    # gymnasium reads this class attribute; it is never mutated.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

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
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if illegal_action not in _ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_action_penalty = float(illegal_action_penalty)
        self.max_plies = checked_max_plies(max_plies)
        self._opponent = self._make_opponent(opponent)
        if self._opponent is None and agent_side is not None:
            raise ValueError("agent_side needs an opponent: in self-play the agent plays both")
        self._agent_choice = _parse_side("tiger" if agent_side is None else agent_side)
        #: The agent's seat this episode (in self-play: the side that acted first).
        self.agent_side = TIGER_SIDE if self._agent_choice is None else self._agent_choice

        self._game = ActionBoard(Board(rules=self.rules))
        self.observation_space = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32)
        self.action_space = spaces.Discrete(self._game.num_actions)
        self._outcome: Outcome | None = None
        self._episode_over = True  # until the first reset
        self._last_opponent_move: Move | None = None
        #: The opponent's first move ended the game: the next step only reports it.
        self._ended_before_agent = False

    # ------------------------------------------------------------------ opponents

    def _make_opponent(self, opponent: str | Opponent | None) -> Opponent | None:
        if opponent is None:
            return None
        if opponent == "random":
            return self._random_move
        if callable(opponent) and not isinstance(opponent, str):
            return opponent
        raise ValueError(
            f"opponent must be None (self-play), 'random' or a callable Board -> Move, "
            f"got {opponent!r}"
        )

    def _random_move(self, board: Board) -> Move:
        moves = list(board.generate_legal_moves())
        return moves[int(self.np_random.integers(len(moves)))]

    def _play_opponent(self) -> None:
        assert self._opponent is not None
        board = self._game.board
        move = self._opponent(board.copy())  # a copy: the opponent cannot spoil the game
        if not isinstance(move, Move) or not board.is_legal(move):
            reason = board.explain_illegal(move) if isinstance(move, Move) else "not a Move"
            raise RuntimeError(f"the opponent played {move!r} in {board.fen()}: {reason}")
        self._game.push_move(move)
        self._last_opponent_move = move
        self._outcome = self._game.outcome()

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start an episode: the observation and the info (the mask, turn, ply, position,
        chain). ``seed`` seeds the random opponent and seat; ``options={"fen": …}`` starts from
        a position (ValueError when its game is already over).

        >>> env = TigerEnv()
        >>> observation, info = env.reset(options={"fen": "3/3/9/9/9/9/9/4M4/4T4/9/MMM6 t"})
        >>> info["fen"], [env.action_name(a) for a in info["action_mask"].nonzero()[0]]
        ('3/3/9/9/9/9/9/4M4/4T4/9/MMM6 t 0 1', ['e3e2', 'e3d3', 'e3f3', 'e3e5'])
        """
        super().reset(seed=seed)
        options = dict(options or {})
        fen = options.pop("fen", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)} (known: 'fen')")
        self._game = ActionBoard(Board(fen, rules=self.rules))
        self._outcome = self._game.outcome()
        if self._outcome is not None:
            raise ValueError(f"the game is already over in {fen!r}: {self._outcome.key}")
        self._last_opponent_move = None
        if self._opponent is None:
            self.agent_side = self._game.turn
        else:
            if self._agent_choice is None:
                self.agent_side = int(self.np_random.integers(2))
            if self._game.turn != self.agent_side:
                self._play_opponent()
        self._ended_before_agent = self._outcome is not None
        self._episode_over = False
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | SupportsInt
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (and, once a whole move is made, the opponent's reply): observation,
        reward, terminated, truncated, info. ValueError for an action outside the space;
        ``ResetNeeded`` once the episode is over.

        >>> env = TigerEnv()
        >>> _ = env.reset(options={"fen": "3/3/9/9/9/9/9/4M4/4T4/9/MMM6 t"})
        >>> _, reward, terminated, truncated, info = env.step(env.move_to_actions("e3e5")[0])
        >>> reward, terminated, truncated, info["outcome"]["termination"], info["rewards"]
        (1.0, True, False, 'men_captured', {'tiger': 1.0, 'men': -1.0})
        """
        if self._episode_over:
            raise gym.error.ResetNeeded("the episode is over (or never began): call reset()")
        index = int(action)
        game = self._game
        if not 0 <= index < game.num_actions:
            raise ValueError(
                f"action {action} is outside the action space 0..{game.num_actions - 1}"
            )
        if self._ended_before_agent:  # nothing to play: report the opponent's win (or draw)
            self._episode_over = True
            info = self._info(illegal=False)
            reward = info["rewards"][AGENT_NAMES[self.agent_side]]
            return self._observation(), reward, True, False, info
        mover = game.turn
        reason = game.explain_illegal(index)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalActionError(f"illegal action {index}: {reason}")
            self._episode_over = True
            info = self._info(illegal=True)
            info["rewards"][AGENT_NAMES[mover]] = self.illegal_action_penalty
            return self._observation(), self.illegal_action_penalty, True, False, info
        move = game.apply_legal(index)
        self._last_opponent_move = None
        if move is not None:
            self._outcome = game.outcome()
            if self._outcome is None and self._opponent is not None:
                self._play_opponent()
        outcome = self._outcome
        terminated = outcome is not None
        truncated = (
            not terminated
            and move is not None
            and self.max_plies is not None
            and game.board.ply() >= self.max_plies
        )
        self._episode_over = terminated or truncated
        info = self._info(illegal=False)
        reward = info["rewards"][AGENT_NAMES[mover]]
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """The board as text (:meth:`ansi`) with ``render_mode="ansi"``, else None.

        >>> env = TigerEnv(render_mode="ansi")
        >>> _ = env.reset()
        >>> print(env.render())
        11       . . .
        10       . T .
         9 . . . . . . . . .
         8 . . . . . . . . .
         7 . . . . . . . . .
         6 . . . . . . . . .
         5 . . . . . . . . .
         4 . . . . . . . . .
         3 . . . . . . . . .
         2 . . . M M M . . .
         1 M M M M M M M M M
           a b c d e f g h i
        tiger to move, ply 0
        <BLANKLINE>
        """
        if self.render_mode != "ansi":
            return None
        return self.ansi()

    # ------------------------------------------------------------------ helpers

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the side to act (all False once the episode is over).

        >>> env = TigerEnv()
        >>> _ = env.reset()
        >>> [env.action_name(action) for action in env.action_masks().nonzero()[0]]
        ['e10e9', 'e10d10', 'e10f10', 'e10e11']
        """
        if self._episode_over:
            return np.zeros(self._game.num_actions, dtype=np.bool_)
        return self._game.action_mask()

    def move_to_actions(self, move: Move | str) -> list[int]:
        """The actions that play a whole legal move (``"e10e9"``, ``"e3e5e7"``) from here:
        one per jump of a chain. IllegalActionError when it is no legal move.

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> env = TigerEnv(rules_from_mapping("chains", {"multi_jump": True}))
        >>> _ = env.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
        >>> [env.action_name(action) for action in env.move_to_actions("e3e5e7")]
        ['e3e5', 'e5e7']
        """
        return self._game.move_to_actions(move)

    def action_name(self, action: int) -> str:
        """The action as text: its segment (``e10e9``) or ``stop``.

        >>> env = TigerEnv()
        >>> env.action_name(555), env.action_name(0)
        ('e10e9', 'stop')
        """
        return action_name(action)

    @property
    def board(self) -> Board:
        """A copy of the current position (without an open chain's jumps), with its history.

        >>> env = TigerEnv()
        >>> _ = env.reset()
        >>> _ = env.step(env.move_to_actions("e10e9")[0])
        >>> env.board.move_stack, env.board.turn
        ([Move.from_str('e10e9')], 1)
        """
        return self._game.board.copy()

    @property
    def chain(self) -> str | None:
        """The open jump chain as a move string (``"e3e5"``), or None.

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> env = TigerEnv(rules_from_mapping("chains", {"multi_jump": True}))
        >>> _ = env.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
        >>> env.chain is None
        True
        >>> _ = env.step(env.move_to_actions("e3e5e7")[0])  # the first jump: the chain opens
        >>> env.chain
        'e3e5'
        """
        return self._game.chain_string()

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

    def _observation(self) -> NDArray[np.float32]:
        return self._game.observation()

    def _info(self, illegal: bool | None = None) -> dict[str, Any]:
        board = self._game.board
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "turn": self._game.turn,
            "ply": board.ply(),
            "fen": board.position_string(),
            "chain": self._game.chain_string(),
        }
        if illegal is not None:  # step infos only
            info["illegal_action"] = illegal
            tiger, men = (0.0, 0.0) if illegal else reward_by_seat(self._outcome)
            info["rewards"] = {AGENT_NAMES[0]: tiger, AGENT_NAMES[1]: men}
        if self._opponent is not None:
            opponent_move = self._last_opponent_move
            info["opponent_move"] = str(opponent_move) if opponent_move is not None else None
        outcome = self._outcome
        if outcome is not None:
            info["outcome"] = outcome_info(outcome)
            info["termination"] = outcome.key
            info["winner"] = outcome.winner
            info["reward_by_seat"] = reward_by_seat(outcome)
        return info

"""``JungleEnv``: Jungle as a Gymnasium environment, registered as ``doushouqi/Jungle-v0``.

The observation and the actions are those of :mod:`doushouqi.jungle.rl.encoding`: planes seen from
the side to move's seat and ``Discrete(504)`` actions in the same view. The legal moves come as a
boolean mask, ``info["action_mask"]`` and :meth:`JungleEnv.action_masks` (the method name
sb3-contrib's ``MaskablePPO`` calls).

Two ways to play:

* **Self-play** (``opponent=None``, the default): each step plays one move for whoever is to
  move; the observation is from the seat of the side to move next, the reward from the seat of
  the side that just moved: +1 when its move won, 0 otherwise (a move can win or draw the game,
  never lose it).
* **Against an opponent** (``opponent="random"``, an engine level 1–10, or any callable
  ``Board -> Move``): the agent plays ``agent_color`` ("red", "blue" or "random": drawn at each
  reset); each step plays the agent's move and then the opponent's reply. The observation is
  always the agent's, the reward +1 for a win, -1 for a loss, 0 for a draw, at the end.

**Both sides' rewards.** Every step's info has ``info["rewards"]``: the reward of each side for
that step, ``{"red": …, "blue": …}``, 0 and 0 until the end; at the end +1 to the winner and -1
to the loser (0 and 0 for a draw or a truncation; after an illegal action the penalty to the
side that played it, 0 to the other). The step's ``reward`` is always one of these two: the
mover's in self-play, the agent's against an opponent. In self-play the loser's -1 thus comes
in the info of the step that ended the game, the winner's move: a trainer that keeps one
trajectory per side adds ``info["rewards"][side]`` to each side's last transition.

An episode *terminates* when the rules library's :meth:`~doushouqi.Board.outcome` says the game
is over (den entered, all captured, no legal move, repetition, no-capture limit …), with
``info["outcome"]`` as plain data (``{"termination": "den_entered", "winner": "red",
"result": "1-0"}``, see :func:`doushouqi.jungle.rl.common.outcome_info`), ``info["termination"]``,
``info["winner"]`` (0, 1 or None) and ``info["reward_by_color"]`` (Red's and Blue's rewards).
It is *truncated* when ``max_plies`` plies have been played since the reset (default
:data:`~doushouqi.jungle.rl.common.DEFAULT_MAX_PLIES`, 1000; ``None`` for no limit; checked after
each step, so against an opponent the episode may run to ``max_plies + 1``).

**Illegal actions** (in 0..503 but not a legal move now): with ``illegal_action="penalty"``
(the default, so that unmasked agents and ``check_env`` work) the episode terminates at once
with reward ``illegal_action_penalty`` (-1.0), ``info["illegal_action"] = True`` and the board
unchanged; with ``illegal_action="raise"`` the step raises :class:`IllegalActionError` and the
episode goes on as if it had not been called. An action outside the space always raises.

``reset(seed=…)`` seeds the random opponent and the ``agent_color="random"`` draw;
``reset(options={"fen": "…"})`` starts from a position string (docs/rules.md 7a). When the opponent
moves first from that position and its move ends the game, the episode is over before the
agent moved: the reset's info already has ``"outcome"`` and an empty mask, and the next step
(any action of the space) plays nothing and returns the agent's final reward with
``terminated=True``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, board_text, outcome_info, reward_by_color
from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    action_to_move,
    encode_observation,
    legal_action_mask,
    move_to_action,
)
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.squares import BLUE, COLOR_NAMES, RED
from doushouqi.rl_common.move_limit import checked_max_plies

__all__ = ["IllegalActionError", "JungleEnv", "Opponent"]

#: An opponent: given a copy of the board (its side to move), the move it plays.
Opponent = Callable[[Board], Move]

_ENGINE_LEVELS = range(1, 11)  # doushouqi.jungle.ai's levels; checked here so a typo fails early
_ILLEGAL_ACTION_MODES = ("penalty", "raise")


class IllegalActionError(ValueError):
    """The action is not a legal move in the position (``illegal_action="raise"``).

    >>> env = JungleEnv(illegal_action="raise")
    >>> _ = env.reset()
    >>> env.step(env.move_to_action("e3e4"))  # the leopard cannot swim
    Traceback (most recent call last):
    ...
    doushouqi.jungle.rl.env.IllegalActionError: illegal action 144 (e3e4): only the rat may ...
    """


class _BestMove(Protocol):
    """The signature of ``doushouqi.jungle.ai.best_move``."""

    def __call__(self, board: Board, *, level: int, movetime: float | None) -> Move: ...


def _load_best_move() -> _BestMove:
    """``doushouqi.jungle.ai.best_move``,
    imported only now: it brings numba, which ``rl`` may lack."""
    try:
        module = importlib.import_module("doushouqi.jungle.ai")
    except ImportError as exc:
        raise ImportError(
            "an engine opponent needs the engine: pip install 'doushouqi[ai]' "
            f"(importing doushouqi.jungle.ai failed: {exc})"
        ) from exc
    best_move: _BestMove = module.best_move
    return best_move


def _parse_color(value: str | int) -> int | None:
    """0 (Red), 1 (Blue) or None for "random"; ValueError for anything else."""
    if value in ("red", RED) and not isinstance(value, bool):
        return RED
    if value in ("blue", BLUE) and not isinstance(value, bool):
        return BLUE
    if value == "random":
        return None
    raise ValueError(f"agent_color must be 'red', 'blue', 'random', 0 or 1, got {value!r}")


class JungleEnv(gym.Env[NDArray[np.float32], np.int64]):
    """Jungle (斗兽棋) under one rule set; see the module docstring for the conventions.

    ``rules``: a rule set or its name; ``opponent``: None (self-play), ``"random"``, an engine
    level 1–10 or an :data:`Opponent` callable; ``agent_color``: the agent's side against an
    opponent; ``max_plies``: the truncation limit; ``illegal_action``: ``"penalty"`` or
    ``"raise"``; ``render_mode``: None or ``"ansi"``.

    An episode against an opponent that always plays its first legal move:

    >>> def first_move(board: Board) -> Move:
    ...     return next(iter(board.generate_legal_moves()))
    >>> opponent: Opponent = first_move
    >>> env = JungleEnv("classic", opponent=opponent, agent_color="red", max_plies=4)
    >>> observation, info = env.reset(seed=7)
    >>> observation.shape, info["turn"], info["opponent_move"]
    ((31, 9, 7), 0, None)
    >>> _, reward, terminated, truncated, info = env.step(env.move_to_action("g3g4"))
    >>> reward, terminated, truncated, info["opponent_move"], info["ply"]
    (0.0, False, False, 'a7a6', 2)
    >>> _, reward, terminated, truncated, info = env.step(env.move_to_action("g4g5"))
    >>> reward, terminated, truncated, info["ply"]  # the ply limit: a truncation
    (0.0, False, True, 4)
    """

    # gymnasium reads this class attribute; it is never mutated.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: str | RuleSet = "wango",
        *,
        opponent: str | int | Opponent | None = None,
        agent_color: str | int | None = None,
        opponent_movetime: float | None = None,
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
        self.opponent_movetime = opponent_movetime
        self._opponent = self._make_opponent(opponent)
        if self._opponent is None and agent_color is not None:
            raise ValueError("agent_color needs an opponent: in self-play the agent plays both")
        self._agent_choice = _parse_color("red" if agent_color is None else agent_color)
        #: The agent's colour this episode (in self-play: the side that moved first).
        self.agent_color = RED if self._agent_choice is None else self._agent_choice

        self.observation_space = spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._board = Board(rules=self.rules)
        self._outcome: Outcome | None = None
        self._episode_over = True  # until the first reset
        self._last_opponent_move: Move | None = None
        #: The opponent's first move ended the game: the next step only reports it.
        self._ended_before_agent = False

    # ------------------------------------------------------------------ opponents

    def _make_opponent(self, opponent: str | int | Opponent | None) -> Opponent | None:
        if opponent is None:
            return None
        if opponent == "random":
            return self._random_move
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            if opponent not in _ENGINE_LEVELS:
                raise ValueError(f"an engine opponent's level is 1..10, got {opponent}")
            best_move = _load_best_move()
            level, movetime = opponent, self.opponent_movetime

            def engine_move(board: Board) -> Move:
                return best_move(board, level=level, movetime=movetime)

            return engine_move
        if callable(opponent):
            return opponent
        raise ValueError(
            f"opponent must be None (self-play), 'random', an engine level 1..10 or a callable "
            f"Board -> Move, got {opponent!r}"
        )

    def _random_move(self, board: Board) -> Move:
        moves = list(board.generate_legal_moves())
        return moves[int(self.np_random.integers(len(moves)))]

    def _play_opponent(self) -> None:
        assert self._opponent is not None
        move = self._opponent(self._board.copy())  # a copy: the opponent cannot spoil the game
        if not isinstance(move, Move) or not self._board.is_legal(move):
            reason = self._board.explain_illegal(move) if isinstance(move, Move) else "not a Move"
            raise RuntimeError(f"the opponent played {move!r} in {self._board.fen()}: {reason}")
        self._board.push(move)
        self._last_opponent_move = move
        self._outcome = self._board.outcome()

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start an episode: the observation and the info (the mask, turn, ply, position).

        ``seed`` seeds the random opponent and colour; ``options={"fen": …}`` starts from a
        position (ValueError when its game is already over).

        >>> env = JungleEnv()
        >>> observation, info = env.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> info["fen"], int(info["action_mask"].sum())
        ('l5t/3L3/7/7/7/7/7/7/T6 w 0 1', 6)
        """
        super().reset(seed=seed)
        options = dict(options or {})
        fen = options.pop("fen", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)} (known: 'fen')")
        self._board = Board(fen, rules=self.rules)
        self._outcome = self._board.outcome()
        if self._outcome is not None:
            raise ValueError(f"the game is already over in {fen!r}: {self._outcome}")
        self._last_opponent_move = None
        if self._opponent is None:
            self.agent_color = self._board.turn
        else:
            if self._agent_choice is None:
                self.agent_color = int(self.np_random.integers(2))
            if self._board.turn != self.agent_color:
                self._play_opponent()
        # The opponent's first move may have ended the game: the next step reports it.
        self._ended_before_agent = self._outcome is not None
        self._episode_over = False
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | SupportsInt
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (and the opponent's reply): observation, reward, terminated,
        truncated, info. ValueError for an action outside the space; ``ResetNeeded`` once the
        episode is over.

        >>> env = JungleEnv()
        >>> _ = env.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> _, reward, terminated, truncated, info = env.step(env.move_to_action("d8d9"))
        >>> reward, terminated, truncated, info["outcome"]["termination"], info["rewards"]
        (1.0, True, False, 'den_entered', {'red': 1.0, 'blue': -1.0})
        """
        if self._episode_over:
            raise gym.error.ResetNeeded("the episode is over (or never began): call reset()")
        index = int(action)
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action {action} is outside the action space 0..{NUM_ACTIONS - 1}")
        board = self._board
        if self._ended_before_agent:  # nothing to play: report the opponent's win (or draw)
            self._episode_over = True
            info = self._info(illegal=False)
            reward = info["rewards"][COLOR_NAMES[self.agent_color]]
            return self._observation(), reward, True, False, info
        mover = board.turn
        move = self._legal_move(index)
        if move is None:
            if self.illegal_action == "raise":
                raise IllegalActionError(self._illegal_reason(index))
            self._episode_over = True
            info = self._info(illegal=True)
            info["rewards"][COLOR_NAMES[mover]] = self.illegal_action_penalty
            return self._observation(), self.illegal_action_penalty, True, False, info
        board.push(move)
        self._outcome = board.outcome()
        self._last_opponent_move = None
        if self._outcome is None and self._opponent is not None:
            self._play_opponent()
        outcome = self._outcome
        terminated = outcome is not None
        truncated = not terminated and self.max_plies is not None and board.ply() >= self.max_plies
        self._episode_over = terminated or truncated
        info = self._info(illegal=False)
        # The mover's reward in self-play, the agent's (the mover too) against an opponent.
        reward = info["rewards"][COLOR_NAMES[mover]]
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """The board as text (:meth:`ansi`) with ``render_mode="ansi"``, else None.

        >>> env = JungleEnv(render_mode="ansi")
        >>> _ = env.reset()
        >>> print(env.render())
        9 l . . . . . t
        8 . d . . . c .
        7 r . p . w . e
        6 . ~ ~ . ~ ~ .
        5 . ~ ~ . ~ ~ .
        4 . ~ ~ . ~ ~ .
        3 E . W . P . R
        2 . C . . . D .
        1 T . . . . . L
          a b c d e f g
        red to move, ply 0
        <BLANKLINE>
        """
        if self.render_mode != "ansi":
            return None
        return self.ansi()

    # ------------------------------------------------------------------ helpers

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the side to move (all False once the episode is over).

        >>> env = JungleEnv()
        >>> _ = env.reset()
        >>> masks = env.action_masks()
        >>> masks.shape, int(masks.sum()), bool(masks[env.move_to_action("a3a4")])
        ((504,), 24, True)
        """
        if self._episode_over:
            return np.zeros(NUM_ACTIONS, dtype=np.bool_)
        return legal_action_mask(self._board)

    def action_to_move(self, action: int) -> Move:
        """The move ``action`` stands for in the current position (legal or not).

        >>> env = JungleEnv()
        >>> _ = env.reset()
        >>> env.action_to_move(112)
        Move.from_str('a3a4')
        >>> _ = env.step(112)  # now Blue moves: the same action is its own step up
        >>> env.action_to_move(112)
        Move.from_str('g7g6')
        """
        return action_to_move(action, self._board.turn)

    def move_to_action(self, move: Move | str) -> int:
        """The action of a move (or move string like ``"a3a4"``) for the side to move.

        >>> env = JungleEnv()
        >>> _ = env.reset()
        >>> env.move_to_action("a3a4"), env.move_to_action(Move.from_str("a3a4"))
        (112, 112)
        """
        parsed = Move.from_str(move) if isinstance(move, str) else move
        return move_to_action(parsed, self._board.turn)

    @property
    def board(self) -> Board:
        """A copy of the current position, with its history since the reset.

        >>> env = JungleEnv()
        >>> _ = env.reset()
        >>> _ = env.step(env.move_to_action("a3a4"))
        >>> env.board.move_stack, env.board.turn
        ([Move.from_str('a3a4')], 1)
        """
        return self._board.copy()

    def ansi(self) -> str:
        """The board as text (rank 9 at the top, ``~`` water) with whose turn it is.

        >>> env = JungleEnv()
        >>> _ = env.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> print(env.ansi().splitlines()[0], env.ansi().splitlines()[-1], sep="\\n")
        9 l . . . . . t
        red to move, ply 0
        """
        return board_text(self._board, self._outcome)

    def _legal_move(self, action: int) -> Move | None:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError:
            return None
        return move if self._board.is_legal(move) else None

    def _illegal_reason(self, action: int) -> str:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError as exc:
            return f"illegal action {action}: {exc}"
        return f"illegal action {action} ({move}): {self._board.explain_illegal(move)}"

    def _observation(self) -> NDArray[np.float32]:
        viewer = self._board.turn if self._opponent is None else self.agent_color
        return encode_observation(self._board, viewer)

    def _info(self, illegal: bool | None = None) -> dict[str, Any]:
        board = self._board
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "turn": board.turn,
            "ply": board.ply(),
            "fen": board.fen(),
        }
        if illegal is not None:  # step infos only
            info["illegal_action"] = illegal
            red, blue = (0.0, 0.0) if illegal else reward_by_color(self._outcome)
            info["rewards"] = {COLOR_NAMES[RED]: red, COLOR_NAMES[BLUE]: blue}
        if self._opponent is not None:
            opponent_move = self._last_opponent_move
            info["opponent_move"] = str(opponent_move) if opponent_move is not None else None
        outcome = self._outcome
        if outcome is not None:
            info["outcome"] = outcome_info(outcome)
            info["termination"] = outcome.termination.value
            info["winner"] = outcome.winner
            info["reward_by_color"] = reward_by_color(outcome)
        return info

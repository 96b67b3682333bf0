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
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.rl.common import (
    AGENT_NAMES,
    DEFAULT_MAX_PLIES,
    board_text,
    outcome_info,
    reward_by_color,
)
from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    action_to_move,
    encode_observation,
    legal_action_mask,
    move_to_action,
)
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.rl_common.gym_env import TurnBasedGymEnv

__all__ = ["IllegalActionError", "JungleEnv", "Opponent"]

#: An opponent: given a copy of the board (its side to move), the move it plays.
Opponent = Callable[[Board], Move]

_ENGINE_LEVELS = range(1, 11)  # doushouqi.jungle.ai's levels; checked here so a typo fails early


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


class JungleEnv(TurnBasedGymEnv):
    """Jungle (斗兽棋) under one rule set; see the module docstring for the conventions.

    ``rules``: a rule set or its name; ``opponent``: None (self-play), ``"random"``, an engine
    level 1–10 or an :data:`Opponent` callable; ``agent_color``: the agent's side against an
    opponent; ``max_plies``: the truncation limit; ``illegal_action``: ``"penalty"`` or
    ``"raise"``; ``render_mode``: None or ``"ansi"``. What does not depend on the game (the
    episode, the opponent, the rewards and infos) is
    :class:`~doushouqi.rl_common.gym_env.TurnBasedGymEnv`'s.

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

    _seat_option = "agent_color"
    _reward_info_key = "reward_by_color"
    _move_type = Move
    _illegal_action_error = IllegalActionError
    _opponent_kinds = "'random', an engine level 1..10 or a callable Board -> Move"

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
        self.opponent_movetime = opponent_movetime  # read when an engine opponent is made
        self._board = Board(rules=self.rules)
        super().__init__(
            AGENT_NAMES,
            NUM_ACTIONS,
            OBSERVATION_SHAPE,
            opponent=opponent,
            agent_seat=agent_color,
            max_plies=max_plies,
            illegal_action=illegal_action,
            illegal_action_penalty=illegal_action_penalty,
            render_mode=render_mode,
        )

    @property
    def agent_color(self) -> int:
        """The agent's colour this episode, 0 (Red) or 1 (Blue); in self-play the side that
        moved first.

        >>> env = JungleEnv(opponent="random", agent_color="blue")
        >>> env.agent_color, JungleEnv().agent_color
        (1, 0)
        """
        return self._agent_seat

    def _make_opponent(self, opponent: object) -> Opponent | None:
        if not isinstance(opponent, int) or isinstance(opponent, bool):
            return super()._make_opponent(opponent)
        if opponent not in _ENGINE_LEVELS:
            raise ValueError(f"an engine opponent's level is 1..10, got {opponent}")
        best_move = _load_best_move()
        level, movetime = opponent, self.opponent_movetime

        def engine_move(board: Board) -> Move:
            return best_move(board, level=level, movetime=movetime)

        return engine_move

    # ------------------------------------------------------------------ Jungle's helpers

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

        >>> env = JungleEnv(render_mode="ansi")
        >>> _ = env.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> print(env.ansi().splitlines()[0], env.render().splitlines()[-1], sep="\\n")
        9 l . . . . . t
        red to move, ply 0
        """
        return board_text(self._board, self._outcome)

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> None:
        self._board = Board(fen, rules=self.rules)

    def _current_outcome(self) -> Outcome | None:
        return self._board.outcome()

    def _turn(self) -> int:
        return self._board.turn

    def _rules_board(self) -> Board:
        return self._board

    def _push(self, move: Move) -> None:
        self._board.push(move)

    def _play(self, action: int) -> bool | None:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError:
            return None
        if not self._board.is_legal(move):
            return None
        self._board.push(move)
        return True

    def _illegal_reason(self, action: int) -> str:
        try:
            move = action_to_move(action, self._board.turn)
        except ValueError as exc:
            return f"illegal action {action}: {exc}"
        return f"illegal action {action} ({move}): {self._board.explain_illegal(move)}"

    def _legal_mask(self) -> NDArray[np.bool_]:
        return legal_action_mask(self._board)

    def _planes(self, seat: int) -> NDArray[np.float32]:
        return encode_observation(self._board, seat)

    def _outcome_data(self, outcome: Outcome) -> dict[str, str | None]:
        return outcome_info(outcome)

    def _final_rewards(self, outcome: Outcome | None) -> tuple[float, float]:
        return reward_by_color(outcome)

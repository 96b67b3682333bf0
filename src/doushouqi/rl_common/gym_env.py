"""The Gymnasium side of a two-seat, turn-based game, for every game's single-agent environment
(:class:`doushouqi.jungle.rl.env.JungleEnv`, :class:`doushouqi.tiger.rl.env.TigerEnv`).

:class:`TurnBasedGymEnv` keeps what does not depend on the game: the options (``opponent``,
the agent's seat, ``max_plies``, ``illegal_action``, ``render_mode``), the episode (reset from
a position, the opponent's replies, the illegal-action penalty, termination and truncation),
the rewards of both sides and the infos. A game's subclass says what a position is through a
few hooks. :func:`parse_seat` reads the agent's seat option.

>>> from doushouqi.jungle.rl.env import JungleEnv
>>> issubclass(JungleEnv, TurnBasedGymEnv), parse_seat("blue", ("red", "blue"), "agent_color")
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from doushouqi.rl_common.move_limit import checked_max_plies

__all__ = ["TurnBasedGymEnv", "parse_seat"]

_ILLEGAL_ACTION_MODES = ("penalty", "raise")


class _RulesBoard(Protocol):
    """What the environment asks of a game's rules board: an opponent gets a copy of it, and
    its move is checked on it before it is played."""

    def copy(self) -> Any:
        """A copy the opponent may change at will."""

    def fen(self) -> str:
        """The position as a string (for the infos and errors)."""

    def ply(self) -> int:
        """The number of whole moves since the start of the game."""

    def is_legal(self, move: Any) -> bool:
        """Whether ``move`` is a legal move now."""

    def explain_illegal(self, move: Any) -> object:
        """Why ``move`` is illegal now (None when it is legal)."""

    def generate_legal_moves(self) -> Iterator[Any]:
        """The legal moves of the side to move."""


class _Outcome(Protocol):
    """A game's outcome: at least who won (seat 0, seat 1 or None for a draw)."""

    @property
    def winner(self) -> int | None:
        """The winning seat, or None for a draw."""


def parse_seat(value: object, names: tuple[str, str], option: str) -> int | None:
    """0 or 1 for a seat given by name (``names``) or number, None for ``"random"``;
    ValueError, naming the constructor's ``option``, for anything else.

    >>> parse_seat("men", ("tiger", "men"), "agent_side"), parse_seat("random", ("a", "b"), "x")
    (1, None)
    >>> parse_seat(True, ("tiger", "men"), "agent_side")
    Traceback (most recent call last):
    ...
    ValueError: agent_side must be 'tiger', 'men', 'random', 0 or 1, got True
    """
    if not isinstance(value, bool):  # True == 1: a flag is no seat
        if value in (names[0], 0):
            return 0
        if value in (names[1], 1):
            return 1
        if value == "random":
            return None
    raise ValueError(
        f"{option} must be '{names[0]}', '{names[1]}', 'random', 0 or 1, got {value!r}"
    )


class TurnBasedGymEnv(gym.Env[NDArray[np.float32], np.int64]):
    """A turn-based game for two seats as a Gymnasium environment: self-play, or one agent
    against an opponent (``"random"`` or a callable ``Board -> Move``).

    The constructor checks the options every game's environment takes and builds the spaces
    (``agents``: the seats' names, ``num_actions`` actions, planes of ``observation_shape``);
    ``agent_seat`` is the agent's seat option as given (a name, 0, 1, ``"random"`` or None).
    A subclass sets ``_seat_option`` (the option's name), ``_reward_info_key``,
    ``_move_type``, ``_illegal_action_error``, and implements :meth:`ansi` and the hooks:
    ``_start(fen)``, ``_current_outcome()``, ``_turn()``, ``_rules_board()``,
    ``_push(move)``, ``_play(action)``, ``_illegal_reason(action)``, ``_legal_mask()``,
    ``_planes(seat)``, ``_outcome_data(outcome)``, ``_final_rewards(outcome)`` and, where it
    has more to say about a position, ``_position_details()``.

    >>> from doushouqi.jungle.rl.env import JungleEnv
    >>> env = JungleEnv(max_plies=1)
    >>> _ = env.reset()
    >>> _, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
    >>> reward, terminated, truncated, info["rewards"]
    (0.0, False, True, {'red': 0.0, 'blue': 0.0})
    """

    # gymnasium reads this class attribute; it is never mutated.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012
    #: The constructor's name for the agent's seat (in its errors).
    _seat_option = "agent_seat"
    #: The info key of both sides' final rewards as a pair, once the game is over.
    _reward_info_key = "reward_by_seat"
    #: The game's move class: what an opponent must return.
    _move_type: type = object
    #: What the environment raises for an illegal action under ``illegal_action="raise"``.
    _illegal_action_error: type[Exception] = ValueError
    #: The opponents the constructor takes besides None, in its error.
    _opponent_kinds = "'random' or a callable Board -> Move"

    def __init__(
        self,
        agents: tuple[str, str],
        num_actions: int,
        observation_shape: tuple[int, ...],
        *,
        opponent: object,
        agent_seat: object,
        max_plies: int | None,
        illegal_action: str,
        illegal_action_penalty: float,
        render_mode: str | None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if illegal_action not in _ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_action_penalty = float(illegal_action_penalty)
        self.max_plies = checked_max_plies(max_plies)
        self._opponent = self._make_opponent(opponent)
        if self._opponent is None and agent_seat is not None:
            raise ValueError(
                f"{self._seat_option} needs an opponent: in self-play the agent plays both"
            )
        self._agents = agents
        self._agent_choice = parse_seat(
            agents[0] if agent_seat is None else agent_seat, agents, self._seat_option
        )
        # The agent's seat this episode (in self-play: the side that acted first).
        self._agent_seat = 0 if self._agent_choice is None else self._agent_choice
        self._num_actions = num_actions
        self.observation_space = spaces.Box(0.0, 1.0, observation_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(num_actions)
        self._outcome: Any = None
        self._episode_over = True  # until the first reset
        self._last_opponent_move: Any = None
        #: The opponent's first move ended the game: the next step only reports it.
        self._ended_before_agent = False

    # ------------------------------------------------------------------ opponents

    def _make_opponent(self, opponent: object) -> Callable[[Any], Any] | None:
        if opponent is None:
            return None
        if opponent == "random":
            return self._random_move
        if callable(opponent) and not isinstance(opponent, str):
            return opponent
        raise ValueError(
            f"opponent must be None (self-play), {self._opponent_kinds}, got {opponent!r}"
        )

    def _random_move(self, board: _RulesBoard) -> Any:
        moves = list(board.generate_legal_moves())
        return moves[int(self.np_random.integers(len(moves)))]

    def _play_opponent(self) -> None:
        assert self._opponent is not None
        board = self._rules_board()
        move = self._opponent(board.copy())  # a copy: the opponent cannot spoil the game
        if not isinstance(move, self._move_type) or not board.is_legal(move):
            is_move = isinstance(move, self._move_type)
            reason = board.explain_illegal(move) if is_move else "not a Move"
            raise RuntimeError(f"the opponent played {move!r} in {board.fen()}: {reason}")
        self._push(move)
        self._last_opponent_move = move
        self._outcome = self._current_outcome()

    # ------------------------------------------------------------------ gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Start an episode: the observation and the info (the mask, turn, ply, position).

        ``seed`` seeds the random opponent and seat; ``options={"fen": …}`` starts from a
        position (ValueError when its game is already over).

        >>> from doushouqi.jungle.rl.env import JungleEnv
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
        self._start(fen)
        self._outcome = self._current_outcome()
        if self._outcome is not None:
            ending = self._ending_text(self._outcome)
            raise ValueError(f"the game is already over in {fen!r}: {ending}")
        self._last_opponent_move = None
        if self._opponent is None:
            self._agent_seat = self._turn()
        else:
            if self._agent_choice is None:
                self._agent_seat = int(self.np_random.integers(2))
            if self._turn() != self._agent_seat:
                self._play_opponent()
        # The opponent's first move may have ended the game: the next step reports it.
        self._ended_before_agent = self._outcome is not None
        self._episode_over = False
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | SupportsInt
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play ``action`` (and, once it completes a move, the opponent's reply):
        observation, reward, terminated, truncated, info. ValueError for an action outside the
        space; ``ResetNeeded`` once the episode is over.

        >>> from doushouqi.jungle.rl.env import JungleEnv
        >>> env = JungleEnv()
        >>> _ = env.reset(options={"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"})
        >>> _, reward, terminated, truncated, info = env.step(env.move_to_action("d8d9"))
        >>> reward, terminated, truncated, info["outcome"]["termination"], info["rewards"]
        (1.0, True, False, 'den_entered', {'red': 1.0, 'blue': -1.0})
        """
        if self._episode_over:
            raise gym.error.ResetNeeded("the episode is over (or never began): call reset()")
        index = int(action)
        if not 0 <= index < self._num_actions:
            raise ValueError(
                f"action {action} is outside the action space 0..{self._num_actions - 1}"
            )
        if self._ended_before_agent:  # nothing to play: report the opponent's win (or draw)
            self._episode_over = True
            info = self._info(illegal=False)
            reward = info["rewards"][self._agents[self._agent_seat]]
            return self._observation(), reward, True, False, info
        mover = self._turn()
        completed = self._play(index)
        if completed is None:
            if self.illegal_action == "raise":
                raise self._illegal_action_error(self._illegal_reason(index))
            self._episode_over = True
            info = self._info(illegal=True)
            info["rewards"][self._agents[mover]] = self.illegal_action_penalty
            return self._observation(), self.illegal_action_penalty, True, False, info
        self._last_opponent_move = None
        if completed:  # a jump of an open chain is no whole move yet: nothing else happens
            self._outcome = self._current_outcome()
            if self._outcome is None and self._opponent is not None:
                self._play_opponent()
        terminated = self._outcome is not None
        truncated = (
            not terminated
            and completed
            and self.max_plies is not None
            and self._rules_board().ply() >= self.max_plies
        )
        self._episode_over = terminated or truncated
        info = self._info(illegal=False)
        # The mover's reward in self-play, the agent's (the mover too) against an opponent.
        reward = info["rewards"][self._agents[mover]]
        return self._observation(), reward, terminated, truncated, info

    def render(self) -> str | None:
        """The board as text (:meth:`ansi`) with ``render_mode="ansi"``, else None.

        >>> from doushouqi.jungle.rl.env import JungleEnv
        >>> env = JungleEnv(render_mode="ansi")
        >>> _ = env.reset()
        >>> env.render() == env.ansi(), JungleEnv().render()
        (True, None)
        """
        if self.render_mode != "ansi":
            return None
        return self.ansi()

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the side to act (all False once the episode is over).

        >>> from doushouqi.jungle.rl.env import JungleEnv
        >>> env = JungleEnv()
        >>> _ = env.reset()
        >>> masks = env.action_masks()
        >>> masks.shape, int(masks.sum()), bool(masks[env.move_to_action("a3a4")])
        ((504,), 24, True)
        """
        if self._episode_over:
            return np.zeros(self._num_actions, dtype=np.bool_)
        return self._legal_mask()

    def ansi(self) -> str:
        """The board as text with whose turn it is (each game draws its own).

        >>> from doushouqi.tiger.rl.env import TigerEnv
        >>> env = TigerEnv()
        >>> _ = env.reset()
        >>> env.ansi().splitlines()[-1]
        'tiger to move, ply 0'
        """
        raise NotImplementedError

    # ------------------------------------------------------------------ observations and infos

    def _observation(self) -> NDArray[np.float32]:
        viewer = self._turn() if self._opponent is None else self._agent_seat
        return self._planes(viewer)

    def _info(self, illegal: bool | None = None) -> dict[str, Any]:
        board = self._rules_board()
        info: dict[str, Any] = {
            "action_mask": self.action_masks(),
            "turn": self._turn(),
            "ply": board.ply(),
            "fen": board.fen(),
        }
        info.update(self._position_details())
        if illegal is not None:  # step infos only
            info["illegal_action"] = illegal
            first, second = (0.0, 0.0) if illegal else self._final_rewards(self._outcome)
            info["rewards"] = {self._agents[0]: first, self._agents[1]: second}
        if self._opponent is not None:
            opponent_move = self._last_opponent_move
            info["opponent_move"] = str(opponent_move) if opponent_move is not None else None
        outcome = self._outcome
        if outcome is not None:
            data = self._outcome_data(outcome)
            info["outcome"] = data
            info["termination"] = data["termination"]
            info["winner"] = outcome.winner
            info[self._reward_info_key] = self._final_rewards(outcome)
        return info

    # ------------------------------------------------------------------ the game's hooks

    def _start(self, fen: str | None) -> None:
        """Set up the position ``fen`` (None: the start)."""
        raise NotImplementedError

    def _current_outcome(self) -> _Outcome | None:
        """How the game has ended on the board, or None while it goes on."""
        raise NotImplementedError

    def _ending_text(self, outcome: Any) -> str:
        """The outcome in the error of a reset from a finished game."""
        return str(outcome)

    def _turn(self) -> int:
        """The seat that acts next."""
        raise NotImplementedError

    def _rules_board(self) -> _RulesBoard:
        """The game's rules board now (not a copy)."""
        raise NotImplementedError

    def _push(self, move: Any) -> None:
        """Play the opponent's legal move."""
        raise NotImplementedError

    def _play(self, action: int) -> bool | None:
        """Play ``action`` when it is legal: whether it completed a move; None (and nothing
        played) when it is illegal."""
        raise NotImplementedError

    def _illegal_reason(self, action: int) -> str:
        """The error message of an illegal action (``illegal action N …``)."""
        raise NotImplementedError

    def _legal_mask(self) -> NDArray[np.bool_]:
        """The legal actions of the side to act, as a mask."""
        raise NotImplementedError

    def _planes(self, seat: int) -> NDArray[np.float32]:
        """The observation planes as ``seat`` sees the position."""
        raise NotImplementedError

    def _position_details(self) -> dict[str, Any]:
        """What the infos say about a position besides its turn, ply and string."""
        return {}

    def _outcome_data(self, outcome: Any) -> dict[str, str | None]:
        """The outcome as plain data (with its ``"termination"`` key)."""
        raise NotImplementedError

    def _final_rewards(self, outcome: Any) -> tuple[float, float]:
        """Seat 0's and seat 1's final reward (0 and 0 without an outcome)."""
        raise NotImplementedError

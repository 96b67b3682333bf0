"""Jungle as an OpenSpiel game, ``python_jungle``, registered with ``pyspiel`` on import.

Needs the ``openspiel`` extra (``pip install 'doushouqi[openspiel]'``: numpy, gymnasium,
open_spiel, which has wheels for Linux and macOS). Importing this module registers the game:

>>> import pyspiel
>>> import doushouqi.jungle.rl.openspiel_game
>>> game = pyspiel.load_game("python_jungle", {"rules": "classic"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()), game.num_distinct_actions()
(0, 24, 504)
>>> state.apply_action(state.string_to_action("a3a4"))
>>> state.current_player(), str(state).splitlines()[5]
(1, '4 E ~ ~ . ~ ~ .')

A two-player, deterministic, perfect-information, zero-sum game with terminal rewards:

- **Players:** 0 is Red, 1 is Blue (the rules library's colour numbers); the rule set decides
  who moves first.
- **Actions:** the 504 actions of :mod:`doushouqi.jungle.rl.encoding`, in the view of the player to
  move; ``legal_actions()`` are exactly the library's legal moves, in ascending order.
  ``action_to_string`` gives the move (``"a3a4"``), ``string_to_action`` parses one.
- **Returns:** +1 to the winner and -1 to the loser when the rules end the game, 0 each for a
  draw; a game that reaches the move limit (``max_plies``, default
  :data:`~doushouqi.jungle.rl.common.DEFAULT_MAX_PLIES`: OpenSpiel games have a finite length) ends
  there as a draw.
- **Observation tensor** of a player: the ``(31, 9, 7)`` planes of
  :func:`~doushouqi.jungle.rl.encoding.encode_observation` from that player's seat; the observation
  string is the board as text. The information state string is the position and the moves.
- **Parameters:** ``rules`` (a rule set name, default ``"wango"``), ``max_plies`` (the move
  limit, default 1000) and ``fen`` (a start position string; ``""``: the rule set's start).
- **Undo:** ``state.undo_action(player, action)`` takes back the last action (it must be the
  one given), as the board's ``pop()`` does, for search code that walks one state down and up
  instead of cloning. OpenSpiel keeps its own record of a state's actions in C++, which a
  Python game cannot shorten, so the state keeps its own: ``history()``, ``history_str()``,
  ``move_number()`` and ``is_initial_state()`` read it (``full_history()`` and C++ code, such as
  ``serialize()``'s header, still see OpenSpiel's record of every action applied).

>>> state = game.new_initial_state()
>>> action = state.string_to_action("a3a4")
>>> state.apply_action(action)
>>> state.undo_action(0, action)
>>> state.history(), state.board.ply(), state.is_initial_state()
([], 0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.outcome import Outcome
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, board_text, outcome_info, reward_by_color
from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    action_to_move,
    encode_observation,
    move_to_action,
)
from doushouqi.jungle.rules import RuleSet, find_rules

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the openspiel extra brings it
    raise ImportError(
        "the OpenSpiel game needs OpenSpiel: pip install 'doushouqi[openspiel]' "
        f"(importing pyspiel failed: {exc})"
    ) from exc

__all__ = ["GAME_NAME", "JungleGame", "JungleObserver", "JungleState"]

GAME_NAME = "python_jungle"

_DEFAULT_PARAMETERS: dict[str, Any] = {
    "rules": "wango",
    "max_plies": DEFAULT_MAX_PLIES,
    "fen": "",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Jungle (Dou Shou Qi), on the doushouqi rules library",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMETERS,
)


class JungleGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game: its rules, move limit and start position come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**_DEFAULT_PARAMETERS, **(params or {})}
        self.rules: RuleSet = find_rules(str(parameters["rules"]))
        self.max_plies = int(parameters["max_plies"])
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be a positive number of plies, got {self.max_plies}")
        self.start_fen: str | None = str(parameters["fen"]) or None
        start = Board(self.start_fen, rules=self.rules)  # checks the position string
        if start.outcome() is not None:
            raise ValueError(f"the game is already over in {self.start_fen!r}: {start.outcome()}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(_GAME_TYPE, info, parameters)

    def new_initial_state(self) -> JungleState:
        return JungleState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return JungleObserver()
        return JungleObserver(perfect_recall=True)


class _Position:
    """The board and how its game stands. OpenSpiel's ``clone()`` deep-copies a Python state's
    attributes; this one copies its board with the board's own, much faster ``copy()`` (which
    search algorithms such as MCTS notice: they clone at every simulation)."""

    __slots__ = ("actions", "board", "max_plies", "outcome", "over")

    def __init__(self, board: Board, max_plies: int) -> None:
        self.board = board
        self.max_plies = max_plies
        self.outcome: Outcome | None = board.outcome()
        self.over = self.outcome is not None or board.ply() >= max_plies
        #: The actions played since the start, one per ply (the state's history).
        self.actions: list[int] = []

    def push(self, move: Move, action: int) -> None:
        self.board.push(move)
        self.actions.append(action)
        self.outcome = self.board.outcome()
        self.over = self.outcome is not None or self.board.ply() >= self.max_plies

    def pop(self) -> None:
        # An action is applied only where the game goes on, so taking one back leaves a game
        # that goes on: nothing to recompute.
        self.board.pop()
        self.actions.pop()
        self.outcome, self.over = None, False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        copy = _Position.__new__(_Position)
        copy.board = self.board.copy()
        copy.max_plies, copy.outcome, copy.over = self.max_plies, self.outcome, self.over
        copy.actions = self.actions.copy()
        return copy


class JungleState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A position of the game, with the moves since the start (the library's :class:`Board`)."""

    def __init__(self, game: JungleGame) -> None:
        super().__init__(game)
        self._position = _Position(Board(game.start_fen, rules=game.rules), game.max_plies)

    @property
    def board(self) -> Board:
        """The position, with the moves since the start (the state's own: do not change it)."""
        return self._position.board

    # OpenSpiel's API for perfect-information sequential games.

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self._position.over else self.board.turn

    def _legal_actions(self, player: int) -> list[int]:
        if self._position.over or player != self.board.turn:
            return []
        return sorted(move_to_action(move, player) for move in self.board.generate_legal_moves())

    def _apply_action(self, action: int) -> None:
        self._position.push(action_to_move(action, self.board.turn), action)

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, ``action`` played by ``player`` (ValueError otherwise)."""
        position = self._position
        if not position.actions:
            raise ValueError("undo_action: no action to take back")
        last = (1 - self.board.turn, position.actions[-1])
        if (player, action) != last:
            raise ValueError(f"undo_action: the last action is {last}, not {(player, action)}")
        position.pop()

    # The state's own history: OpenSpiel's (in C++) cannot be shortened by undo_action.

    def history(self) -> list[int]:
        return self._position.actions.copy()

    def history_str(self) -> str:
        return ", ".join(map(str, self._position.actions))

    def move_number(self) -> int:
        return len(self._position.actions)

    def is_initial_state(self) -> bool:
        return not self._position.actions

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_to_move(action, player))

    def is_terminal(self) -> bool:
        return self._position.over

    def returns(self) -> list[float]:
        red, blue = reward_by_color(self._position.outcome)
        return [red, blue]

    def __str__(self) -> str:
        return board_text(self.board, self._position.outcome)

    # Beyond OpenSpiel's API.

    @property
    def outcome(self) -> dict[str, str | None] | None:
        """How the rules ended the game, as plain data; None while it goes on or when the move
        limit stopped it (a draw)."""
        outcome = self._position.outcome
        return None if outcome is None else outcome_info(outcome)


class JungleObserver:
    """OpenSpiel's Python observer interface: ``tensor`` (flat) and ``dict`` (its views)."""

    def __init__(self, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: NDArray[np.float32] = np.zeros(int(np.prod(OBSERVATION_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBSERVATION_SHAPE)}

    def set_from(self, state: JungleState, player: int) -> None:
        self.dict["observation"][...] = encode_observation(state.board, player)

    def string_from(self, state: JungleState, player: int) -> str:
        del player  # perfect information: both players see the same
        if not self.perfect_recall:
            return str(state)
        moves = "".join(f" {move}" for move in state.board.move_stack)
        return f"{state.board.starting_fen} moves{moves}"


pyspiel.register_game(_GAME_TYPE, JungleGame)

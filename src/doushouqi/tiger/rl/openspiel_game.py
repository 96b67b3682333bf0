"""老虎棋 as an OpenSpiel game, ``python_laohuqi``, registered with ``pyspiel`` on import.

Needs the ``openspiel`` extra (``pip install 'doushouqi[openspiel]'``: numpy, gymnasium,
open_spiel, which has wheels for Linux and macOS). Importing this module registers the game.
(The short name is the game's Chinese one: "tiger" alone would say little among OpenSpiel's
games.)

>>> import pyspiel
>>> import doushouqi.tiger.rl.openspiel_game
>>> game = pyspiel.load_game("python_laohuqi", {"rules": "laohuqi-18"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()), game.num_distinct_actions()
(0, 4, 577)
>>> state.apply_action(state.string_to_action("e10e9"))
>>> state.current_player(), str(state).splitlines()[1]
(1, '10       . . .')

A two-player, deterministic, perfect-information, zero-sum game with terminal rewards:

- **Players:** 0 is the tiger side, 1 the men (the rules library's seats); the rule set
  decides who moves first.
- **Actions:** those of :mod:`doushouqi.tiger.rl.encoding`: one per step or jump segment, and
  *stop*. ``legal_actions()`` are the library's legal moves (their first segments), in
  ascending order. Under ``multi_jump`` a chain of jumps is one action per jump: while the
  chain is open the tiger side stays the current player, its legal actions the next jumps and
  stop. ``action_to_string`` gives the segment (``"e10e9"``) or ``"stop"``.
- **Returns:** +1 to the winner and -1 to the loser when the rules end the game, 0 each for
  a draw; a game that reaches the move limit (``max_plies`` whole moves, default
  :data:`~doushouqi.tiger.rl.common.DEFAULT_MAX_PLIES`: OpenSpiel games have a finite length)
  ends there as a draw. ``max_game_length()`` counts actions: ``max_plies``, plus the men's
  count under ``multi_jump`` (each action beyond a move's first takes a man, or stops after
  a jump that took one).
- **Observation tensor** (the same for both players): the ``(16, 11, 9)`` planes of
  :func:`~doushouqi.tiger.rl.encoding.encode_observation`; the observation string is the board
  as text. The information state string is the start position, the moves and an open chain.
- **Parameters:** ``rules`` (a rule set name, default ``"laohuqi"``), ``options`` (rule options
  over it, ``"key:value"`` pairs separated by spaces or ``;``, such as ``"multi_jump:true
  diagonals:all"``; ``""``: none), ``max_plies`` (default 2000) and ``fen`` (a start position
  string; ``""``: the rule set's start).
- **Undo:** ``state.undo_action(player, action)`` takes back the last action (a chain's jump
  reopens the chain before it), as Jungle's game does (:mod:`doushouqi.jungle.rl.openspiel_game`:
  the state keeps its own history, which ``history()``, ``history_str()``, ``move_number()``
  and ``is_initial_state()`` read; OpenSpiel's C++ record cannot be shortened from Python).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.game import RulesError
from doushouqi.core.outcome import Outcome
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.rl.action_board import ActionBoard
from doushouqi.tiger.rl.common import (
    DEFAULT_MAX_PLIES,
    board_text,
    outcome_info,
    reward_by_seat,
)
from doushouqi.tiger.rl.encoding import OBSERVATION_SHAPE, action_name
from doushouqi.tiger.rules import RuleSet, rules_by_name, rules_from_mapping

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the openspiel extra brings it
    raise ImportError(
        "the OpenSpiel game needs OpenSpiel: pip install 'doushouqi[openspiel]' "
        f"(importing pyspiel failed: {exc})"
    ) from exc

__all__ = ["GAME_NAME", "LaohuqiGame", "LaohuqiObserver", "LaohuqiState", "parse_options"]

GAME_NAME = "python_laohuqi"

_DEFAULT_PARAMETERS: dict[str, Any] = {
    "rules": "laohuqi",
    "options": "",
    "max_plies": DEFAULT_MAX_PLIES,
    "fen": "",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Tiger chess (Laohuqi), on the doushouqi rules library",
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

_PAIR = re.compile(r"([a-z_]+):(\S+)")


def parse_options(rules: str, options: str) -> RuleSet:
    """The rule set ``rules`` with ``options`` (``"key:value"`` pairs separated by spaces or
    ``;``: ``true``/``false``, whole numbers, words) over it; RulesError naming what is bad.

    >>> parse_options("laohuqi", "multi_jump:true; diagonals:all").diagonals.value
    'all'
    >>> parse_options("laohuqi", "multi_jump=true")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.RulesError: options: expected key:value pairs, got 'multi_jump=true'
    """
    base = rules_by_name(rules)
    table: dict[str, Any] = {"parent": base.name}
    for item in re.split(r"[\s;]+", options.strip()):
        if not item:
            continue
        match = _PAIR.fullmatch(item)
        if match is None:
            raise RulesError(f"options: expected key:value pairs, got {item!r}")
        key, text = match.groups()
        value: Any = text
        if text in ("true", "false"):
            value = text == "true"
        elif text.isdigit():
            value = int(text)
        table[key] = value
    if len(table) == 1:
        return base
    return rules_from_mapping(f"{base.name} {options.strip()}", table)


class LaohuqiGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game: its rules, move limit and start position come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**_DEFAULT_PARAMETERS, **(params or {})}
        self.rules: RuleSet = parse_options(str(parameters["rules"]), str(parameters["options"]))
        self.max_plies = int(parameters["max_plies"])
        if self.max_plies < 1:
            raise ValueError(f"max_plies must be a positive number of plies, got {self.max_plies}")
        self.start_fen: str | None = str(parameters["fen"]) or None
        start = ActionBoard(Board(self.start_fen, rules=self.rules))  # checks the string
        if start.outcome() is not None:
            raise ValueError(f"the game is already over in {self.start_fen!r}: {start.outcome()}")
        extra_actions = self.rules.men if self.rules.multi_jump else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=start.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies + extra_actions,
        )
        super().__init__(_GAME_TYPE, info, parameters)

    def new_initial_state(self) -> LaohuqiState:
        return LaohuqiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return LaohuqiObserver()
        return LaohuqiObserver(perfect_recall=True)


class _Position:
    """The action board and how its game stands; deep-copied through the board's own copy
    (OpenSpiel's ``clone()`` deep-copies a Python state: MCTS clones at every simulation)."""

    __slots__ = ("actions", "game", "max_plies", "outcome", "over", "undo")

    def __init__(self, game: ActionBoard, max_plies: int) -> None:
        self.game = game
        self.max_plies = max_plies
        self.outcome: Outcome | None = game.outcome()
        self.over = self.outcome is not None or game.board.ply() >= max_plies
        #: The players and actions since the start (the state's history), and what taking each
        #: back needs: the chain open before it and the move it completed, if any.
        self.actions: list[tuple[int, int]] = []
        self.undo: list[tuple[tuple[int, ...], Move | None]] = []

    def apply(self, action: int) -> None:
        game = self.game
        self.actions.append((game.turn, action))
        chain = game.chain
        move = game.apply_legal(action)
        self.undo.append((chain, move))
        if move is not None:
            self.outcome = game.outcome()
            self.over = self.outcome is not None or game.board.ply() >= self.max_plies

    def pop(self) -> None:
        # An action is applied only where the game goes on: taking one back leaves a game that
        # goes on.
        self.actions.pop()
        self.game.undo(*self.undo.pop())
        self.outcome, self.over = None, False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        copy = _Position.__new__(_Position)
        copy.game = self.game.copy()
        copy.max_plies, copy.outcome, copy.over = self.max_plies, self.outcome, self.over
        copy.actions, copy.undo = self.actions.copy(), self.undo.copy()
        return copy


class LaohuqiState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A position of the game, with the moves since the start and an open jump chain."""

    def __init__(self, game: LaohuqiGame) -> None:
        super().__init__(game)
        board = Board(game.start_fen, rules=game.rules)
        self._position = _Position(ActionBoard(board), game.max_plies)

    @property
    def board(self) -> Board:
        """The position (without an open chain's jumps), with the moves since the start (the
        state's own: do not change it)."""
        return self._position.game.board

    @property
    def action_board(self) -> ActionBoard:
        """The board with the open jump chain (the state's own: do not change it)."""
        return self._position.game

    # OpenSpiel's API for perfect-information sequential games.

    def current_player(self) -> int:
        if self._position.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self._position.game.turn

    def _legal_actions(self, player: int) -> list[int]:
        game = self._position.game
        if self._position.over or player != game.turn:
            return []
        return game.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._position.apply(action)

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, ``action`` played by ``player`` (ValueError otherwise): a
        jump of a chain reopens the chain before it, an action that ended a move takes the move
        back and reopens its chain."""
        position = self._position
        if not position.actions:
            raise ValueError("undo_action: no action to take back")
        if (player, action) != position.actions[-1]:
            last = position.actions[-1]
            raise ValueError(f"undo_action: the last action is {last}, not {(player, action)}")
        position.pop()

    # The state's own history: OpenSpiel's (in C++) cannot be shortened by undo_action.

    def history(self) -> list[int]:
        return [action for _, action in self._position.actions]

    def history_str(self) -> str:
        return ", ".join(str(action) for _, action in self._position.actions)

    def move_number(self) -> int:
        return len(self._position.actions)

    def is_initial_state(self) -> bool:
        return not self._position.actions

    def _action_to_string(self, player: int, action: int) -> str:
        return action_name(action)

    def is_terminal(self) -> bool:
        return self._position.over

    def returns(self) -> list[float]:
        tiger, men = reward_by_seat(self._position.outcome)
        return [tiger, men]

    def __str__(self) -> str:
        game = self._position.game
        return board_text(game.board, self._position.outcome, game.chain)

    # Beyond OpenSpiel's API.

    @property
    def outcome(self) -> dict[str, str | None] | None:
        """How the rules ended the game, as plain data; None while it goes on or when the move
        limit stopped it (a draw)."""
        outcome = self._position.outcome
        return None if outcome is None else outcome_info(outcome)


class LaohuqiObserver:
    """OpenSpiel's Python observer interface: ``tensor`` (flat) and ``dict`` (its views)."""

    def __init__(self, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: NDArray[np.float32] = np.zeros(int(np.prod(OBSERVATION_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBSERVATION_SHAPE)}

    def set_from(self, state: LaohuqiState, player: int) -> None:
        del player  # both players see the same planes
        self.dict["observation"][...] = state.action_board.observation()

    def string_from(self, state: LaohuqiState, player: int) -> str:
        del player  # perfect information: both players see the same
        if not self.perfect_recall:
            return str(state)
        game = state.action_board
        moves = "".join(f" {move}" for move in game.board.move_stack)
        chain = game.chain_string()
        return f"{game.start} moves{moves}" + (f" chain {chain}" if chain else "")


pyspiel.register_game(_GAME_TYPE, LaohuqiGame)

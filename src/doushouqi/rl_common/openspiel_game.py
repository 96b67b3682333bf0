"""The OpenSpiel side of a two-player, turn-based game, for every game's Python game
(:mod:`doushouqi.jungle.rl.openspiel_game`, :mod:`doushouqi.tiger.rl.openspiel_game`).

What does not depend on the game: the game type and game info every such game declares
(:func:`game_type`, :func:`game_info`), the observer a game hands to ``make_observation``
(:func:`py_observer`, :class:`PlanesObserver`), and the state's own record of its actions,
which lets ``undo_action`` take them back (:class:`Position`, :class:`UndoableState`).
OpenSpiel keeps a record of a state's actions in C++ that a Python game cannot shorten, so
the state keeps its own: ``history()``, ``history_str()``, ``move_number()`` and
``is_initial_state()`` read it.

>>> from doushouqi.jungle.rl.openspiel_game import JungleState
>>> issubclass(JungleState, UndoableState), game_info(504, 1000).max_game_length
(True, 1000)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

try:  # the games' modules import pyspiel from here: one guard, one message
    import pyspiel as pyspiel
except ImportError as exc:  # pragma: no cover - the openspiel extra brings it
    raise ImportError(
        "the OpenSpiel game needs OpenSpiel: pip install 'doushouqi[openspiel]' "
        f"(importing pyspiel failed: {exc})"
    ) from exc

__all__ = [
    "PlanesObserver",
    "Position",
    "UndoableState",
    "game_info",
    "game_type",
    "py_observer",
]


def game_type(short_name: str, long_name: str, parameters: dict[str, Any]) -> Any:
    """The ``pyspiel.GameType`` of a two-player, deterministic, perfect-information, zero-sum
    game with terminal rewards, observation strings and tensors, and ``parameters`` (their
    defaults) as its parameter specification.

    >>> kind = game_type("python_example", "An example", {"max_plies": 10})
    >>> kind.short_name, kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    ('python_example', True)
    """
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
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
        parameter_specification=parameters,
    )


def game_info(num_actions: int, max_game_length: int) -> Any:
    """The ``pyspiel.GameInfo`` of such a game: two players, no chance, returns -1 to +1
    summing to 0, at most ``max_game_length`` actions.

    >>> info = game_info(504, 1000)
    >>> info.num_distinct_actions, info.num_players, info.utility_sum
    (504, 2, 0.0)
    """
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


def py_observer(
    observer: type[Any], iig_obs_type: Any = None, params: dict[str, Any] | None = None
) -> Any:
    """A game's ``make_py_observer``: ``observer()`` (the board as text) for public-information
    observations, ``observer(perfect_recall=True)`` (the start and the moves) otherwise.
    ValueError for observation parameters (there are none).

    >>> from doushouqi.jungle.rl.openspiel_game import JungleObserver
    >>> recall = pyspiel.IIGObservationType(perfect_recall=True)
    >>> [py_observer(JungleObserver, kind).perfect_recall for kind in (None, recall)]
    [False, True]
    """
    if params:
        raise ValueError(f"observation parameters are not supported, got {params}")
    if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
        return observer()
    return observer(perfect_recall=True)


class PlanesObserver:
    """OpenSpiel's Python observer interface for a game observed as one block of planes:
    ``tensor`` (flat) and ``dict`` (its ``"observation"`` view, of the subclass's ``shape``),
    and the observation string, the same for both players (perfect information): the board
    (``str(state)``) or, with ``perfect_recall``, the start and what was played since (the
    subclass's ``_recall(state)``). The subclass fills the planes in ``set_from``.

    >>> from doushouqi.jungle.rl.openspiel_game import JungleObserver
    >>> observer = JungleObserver()
    >>> observer.tensor.shape, observer.dict["observation"].shape, observer.perfect_recall
    ((1953,), (31, 9, 7), False)
    """

    #: The observation planes' shape.
    shape: tuple[int, ...] = ()

    def __init__(self, perfect_recall: bool = False) -> None:
        self.perfect_recall = perfect_recall
        self.tensor: NDArray[np.float32] = np.zeros(int(np.prod(self.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.shape)}

    def string_from(self, state: Any, player: int) -> str:
        """The observation as text, the same for both players (perfect information): the
        board, or with perfect recall the start position and what was played since.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame, JungleObserver
        >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
        >>> state.apply_action(state.string_to_action("d8d9"))
        >>> JungleObserver(perfect_recall=True).string_from(state, 1)
        'l5t/3L3/7/7/7/7/7/7/T6 w 0 1 moves d8d9'
        >>> JungleObserver().string_from(state, 1).splitlines()[-2]
        'game over: 1-0 (den_entered)'
        """
        del player  # perfect information: both players see the same
        return self._recall(state) if self.perfect_recall else str(state)

    def _recall(self, state: Any) -> str:
        """The start position and what was played since, as text."""
        raise NotImplementedError


class Position:
    """How a state's game stands: its outcome (None while it goes on), whether it is over (an
    outcome, or the move limit reached) and the (player, action) pairs played since the start.

    A game's subclass holds its board and implements ``_take_back`` and ``_copy_game``.
    OpenSpiel's ``clone()`` deep-copies a Python state's attributes; a position copies its
    board with the board's own, much faster ``copy()`` (which search algorithms such as MCTS
    notice: they clone at every simulation).

    >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
    >>> state = JungleGame({"max_plies": 1}).new_initial_state()
    >>> state.apply_action(state.string_to_action("a3a4"))
    >>> position = state._position
    >>> isinstance(position, Position), position.actions, position.over, position.outcome
    (True, [(0, 112)], True, None)
    """

    __slots__ = ("actions", "max_plies", "outcome", "over")

    def __init__(self, max_plies: int, outcome: Any, ply: int) -> None:
        self.max_plies = max_plies
        #: The (player, action) pairs since the start, one per action (the state's history).
        self.actions: list[tuple[int, int]] = []
        self.settle(outcome, ply)

    def settle(self, outcome: Any, ply: int) -> None:
        """Record how the game stands after a move: its ``outcome`` and the plies played.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> position = JungleGame({"max_plies": 5}).new_initial_state()._position
        >>> position.settle(None, 5)
        >>> position.over
        True
        """
        self.outcome = outcome
        self.over = outcome is not None or ply >= self.max_plies

    def pop(self) -> None:
        """Take back the last action.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> state.apply_action(state.string_to_action("a3a4"))
        >>> state._position.pop()
        >>> state._position.actions, state.board.ply()
        ([], 0)
        """
        self.actions.pop()
        self._take_back()
        # An action is applied only where the game goes on, so taking one back leaves a game
        # that goes on: nothing to recompute.
        self.outcome, self.over = None, False

    def _take_back(self) -> None:
        """The game's part of :meth:`pop`: take the last action back on the board."""
        raise NotImplementedError

    def _copy_game(self, copy: Any) -> None:
        """The game's part of a deep copy: set ``copy``'s board (and the like) from this one."""
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        copy = type(self).__new__(type(self))
        copy.max_plies, copy.outcome, copy.over = self.max_plies, self.outcome, self.over
        copy.actions = self.actions.copy()
        self._copy_game(copy)
        return copy


class UndoableState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A state that can take its actions back (``undo_action``), as the boards' ``pop()`` does,
    for search code that walks one state down and up instead of cloning; the state keeps its
    own history (see the module docstring). A game's state sets ``_position`` (a
    :class:`Position`) and records each action it applies there.

    >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
    >>> state = JungleGame().new_initial_state()
    >>> action = state.string_to_action("a3a4")
    >>> state.apply_action(action)
    >>> state.undo_action(0, action)
    >>> state.history(), state.board.ply(), state.is_initial_state()
    ([], 0, True)
    """

    _position: Position

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, ``action`` played by ``player`` (ValueError otherwise).

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> action = state.string_to_action("a3a4")
        >>> state.apply_action(action)
        >>> state.undo_action(1, action)  # Red played it, not Blue
        Traceback (most recent call last):
        ...
        ValueError: undo_action: the last action is (0, 112), not (1, 112)
        >>> state.undo_action(0, action)
        >>> state.current_player(), state.history()
        (0, [])
        """
        position = self._position
        if not position.actions:
            raise ValueError("undo_action: no action to take back")
        if (player, action) != position.actions[-1]:
            last = position.actions[-1]
            raise ValueError(f"undo_action: the last action is {last}, not {(player, action)}")
        position.pop()

    # The state's own history: OpenSpiel's (in C++) cannot be shortened by undo_action.

    def history(self) -> list[int]:
        """The actions played since the start, one per action (a copy).

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> for move in ("a3a4", "g7g6"):
        ...     state.apply_action(state.string_to_action(move))
        >>> state.history()  # the same step up, each in its own player's view
        [112, 112]
        """
        return [action for _, action in self._position.actions]

    def history_str(self) -> str:
        """The history as text: the actions separated by ``", "``.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> for move in ("a3a4", "g7g6"):
        ...     state.apply_action(state.string_to_action(move))
        >>> state.history_str()
        '112, 112'
        """
        return ", ".join(str(action) for _, action in self._position.actions)

    def move_number(self) -> int:
        """The number of actions played since the start.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> state.apply_action(state.string_to_action("a3a4"))
        >>> state.move_number()
        1
        """
        return len(self._position.actions)

    def is_initial_state(self) -> bool:
        """No action has been played (or every one was taken back).

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame().new_initial_state()
        >>> state.is_initial_state()
        True
        >>> state.apply_action(state.string_to_action("a3a4"))
        >>> state.is_initial_state()
        False
        """
        return not self._position.actions

    def is_terminal(self) -> bool:
        """The rules ended the game, or the move limit (``max_plies``) was reached.

        >>> from doushouqi.jungle.rl.openspiel_game import JungleGame
        >>> state = JungleGame({"max_plies": 1}).new_initial_state()
        >>> state.apply_action(state.string_to_action("a3a4"))
        >>> state.is_terminal(), state.outcome  # the move limit: a draw, no outcome
        (True, None)
        """
        return self._position.over

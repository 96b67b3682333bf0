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
>>> pyspiel.load_game(GAME_NAME).get_type().short_name
'python_jungle'
"""

from __future__ import annotations

from typing import Any

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, board_text, outcome_info, reward_by_color
from doushouqi.jungle.rl.encoding import (
    NUM_ACTIONS,
    OBSERVATION_SHAPE,
    action_to_move,
    encode_observation,
    move_to_action,
)
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.rl_common.move_limit import checked_max_plies
from doushouqi.rl_common.openspiel_game import (
    PlanesObserver,
    Position,
    UndoableState,
    game_info,
    game_type,
    py_observer,
    pyspiel,
)

__all__ = ["GAME_NAME", "JungleGame", "JungleObserver", "JungleState"]

#: The game's short name with ``pyspiel`` (``pyspiel.load_game(GAME_NAME)``).
GAME_NAME = "python_jungle"

_DEFAULT_PARAMETERS: dict[str, Any] = {
    "rules": "wango",
    "max_plies": DEFAULT_MAX_PLIES,
    "fen": "",
}

_GAME_TYPE = game_type(
    GAME_NAME, "Jungle (Dou Shou Qi), on the doushouqi rules library", _DEFAULT_PARAMETERS
)


class JungleGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """The game: its rules, move limit and start position come from the parameters.

    ``params``: ``rules`` (a rule set name), ``max_plies`` and ``fen`` (``""``: the rule set's
    start); ValueError for a move limit under 1 or a position whose game is over.
    ``pyspiel.load_game(GAME_NAME, params)`` makes one too.

    >>> game = JungleGame({"rules": "classic", "max_plies": 200})
    >>> game.num_distinct_actions(), game.max_game_length(), game.rules.name
    (504, 200, 'classic')
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**_DEFAULT_PARAMETERS, **(params or {})}
        self.rules: RuleSet = find_rules(str(parameters["rules"]))
        self.max_plies = int(parameters["max_plies"])
        checked_max_plies(self.max_plies)
        self.start_fen: str | None = str(parameters["fen"]) or None
        start = Board(self.start_fen, rules=self.rules)  # checks the position string
        if start.outcome() is not None:
            raise ValueError(f"the game is already over in {self.start_fen!r}: {start.outcome()}")
        info = game_info(NUM_ACTIONS, self.max_plies)
        super().__init__(_GAME_TYPE, info, parameters)

    def new_initial_state(self) -> JungleState:
        """A state at the game's start position.

        >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
        >>> [state.action_to_string(0, action) for action in state.legal_actions()]
        ['a1a2', 'a1b1', 'd8d9', 'd8d7', 'd8c8', 'd8e8']
        """
        return JungleState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """A :class:`JungleObserver` for OpenSpiel's ``make_observation``: the board as text
        for public-information observations, the start and the moves with perfect recall.
        ValueError for observation parameters (there are none).

        >>> game = JungleGame()
        >>> game.make_py_observer().perfect_recall
        False
        >>> recall = pyspiel.IIGObservationType(perfect_recall=True)
        >>> game.make_py_observer(recall).perfect_recall
        True
        """
        return py_observer(JungleObserver, iig_obs_type, params)


class _Position(Position):
    """The board and how its game stands (:class:`~doushouqi.rl_common.openspiel_game.Position`:
    deep-copied through the board's own ``copy()``)."""

    __slots__ = ("board",)

    def __init__(self, board: Board, max_plies: int) -> None:
        self.board = board
        super().__init__(max_plies, board.outcome(), board.ply())

    def push(self, move: Move, action: int) -> None:
        board = self.board
        self.actions.append((board.turn, action))
        board.push(move)
        self.settle(board.outcome(), board.ply())

    def _take_back(self) -> None:
        self.board.pop()

    def _copy_game(self, copy: _Position) -> None:
        copy.board = self.board.copy()


class JungleState(UndoableState):
    """A position of the game, with the moves since the start (the library's :class:`Board`).

    >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
    >>> state.apply_action(state.string_to_action("d8d9"))  # Red's lion enters the den
    >>> state.is_terminal(), state.returns(), state.outcome["termination"]
    (True, [1.0, -1.0], 'den_entered')
    """

    _position: _Position

    def __init__(self, game: JungleGame) -> None:
        super().__init__(game)
        self._position = _Position(Board(game.start_fen, rules=game.rules), game.max_plies)

    @property
    def board(self) -> Board:
        """The position, with the moves since the start (the state's own: do not change it).

        >>> state = JungleGame().new_initial_state()
        >>> state.apply_action(state.string_to_action("a3a4"))
        >>> state.board.move_stack, state.board.turn
        ([Move.from_str('a3a4')], 1)
        """
        return self._position.board

    # OpenSpiel's API for perfect-information sequential games.

    def current_player(self) -> int:
        """The player to move (0 Red, 1 Blue), or ``pyspiel.PlayerId.TERMINAL`` (-4) once the
        game is over.

        >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
        >>> state.current_player()
        0
        >>> state.apply_action(state.string_to_action("d8d9"))
        >>> state.current_player() == pyspiel.PlayerId.TERMINAL
        True
        """
        return int(pyspiel.PlayerId.TERMINAL) if self._position.over else self.board.turn

    def _legal_actions(self, player: int) -> list[int]:
        if self._position.over or player != self.board.turn:
            return []
        return sorted(move_to_action(move, player) for move in self.board.generate_legal_moves())

    def _apply_action(self, action: int) -> None:
        self._position.push(action_to_move(action, self.board.turn), action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_to_move(action, player))

    def returns(self) -> list[float]:
        """Red's and Blue's returns: +1 and -1 to the winner and the loser, 0 each otherwise
        (a draw, or a game that goes on).

        >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
        >>> state.returns()
        [0.0, 0.0]
        >>> state.apply_action(state.string_to_action("d8d9"))
        >>> state.returns()
        [1.0, -1.0]
        """
        red, blue = reward_by_color(self._position.outcome)
        return [red, blue]

    def __str__(self) -> str:
        return board_text(self.board, self._position.outcome)

    # Beyond OpenSpiel's API.

    @property
    def outcome(self) -> dict[str, str | None] | None:
        """How the rules ended the game, as plain data; None while it goes on or when the move
        limit stopped it (a draw).

        >>> state = JungleGame({"fen": "l5t/3L3/7/7/7/7/7/7/T6 w 0 1"}).new_initial_state()
        >>> state.apply_action(state.string_to_action("d8d9"))
        >>> state.outcome
        {'termination': 'den_entered', 'winner': 'red', 'result': '1-0'}
        """
        outcome = self._position.outcome
        return None if outcome is None else outcome_info(outcome)


class JungleObserver(PlanesObserver):
    """OpenSpiel's Python observer interface: ``tensor`` (flat) and ``dict`` (its views),
    the planes seen from the player's seat
    (:class:`~doushouqi.rl_common.openspiel_game.PlanesObserver`).

    ``perfect_recall``: the observation string is the start and every move since, not the
    board. OpenSpiel's ``make_observation`` wraps it:

    >>> from open_spiel.python.observation import make_observation
    >>> game = JungleGame()
    >>> observation = make_observation(game)
    >>> observation.set_from(game.new_initial_state(), player=1)
    >>> observation.tensor.shape, observation.dict["observation"].shape
    ((1953,), (31, 9, 7))
    """

    shape = OBSERVATION_SHAPE

    def set_from(self, state: JungleState, player: int) -> None:
        """Fill :attr:`tensor` with the state's planes seen from ``player``'s seat.

        >>> from doushouqi.jungle.rl.encoding import PLANE_NAMES
        >>> observer = JungleObserver()
        >>> observer.set_from(JungleGame().new_initial_state(), 0)
        >>> int(observer.dict["observation"][PLANE_NAMES.index("own den")].sum())
        1
        """
        self.dict["observation"][...] = encode_observation(state.board, player)

    def _recall(self, state: JungleState) -> str:
        moves = "".join(f" {move}" for move in state.board.move_stack)
        return f"{state.board.starting_fen} moves{moves}"


pyspiel.register_game(_GAME_TYPE, JungleGame)

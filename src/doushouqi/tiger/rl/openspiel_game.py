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

>>> pyspiel.load_game(GAME_NAME).get_type().short_name
'python_laohuqi'
"""

from __future__ import annotations

import re
from typing import Any

from doushouqi.core.game import RulesError
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

__all__ = ["GAME_NAME", "LaohuqiGame", "LaohuqiObserver", "LaohuqiState", "parse_options"]

#: The game's short name with ``pyspiel`` (``pyspiel.load_game(GAME_NAME)``).
GAME_NAME = "python_laohuqi"

_DEFAULT_PARAMETERS: dict[str, Any] = {
    "rules": "laohuqi",
    "options": "",
    "max_plies": DEFAULT_MAX_PLIES,
    "fen": "",
}

_GAME_TYPE = game_type(
    GAME_NAME, "Tiger chess (Laohuqi), on the doushouqi rules library", _DEFAULT_PARAMETERS
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
    """The game: its rules, move limit and start position come from the parameters.

    ``params``: ``rules`` (a rule set name), ``options`` (rule options over it), ``max_plies``
    and ``fen`` (``""``: the rule set's start); ValueError for a move limit under 1 or a
    position whose game is over. ``pyspiel.load_game(GAME_NAME, params)`` makes one too.

    >>> game = LaohuqiGame({"options": "multi_jump:true", "max_plies": 200})
    >>> game.rules.multi_jump, game.num_distinct_actions(), game.max_game_length()  # + 12 men
    (True, 577, 212)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        parameters = {**_DEFAULT_PARAMETERS, **(params or {})}
        self.rules: RuleSet = parse_options(str(parameters["rules"]), str(parameters["options"]))
        self.max_plies = int(parameters["max_plies"])
        checked_max_plies(self.max_plies)
        self.start_fen: str | None = str(parameters["fen"]) or None
        start = ActionBoard(Board(self.start_fen, rules=self.rules))  # checks the string
        if start.outcome() is not None:
            raise ValueError(f"the game is already over in {self.start_fen!r}: {start.outcome()}")
        extra_actions = self.rules.men if self.rules.multi_jump else 0
        info = game_info(start.num_actions, self.max_plies + extra_actions)
        super().__init__(_GAME_TYPE, info, parameters)

    def new_initial_state(self) -> LaohuqiState:
        """A state at the game's start position.

        >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
        >>> state = LaohuqiGame(chains).new_initial_state()
        >>> [state.action_to_string(0, action) for action in state.legal_actions()]
        ['e3e2', 'e3d3', 'e3f3', 'e3e5']
        """
        return LaohuqiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """A :class:`LaohuqiObserver` for OpenSpiel's ``make_observation``: the board as text
        for public-information observations, the start, the moves and an open chain with
        perfect recall. ValueError for observation parameters (there are none).

        >>> game = LaohuqiGame()
        >>> game.make_py_observer().perfect_recall
        False
        >>> recall = pyspiel.IIGObservationType(perfect_recall=True)
        >>> game.make_py_observer(recall).perfect_recall
        True
        """
        return py_observer(LaohuqiObserver, iig_obs_type, params)


class _Position(Position):
    """The action board and how its game stands
    (:class:`~doushouqi.rl_common.openspiel_game.Position`), with what taking each action back
    needs: the chain open before it and the move it completed, if any."""

    __slots__ = ("game", "undo")

    def __init__(self, game: ActionBoard, max_plies: int) -> None:
        self.game = game
        self.undo: list[tuple[tuple[int, ...], Move | None]] = []
        super().__init__(max_plies, game.outcome(), game.board.ply())

    def apply(self, action: int) -> None:
        game = self.game
        self.actions.append((game.turn, action))
        chain = game.chain
        move = game.apply_legal(action)
        self.undo.append((chain, move))
        if move is not None:
            self.settle(game.outcome(), game.board.ply())

    def _take_back(self) -> None:
        self.game.undo(*self.undo.pop())

    def _copy_game(self, copy: _Position) -> None:
        copy.game, copy.undo = self.game.copy(), self.undo.copy()


class LaohuqiState(UndoableState):
    """A position of the game, with the moves since the start and an open jump chain.

    A double jump: the tiger side stays the current player while its chain is open.

    >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
    >>> state = LaohuqiGame(chains).new_initial_state()
    >>> state.apply_action(state.string_to_action("e3e5"))
    >>> state.current_player(), [state.action_to_string(0, a) for a in state.legal_actions()]
    (0, ['stop', 'e5e7'])
    >>> state.apply_action(state.string_to_action("e5e7"))
    >>> state.is_terminal(), state.returns(), state.outcome["termination"]
    (True, [1.0, -1.0], 'men_captured')

    The history (:class:`~doushouqi.rl_common.openspiel_game.UndoableState`) has one action per
    jump; taking back the action that ended a move takes the move back and reopens its chain:

    >>> state.history(), state.move_number(), state.board.ply()
    ([142, 274], 2, 1)
    >>> state.undo_action(0, 274)
    >>> state.action_board.chain_string(), state.is_terminal(), state.history_str()
    ('e3e5', False, '142')
    """

    _position: _Position

    def __init__(self, game: LaohuqiGame) -> None:
        super().__init__(game)
        board = Board(game.start_fen, rules=game.rules)
        self._position = _Position(ActionBoard(board), game.max_plies)

    @property
    def board(self) -> Board:
        """The position (without an open chain's jumps), with the moves since the start (the
        state's own: do not change it).

        >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
        >>> state = LaohuqiGame(chains).new_initial_state()
        >>> state.apply_action(state.string_to_action("e3e5"))  # a chain opens
        >>> state.board.ply(), state.board.move_stack  # the move is not made yet
        (0, [])
        >>> state.apply_action(state.string_to_action("e5e7"))
        >>> state.board.move_stack
        [Move.from_str('e3e5e7')]
        """
        return self._position.game.board

    @property
    def action_board(self) -> ActionBoard:
        """The board with the open jump chain (the state's own: do not change it).

        >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
        >>> state = LaohuqiGame(chains).new_initial_state()
        >>> state.apply_action(state.string_to_action("e3e5"))
        >>> state.action_board.chain_string()
        'e3e5'
        """
        return self._position.game

    # OpenSpiel's API for perfect-information sequential games.

    def current_player(self) -> int:
        """The seat to act (0 the tiger side, also during its chain; 1 the men), or
        ``pyspiel.PlayerId.TERMINAL`` (-4) once the game is over.

        >>> state = LaohuqiGame().new_initial_state()
        >>> state.current_player()
        0
        >>> state.apply_action(state.string_to_action("e10e9"))
        >>> state.current_player()
        1
        """
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

    def _action_to_string(self, player: int, action: int) -> str:
        return action_name(action)

    def returns(self) -> list[float]:
        """The tiger side's and the men's returns: +1 and -1 to the winner and the loser, 0
        each otherwise (a draw, or a game that goes on).

        >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
        >>> state = LaohuqiGame(chains).new_initial_state()
        >>> state.returns()
        [0.0, 0.0]
        >>> for segment in ("e3e5", "e5e7"):
        ...     state.apply_action(state.string_to_action(segment))
        >>> state.returns()
        [1.0, -1.0]
        """
        tiger, men = reward_by_seat(self._position.outcome)
        return [tiger, men]

    def __str__(self) -> str:
        game = self._position.game
        return board_text(game.board, self._position.outcome, game.chain)

    # Beyond OpenSpiel's API.

    @property
    def outcome(self) -> dict[str, str | None] | None:
        """How the rules ended the game, as plain data; None while it goes on or when the move
        limit stopped it (a draw).

        >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
        >>> state = LaohuqiGame(chains).new_initial_state()
        >>> for segment in ("e3e5", "e5e7"):
        ...     state.apply_action(state.string_to_action(segment))
        >>> state.outcome
        {'termination': 'men_captured', 'winner': 'tiger', 'result': '1-0'}
        """
        outcome = self._position.outcome
        return None if outcome is None else outcome_info(outcome)


class LaohuqiObserver(PlanesObserver):
    """OpenSpiel's Python observer interface: ``tensor`` (flat) and ``dict`` (its views),
    the same planes for both players (:class:`~doushouqi.rl_common.openspiel_game.PlanesObserver`).

    ``perfect_recall``: the observation string is the start, the moves and an open chain, not
    the board. OpenSpiel's ``make_observation`` wraps it:

    >>> from open_spiel.python.observation import make_observation
    >>> game = LaohuqiGame()
    >>> observation = make_observation(game)
    >>> observation.set_from(game.new_initial_state(), player=1)
    >>> observation.tensor.shape, observation.dict["observation"].shape
    ((1584,), (16, 11, 9))

    An open jump chain is part of the observation string, with or without perfect recall:

    >>> chains = {"options": "multi_jump:true", "fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"}
    >>> state = LaohuqiGame(chains).new_initial_state()
    >>> state.apply_action(state.string_to_action("e3e5"))
    >>> LaohuqiObserver(perfect_recall=True).string_from(state, 1)
    '3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t 0 1 moves chain e3e5'
    >>> LaohuqiObserver().string_from(state, 1).splitlines()[-1]
    'jump chain open: e3e5 (jump on or stop)'
    """

    shape = OBSERVATION_SHAPE

    def set_from(self, state: LaohuqiState, player: int) -> None:
        """Fill :attr:`tensor` with the state's planes (the same for both players).

        >>> from doushouqi.tiger.rl.encoding import PLANE_NAMES
        >>> observer = LaohuqiObserver()
        >>> observer.set_from(LaohuqiGame().new_initial_state(), 1)
        >>> int(observer.dict["observation"][PLANE_NAMES.index("men")].sum())
        12
        """
        del player  # both players see the same planes
        self.dict["observation"][...] = state.action_board.observation()

    def _recall(self, state: LaohuqiState) -> str:
        game = state.action_board
        moves = "".join(f" {move}" for move in game.board.move_stack)
        chain = game.chain_string()
        return f"{game.start} moves{moves}" + (f" chain {chain}" if chain else "")


pyspiel.register_game(_GAME_TYPE, LaohuqiGame)

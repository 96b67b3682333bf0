"""``ActionBoard``: a 老虎棋 board played one action at a time, the core of the three
environments.

A move is one action, except a multi-jump (rule option ``multi_jump``), which is one action
per jump and, where the tiger could jump on, a last *stop* (:mod:`.encoding`). While such a
chain is open the board of the rules library has not moved yet: the chain's points are kept
here, and the whole move is pushed on the board when the chain ends. So the library decides
every rule, the history holds whole moves only, and the game's end (repetition, round limit)
is judged on whole moves.

>>> from doushouqi.tiger.points import parse_point
>>> from doushouqi.tiger.rules import rules_from_mapping
>>> rules = rules_from_mapping("chains", {"multi_jump": True})
>>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
>>> [action_name(a) for a in game.legal_actions()]
['e3e2', 'e3d3', 'e3f3', 'e3e5']
>>> game.apply(pair_to_action(parse_point("e3"), parse_point("e5")))  # the chain stays open
>>> [action_name(a) for a in game.legal_actions()], game.chain_string()
(['stop', 'e5e7'], 'e3e5')
>>> game.apply(pair_to_action(parse_point("e5"), parse_point("e7")))  # no jump on: pushed
Move.from_str('e3e5e7')
>>> game.turn, game.board.men_count, game.outcome().key  # 3 men: fewer than 4
(1, 3, 'men_captured')
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from doushouqi.core.outcome import Outcome
from doushouqi.tiger.board import Board
from doushouqi.tiger.fen import EMPTY, MAN
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import JUMPS, point_name
from doushouqi.tiger.rl.common import chain_pieces
from doushouqi.tiger.rl.encoding import (
    STOP_ACTION,
    action_name,
    action_to_pair,
    encode_observation,
    num_actions,
    pair_to_action,
)
from doushouqi.tiger.rules import RuleSet

__all__ = ["ActionBoard", "ActionBoardViews", "IllegalActionError"]


class IllegalActionError(ValueError):
    """The action is not legal now (it says why).

    >>> ActionBoard(Board()).apply(0)  # action 0 is the stop of a jump chain
    Traceback (most recent call last):
    ...
    doushouqi.tiger.rl.action_board.IllegalActionError: illegal action 0: stop: no jump chain ...
    """


class ActionBoard:
    """A :class:`~doushouqi.tiger.board.Board` and the open jump chain, if any.

    The board is the object passed in, moved by :meth:`apply` and :meth:`push_move`; between
    chains it is the game's position, with its history of whole moves.

    The outcome and the legal actions are computed once per position (an environment asks
    for both several times a step): they are kept with the ply, hash and chain they belong to.

    >>> game = ActionBoard(Board())
    >>> game.num_actions, [action_name(a) for a in game.legal_actions()]
    (577, ['e10e9', 'e10d10', 'e10f10', 'e10e11'])
    >>> game.apply(game.legal_actions()[0])  # a whole move: pushed on the board
    Move.from_str('e10e9')
    >>> game.turn, game.board.ply()
    (1, 1)
    """

    __slots__ = ("_chain", "_known", "_known_at", "board", "num_actions", "start")

    def __init__(self, board: Board) -> None:
        self.board = board
        #: The position string the history starts from.
        self.start = board.position_string()
        self.num_actions = num_actions(board.rules)
        # The points of the open chain from its start (empty: none open).
        self._chain: tuple[int, ...] = ()
        # The outcome and legal actions of the position at ``_known_at`` (see _position_facts).
        self._known: tuple[Outcome | None, list[int]] = (None, [])
        self._known_at: tuple[int, int, tuple[int, ...]] | None = None

    @property
    def rules(self) -> RuleSet:
        """The board's rule set (which decides the action space: :attr:`num_actions`).

        >>> ActionBoard(Board(rules="laohuqi-south")).rules.tigers
        2
        """
        return self.board.rules

    @property
    def turn(self) -> int:
        """The seat to act: 0 the tiger side, 1 the men (during a chain: the tiger side).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.apply(game.move_to_actions("e3e5e7")[0])  # the first jump: a chain opens
        >>> game.turn
        0
        """
        return self.board.turn

    @property
    def chain(self) -> tuple[int, ...]:
        """The points of the open chain, from its start (empty when none is open).

        >>> from doushouqi.tiger.points import point_name
        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.chain
        ()
        >>> game.apply(game.move_to_actions("e3e5e7")[0])
        >>> [point_name(point) for point in game.chain]
        ['e3', 'e5']
        """
        return self._chain

    def chain_string(self) -> str | None:
        """The open chain as a move string (``e3e5``), or None.

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.chain_string() is None
        True
        >>> game.apply(game.move_to_actions("e3e5e7")[0])
        >>> game.chain_string()
        'e3e5'
        """
        return str(Move(self._chain)) if self._chain else None

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None (always None while a chain is open: a move is being
        made).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> for action in game.move_to_actions("e3e5e7"):
        ...     _ = game.apply(action)
        >>> game.outcome().key, game.outcome().result()  # the men are down to three
        ('men_captured', '1-0')
        """
        return self._position_facts()[0]

    def copy(self) -> ActionBoard:
        """A twin with its own board (and the same open chain, if any).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.apply(game.move_to_actions("e3e5e7")[0])
        >>> twin = game.copy()
        >>> twin.apply(STOP_ACTION)  # the twin ends the chain; the game's stays open
        Move.from_str('e3e5')
        >>> twin.chain_string(), game.chain_string()
        (None, 'e3e5')
        """
        twin = ActionBoard.__new__(ActionBoard)
        twin.board = self.board.copy()
        twin.start = self.start
        twin.num_actions = self.num_actions
        twin._chain = self._chain
        twin._known, twin._known_at = self._known, self._known_at
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionBoard:
        # OpenSpiel's clone() deep-copies a Python state; the board's own copy is much faster.
        return self.copy()

    # ----------------------------------------------------------------- legal actions

    def _continuations(self) -> list[int]:
        """The landing points of the chain's tiger's next jumps (chain open)."""
        pieces = chain_pieces(self.board, self._chain)
        at = self._chain[-1]
        return [
            land
            for over, land in JUMPS[self.rules.diagonals][at]
            if pieces[over] == MAN and pieces[land] == EMPTY
        ]

    def _position_facts(self) -> tuple[Outcome | None, list[int]]:
        """The outcome and the legal actions, computed once per position."""
        board = self.board
        here = (board.ply(), board.zobrist_hash(), self._chain)
        if here != self._known_at:
            self._known = self._compute_facts()
            self._known_at = here
        return self._known

    def _compute_facts(self) -> tuple[Outcome | None, list[int]]:
        if self._chain:
            at = self._chain[-1]
            continuations = [pair_to_action(at, to) for to in self._continuations()]
            return None, sorted([STOP_ACTION, *continuations])
        outcome = self.board.outcome()
        if outcome is not None:
            return outcome, []
        moves = self.board.generate_legal_moves()
        return None, sorted({pair_to_action(*move.path[:2]) for move in moves})

    def legal_actions(self) -> list[int]:
        """The legal actions in ascending order; empty once the game is over (a draw by rule
        leaves moves on the board, but no legal action).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> [action_name(action) for action in game.legal_actions()]
        ['e3e2', 'e3d3', 'e3f3', 'e3e5']
        >>> game.apply(game.move_to_actions("e3e5e7")[0])
        >>> [action_name(action) for action in game.legal_actions()]  # jump on, or stop
        ['stop', 'e5e7']
        """
        return list(self._position_facts()[1])

    def action_mask(self) -> NDArray[np.bool_]:
        """True for each legal action (:meth:`legal_actions`), over the rule set's space.

        >>> mask = ActionBoard(Board()).action_mask()
        >>> mask.shape, mask.nonzero()[0].tolist()
        ((577,), [555, 556, 557, 558])
        """
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[self._position_facts()[1]] = True
        return mask

    def explain_illegal(self, action: int) -> str | None:
        """Why ``action`` is not legal now, or None when it is (outside the space: a reason
        too).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.explain_illegal(STOP_ACTION)
        'stop: no jump chain is open'
        >>> game.explain_illegal(10_000)
        'action 10000 is outside the action space 0..576'
        >>> game.explain_illegal(game.legal_actions()[0]) is None
        True
        """
        index = int(action)
        if not 0 <= index < self.num_actions:
            return f"action {action} is outside the action space 0..{self.num_actions - 1}"
        if index in self._position_facts()[1]:
            return None
        name = action_name(index)
        if self._chain:
            return (
                f"{name}: a jump chain is open ({self.chain_string()}): the tiger on "
                f"{point_name(self._chain[-1])} jumps on or stops"
            )
        if index == STOP_ACTION:
            return "stop: no jump chain is open"
        outcome = self.outcome()
        if outcome is not None:
            return f"{name}: the game is over ({outcome.key})"
        reason = self.board.explain_illegal(Move(action_to_pair(index)))
        return f"{name}: {reason or 'not a move here'}"

    # -------------------------------------------------------------------- playing

    def apply(self, action: int) -> Move | None:
        """Play a legal action: the move when it completes one (pushed on the board), None
        while the chain stays open. IllegalActionError (nothing changed) otherwise.

        >>> from doushouqi.tiger.points import parse_point
        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> game.apply(pair_to_action(parse_point("e3"), parse_point("e5")))  # None: open
        >>> game.apply(pair_to_action(parse_point("e5"), parse_point("e7")))
        Move.from_str('e3e5e7')
        """
        reason = self.explain_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action}: {reason}")
        return self.apply_legal(int(action))

    def apply_legal(self, action: int) -> Move | None:
        """:meth:`apply` without the check (the action must be one of :meth:`legal_actions`):
        what search code calls on actions it took from :meth:`legal_actions`.

        >>> game = ActionBoard(Board())
        >>> [str(game.copy().apply_legal(action)) for action in game.legal_actions()]
        ['e10e9', 'e10d10', 'e10f10', 'e10e11']
        """
        if action == STOP_ACTION:
            return self._finish(self._chain)
        start, to = action_to_pair(action)
        path = (*self._chain, to) if self._chain else (start, to)
        if not self.rules.multi_jump or not Move(path).is_jump:
            return self._finish(path)
        self._chain = path
        if self._continuations():
            return None  # the same tiger acts again: jump on or stop
        return self._finish(path)

    def _finish(self, path: tuple[int, ...]) -> Move:
        move = Move(path)
        self.board.push(move)
        self._chain = ()
        return move

    def undo(self, chain: tuple[int, ...], move: Move | None) -> None:
        """Take back the last action: ``chain`` is the chain open before it (empty: none), and
        ``move`` what :meth:`apply_legal` returned for it (the move it pushed, or None).

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> rules = rules_from_mapping("chains", {"multi_jump": True})
        >>> game = ActionBoard(Board("3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t", rules))
        >>> first, second = game.move_to_actions("e3e5e7")
        >>> game.apply_legal(first)  # None: the chain stays open
        >>> chain = game.chain
        >>> move = game.apply_legal(second)
        >>> game.undo(chain, move)  # back inside the chain
        >>> game.chain_string(), game.board.ply()
        ('e3e5', 0)
        >>> game.undo((), None)  # back to the start
        >>> game.chain_string()
        """
        if move is not None:
            self.board.pop()
        self._chain = chain

    def push_move(self, move: Move) -> None:
        """Play a whole legal move of the board (an opponent's), with no chain open.
        IllegalActionError for an illegal move or while a chain is open.

        >>> game = ActionBoard(Board())
        >>> game.push_move(Move.from_str("e10e9"))
        >>> game.push_move(Move.from_str("e9e8"))  # the men are to move
        Traceback (most recent call last):
        ...
        doushouqi.tiger.rl.action_board.IllegalActionError: illegal move e9e8: ...
        """
        if self._chain:
            raise IllegalActionError(f"a jump chain is open ({self.chain_string()})")
        if not self.board.is_legal(move) or self.outcome() is not None:
            reason = self.board.explain_illegal(move) or "the game is over"
            raise IllegalActionError(f"illegal move {move}: {reason}")
        self.board.push(move)

    def move_to_actions(self, move: Move | str) -> list[int]:
        """The actions that play a whole legal move from here (no chain open): its segments,
        and a stop where the tiger could jump on. IllegalActionError when it is no legal move.

        >>> ActionBoard(Board()).move_to_actions("e10e9")
        [555]
        """
        parsed = Move.from_str(move) if isinstance(move, str) else move
        trial = self.copy()
        trial.push_move(parsed)  # checks it
        trial = self.copy()
        actions = [pair_to_action(a, b) for a, b in pairwise(parsed.path)]
        for action in actions:
            trial.apply_legal(action)
        if trial._chain:
            actions.append(STOP_ACTION)
        return actions

    def observation(self) -> NDArray[np.float32]:
        """The observation planes (:func:`~.encoding.encode_observation`), chain included.

        >>> ActionBoard(Board()).observation().shape
        (16, 11, 9)
        """
        return encode_observation(self.board, self._chain)


class ActionBoardViews:
    """What an environment playing on an :class:`ActionBoard` (its ``_game``) shows of it:
    the position, the open jump chain and a move's actions. The Gymnasium and the PettingZoo
    environments (:class:`~doushouqi.tiger.rl.env.TigerEnv`,
    :class:`~doushouqi.tiger.rl.pettingzoo_env.TigerAECEnv`) both have them.

    >>> from doushouqi.tiger.rl.pettingzoo_env import TigerAECEnv
    >>> issubclass(TigerAECEnv, ActionBoardViews)
    True
    """

    _game: ActionBoard

    @property
    def board(self) -> Board:
        """A copy of the current position (without an open chain's jumps), with its history.

        >>> from doushouqi.tiger.rl.env import TigerEnv
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
        >>> from doushouqi.tiger.rl.pettingzoo_env import TigerAECEnv
        >>> game = TigerAECEnv(rules_from_mapping("chains", {"multi_jump": True}))
        >>> game.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
        >>> game.chain is None
        True
        >>> game.step(game.move_to_actions("e3e5e7")[0])
        >>> game.chain, game.agent_selection  # the tiger acts again: jump on or stop
        ('e3e5', 'tiger')
        """
        return self._game.chain_string()

    def move_to_actions(self, move: Move | str) -> list[int]:
        """The actions that play a whole legal move (``"e10e9"``, ``"e3e5e7"``) from here:
        one per jump of a chain. IllegalActionError when it is no legal move.

        >>> from doushouqi.tiger.rules import rules_from_mapping
        >>> from doushouqi.tiger.rl.env import TigerEnv
        >>> env = TigerEnv(rules_from_mapping("chains", {"multi_jump": True}))
        >>> _ = env.reset(options={"fen": "3/3/9/9/9/4M4/9/4M4/4T4/9/MMM6 t"})
        >>> [env.action_name(action) for action in env.move_to_actions("e3e5e7")]
        ['e3e5', 'e5e7']
        """
        return self._game.move_to_actions(move)

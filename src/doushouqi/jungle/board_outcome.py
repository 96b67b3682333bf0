"""How a game ends on the board: repetitions (``repetition_count``, ``is_repetition``,
``position_counts``), the draws a player may claim (none), ``outcome``, ``is_game_over`` and
``result``. :class:`~doushouqi.jungle.board.Board` inherits them from :class:`OutcomeMixin`.

>>> from doushouqi.jungle.board import Board
>>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
>>> board.outcome(), board.result()
(None, '*')
>>> board.push_move("d8d9")  # Red's lion enters Blue's den
Move.from_str('d8d9')
>>> board.outcome().termination, board.result()
(<Termination.DEN_ENTERED: 'den_entered'>, '1-0')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import Repetition
from doushouqi.jungle.squares import BLUE, DEN, RED

if TYPE_CHECKING:
    from doushouqi.jungle.moves import Move
    from doushouqi.jungle.rules import RuleSet

__all__ = ["OutcomeMixin"]


class OutcomeMixin:
    """The endings of a game, for :class:`~doushouqi.jungle.board.Board`.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> board.replay(["a3a4", "a7a6", "a4a3", "a6a7"])
    >>> board.repetition_count(), board.is_game_over()
    (2, False)
    """

    if TYPE_CHECKING:  # what the methods use of the board
        rules: RuleSet
        turn: int
        halfmove_clock: int
        _occ: list[int]
        _hash: int
        _history: list[int]

        def generate_legal_moves(self) -> Iterator[Move]: ...
        def _generate_basic(self) -> Iterator[tuple[int, int]]: ...

    def repetition_count(self) -> int:
        """How many times the current position (board and side to move) has stood.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.repetition_count()
        1
        >>> board.replay(["a3a4", "a7a6", "a4a3", "a6a7"])
        >>> board.repetition_count()
        2
        """
        return self._history.count(self._hash) + 1

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position (animals and side to move) has stood at least
        ``count`` times since the starting position of the history (see :meth:`copy`).

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> for text in ["a3a4", "a7a6", "a4a3", "a6a7"] * 2:
        ...     _ = board.push_move(text)
        >>> board.is_repetition(), board.is_repetition(4)
        (True, False)
        """
        return self.repetition_count() >= count

    def can_claim_draw(self) -> bool:
        """Whether the side to move may claim a draw. Always False: no rule set lets a player
        claim one (docs/rules.md 6). The draws by rule happen by themselves (:meth:`outcome`:
        threefold repetition under ``threefold_draw``, the no-capture limit); under
        ``initiator_must_vary`` a repetition is no draw at all but restricts the moves; a
        draw by agreement (和棋) is an offer accepted off the board.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.replay(["a3a4", "a7a6", "a4a3", "a6a7"] * 2)
        >>> board.is_repetition(), board.can_claim_draw()
        (True, False)
        """
        return False

    def position_counts(self) -> Counter[int]:
        """Hash → number of times that position has stood, including the current one.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.replay(["a3a4", "a7a6", "a4a3", "a6a7"])
        >>> counts = board.position_counts()
        >>> counts[board.zobrist_hash()], sum(counts.values()), len(counts)
        (2, 5, 4)
        """
        counts = Counter(self._history)
        counts[self._hash] += 1
        return counts

    def outcome(self, *, has_legal_move: bool | None = None) -> Outcome | None:
        """How the game has ended on the board, or None while it goes on.

        Checked in this order: den entered, all captured, no-capture limit, threefold
        repetition (in ``threefold_draw`` mode), no legal move. ``has_legal_move``: whether
        the side to move has a legal move, where the caller already knows (it has generated
        them: the server, which tells the players their moves); None: looked up here.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
        >>> board.outcome() is None
        True
        >>> board.push_move("d8d9")
        Move.from_str('d8d9')
        >>> board.outcome()
        Outcome(termination=<Termination.DEN_ENTERED: 'den_entered'>, winner=0)
        >>> Board().outcome(has_legal_move=True) is None
        True
        """
        occ = self._occ
        if occ[RED] & DEN[BLUE]:
            return Outcome(Termination.DEN_ENTERED, RED)
        if occ[BLUE] & DEN[RED]:
            return Outcome(Termination.DEN_ENTERED, BLUE)
        if not occ[RED]:
            return Outcome(Termination.ALL_CAPTURED, BLUE)
        if not occ[BLUE]:
            return Outcome(Termination.ALL_CAPTURED, RED)
        rounds = self.rules.no_capture_draw_rounds
        if rounds is not None and self.halfmove_clock >= 2 * rounds:
            return Outcome(Termination.NO_CAPTURE_LIMIT, None)
        if self.rules.repetition is Repetition.THREEFOLD_DRAW and self.repetition_count() >= 3:
            return Outcome(Termination.REPETITION, None)
        if has_legal_move is None:
            has_legal_move = any(True for _ in self.generate_legal_moves())
        if not has_legal_move:
            restricted = any(True for _ in self._generate_basic())
            termination = (
                Termination.MOVE_RESTRICTIONS if restricted else Termination.NO_LEGAL_MOVES
            )
            return Outcome(termination, 1 - self.turn)
        return None

    def is_game_over(self) -> bool:
        """Whether the game has ended (:meth:`outcome` is not None).

        >>> from doushouqi.jungle.board import Board
        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
        >>> board.is_game_over()
        False
        >>> board.push_move("d8d9")  # Red's lion enters Blue's den
        Move.from_str('d8d9')
        >>> board.is_game_over()
        True
        """
        return self.outcome() is not None

    def result(self) -> str:
        """The result as a record writes it: ``"1-0"`` (Red won), ``"0-1"``, ``"1/2-1/2"``, or
        ``"*"`` while the game goes on.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
        >>> board.result()
        '*'
        >>> board.push_move("d8d9")
        Move.from_str('d8d9')
        >>> board.result()
        '1-0'
        """
        outcome = self.outcome()
        return outcome.result() if outcome else "*"

"""The board's position editing, as python-chess's: an empty board (``Board.empty``), the
start position again (``reset``), ``clear``, ``set_piece_at`` and ``remove_piece_at``, and what
is wrong with an edited position (``status``, ``is_valid``).
:class:`~doushouqi.jungle.board.Board` inherits them from :class:`PositionEditingMixin`.

>>> from doushouqi.jungle.board import Board
>>> from doushouqi.jungle.squares import D1
>>> board = Board()
>>> board.set_piece_at(D1, Piece.from_symbol("L"))  # a second lion, in its own den
>>> board.is_valid(), board.remove_piece_at(D1), board.is_valid()
(False, Piece.from_symbol('L'), True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from doushouqi.jungle.fen import STARTING_BOARD_FEN
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.squares import BLUE, NUM_SQUARES, RED
from doushouqi.jungle.status import Status, position_status

if TYPE_CHECKING:
    from doushouqi.jungle.rules import RuleSet

__all__ = ["PositionEditingMixin"]


class PositionEditingMixin:
    """Setting up and checking an edited position, for :class:`~doushouqi.jungle.board.Board`.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board.empty(rules="classic")
    >>> board.status()
    <Status.EMPTY|OPPOSITE_HAS_NO_ANIMALS: 24>
    >>> board.reset()
    >>> board.status(), board.legal_moves.count()
    (<Status.VALID: 0>, 24)
    """

    if TYPE_CHECKING:  # what the methods use of the board
        rules: RuleSet
        turn: int
        halfmove_clock: int
        fullmove_number: int
        _sq: list[int]

        def __init__(self, fen: str | None = None, rules: RuleSet | str = "wango") -> None: ...
        def set_fen(self, fen: str) -> None: ...
        def _set_position(self, codes: list[int], turn: int) -> None: ...
        def piece_at(self, square: int) -> Piece | None: ...

    @classmethod
    def empty(cls, *, rules: RuleSet | str = "wango") -> Self:
        """A board without animals, the rule set's first player to move (see :meth:`clear`).

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import parse_square
        >>> board = Board.empty(rules="classic")
        >>> board.set_piece_at(parse_square("c3"), Piece.from_symbol("L"))
        >>> board.set_piece_at(parse_square("e7"), Piece.from_symbol("r"))
        >>> board.fen(), board.is_valid()
        ('7/7/4r2/7/7/7/2L4/7/7 w 0 1', True)
        """
        board = cls(rules=rules)
        board.clear()
        return board

    def reset(self) -> None:
        """Back to the start position, the rule set's first player to move, no history.

        >>> from doushouqi.jungle.board import STARTING_FEN, Board
        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w", rules="international")
        >>> board.reset()
        >>> board.fen() == STARTING_FEN, board.ply()
        (True, 0)
        """
        side = "b" if self.rules.first_player == BLUE else "w"
        self.set_fen(f"{STARTING_BOARD_FEN} {side} 0 1")

    def clear(self) -> None:
        """Remove every animal, reset the counters (0 and 1) and the history; the rule set's
        first player is to move. An empty board is not valid (:attr:`Status.EMPTY`).

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.clear()
        >>> board.fen(), board.status()
        ('7/7/7/7/7/7/7/7/7 w 0 1', <Status.EMPTY|OPPOSITE_HAS_NO_ANIMALS: 24>)
        """
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self._set_position([0] * NUM_SQUARES, self.rules.first_player)

    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Put ``piece`` on ``square``, replacing what stands there (None empties it).

        Like python-chess, nothing stops an impossible position (two lions of one side, an
        elephant in the water): :meth:`status` says what is wrong, and moves are only
        meaningful on a valid board. The move history is cleared (:meth:`clear_stack`); the
        side to move and the counters stay. (Assigning ``board.turn`` does not update the
        position's hash: set it before editing, which recomputes the hash, or use set_fen.)

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import B4, D5
        >>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")
        >>> board.set_piece_at(D5, Piece.from_symbol("e"))
        >>> board.set_piece_at(B4, Piece.from_symbol("E"))  # an elephant in the water
        >>> board.board_fen(), board.is_valid()
        ('7/3L3/7/7/3e3/1E5/7/7/r6', False)
        >>> board.set_piece_at(B4, None)
        >>> board.is_valid()
        True
        """
        if not isinstance(square, int) or not 0 <= square < NUM_SQUARES:
            raise ValueError(f"not a square: {square!r} (expected 0..62)")
        code = 0
        if piece is not None:
            if not (piece.color in (RED, BLUE) and 1 <= piece.animal <= 8):
                raise ValueError(f"not a piece: animal {piece.animal!r}, colour {piece.color!r}")
            code = piece.code
        codes = self._sq.copy()
        codes[square] = code
        self._set_position(codes, self.turn)

    def remove_piece_at(self, square: int) -> Piece | None:
        """Empty ``square`` and return what stood there (None if nothing); clears the history.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import parse_square
        >>> board = Board()
        >>> board.remove_piece_at(parse_square("g1")), board.remove_piece_at(parse_square("g2"))
        (Piece.from_symbol('L'), None)
        """
        piece = self.piece_at(square)
        self.set_piece_at(square, None)
        return piece

    def status(self) -> Status:
        """What is wrong with the position, as :class:`Status` flags (``Status.VALID`` when
        nothing is). The placement flags are those that make a position string unreadable.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import parse_square
        >>> board = Board("7/7/7/7/7/7/7/7/6L b")  # Red has taken everything: a finished game
        >>> board.status()
        <Status.VALID: 0>
        >>> board.set_piece_at(parse_square("b5"), Piece.from_symbol("L"))
        >>> board.set_piece_at(parse_square("d9"), Piece.from_symbol("e"))
        >>> board.status()
        <Status.DUPLICATE_ANIMAL|ANIMAL_IN_WATER|ANIMAL_IN_OWN_DEN: 7>
        """
        return position_status(self._sq, self.turn, self.halfmove_clock, self.fullmove_number)

    def is_valid(self) -> bool:
        """Whether :meth:`status` finds nothing wrong (a finished game is valid).

        >>> from doushouqi.jungle.board import Board
        >>> Board().is_valid(), Board("7/7/7/7/7/7/7/7/6L b").is_valid()
        (True, True)
        >>> from doushouqi.jungle.squares import D1
        >>> board = Board()
        >>> board.set_piece_at(D1, Piece.from_symbol("L"))  # a second lion, in its own den
        >>> board.is_valid()
        False
        """
        return self.status() == Status.VALID

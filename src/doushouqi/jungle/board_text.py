"""The board as text: its position string (``fen``, ``epd``, ``board_fen``; read by
:mod:`doushouqi.jungle.fen`), ``str(board)`` (a picture in letters) and ``repr(board)``.
:class:`~doushouqi.jungle.board.Board` inherits them from :class:`PositionTextMixin`.

>>> from doushouqi.jungle.board import Board
>>> board = Board("7/3L3/7/7/7/7/7/7/r6 w 12 30")
>>> board.epd(), board.fen()
('7/3L3/7/7/7/7/7/7/r6 w', '7/3L3/7/7/7/7/7/7/r6 w 12 30')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.squares import BLUE, WATER

if TYPE_CHECKING:
    from doushouqi.jungle.rules import RuleSet

__all__ = ["PositionTextMixin"]


class PositionTextMixin:
    """The position as text, for :class:`~doushouqi.jungle.board.Board`.

    >>> from doushouqi.jungle.board import Board
    >>> print(Board())
    l . . . . . t
    . d . . . c .
    r . p . w . e
    . ~ ~ . ~ ~ .
    . ~ ~ . ~ ~ .
    . ~ ~ . ~ ~ .
    E . W . P . R
    . C . . . D .
    T . . . . . L
    """

    if TYPE_CHECKING:  # what the methods use of the board
        rules: RuleSet
        turn: int
        halfmove_clock: int
        fullmove_number: int
        _sq: list[int]

    def board_fen(self) -> str:
        """The placement field of the position string
        (:func:`~doushouqi.jungle.fen.placement_fen`).

        >>> from doushouqi.jungle.board import Board
        >>> Board().board_fen()
        'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L'
        """
        return placement_fen(self._sq)

    def fen(self) -> str:
        """The position string: placement, side to move, halfmove clock, move number.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.replay(["g3g4", "a7a6"])
        >>> board.fen()
        'l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L w 2 2'
        """
        return f"{self.epd()} {self.halfmove_clock} {self.fullmove_number}"

    def epd(self) -> str:
        """The position string without its counters: placement and side to move (what
        python-chess's ``epd`` is to FEN; no operations). ``Board(board.epd())`` reads it.

        >>> from doushouqi.jungle.board import Board
        >>> Board().epd()
        'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w'
        """
        return f"{self.board_fen()} {'b' if self.turn == BLUE else 'w'}"

    def __str__(self) -> str:
        lines = []
        for row in range(8, -1, -1):
            cells = []
            for square in range(row * 7, row * 7 + 7):
                code = self._sq[square]
                cells.append(
                    Piece.from_code(code).symbol() if code else "~" if WATER >> square & 1 else "."
                )
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r}, rules={self.rules.name!r})"

"""The board's queries, as python-chess's: what stands where (``piece_at``, ``pieces``,
``piece_map``, ``square_of``, the ``occupied`` bitboards), an animal's rank under the rule set,
the position's Zobrist hash and the moves played as codes.
:class:`~doushouqi.jungle.board.Board` inherits them from :class:`PositionQueriesMixin`.

>>> from doushouqi.jungle.board import Board
>>> from doushouqi.jungle.squares import LION, RAT
>>> board = Board("7/3L3/7/7/7/7/7/7/r6 w")  # Red's lion d8, Blue's rat a1
>>> board.pieces(LION, RED), board.piece_at(0), board.square_of(BLUE, RAT)
(SquareSet([D8]), Piece.from_symbol('r'), 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from doushouqi.jungle.pieces import Piece
from doushouqi.jungle.squares import (
    ALL_SQUARES,
    BLUE,
    CAPTURED,
    RED,
    SquareSet,
    iter_squares,
    piece_code,
)

__all__ = ["PositionQueriesMixin"]


class PositionQueriesMixin:
    """What a position holds, for :class:`~doushouqi.jungle.board.Board`.

    >>> from doushouqi.jungle.board import Board
    >>> board = Board()
    >>> len(board.piece_map()), board.rank_of(Piece.from_symbol("e")), board.history_codes()
    (16, 8, [])
    """

    if TYPE_CHECKING:  # what the methods use of the board
        _sq: list[int]
        _where: list[int]
        _occ: list[int]
        _rank: list[int]
        _hash: int
        # One record per ply (doushouqi.jungle.board.UndoRecord): from, to, moved code first.
        _undo: list[tuple[int, int, int, int, int, int, int]]

    def piece_at(self, square: int) -> Piece | None:
        """The animal on ``square``, or None for an empty square.

        >>> from doushouqi.jungle.board import Board
        >>> Board().piece_at(0), Board().piece_at(31)  # a1 and d5 (squares: row * 7 + file)
        (Piece.from_symbol('T'), None)
        """
        code = self._sq[square]
        return Piece.from_code(code) if code else None

    def piece_codes(self) -> list[int]:
        """The 63 piece codes (0 empty, 1-8 Red rat..elephant, 9-16 Blue) — for fast engines.

        >>> from doushouqi.jungle.board import Board
        >>> codes = Board().piece_codes()
        >>> len(codes), codes[0], codes[6], codes[62], codes[31]  # a1 tiger, g1 lion, g9 tiger
        (63, 6, 7, 14, 0)
        """
        return self._sq.copy()

    def pieces_mask(self, animal: int, color: int) -> int:
        """The bitboard of ``color``'s ``animal`` (one square, or none once it is taken; an
        edited board may hold two), as python-chess's ``pieces_mask``.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import A7, RAT, bit
        >>> Board().pieces_mask(RAT, BLUE) == bit(A7)
        True
        >>> Board("7/7/7/7/7/7/7/7/6L b").pieces_mask(RAT, BLUE)  # taken
        0
        """
        code = piece_code(color, animal)
        sq = self._sq
        mask = 0
        for square in iter_squares(self._occ[color]):
            if sq[square] == code:
                mask |= 1 << square
        return mask

    def pieces(self, animal: int, color: int) -> SquareSet:
        """The squares of ``color``'s ``animal``, as python-chess's ``pieces``.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import LION, RAT
        >>> Board().pieces(LION, RED), Board().pieces(RAT, BLUE)
        (SquareSet([G1]), SquareSet([A7]))
        """
        return SquareSet(self.pieces_mask(animal, color))

    @property
    def occupied_co(self) -> tuple[int, int]:
        """The bitboards of Red's and Blue's animals (python-chess's ``occupied_co``).

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import SquareSet
        >>> red, blue = Board("7/3L3/7/7/7/7/7/7/r6 w").occupied_co
        >>> SquareSet(red), SquareSet(blue)
        (SquareSet([D8]), SquareSet([A1]))
        """
        return self._occ[RED], self._occ[BLUE]

    @property
    def occupied(self) -> int:
        """The bitboard of every animal.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import SquareSet
        >>> SquareSet(Board("7/3L3/7/7/7/7/7/7/r6 w").occupied), len(SquareSet(Board().occupied))
        (SquareSet([A1, D8]), 16)
        """
        return self._occ[RED] | self._occ[BLUE]

    def piece_map(self, *, mask: int = ALL_SQUARES) -> dict[int, Piece]:
        """Square → animal for every occupied square (of ``mask``), as python-chess's.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import TRAPS_ALL, WATER
        >>> Board("7/3L3/7/7/7/7/7/7/r6 w").piece_map()
        {0: Piece.from_symbol('r'), 52: Piece.from_symbol('L')}
        >>> Board().piece_map(mask=WATER | TRAPS_ALL)
        {}
        """
        sq = self._sq
        return {s: Piece.from_code(sq[s]) for s in iter_squares(self.occupied & int(mask))}

    def square_of(self, color: int, animal: int) -> int | None:
        """Where one side's animal stands, or None once it has been captured.

        >>> from doushouqi.jungle.board import Board
        >>> from doushouqi.jungle.squares import ELEPHANT, LION, square_name
        >>> board = Board()
        >>> square_name(board.square_of(RED, ELEPHANT)), board.square_of(BLUE, LION)
        ('a3', 56)
        >>> Board("7/3L3/7/7/7/7/7/7/r6 w").square_of(BLUE, ELEPHANT) is None  # captured
        True
        """
        square = self._where[piece_code(color, animal)]
        return None if square == CAPTURED else square

    def rank_of(self, piece: Piece) -> int:
        """The animal's rank under this rule set (before any trap).

        >>> from doushouqi.jungle.board import Board
        >>> dog, wolf = Piece.from_symbol("D"), Piece.from_symbol("W")
        >>> Board().rank_of(dog), Board().rank_of(wolf)
        (3, 4)
        >>> Board(rules="classic-dog").rank_of(dog), Board(rules="classic-dog").rank_of(wolf)
        (4, 3)
        """
        return self._rank[piece.code]

    def zobrist_hash(self) -> int:
        """The position's 64-bit Zobrist hash (animals and side to move), kept up to date by
        push and pop; equal positions hash equal, whatever moves led to them.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> for move in ("g3g4", "a7a6", "g4g3", "a6a7"):
        ...     _ = board.push_move(move)
        >>> board.zobrist_hash() == Board().zobrist_hash(), len(board.move_stack)
        (True, 4)
        """
        return self._hash

    def history_codes(self) -> list[tuple[int, int, int]]:
        """(moved code, from, to) for every ply since the start; a pass has code 0.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board()
        >>> board.replay(["g3g4", "a7a6"])
        >>> board.history_codes()  # Red's rat (code 1) g3-g4, Blue's rat (9) a7-a6
        [(1, 20, 27), (9, 42, 35)]
        """
        return [(code, frm, to) for frm, to, code, *_ in self._undo]

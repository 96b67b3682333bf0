"""The board's symmetries: a position moved by a map of the squares that keeps the game
(:meth:`~SymmetryMixin.transform`, ``flip_horizontal``) or that swaps the colours as well
(``mirror`` as python-chess's, ``half_turn``). :class:`~doushouqi.jungle.board.Board` inherits
them from :class:`SymmetryMixin`.

>>> from doushouqi.jungle.board import Board
>>> Board().mirror().mirror() == Board() and Board().half_turn().half_turn() == Board()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Self

from doushouqi.jungle.squares import (
    NUM_SQUARES,
    check_symmetry,
    square_flip_horizontal,
    square_half_turn,
    square_mirror,
)

__all__ = ["SymmetryMixin"]


class SymmetryMixin:
    """The symmetries of a position, for :class:`~doushouqi.jungle.board.Board`."""

    if TYPE_CHECKING:  # what the methods use of the board
        turn: int
        _sq: list[int]

        def copy(self, *, stack: bool | int = True) -> Self: ...
        def _set_position(self, codes: list[int], turn: int) -> None: ...

    def transform(self, f: Callable[[int], int]) -> Self:
        """A copy with every animal moved to ``f(square)``, same side to move and counters, no
        history. ``f`` must map the board onto itself with each side's den and traps kept
        (:func:`~doushouqi.jungle.squares.check_symmetry`), such as
        :func:`~doushouqi.jungle.squares.square_flip_horizontal`; ValueError otherwise. For the
        maps that swap the colours, use :meth:`mirror` and :meth:`half_turn`.

        >>> from doushouqi.jungle.board import Board
        >>> board = Board().transform(square_flip_horizontal)
        >>> board.board_fen()
        't5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T'
        >>> Board().transform(square_half_turn)
        Traceback (most recent call last):
        ...
        ValueError: the transform does not map the board onto itself: Red's den d1 goes to d9
        """
        check_symmetry(f)
        codes = [0] * NUM_SQUARES
        for square, code in enumerate(self._sq):
            codes[f(square)] = code
        board = self.copy(stack=False)
        board._set_position(codes, self.turn)
        return board

    def flip_horizontal(self) -> Self:
        """The position mirrored left to right (files a <-> g), no history. The board is
        left-right symmetric, so the game is the same: the legal moves map one to one."""
        return self.transform(square_flip_horizontal)

    def mirror(self) -> Self:
        """The same game with the colours swapped, as python-chess's ``mirror``: the board
        mirrored top to bottom (a1 <-> a9, :func:`~doushouqi.jungle.squares.square_mirror`),
        each animal given to the other side, the other side to move; counters kept, no
        history. (Jungle's start position is not its own mirror: the lion and tiger change
        files. :meth:`half_turn` is the map that keeps it.)

        >>> from doushouqi.jungle.board import Board
        >>> Board().mirror().board_fen()
        't5l/1c3d1/e1w1p1r/7/7/7/R1P1W1E/1D3C1/L5T'
        """
        return self._swap_colors(square_mirror)

    def half_turn(self) -> Self:
        """The same game seen from the other side: the board turned by a half turn (a1 <-> g9,
        :func:`~doushouqi.jungle.squares.square_half_turn`) and the colours swapped, the other
        side to move; counters kept, no history. (This was ``mirror()`` before it took
        python-chess's meaning.)

        >>> from doushouqi.jungle.board import Board
        >>> Board().half_turn() == Board("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b")
        True
        """
        return self._swap_colors(square_half_turn)

    def _swap_colors(self, f: Callable[[int], int]) -> Self:
        check_symmetry(f, swap_colors=True)  # the board's geometry allows it
        codes = [0] * NUM_SQUARES
        for square, code in enumerate(self._sq):
            if code:
                codes[f(square)] = code + 8 if code <= 8 else code - 8
        board = self.copy(stack=False)
        board._set_position(codes, 1 - self.turn)
        return board

"""The animals as values: :class:`Piece`, an animal of one colour (upper-case letter Red).

>>> Piece.from_symbol("T"), Piece.from_symbol("t").color
(Piece.from_symbol('T'), 1)
"""

from __future__ import annotations

from doushouqi.jungle.squares import (
    ANIMAL_LETTERS,
    ANIMAL_NAMES,
    BLUE,
    RED,
    code_animal,
    code_color,
    piece_code,
)

__all__ = ["Piece"]


class Piece:
    """An animal of one colour. ``Piece.from_symbol("L")`` is Red's lion (upper case = Red).

    >>> Piece.from_symbol("r")
    Piece.from_symbol('r')
    >>> Piece.from_symbol("E").animal_name
    'elephant'
    """

    __slots__ = ("animal", "color")

    def __init__(self, animal: int, color: int) -> None:
        self.animal = animal
        self.color = color

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a position-string letter (``R C D W P T L E``, upper case Red, lower
        case Blue); ValueError for anything else.

        >>> piece = Piece.from_symbol("l")
        >>> piece.animal_name, piece.color
        ('lion', 1)
        >>> Piece.from_symbol("K")
        Traceback (most recent call last):
        ...
        ValueError: unknown animal letter 'K' (expected one of RCDWPTLE)
        """
        index = ANIMAL_LETTERS.find(symbol.upper())
        if len(symbol) != 1 or index < 1:
            raise ValueError(f"unknown animal letter {symbol!r} (expected one of RCDWPTLE)")
        return cls(index, RED if symbol.isupper() else BLUE)

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """The piece of a piece code (1..8 Red's rat..elephant, 9..16 Blue's), as the board
        stores them (:meth:`doushouqi.jungle.board.Board.piece_codes`).

        >>> Piece.from_code(1), Piece.from_code(16)
        (Piece.from_symbol('R'), Piece.from_symbol('e'))
        """
        return cls(code_animal(code), code_color(code))

    @property
    def code(self) -> int:
        """The piece code (:func:`doushouqi.jungle.squares.piece_code`): 1..8 for Red,
        9..16 for Blue.

        >>> Piece.from_symbol("R").code, Piece.from_symbol("e").code
        (1, 16)
        """
        return piece_code(self.color, self.animal)

    @property
    def animal_name(self) -> str:
        """The animal's English name, whatever its colour.

        >>> Piece.from_symbol("P").animal_name, Piece.from_symbol("w").animal_name
        ('leopard', 'wolf')
        """
        return ANIMAL_NAMES[self.animal]

    def symbol(self) -> str:
        """The piece's letter in position strings: upper case for Red, lower case for Blue.

        >>> Piece.from_code(7).symbol(), Piece.from_code(15).symbol(), str(Piece.from_code(15))
        ('L', 'l', 'l')
        """
        letter = ANIMAL_LETTERS[self.animal]
        return letter if self.color == RED else letter.lower()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Piece) and (self.animal, self.color) == (other.animal, other.color)

    def __hash__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self) -> str:
        return self.symbol()

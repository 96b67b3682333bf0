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
        index = ANIMAL_LETTERS.find(symbol.upper())
        if len(symbol) != 1 or index < 1:
            raise ValueError(f"unknown animal letter {symbol!r} (expected one of RCDWPTLE)")
        return cls(index, RED if symbol.isupper() else BLUE)

    @classmethod
    def from_code(cls, code: int) -> Piece:
        return cls(code_animal(code), code_color(code))

    @property
    def code(self) -> int:
        return piece_code(self.color, self.animal)

    @property
    def animal_name(self) -> str:
        return ANIMAL_NAMES[self.animal]

    def symbol(self) -> str:
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

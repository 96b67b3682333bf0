"""Board geometry: squares, colours, animals and the precomputed step and jump tables.

Squares are ints 0..62, ``row * 7 + column``: a1 = 0, g1 = 6, a9 = 56, g9 = 62, also named by
the constants ``A1`` ... ``G9``. Sets of squares are bitboards held in plain Python ints (63
squares fit one int), as in python-chess; :class:`SquareSet` wraps one as a mutable set. The
board's symmetries (:func:`square_mirror`, :func:`square_flip_horizontal`,
:func:`square_half_turn`), the check that a square map keeps the board (:func:`check_symmetry`)
and the lines through two squares (:func:`ray`, :func:`between`, as python-chess's) are here
too.

>>> square_name(parse_square("d9"))
'd9'
>>> [square_name(s) for s in iter_squares(TRAPS[RED])]
['c1', 'e1', 'd2']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, MutableSet

__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "A9",
    "ALL_SQUARES",
    "ANIMALS",
    "ANIMAL_LETTERS",
    "ANIMAL_NAMES",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "B9",
    "BLUE",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "C9",
    "CAPTURED",
    "CAT",
    "COLORS",
    "COLOR_NAMES",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "D9",
    "DEN",
    "DENS",
    "DOG",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "E9",
    "ELEPHANT",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "FILE_NAMES",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "G9",
    "JUMPS",
    "LEOPARD",
    "LION",
    "NUM_SQUARES",
    "RANK_NAMES",
    "RAT",
    "RED",
    "SQUARE_NAMES",
    "STEPS",
    "TIGER",
    "TRAPS",
    "TRAPS_ALL",
    "WATER",
    "WOLF",
    "SquareSet",
    "between",
    "bit",
    "check_symmetry",
    "code_animal",
    "code_color",
    "iter_squares",
    "may_stand",
    "parse_square",
    "piece_code",
    "ray",
    "square_flip_horizontal",
    "square_half_turn",
    "square_mirror",
    "square_name",
]

NUM_SQUARES = 63
#: The bitboard of every square (python-chess's ``BB_ALL``).
ALL_SQUARES = (1 << 63) - 1
#: Where a captured animal "stands": a bit outside the board, so that it never blocks a jump
#: and no step or jump table contains it.
CAPTURED = 63
FILE_NAMES = "abcdefg"
RANK_NAMES = "123456789"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]

# Square constants as in python-chess: A1 = 0 ... G9 = 62 (row * 7 + column).
A1, B1, C1, D1, E1, F1, G1 = range(0, 7)
A2, B2, C2, D2, E2, F2, G2 = range(7, 14)
A3, B3, C3, D3, E3, F3, G3 = range(14, 21)
A4, B4, C4, D4, E4, F4, G4 = range(21, 28)
A5, B5, C5, D5, E5, F5, G5 = range(28, 35)
A6, B6, C6, D6, E6, F6, G6 = range(35, 42)
A7, B7, C7, D7, E7, F7, G7 = range(42, 49)
A8, B8, C8, D8, E8, F8, G8 = range(49, 56)
A9, B9, C9, D9, E9, F9, G9 = range(56, 63)

RED, BLUE = 0, 1
COLORS = (RED, BLUE)
COLOR_NAMES = ("red", "blue")

# Animals in default (WANGO) rank order; the number is also the default rank.
RAT, CAT, DOG, WOLF, LEOPARD, TIGER, LION, ELEPHANT = range(1, 9)
ANIMALS = (RAT, CAT, DOG, WOLF, LEOPARD, TIGER, LION, ELEPHANT)
ANIMAL_NAMES = ("", "rat", "cat", "dog", "wolf", "leopard", "tiger", "lion", "elephant")
ANIMAL_LETTERS = " RCDWPTLE"


def piece_code(color: int, animal: int) -> int:
    """Compact piece code: 1..8 for Red's animals, 9..16 for Blue's (0 is an empty square)."""
    return color * 8 + animal


def code_color(code: int) -> int:
    return (code - 1) >> 3


def code_animal(code: int) -> int:
    return ((code - 1) & 7) + 1


def bit(square: int) -> int:
    return 1 << square


def parse_square(name: str) -> int:
    """Square index of a name like ``"c3"``; raises ValueError for anything else."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"invalid square name {name!r} (files a-g, ranks 1-9)") from None


def square_name(square: int) -> str:
    return SQUARE_NAMES[square]


def iter_squares(bb: int) -> Iterator[int]:
    """The squares of a bitboard, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def _mask(*names: str) -> int:
    result = 0
    for name in names:
        result |= bit(parse_square(name))
    return result


WATER = _mask("b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6")
DENS = (parse_square("d1"), parse_square("d9"))
DEN = (bit(DENS[RED]), bit(DENS[BLUE]))
#: TRAPS[c] are the traps around c's own den: an *enemy* animal standing there has rank 0.
TRAPS = (_mask("c1", "e1", "d2"), _mask("c9", "e9", "d8"))
TRAPS_ALL = TRAPS[RED] | TRAPS[BLUE]

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (drow, dcol)


def _on_board(row: int, col: int) -> bool:
    return 0 <= row < 9 and 0 <= col < 7


def _build_steps() -> list[int]:
    steps = []
    for square in range(NUM_SQUARES):
        row, col = divmod(square, 7)
        bb = 0
        for drow, dcol in _DIRECTIONS:
            if _on_board(row + drow, col + dcol):
                bb |= bit((row + drow) * 7 + col + dcol)
        steps.append(bb)
    return steps


def _build_jumps() -> list[tuple[tuple[int, int], ...]]:
    """For each land square, the lake jumps from it: (landing square, water path bitboard)."""
    jumps = []
    for square in range(NUM_SQUARES):
        row, col = divmod(square, 7)
        found = []
        if not WATER & bit(square):
            for drow, dcol in _DIRECTIONS:
                r, c, path = row + drow, col + dcol, 0
                while _on_board(r, c) and WATER & bit(r * 7 + c):
                    path |= bit(r * 7 + c)
                    r, c = r + drow, c + dcol
                if path and _on_board(r, c):
                    found.append((r * 7 + c, path))
        jumps.append(tuple(found))
    return jumps


#: STEPS[s]: the orthogonal neighbours of s.
STEPS = _build_steps()
#: JUMPS[s]: lion/tiger jumps from s as (landing square, water squares crossed).
JUMPS = _build_jumps()


def may_stand(code: int, square: int) -> bool:
    """Whether an animal (piece code) may stand on ``square`` in a position: no animal but a
    rat in the water, none on its own den. These are the placement rules that position
    strings enforce (:mod:`doushouqi.jungle.fen`) and that
    :meth:`doushouqi.jungle.board.Board.status` reports.

    >>> may_stand(piece_code(RED, RAT), parse_square("b4")), may_stand(piece_code(RED, CAT), B4)
    (True, False)
    >>> may_stand(piece_code(BLUE, LION), D9), may_stand(piece_code(BLUE, LION), D1)
    (False, True)
    """
    if square == DENS[code_color(code)]:
        return False
    return code_animal(code) == RAT or not WATER >> square & 1


# ------------------------------------------------------------------------ symmetries


def square_mirror(square: int) -> int:
    """The square mirrored top to bottom (rank 1 <-> 9, file kept), as python-chess's
    ``square_mirror``. With the colours swapped, a position mirrored this way is the same game
    (:meth:`Board.mirror`).

    >>> square_name(square_mirror(C3)), square_name(square_mirror(D9))
    ('c7', 'd1')
    """
    row, column = divmod(square, 7)
    return (8 - row) * 7 + column


def square_half_turn(square: int) -> int:
    """The square a half turn away (a1 <-> g9, d1 <-> d9): the board seen from the other side.
    With the colours swapped, a position turned this way is the same game
    (:meth:`Board.half_turn`); the start position is its own half-turned twin.

    >>> square_name(square_half_turn(C3)), square_name(square_half_turn(D9))
    ('e7', 'd1')
    """
    return NUM_SQUARES - 1 - square


def square_flip_horizontal(square: int) -> int:
    """The square mirrored left to right (file a <-> g, b <-> f, c <-> e; d stays).

    >>> square_name(square_flip_horizontal(A1)), square_name(square_flip_horizontal(D5))
    ('g1', 'd5')
    """
    row, column = divmod(square, 7)
    return row * 7 + 6 - column


def _map_mask(f: Callable[[int], int], bb: int) -> int:
    result = 0
    for square in iter_squares(bb):
        result |= bit(f(square))
    return result


# Cached: Board.mirror/transform check their square map every time, and the check costs more
# than the transform itself. Failures raise and so are never cached.
@functools.lru_cache(maxsize=64)
def check_symmetry(f: Callable[[int], int], *, swap_colors: bool = False) -> None:
    """Raise ValueError unless ``f`` maps the board onto itself: a permutation of the 63
    squares that keeps neighbours neighbours and lake jumps lake jumps, maps the water onto the
    water and each side's den and traps onto those of the same side (of the other side with
    ``swap_colors``). Then the legal moves of a position map one to one onto those of the
    transformed position.

    The board is the same under every rule set (rule sets only change rule options, none of
    which refers to a file or row), so this depends on ``f`` alone.

    >>> check_symmetry(square_flip_horizontal)
    >>> check_symmetry(square_half_turn, swap_colors=True)
    >>> check_symmetry(square_mirror)
    Traceback (most recent call last):
    ...
    ValueError: the transform does not map the board onto itself: Red's den d1 goes to d9
    """
    images = [f(square) for square in range(NUM_SQUARES)]
    if sorted(images) != list(range(NUM_SQUARES)):
        raise ValueError("the transform is not a permutation of the 63 squares")
    g = images.__getitem__

    def fail(what: str) -> ValueError:
        return ValueError(f"the transform does not map the board onto itself: {what}")

    for color in (RED, BLUE):
        other = 1 - color if swap_colors else color
        if g(DENS[color]) != DENS[other]:
            name = ("Red", "Blue")[color]
            raise fail(
                f"{name}'s den {square_name(DENS[color])} goes to {square_name(g(DENS[color]))}"
            )
        if _map_mask(g, TRAPS[color]) != TRAPS[other]:
            raise fail(f"{('Red', 'Blue')[color]}'s traps go elsewhere")
    if _map_mask(g, WATER) != WATER:
        raise fail("the water goes onto land")
    for square in range(NUM_SQUARES):
        if _map_mask(g, STEPS[square]) != STEPS[g(square)]:
            raise fail(f"the neighbours of {square_name(square)} are not kept")
        jumps = {(g(landing), _map_mask(g, path)) for landing, path in JUMPS[square]}
        if jumps != set(JUMPS[g(square)]):
            raise fail(f"the lake jumps from {square_name(square)} are not kept")


# ------------------------------------------------------------------------ lines


def _line_step(a: int, b: int) -> tuple[int, int] | None:
    """The (row, column) step from ``a`` towards ``b`` when they share a row, a column or a
    diagonal (and differ); None otherwise."""
    (ra, ca), (rb, cb) = divmod(a, 7), divmod(b, 7)
    dr, dc = rb - ra, cb - ca
    if (dr, dc) == (0, 0) or (dr and dc and abs(dr) != abs(dc)):
        return None
    return (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)


def _walk(square: int, step: tuple[int, int]) -> Iterator[int]:
    row, column = divmod(square, 7)
    row, column = row + step[0], column + step[1]
    while _on_board(row, column):
        yield row * 7 + column
        row, column = row + step[0], column + step[1]


def ray(a: int, b: int) -> int:
    """The bitboard of the whole line (row, column or diagonal) through ``a`` and ``b``, edge
    to edge; 0 when they share none (or are the same square), as python-chess's ``ray``.

    >>> SquareSet(ray(A1, C3)) == [A1, B2, C3, D4, E5, F6, G7], ray(A1, B3)
    (True, 0)
    """
    step = _line_step(a, b)
    if step is None:
        return 0
    mask = bit(a)
    for square in (*_walk(a, step), *_walk(a, (-step[0], -step[1]))):
        mask |= bit(square)
    return mask


def between(a: int, b: int) -> int:
    """The bitboard of the squares strictly between ``a`` and ``b`` on their line (0 when
    they share none or are neighbours), as python-chess's ``between``: for a lake jump,
    ``between(from, to)`` is the water it crosses.

    >>> SquareSet(between(B3, B7)) == JUMPS[B3][0][1]
    True
    """
    step = _line_step(a, b)
    mask = 0
    if step is None:
        return 0
    for square in _walk(a, step):
        if square == b:
            return mask
        mask |= bit(square)
    return 0


# ------------------------------------------------------------------------ square sets


def _mask_of(squares: int | Iterable[int]) -> int:
    """The bitboard of an int mask, a SquareSet or any iterable of squares."""
    if isinstance(squares, SquareSet):
        return squares.mask
    if isinstance(squares, int):
        if not 0 <= squares < 1 << NUM_SQUARES:
            raise ValueError(f"not a bitboard of the 63 squares: {squares:#x}")
        return squares
    mask = 0
    for square in squares:
        if not isinstance(square, int) or not 0 <= square < NUM_SQUARES:
            raise ValueError(f"not a square: {square!r} (expected 0..62)")
        mask |= 1 << square
    return mask


class SquareSet:
    """A mutable set of squares held as a bitboard (``mask``), like python-chess's.

    It iterates lowest square first, supports ``len``, ``in``, ``|``, ``&``, ``-``, ``^``
    (with another SquareSet, an int mask or any iterable of squares), the comparisons
    ``<=``/``<``/``>=``/``>`` (subset, superset), and equals any of those with the same
    squares, so that it can stand in for the lists that :meth:`Board.attackers` used to return.
    It is a :class:`collections.abc.MutableSet` (registered) but, being mutable, not hashable.

    >>> squares = SquareSet([D3, C1])
    >>> squares
    SquareSet([C1, D3])
    >>> len(squares), D3 in squares, A1 in squares, [square_name(s) for s in squares]
    (2, True, False, ['c1', 'd3'])
    >>> squares | SquareSet.from_square(A1), squares & [C1, G9], squares == [D3, C1]
    (SquareSet([A1, C1, D3]), SquareSet([C1]), True)
    >>> SquareSet(TRAPS[RED]) <= TRAPS_ALL, bool(SquareSet())
    (True, False)
    """

    __slots__ = ("mask",)

    def __init__(self, squares: int | Iterable[int] = 0) -> None:
        self.mask: int = _mask_of(squares)

    @classmethod
    def from_square(cls, square: int) -> SquareSet:
        """The set of one square."""
        return cls(_mask_of((square,)))

    @classmethod
    def ray(cls, a: int, b: int) -> SquareSet:
        """:func:`ray` as a set."""
        return cls(ray(a, b))

    @classmethod
    def between(cls, a: int, b: int) -> SquareSet:
        """:func:`between` as a set."""
        return cls(between(a, b))

    def mirror(self) -> SquareSet:
        """The squares mirrored top to bottom (:func:`square_mirror`), as python-chess's.

        >>> SquareSet([A1, D2]).mirror()
        SquareSet([D8, A9])
        """
        return SquareSet(_map_mask(square_mirror, self.mask))

    def tolist(self) -> list[bool]:
        """63 booleans, one per square: whether it is in the set (python-chess's has 64)."""
        return [bool(self.mask >> square & 1) for square in range(NUM_SQUARES)]

    # Set protocol ------------------------------------------------------------------
    def __contains__(self, square: object) -> bool:
        return (
            isinstance(square, int) and 0 <= square < NUM_SQUARES and bool(self.mask >> square & 1)
        )

    def __iter__(self) -> Iterator[int]:
        return iter_squares(self.mask)

    def __reversed__(self) -> Iterator[int]:
        return iter(sorted(iter_squares(self.mask), reverse=True))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        try:
            return self.mask == _mask_of(other)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like set

    def __repr__(self) -> str:
        return f"SquareSet([{', '.join(SQUARE_NAMES[s].upper() for s in self)}])"

    def __str__(self) -> str:
        """A diagram, row 9 at the top: ``1`` for a square in the set, ``.`` otherwise."""
        rows = []
        for row in range(8, -1, -1):
            rows.append(" ".join("1" if self.mask >> (row * 7 + c) & 1 else "." for c in range(7)))
        return "\n".join(rows)

    # Operators ----------------------------------------------------------------------
    def __or__(self, other: int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask | _mask_of(other))

    def __and__(self, other: int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask & _mask_of(other))

    def __sub__(self, other: int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask & ~_mask_of(other))

    def __xor__(self, other: int | Iterable[int]) -> SquareSet:
        return SquareSet(self.mask ^ _mask_of(other))

    __ror__, __rand__, __rxor__ = __or__, __and__, __xor__

    def __invert__(self) -> SquareSet:
        """Every square of the board not in the set."""
        return SquareSet(ALL_SQUARES & ~self.mask)

    def __rsub__(self, other: int | Iterable[int]) -> SquareSet:
        return SquareSet(_mask_of(other) & ~self.mask)

    def __ior__(self, other: int | Iterable[int]) -> SquareSet:
        self.mask |= _mask_of(other)
        return self

    def __iand__(self, other: int | Iterable[int]) -> SquareSet:
        self.mask &= _mask_of(other)
        return self

    def __isub__(self, other: int | Iterable[int]) -> SquareSet:
        self.mask &= ~_mask_of(other)
        return self

    def __ixor__(self, other: int | Iterable[int]) -> SquareSet:
        self.mask ^= _mask_of(other)
        return self

    def __le__(self, other: int | Iterable[int]) -> bool:
        return not self.mask & ~_mask_of(other)

    def __ge__(self, other: int | Iterable[int]) -> bool:
        return not _mask_of(other) & ~self.mask

    def __lt__(self, other: int | Iterable[int]) -> bool:
        return self <= other and self.mask != _mask_of(other)

    def __gt__(self, other: int | Iterable[int]) -> bool:
        return self >= other and self.mask != _mask_of(other)

    # Named methods (as on set) ----------------------------------------------------------
    union = __or__
    intersection = __and__
    difference = __sub__
    symmetric_difference = __xor__
    issubset = __le__
    issuperset = __ge__

    def isdisjoint(self, other: int | Iterable[int]) -> bool:
        """Whether no square is in both."""
        return not self.mask & _mask_of(other)

    def copy(self) -> SquareSet:
        """An independent set of the same squares."""
        return SquareSet(self.mask)

    def add(self, square: int) -> None:
        """Add a square (0..62)."""
        self.mask |= _mask_of((square,))

    def discard(self, square: int) -> None:
        """Remove a square if it is in the set."""
        self.mask &= ~_mask_of((square,))

    def remove(self, square: int) -> None:
        """Remove a square; KeyError if it is not in the set."""
        if square not in self:
            raise KeyError(square)
        self.mask ^= 1 << square

    def pop(self) -> int:
        """Remove and return the lowest square; KeyError when empty."""
        if not self.mask:
            raise KeyError("pop from an empty SquareSet")
        low = self.mask & -self.mask
        self.mask ^= low
        return low.bit_length() - 1

    def clear(self) -> None:
        """Remove every square."""
        self.mask = 0


MutableSet.register(SquareSet)

"""Board geometry: squares, colours, animals and the precomputed step and jump tables.

Squares are ints 0..62, ``row * 7 + column``: a1 = 0, g1 = 6, a9 = 56, g9 = 62. Sets of squares
are bitboards held in plain Python ints (63 squares fit one int), as in python-chess.

>>> square_name(parse_square("d9"))
'd9'
>>> [square_name(s) for s in iter_squares(TRAPS[RED])]
['c1', 'e1', 'd2']
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "ANIMALS",
    "ANIMAL_LETTERS",
    "ANIMAL_NAMES",
    "BLUE",
    "CAPTURED",
    "CAT",
    "COLORS",
    "COLOR_NAMES",
    "DEN",
    "DENS",
    "DOG",
    "ELEPHANT",
    "FILE_NAMES",
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
    "bit",
    "code_animal",
    "code_color",
    "iter_squares",
    "parse_square",
    "piece_code",
    "square_name",
]

NUM_SQUARES = 63
#: Where a captured animal "stands": a bit outside the board, so that it never blocks a jump
#: and no step or jump table contains it.
CAPTURED = 63
FILE_NAMES = "abcdefg"
RANK_NAMES = "123456789"
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]

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

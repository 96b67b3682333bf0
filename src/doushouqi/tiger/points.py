"""The board of 老虎棋: its 87 points, the lines joining them, and the jumps along them.

The points are where the lines of an 8 × 8 grid of squares cross (files a–i, ranks 1–9, the
men's side at rank 1), plus the tiger's nest (虎巢): a 2 × 2 block of squares on top of the
middle of the upper edge, whose 3 × 3 points are d9 e9 f9 (shared with the board), d10 e10
f10 and d11 e11 f11. Points are named like squares (``a1``, ``e10``) and numbered 0–86:
``(rank - 1) * 9 + file`` for the 81 points of the board (a1 = 0, i9 = 80), then d10 e10 f10
(81–83) and d11 e11 f11 (84–86).

Lines join neighbouring points: every orthogonal segment (154), and diagonals by the rule
option ``diagonals`` (:class:`Diagonals`): none, both diagonals of each of the nest's four
squares, or both diagonals of every square. Everything a move generator needs is built here
once, at import, for each of the three: the neighbours of each point (:data:`NEIGHBOURS`) and
the jumps from it (:data:`JUMPS`: the point jumped over and the landing point, on one straight
line, both segments being lines), as python-chess precomputes its attack tables.

Why jumps need both segments to be lines: a jump runs *along* a line. Under ``nest`` the line
d9–e10 exists but c8–d9 does not, so a tiger on c8 cannot jump d9 to e10 although the three
points are in a row.

>>> len(POINTS), point_name(0), point_name(82), parse_point("f11")
(87, 'a1', 'e10', 86)
>>> [len(LINES[d]) for d in Diagonals]
[154, 162, 290]
>>> [point_name(p) for p in NEIGHBOURS[Diagonals.NONE][parse_point("e10")]]
['e9', 'd10', 'f10', 'e11']
>>> [(point_name(o), point_name(t)) for o, t in JUMPS[Diagonals.NONE][parse_point("e9")]]
[('e8', 'e7'), ('d9', 'c9'), ('f9', 'g9'), ('e10', 'e11')]

:data:`NEST` is a bit mask of the nest's points, :data:`BETWEEN` the man a jump takes:

>>> [point_name(p) for p in POINTS if NEST >> p & 1][:4], NUM_POINTS - bin(NEST).count("1")
(['d9', 'e9', 'f9', 'd10'], 78)
>>> point_name(BETWEEN[parse_point("e5"), parse_point("e7")])
'e6'
>>> [FILE_NAMES[point_file(p)] for p in (parse_point("a1"), parse_point("f11"))]
['a', 'f']
"""

from __future__ import annotations

import enum

__all__ = [
    "BETWEEN",
    "FILE_NAMES",
    "JUMPS",
    "LINES",
    "NEIGHBOURS",
    "NEST",
    "NUM_POINTS",
    "POINTS",
    "Diagonals",
    "is_line",
    "parse_point",
    "point_at",
    "point_file",
    "point_name",
    "point_rank",
]


class Diagonals(enum.Enum):
    """Which diagonals are lines (rule option ``diagonals``).

    >>> e9 = parse_point("e9")
    >>> [len(NEIGHBOURS[diagonals][e9]) for diagonals in Diagonals]
    [4, 6, 8]
    >>> Diagonals("nest")
    <Diagonals.NEST: 'nest'>
    """

    #: No diagonal: every line is orthogonal (the default).
    NONE = "none"
    #: Both diagonals of each of the nest's four squares (the 米 pattern of 北京虎棋).
    NEST = "nest"
    #: Both diagonals of every square, board and nest.
    ALL = "all"


#: The files' letters, a (file 0) to i (file 8).
FILE_NAMES = "abcdefghi"
#: The points of the board, rank 1 to 9, then the nest's ranks 10 and 11 (files d–f).
NUM_POINTS = 87
#: Every point number, 0 to 86 (a range, to loop over the board).
POINTS = range(NUM_POINTS)

_NEST_FILES = (3, 4, 5)  # d, e, f
#: (file, rank) of every point, file 0 = a, rank 1 = 1.
_COORDS: tuple[tuple[int, int], ...] = tuple(
    [(file, rank) for rank in range(1, 10) for file in range(9)]
    + [(file, rank) for rank in (10, 11) for file in _NEST_FILES]
)
_AT: dict[tuple[int, int], int] = {xy: point for point, xy in enumerate(_COORDS)}
_NAMES: tuple[str, ...] = tuple(f"{FILE_NAMES[f]}{r}" for f, r in _COORDS)
_BY_NAME: dict[str, int] = {name: point for point, name in enumerate(_NAMES)}

#: The nest's nine points (d9 e9 f9, d10 e10 f10, d11 e11 f11) as a bit mask.
NEST = sum(1 << _AT[f, r] for f in _NEST_FILES for r in (9, 10, 11))


def point_name(point: int) -> str:
    """The point's name, ``a1`` … ``i9``, ``d10`` … ``f11``.

    >>> point_name(0), point_name(40), point_name(86)
    ('a1', 'e5', 'f11')
    """
    return _NAMES[point]


def parse_point(name: str) -> int:
    """The point named ``name`` (lower case, as :func:`point_name` writes it).

    >>> parse_point("a10")
    Traceback (most recent call last):
    ...
    ValueError: no point 'a10' on the board (files a-i, ranks 1-9; d-f also on ranks 10 and 11)
    """
    point = _BY_NAME.get(name) if isinstance(name, str) else None
    if point is None:
        raise ValueError(
            f"no point {name!r} on the board (files a-i, ranks 1-9; d-f also on ranks 10 and 11)"
        )
    return point


def point_file(point: int) -> int:
    """The point's file, 0 (a) to 8 (i).

    >>> point_file(parse_point("e10")), point_file(parse_point("i1"))
    (4, 8)
    """
    return _COORDS[point][0]


def point_rank(point: int) -> int:
    """The point's rank, 1 to 11.

    >>> point_rank(parse_point("e10")), point_rank(parse_point("i1"))
    (10, 1)
    """
    return _COORDS[point][1]


def point_at(file: int, rank: int) -> int | None:
    """The point at ``file`` (0 = a) and ``rank``, or None where there is none.

    >>> point_name(point_at(4, 10)), point_at(0, 10)
    ('e10', None)
    """
    return _AT.get((file, rank))


def _is_square(file: int, rank: int) -> bool:
    """Whether the square with lower-left corner (file, rank) is one of the board's or nest's."""
    on_board = 0 <= file <= 7 and 1 <= rank <= 8
    in_nest = file in (3, 4) and rank in (9, 10)
    return on_board or in_nest


def _diagonal_is_line(a: tuple[int, int], b: tuple[int, int], diagonals: Diagonals) -> bool:
    """Whether the diagonal segment a-b (one square's diagonal) is a line under ``diagonals``."""
    file, rank = min(a[0], b[0]), min(a[1], b[1])
    if diagonals is Diagonals.NONE or not _is_square(file, rank):
        return False
    return diagonals is Diagonals.ALL or rank >= 9


_ORTHOGONAL = ((0, -1), (-1, 0), (1, 0), (0, 1))
_DIAGONAL = ((-1, -1), (1, -1), (-1, 1), (1, 1))


def _segment_is_line(a: tuple[int, int], b: tuple[int, int], diagonals: Diagonals) -> bool:
    if a not in _AT or b not in _AT:
        return False
    if a[0] == b[0] or a[1] == b[1]:
        return True
    return _diagonal_is_line(a, b, diagonals)


def _build(
    diagonals: Diagonals,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """Neighbours and jumps of every point: directions in a fixed order (down, left, right,
    up, then the diagonals), so that move lists come out in a stable order."""
    neighbours, jumps = [], []
    for f, r in _COORDS:
        steps, leaps = [], []
        for df, dr in _ORTHOGONAL + _DIAGONAL:
            near, far = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
            if not _segment_is_line((f, r), near, diagonals):
                continue
            steps.append(_AT[near])
            if _segment_is_line(near, far, diagonals):
                leaps.append((_AT[near], _AT[far]))
        neighbours.append(tuple(steps))
        jumps.append(tuple(leaps))
    return tuple(neighbours), tuple(jumps)


_TABLES = {diagonals: _build(diagonals) for diagonals in Diagonals}

#: The neighbours of each point under each ``diagonals`` option (where a step may go).
NEIGHBOURS: dict[Diagonals, tuple[tuple[int, ...], ...]] = {
    d: tables[0] for d, tables in _TABLES.items()
}
#: The jumps from each point under each ``diagonals`` option: (point jumped over, landing
#: point), the three points on one straight line and both segments lines.
JUMPS: dict[Diagonals, tuple[tuple[tuple[int, int], ...], ...]] = {
    d: tables[1] for d, tables in _TABLES.items()
}
#: Every line under each option, as (lower point, higher point), sorted.
LINES: dict[Diagonals, tuple[tuple[int, int], ...]] = {
    d: tuple(sorted({(min(a, b), max(a, b)) for a in POINTS for b in NEIGHBOURS[d][a]}))
    for d in Diagonals
}

#: The point between two points two steps apart on a straight line (orthogonal or diagonal),
#: by (from, to): the man a jump from ``from`` to ``to`` takes. Independent of the lines, so
#: that playing a move needs no rule set.
BETWEEN: dict[tuple[int, int], int] = {
    (a, _AT[fa + 2 * df, ra + 2 * dr]): _AT[fa + df, ra + dr]
    for a, (fa, ra) in enumerate(_COORDS)
    for df, dr in _ORTHOGONAL + _DIAGONAL
    if (fa + df, ra + dr) in _AT and (fa + 2 * df, ra + 2 * dr) in _AT
}


def is_line(a: int, b: int, diagonals: Diagonals) -> bool:
    """Whether points ``a`` and ``b`` are neighbours joined by a line under ``diagonals``.

    >>> e9, d10 = parse_point("e9"), parse_point("d10")
    >>> is_line(e9, d10, Diagonals.NONE), is_line(e9, d10, Diagonals.NEST)
    (False, True)
    >>> is_line(parse_point("c8"), parse_point("d9"), Diagonals.NEST)  # below the nest
    False
    """
    return b in NEIGHBOURS[diagonals][a]

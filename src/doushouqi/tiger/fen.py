"""Position strings of 老虎棋 (docs/tiger.md, "Position strings"): reading, every field
checked, and writing.

A position string has two to four fields separated by spaces, in the style of Jungle's
(docs/rules.md 7a):

1. the placement: the ranks from 11 down to 1 separated by ``/``; ranks 11 and 10 hold only
   the nest's files d–f (3 points each), ranks 9 to 1 the files a–i (9 points each). ``T`` is
   a tiger, ``M`` a man, a digit a run of empty points (two digits never follow each
   other);
2. the side to move: ``t`` the tiger side, ``m`` the men's side;
3. the halfmove clock, the moves (plies, passes included) played since the last capture:
   ASCII digits, 0 to :data:`MAX_HALFMOVE_CLOCK`; 0 when left out;
4. the move number: ASCII digits, 1 to :data:`MAX_MOVE_NUMBER`; 1 when left out. It counts
   rounds: it grows after each move of the side that did not move first under the rule set.

Letters are upper case and sides lower case, exactly; :func:`write_position` always writes
all four fields. Anything else is a :class:`~doushouqi.core.game.PositionError` that says
what and where. Whether the pieces fit a rule set (the number of tigers, no more men than it
starts with) is the board's check, which knows the rule set.

>>> START = "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"
>>> pieces, turn, halfmove, number = parse_position(START)
>>> pieces.count(TIGER), pieces.count(MAN), turn, write_position(pieces, turn, 0, 1) == START
(1, 12, 0, True)
>>> pieces.count(EMPTY), "".join(PIECE_LETTERS[code] for code in pieces if code != EMPTY)
(74, 'MMMMMMMMMMMMT')

The counters are bounded, so that every position can be written and read back:

>>> parse_position(f"3/1T1/9/9/9/9/9/9/9/9/9 m {MAX_HALFMOVE_CLOCK} {MAX_MOVE_NUMBER}")[2:]
(9999, 9999)
>>> parse_position(f"3/1T1/9/9/9/9/9/9/9/9/9 m {MAX_HALFMOVE_CLOCK + 1}")
Traceback (most recent call last):
...
doushouqi.core.game.PositionError: invalid position string '3/1T1/9/9/9/9/9/9/9/9/9 m 10000': the
halfmove clock must be a whole number from 0 to 9999, got '10000'
"""

from __future__ import annotations

from collections.abc import Sequence

from doushouqi.core.game import PositionError
from doushouqi.tiger.points import NUM_POINTS, point_at

__all__ = [
    "EMPTY",
    "MAN",
    "MAX_HALFMOVE_CLOCK",
    "MAX_MOVE_NUMBER",
    "PIECE_LETTERS",
    "TIGER",
    "PositionError",
    "parse_position",
    "placement",
    "write_position",
]

#: What a point holds: nothing, a tiger (the tiger side's piece, seat 0) or a man (seat 1).
#: A piece's code is its side's seat + 1.
EMPTY, TIGER, MAN = 0, 1, 2
#: The placement's letter of each piece code.
PIECE_LETTERS = {TIGER: "T", MAN: "M"}
_CODES = {"T": TIGER, "M": MAN}
_SIDES = {"t": 0, "m": 1}

#: The largest halfmove clock a position string may hold (the board's clock stops there).
MAX_HALFMOVE_CLOCK = 9999
#: The largest move number a position string may hold (the board's number stops there).
MAX_MOVE_NUMBER = 9999

#: The points of each row of the placement, rank 11 first, each row's files in order.
_ROWS: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (rank, tuple(p for file in range(9) if (p := point_at(file, rank)) is not None))
    for rank in range(11, 0, -1)
)


def parse_position(text: str) -> tuple[list[int], int, int, int]:
    """The piece on each of the 87 points, the side to move (0 tiger, 1 men), the halfmove
    clock and the move number of a position string.

    >>> parse_position("3/1T1/9/9/9/9/9/9/9/9/9 m")[1:]
    (1, 0, 1)
    >>> parse_position("3/1T1/9/9/9/9/9/9/9/9/9 x")
    Traceback (most recent call last):
    ...
    doushouqi.core.game.PositionError: invalid position string '3/1T1/9/9/9/9/9/9/9/9/9 x': the
    side to move must be 't' (tiger) or 'm' (men), got 'x'
    """
    if not isinstance(text, str):
        raise PositionError(f"a position string must be text, got {type(text).__name__}")
    shown = text if len(text) <= 120 else text[:117] + "..."
    parts = text.split()
    if not 2 <= len(parts) <= 4:
        raise PositionError(
            f"invalid position string {shown!r}: expected the placement, the side to move "
            f"and optionally the halfmove clock and the move number"
        )
    rows = parts[0].split("/")
    if len(rows) != len(_ROWS):
        raise PositionError(
            f"invalid position string {shown!r}: expected 11 ranks separated by '/' (11 down "
            f"to 1), got {len(rows)}"
        )
    pieces = [EMPTY] * NUM_POINTS
    for row_text, (rank, points) in zip(rows, _ROWS, strict=True):
        _read_row(shown, row_text, rank, points, pieces)
    side = _SIDES.get(parts[1])
    if side is None:
        raise PositionError(
            f"invalid position string {shown!r}: the side to move must be 't' (tiger) or "
            f"'m' (men), got {parts[1][:20]!r}"
        )
    halfmove = (
        _counter(shown, parts[2], "halfmove clock", 0, MAX_HALFMOVE_CLOCK) if parts[2:] else 0
    )
    number = _counter(shown, parts[3], "move number", 1, MAX_MOVE_NUMBER) if parts[3:] else 1
    return pieces, side, halfmove, number


def _read_row(shown: str, text: str, rank: int, points: tuple[int, ...], pieces: list[int]) -> None:
    width = len(points)
    files = "d-f" if width == 3 else "a-i"
    too_many = (
        f"invalid position string {shown!r}: rank {rank} ({text[:20]!r}) has more than "
        f"{width} points (files {files})"
    )
    column = 0
    previous_digit = False
    for char in text:
        if char in "0123456789":  # ASCII only: str.isdigit() also takes '²'
            if previous_digit or char == "0":
                raise PositionError(
                    f"invalid position string {shown!r}: bad count of empty points in rank "
                    f"{rank} ({text[:20]!r}): 1 to 9, never two digits in a row"
                )
            column += int(char)
            previous_digit = True
            if column > width:
                raise PositionError(too_many)
            continue
        previous_digit = False
        code = _CODES.get(char)
        if code is None:
            raise PositionError(
                f"invalid position string {shown!r}: unknown letter {char[:1]!r} in rank "
                f"{rank} (T a tiger, M a man, a digit empty points)"
            )
        if column >= width:
            raise PositionError(too_many)
        pieces[points[column]] = code
        column += 1
    if column != width:
        raise PositionError(
            f"invalid position string {shown!r}: rank {rank} ({text[:20]!r}) has {column} "
            f"points, expected {width} (files {files})"
        )


def placement(pieces: Sequence[int]) -> str:
    """The placement field for the piece on each point, rank 11 first.

    >>> pieces = [EMPTY] * 87
    >>> pieces[82], pieces[40] = TIGER, MAN  # e10 and e5
    >>> placement(pieces)
    '3/1T1/9/9/9/9/4M4/9/9/9/9'
    """
    rows = []
    for _, points in _ROWS:
        text, empty = "", 0
        for point in points:
            code = pieces[point]
            if not code:
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            text += PIECE_LETTERS[code]
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def write_position(pieces: Sequence[int], turn: int, halfmove: int, number: int) -> str:
    """The whole position string (all four fields): the placement, the side to move
    (``turn`` 0 the tiger side, 1 the men), the halfmove clock and the move number.

    >>> pieces, turn, _, _ = parse_position("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m")
    >>> write_position(pieces, turn, 3, 12)
    '3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m 3 12'
    """
    return f"{placement(pieces)} {'tm'[turn]} {halfmove} {number}"


def _counter(shown: str, text: str, name: str, lowest: int, highest: int) -> int:
    # ASCII digits only: int() would also take "+1", "1_000" and "١٢"; the length is checked
    # first, as int() of thousands of digits is slow.
    digits = text.lstrip("0") or "0"
    valid = text.isascii() and text.isdigit() and len(digits) <= len(str(highest))
    if not (valid and lowest <= int(digits) <= highest):
        raise PositionError(
            f"invalid position string {shown!r}: the {name} must be a whole number from "
            f"{lowest} to {highest}, got {text[:20]!r}"
        )
    return int(digits)

"""Position strings (FEN-like, docs/rules.md 7a): reading one, every field checked; writing the
placement.

A position string has two to four fields separated by spaces:

1. the placement: rows 9 to 1 separated by ``/``, files a to g, the digits 1-7 for runs of
   empty squares, the letters ``R C D W P T L E`` (rat ... elephant), upper case Red, lower
   case Blue; at most one of each animal, no animal but a rat in the water, none on its own den;
2. the side to move: ``w`` (or ``r``) Red, ``b`` Blue;
3. the halfmove clock (plies since the last capture): ASCII digits, 0 to
   :data:`MAX_HALFMOVE_CLOCK`; 0 when left out;
4. the move number: ASCII digits, 1 to :data:`MAX_MOVE_NUMBER`; 1 when left out.

Anything else is an :class:`InvalidFenError` that says what and where, so that every consumer
of a position string (the board, the engine, the server) accepts exactly the same ones.
:meth:`doushouqi.jungle.board.Board.fen` writes them (its placement: :func:`placement_fen`).

>>> parse_fen(f"7/7/7/7/7/7/7/7/6L b {MAX_HALFMOVE_CLOCK} {MAX_MOVE_NUMBER}")[1:]
(1, 9999, 9999)
>>> parse_fen(f"7/7/7/7/7/7/7/7/6L b 0 {MAX_MOVE_NUMBER + 1}")
Traceback (most recent call last):
...
doushouqi.jungle.fen.InvalidFenError: invalid position string '7/7/7/7/7/7/7/7/6L b 0 10000': the
move number must be a whole number from 1 to 9999, got '10000'
"""

from __future__ import annotations

from collections.abc import Sequence

from doushouqi.jungle.squares import (
    ANIMAL_LETTERS,
    ANIMAL_NAMES,
    BLUE,
    COLOR_NAMES,
    DENS,
    RED,
    may_stand,
    piece_code,
    square_name,
)

__all__ = [
    "MAX_HALFMOVE_CLOCK",
    "MAX_MOVE_NUMBER",
    "InvalidFenError",
    "parse_fen",
    "placement_fen",
]

# The start position's placement (the side to move depends on the rule set: the board adds it).
STARTING_BOARD_FEN = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L"

#: The largest halfmove clock and move number a position string may give: far beyond any real
#: game (the no-capture limits in use are 200 plies; the server allows at most 2000), and far
#: from overflowing the engine's 64-bit counters.
MAX_HALFMOVE_CLOCK = 9999
#: The largest move number a position string may give (as :data:`MAX_HALFMOVE_CLOCK`).
MAX_MOVE_NUMBER = 9999


class InvalidFenError(ValueError):
    """A position string is malformed; the message says what and where. A ValueError.

    >>> try:
    ...     parse_fen("7/7/7/7/7/7/7/7/6L x")
    ... except InvalidFenError as error:
    ...     print(error)
    invalid position string '7/7/7/7/7/7/7/7/6L x': side to move must be 'w' (or 'r') for Red or
    'b' for Blue, got 'x'
    """


def parse_fen(fen: str) -> tuple[list[int], int, int, int]:
    """The 63 piece codes, side to move, halfmove clock and move number of a position string.

    >>> parse_fen("7/7/7/7/7/7/7/7/6L b 12 40")[1:]
    (1, 12, 40)
    >>> parse_fen("7/7/7/7/7/7/7/7/6L b 12 10000")
    Traceback (most recent call last):
    ...
    doushouqi.jungle.fen.InvalidFenError: ... the move number must be a whole number from 1 to
    9999, ...
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"position string must be text, got {type(fen).__name__}")
    parts = fen.split()
    if not 2 <= len(parts) <= 4:
        raise InvalidFenError(
            f"invalid position string {fen!r}: expected placement, side to "
            f"move and optionally the halfmove clock and move number"
        )
    rows = parts[0].split("/")
    if len(rows) != 9:
        raise InvalidFenError(
            f"invalid position string {fen!r}: expected 9 rows separated by '/', got {len(rows)}"
        )
    codes = [0] * 63
    seen: dict[int, str] = {}
    for index, text in enumerate(rows):
        rank = 9 - index
        column = 0
        previous_digit = False
        for char in text:
            if char in "0123456789":  # ASCII only: str.isdigit() also accepts '²'
                if previous_digit or char in "089":
                    raise InvalidFenError(
                        f"invalid position string {fen!r}: bad empty-square "
                        f"count in row {rank} ({text!r})"
                    )
                column += int(char)
                previous_digit = True
                continue
            previous_digit = False
            animal = ANIMAL_LETTERS.find(char.upper())
            if animal < 1:
                raise InvalidFenError(
                    f"invalid position string {fen!r}: unknown letter "
                    f"{char!r} in row {rank} (animals are R C D W P T L E, "
                    f"upper case Red, lower case Blue)"
                )
            color = RED if char.isupper() else BLUE
            code = piece_code(color, animal)
            if column >= 7:
                raise InvalidFenError(
                    f"invalid position string {fen!r}: row {rank} ({text!r}) "
                    f"has more than 7 squares"
                )
            square = (rank - 1) * 7 + column
            name = f"{COLOR_NAMES[color]} {ANIMAL_NAMES[animal]}"
            if code in seen:
                raise InvalidFenError(
                    f"invalid position string {fen!r}: more than one "
                    f"{name} (on {seen[code]} and {square_name(square)})"
                )
            if not may_stand(code, square):
                if square == DENS[color]:
                    raise InvalidFenError(
                        f"invalid position string {fen!r}: the {name} stands on "
                        f"its own den {square_name(square)}"
                    )
                raise InvalidFenError(
                    f"invalid position string {fen!r}: the {name} stands in "
                    f"the water on {square_name(square)}; only rats swim"
                )
            seen[code] = square_name(square)
            codes[square] = code
            column += 1
        if column != 7:
            raise InvalidFenError(
                f"invalid position string {fen!r}: row {rank} ({text!r}) has "
                f"{column} squares, expected 7"
            )
    side = parts[1].lower()
    if side not in ("w", "r", "b"):
        raise InvalidFenError(
            f"invalid position string {fen!r}: side to move must be 'w' (or "
            f"'r') for Red or 'b' for Blue, got {parts[1]!r}"
        )
    halfmove = _counter(fen, parts[2], "halfmove clock", 0, MAX_HALFMOVE_CLOCK) if parts[2:] else 0
    fullmove = _counter(fen, parts[3], "move number", 1, MAX_MOVE_NUMBER) if parts[3:] else 1
    return codes, (BLUE if side == "b" else RED), halfmove, fullmove


# The letter of each piece code (0 empty: a placeholder that the runs below turn into digits).
_CODE_LETTERS = bytes.maketrans(
    bytes(range(17)), ("." + ANIMAL_LETTERS[1:] + ANIMAL_LETTERS[1:].lower()).encode()
)
# Runs of empty squares, longest first: a row has 7 squares.
_EMPTY_RUNS = tuple(("." * length, str(length)) for length in range(7, 0, -1))


def placement_fen(codes: Sequence[int]) -> str:
    """The placement field for the 63 piece codes (0 empty), rows 9 to 1.

    >>> placement_fen(parse_fen("7/7/7/7/7/7/7/7/6L b")[0])
    '7/7/7/7/7/7/7/7/6L'
    >>> placement_fen(parse_fen("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w")[0])
    'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L'
    """
    # The server writes this after every move. Each row's text is kept, by its seven codes'
    # bytes: a game's rows change two at a time, and games share most of theirs (a few
    # thousand rows in a thousand games), so most rows are a slice and a lookup.
    cells = bytes(codes)
    known = _ROW_TEXTS
    rows = []
    for start in _ROW_STARTS:
        row = cells[start : start + 7]
        text = known.get(row)
        if text is None:
            if len(known) >= _ROW_TEXTS_KEPT:
                known.clear()
            text = known[row] = _row_text(row)
        rows.append(text)
    return "/".join(rows)


def _row_text(row: bytes) -> str:
    """One row's part of the placement field, from its seven codes' bytes."""
    text = row.translate(_CODE_LETTERS).decode()
    for run, digits in _EMPTY_RUNS:
        if run in text:
            text = text.replace(run, digits)
    return text


# The rows from the ninth (Blue's side, written first) to the first, by their first square.
_ROW_STARTS = tuple(range(56, -1, -7))
#: Rows whose text :func:`placement_fen` keeps (about 130 bytes each, a megabyte in all);
#: past it, it starts again.
_ROW_TEXTS_KEPT = 8192
_ROW_TEXTS: dict[bytes, str] = {}


def _counter(fen: str, text: str, name: str, lowest: int, highest: int) -> int:
    """A counter field of a position string, from ``lowest`` to ``highest``."""
    # ASCII digits only: int() would also take "+1", " 1", "1_000" and "١٢". The length
    # check first, since int() of thousands of digits is slow (and refused past 4300).
    digits = text.lstrip("0") or "0"
    valid = text.isascii() and text.isdigit() and len(digits) <= len(str(highest))
    if not (valid and lowest <= int(digits) <= highest):
        raise InvalidFenError(
            f"invalid position string {fen!r}: the {name} must be a whole number from "
            f"{lowest} to {highest}, got {text[:20]!r}"
        )
    return int(digits)

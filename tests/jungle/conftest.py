"""Shared helpers for the rules tests (tests/jungle/test_*.py), offered as fixtures.

Positions in these tests are written as position strings (docs/rules.md 7a): rows 9 → 1, files
a → g, ``R C D W P T L E`` = rat, cat, dog, wolf, leopard, tiger, lion, elephant, upper case Red,
lower case Blue, then ``w`` (Red) or ``b`` (Blue) to move.

The game is symmetric under a 180° turn of the board with the colours swapped (docs/rules.md 2):
the ``mirror`` fixture runs a test written from Red's point of view once as written and once
turned for Blue, so that every rule is checked for both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import FILE_NAMES, parse_square, square_name

MovesFrom = Callable[[Board, str], set[str]]
Legal = Callable[[Board], set[str]]
Mirror = Callable[[Any], Any]
Put = Callable[..., str]


def _moves_from(board: Board, square: str) -> set[str]:
    """The squares the animal on ``square`` may legally move to (steps, jumps, captures)."""
    origin = parse_square(square)
    return {square_name(m.to_square) for m in board.legal_moves if m.from_square == origin}


def _legal(board: Board) -> set[str]:
    """Every legal move of the side to move, as move strings like ``"a3a4"``."""
    return {str(m) for m in board.legal_moves}


def _rotate_square(name: str) -> str:
    return FILE_NAMES[6 - FILE_NAMES.index(name[0])] + str(10 - int(name[1]))


def _rotate(thing: Any) -> Any:
    """Turn a position string, square, move string or collection of them by 180°, swapping
    the colours (and the side to move): the same situation seen from the other side.
    A colour (0 Red, 1 Blue) becomes the other one, a result "1-0" becomes "0-1"; None (no
    winner), the draw result and the pass "0000" stay as they are."""
    if thing is None or thing in ("1/2-1/2", "*", "0000"):
        return thing
    if isinstance(thing, int):
        return 1 - thing
    if thing in ("1-0", "0-1"):
        return thing[::-1]
    if isinstance(thing, set | frozenset):
        return {_rotate(item) for item in thing}
    if isinstance(thing, list | tuple):
        return type(thing)(_rotate(item) for item in thing)
    if "/" in thing:
        placement, side, *counters = thing.split()
        rows = placement.split("/")
        turned = "/".join(row[::-1] for row in reversed(rows)).swapcase()
        return " ".join([turned, "w" if side == "b" else "b", *counters])
    if len(thing) == 2:
        return _rotate_square(thing)
    if len(thing) == 4:
        return _rotate_square(thing[:2]) + _rotate_square(thing[2:])
    raise ValueError(f"cannot rotate {thing!r}")


def _put(fen: str, **squares: str | None) -> str:
    """The position string with pieces added or removed: ``put(fen, c5="r", d4=None)``."""
    placement, *rest = fen.split()
    rows = [
        list("".join("." * int(c) if c.isdigit() else c for c in row))
        for row in placement.split("/")
    ]
    for name, letter in squares.items():
        square = parse_square(name)
        rows[8 - square // 7][square % 7] = letter or "."
    out = []
    for row in rows:
        text, empty = "", 0
        for cell in row:
            if cell == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + cell
            empty = 0
        out.append(text + (str(empty) if empty else ""))
    return " ".join(["/".join(out), *rest])


@pytest.fixture
def moves_from() -> MovesFrom:
    """``moves_from(board, "d4")`` -> the set of destination squares, e.g. ``{"d3", "d5"}``."""
    return _moves_from


@pytest.fixture
def legal() -> Legal:
    """``legal(board)`` -> the set of all legal move strings of the side to move."""
    return _legal


@pytest.fixture
def put() -> Put:
    """``put(fen, c5="r")`` -> the position string with a Blue rat added on c5."""
    return _put


@pytest.fixture
def rotate() -> Mirror:
    """``rotate(x)``: position string / square / move (or a set of them) turned for Blue."""
    return _rotate


@pytest.fixture(params=["red", "blue"])
def mirror(request: pytest.FixtureRequest) -> Mirror:
    """Identity for the ``red`` run, :func:`_rotate` for the ``blue`` run of the same test."""
    if request.param == "red":
        return lambda thing: thing
    return _rotate

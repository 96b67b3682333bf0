"""What is wrong with a position: :class:`Status` flags and :func:`position_status`, which
:meth:`doushouqi.jungle.board.Board.status` reports for the board (typically an edited one).

>>> position_status([0] * 63, 0, 0, 1)
<Status.EMPTY|OPPOSITE_HAS_NO_ANIMALS: 24>
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from doushouqi.jungle.fen import MAX_HALFMOVE_CLOCK, MAX_MOVE_NUMBER
from doushouqi.jungle.squares import DEN, DENS, code_color, may_stand

__all__ = ["Status", "position_status"]


class Status(enum.IntFlag):
    """What is wrong with a (typically edited) position: :meth:`Board.status`.

    The first three are the placement rules that position strings enforce (docs/rules.md 2-3,
    :mod:`doushouqi.jungle.fen`); the others flag positions no game can reach. A finished game is
    valid: a side with no animals when it is to move (it lost them all, 被吃光), or an animal
    in the enemy den when the other side is to move (入穴).

    >>> from doushouqi.jungle.board import Board
    >>> Board().status(), Board("7/3L3/7/7/7/7/7/7/r6 w").status() == Status.VALID
    (<Status.VALID: 0>, True)
    >>> Board("3L3/7/7/7/7/7/7/7/r6 w").status()  # Red in Blue's den, yet Red to move
    <Status.TURN_IN_ENEMY_DEN: 32>
    >>> bool(Status.EMPTY | Status.BAD_COUNTERS), Status.EMPTY in Status(24)
    (True, True)
    """

    VALID = 0
    #: A side has two or more of one animal (each side has one of each).
    DUPLICATE_ANIMAL = enum.auto()
    #: An animal other than a rat stands in the water.
    ANIMAL_IN_WATER = enum.auto()
    #: An animal stands on its own den.
    ANIMAL_IN_OWN_DEN = enum.auto()
    #: No animal on the board at all.
    EMPTY = enum.auto()
    #: The side not to move has no animals: its last one can only have gone to a capture by
    #: the side to move, after which that side is not to move.
    OPPOSITE_HAS_NO_ANIMALS = enum.auto()
    #: The side to move stands in the enemy den: it entered on its own move, which ended the
    #: game, so it cannot be its turn.
    TURN_IN_ENEMY_DEN = enum.auto()
    #: The halfmove clock or move number is outside what a position string may give.
    BAD_COUNTERS = enum.auto()


def position_status(
    codes: Sequence[int], turn: int, halfmove_clock: int, fullmove_number: int
) -> Status:
    """The :class:`Status` flags of a position: the 63 piece codes (0 empty), the side to move
    and the two counters; ``Status.VALID`` when nothing is wrong.

    >>> from doushouqi.jungle.board import Board
    >>> position_status(Board().piece_codes(), 0, 0, 1)
    <Status.VALID: 0>
    >>> position_status(Board().piece_codes(), 1, 0, 0)  # move numbers start at 1
    <Status.BAD_COUNTERS: 64>
    """
    status = Status.VALID
    seen = [False] * 17
    occ = [0, 0]
    for square, code in enumerate(codes):
        if not code:
            continue
        if seen[code]:
            status |= Status.DUPLICATE_ANIMAL
        seen[code] = True
        occ[code_color(code)] |= 1 << square
        if not may_stand(code, square):
            in_den = square == DENS[code_color(code)]
            status |= Status.ANIMAL_IN_OWN_DEN if in_den else Status.ANIMAL_IN_WATER
    if not (occ[0] or occ[1]):
        status |= Status.EMPTY
    if not occ[1 - turn]:
        status |= Status.OPPOSITE_HAS_NO_ANIMALS
    if occ[turn] & DEN[1 - turn]:
        status |= Status.TURN_IN_ENEMY_DEN
    if not (0 <= halfmove_clock <= MAX_HALFMOVE_CLOCK and 1 <= fullmove_number <= MAX_MOVE_NUMBER):
        status |= Status.BAD_COUNTERS
    return status

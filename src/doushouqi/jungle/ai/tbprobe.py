"""The endgame tables inside the compiled search: the probe of one position of the engine state.

The tables (:mod:`doushouqi.jungle.tablebase.file_format`)
are held in memory as two arrays, built by
:mod:`.tablebase.memory`:

* ``tb_values`` (int8, one byte an entry, every loaded table one after the other): ``b > 0`` a
  win in ``2b - 1`` plies for the side to move, ``b < 0`` a loss in ``-2b - 2`` plies
  (``-1``: no legal move), ``0`` a draw, :data:`BROKEN_BYTE` an entry whose animals share a
  square. DTMs up to 253 fit; a table with longer ones is not loaded.
* ``tb_meta`` (int64): ``tb_meta[M_MAX_ANIMALS]`` the most animals of a loaded table (0: no
  tables, the probe answers nothing), then from ``M_KEYS`` one word per *material key*: the
  offset of that material's table in ``tb_values``, or -1. The key is the set of animals of
  the side to move (bits 0-7: rat .. elephant) and of the opponent (bits 8-15), the table's
  signature as a bitmask.

:func:`tb_probe` computes the reader's index
(:func:`doushouqi.jungle.tablebase.file_format.index_of`)
from the state: the side to move's frame (a half turn when Blue moves), the slots (the
mover's animals strongest first, then the opponent's), the mirror that puts the first animal
on files a-d, the mixed radix. A test checks it against
:func:`doushouqi.jungle.tablebase.probe.probe`.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.jungle.ai.state import S_TURN, S_WHERE
from doushouqi.jungle.ai.tables import CAPTURED
from doushouqi.jungle.ai.work import A1
from doushouqi.jungle.squares import DENS, RAT, WATER

__all__ = [
    "BROKEN_BYTE",
    "META_SIZE",
    "M_KEYS",
    "M_MAX_ANIMALS",
    "TB1",
    "TB_MISS",
    "empty_tables",
    "tb_probe",
]

#: Signature type of the value array (int8, C-contiguous).
TB1 = "int8[::1]"
BROKEN_BYTE = -128
#: What :func:`tb_probe` returns for a position no loaded table covers.
TB_MISS = 1 << 40

M_MAX_ANIMALS = 0
M_KEYS = 8
META_SIZE = M_KEYS + (1 << 16)

#: DIGIT[first, rat, square]: the digit of ``square`` in the domain of a slot (``first``: the
#: first slot, cut to files a-d; ``rat``: the rat's domain, every square but the dens), -1
#: outside it. RADIX[first, rat]: the domain's size. The same domains as the reader's.
DIGIT = np.full((2, 2, 64), -1, dtype=np.int64)
RADIX = np.zeros((2, 2), dtype=np.int64)
for _first in (0, 1):
    for _rat in (0, 1):
        _domain = [
            s
            for s in range(63)
            if s not in DENS and (_rat or not WATER >> s & 1) and (not _first or s % 7 <= 3)
        ]
        for _digit, _square in enumerate(_domain):
            DIGIT[_first, _rat, _square] = _digit
        RADIX[_first, _rat] = len(_domain)


def empty_tables() -> tuple[NDArray[np.int8], NDArray[np.int64]]:
    """Arrays that cover nothing (the search runs as without tables)."""
    meta = np.full(META_SIZE, -1, dtype=np.int64)
    meta[M_MAX_ANIMALS] = 0
    return np.zeros(1, dtype=np.int8), meta


@njit(f"int64({A1}, {TB1}, {A1})", **HOT_NOGIL)
def tb_probe(
    state: NDArray[np.int64], tb_values: NDArray[np.int8], tb_meta: NDArray[np.int64]
) -> int:
    """The table value of the position for the side to move, in the generator's encoding
    (``d + 1``: a win in ``d`` plies, ``-(d + 1)``: a loss in ``d``, 0: a draw), or
    :data:`TB_MISS` when no loaded table covers it. The caller has checked the game is not
    over on the board (no animal on a den, both sides have animals)."""
    us = state[S_TURN]
    them = 1 - us
    key = 0
    for animal in range(1, 9):
        if state[S_WHERE + 8 * us + animal] != CAPTURED:
            key |= 1 << (animal - 1)
        if state[S_WHERE + 8 * them + animal] != CAPTURED:
            key |= 1 << (animal + 7)
    offset = tb_meta[M_KEYS + key]
    if offset < 0:
        return TB_MISS
    index = 0
    first = 1
    mirror = False
    for side in range(2):
        colour = us if side == 0 else them
        for animal in range(8, 0, -1):
            square = state[S_WHERE + 8 * colour + animal]
            if square == CAPTURED:
                continue
            if us == 1:
                square = 62 - square  # the mover's frame: Blue's side turned to the bottom
            if first == 1:
                mirror = square % 7 > 3
            if mirror:
                square = square - 2 * (square % 7) + 6
            rat = 1 if animal == RAT else 0
            digit = DIGIT[first, rat, square]
            if digit < 0:
                return TB_MISS
            index = index * RADIX[first, rat] + digit
            first = 0
    byte = np.int64(tb_values[offset + index])
    if byte == BROKEN_BYTE:
        return TB_MISS
    # The checker sees np.int64 below; numba types it int64, as every other int here (and a
    # compiled call returns an int). int() would do, but adds an error path to the compiled code.
    if byte > 0:
        return 2 * byte  # type: ignore[return-value]  # a win in 2b - 1 plies
    if byte < 0:
        return 2 * byte + 1  # type: ignore[return-value]  # a loss in -2b - 2 plies
    return 0

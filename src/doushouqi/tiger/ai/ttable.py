"""The transposition table: an int64 array indexed by the Zobrist hash, two entries a bucket.

``tt`` is an ``(entries, 3)`` int64 array: the full key; one word packing the score (high 32
bits), the depth (+64, 8 bits), the bound (2 bits) and the age of the search that stored it
(8 bits); and the best move (a whole word: a multi-jump needs up to 62 bits). Won and lost
scores are stored relative to the node (:func:`score_to_tt`), so that a win found along one
path keeps its distance along another.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.compiled.ttable import new_table
from doushouqi.tiger.ai.state import A2
from doushouqi.tiger.analysis import WIN_SCORE

__all__ = [
    "BOUND_EXACT",
    "BOUND_LOWER",
    "BOUND_UPPER",
    "ENTRY_WORDS",
    "WIN_BOUND",
    "hashfull",
    "new_tt",
    "score_from_tt",
    "score_to_tt",
    "tt_probe_move",
    "tt_slot",
    "tt_store",
]

#: Scores beyond this are won or lost games (no search path is that long).
WIN_BOUND = WIN_SCORE - 1000
BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 1, 2, 3
ENTRY_WORDS = 3


def new_tt(hash_mb: int) -> NDArray[np.int64]:
    """A table of the largest power-of-two entry count within ``hash_mb`` megabytes."""
    return new_table(hash_mb, ENTRY_WORDS)


def hashfull(tt: NDArray[np.int64], age: int) -> int:
    """Per mille of the first thousand entries used by the search of ``age`` (UCI's
    ``hashfull``)."""
    sample = tt[: min(1000, len(tt)), 1]
    used = (sample != 0) & (((sample >> 10) & 0xFF) == (age & 0xFF))
    return int(used.sum() * 1000 // len(sample))


@njit("int64(int64, int64)", **HOT_NOGIL)
def score_to_tt(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


@njit("int64(int64, int64)", **HOT_NOGIL)
def score_from_tt(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


@njit(f"int64({A2}, int64)", **HOT_NOGIL)
def tt_slot(tt: NDArray[np.int64], key: int) -> int:
    """Index of the entry holding ``key``, or -1."""
    base: int = key & (tt.shape[0] - 2)
    if tt[base, 0] == key and tt[base, 1] != 0:
        return base
    if tt[base + 1, 0] == key and tt[base + 1, 1] != 0:
        return base + 1
    return -1


@njit(f"void({A2}, int64, int64, int64, int64, int64, int64)", **HOT_NOGIL)
def tt_store(
    tt: NDArray[np.int64], key: int, move: int, depth: int, bound: int, score: int, age: int
) -> None:
    base = key & (tt.shape[0] - 2)
    slot = -1
    for i in range(base, base + 2):
        if tt[i, 0] == key and tt[i, 1] != 0:
            slot = i
    if slot >= 0:
        old = tt[slot, 1]
        old_depth = (old & 0xFF) - 64
        if bound != BOUND_EXACT and depth < old_depth - 2 and ((old >> 10) & 0xFF) == age:
            return  # keep the deeper entry of this search
        if move == 0:
            move = tt[slot, 2]
    else:
        # Replace the entry of least worth: shallow, or left over from an older search.
        worst = 1 << 30
        for i in range(base, base + 2):
            data = tt[i, 1]
            worth = (data & 0xFF) - 64 if data != 0 else -1000
            if data != 0 and ((data >> 10) & 0xFF) != age:
                worth -= 100
            if worth < worst:
                worst = worth
                slot = i
    tt[slot, 0] = key
    tt[slot, 1] = (score << 32) | ((depth + 64) & 0xFF) | bound << 8 | (age & 0xFF) << 10
    tt[slot, 2] = move


@njit(f"int64({A2}, int64)", **HOT_NOGIL)
def tt_probe_move(tt: NDArray[np.int64], key: int) -> int:
    """The best move stored for ``key``, or 0."""
    slot = tt_slot(tt, key)
    return tt[slot, 2] if slot >= 0 else 0

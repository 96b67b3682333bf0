"""Perft: count the leaf positions a given number of plies ahead (a move generator's test).

Both walks take a ``stop`` array: another thread sets ``stop[0]`` to end a long walk early (the
protocol's ``stop`` and ``quit`` during ``perft N``). They release the GIL, so that thread
runs meanwhile; the flag is read at every node with two or more plies below it (about every
microsecond), and a stopped walk's count is incomplete (the caller checks the flag).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.compiled.jit import hot_nogil
from doushouqi.jungle.ai.movegen import MAX_MOVES, count_legal_moves, generate_legal_moves
from doushouqi.jungle.ai.state import make_move, unmake_move

__all__ = ["new_move_buffers", "new_stop_flag", "perft", "perft_divide"]


def new_move_buffers(depth: int) -> NDArray[np.int64]:
    """One move list per ply of a depth-``depth`` walk (row ``d`` is used at remaining depth d)."""
    return np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


def new_stop_flag() -> NDArray[np.int64]:
    """A walk's ``stop`` array, not set: ``flag[0] = 1`` (from any thread) stops the walk."""
    return np.zeros(1, dtype=np.int64)


@hot_nogil
def perft(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    depth: int,
    buffers: NDArray[np.int64],
    stop: NDArray[np.int64],
) -> int:
    """Leaf count at ``depth`` plies; the last ply is counted without playing it (bulk count).

    ``history`` needs ``depth`` free rows and ``buffers`` ``depth + 1`` rows. Returns early,
    with an incomplete count, once ``stop[0]`` is set.
    """
    if depth <= 1:
        return count_legal_moves(state, history, rules) if depth == 1 else 1
    if stop[0] != 0:
        return 0
    moves = buffers[depth]
    count = generate_legal_moves(state, history, rules, moves)
    total = 0
    if depth == 2:  # the nodes above the leaves: count their moves here, not in a call of perft
        for i in range(count):
            make_move(state, history, moves[i])
            total += count_legal_moves(state, history, rules)
            unmake_move(state, history)
    else:
        for i in range(count):
            make_move(state, history, moves[i])
            total += perft(state, history, rules, depth - 1, buffers, stop)
            unmake_move(state, history)
    return total


@hot_nogil
def perft_divide(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    depth: int,
    buffers: NDArray[np.int64],
    moves: NDArray[np.int64],
    counts: NDArray[np.int64],
    stop: NDArray[np.int64],
) -> int:
    """Perft split by first move: fills ``moves`` and ``counts``, returns the number of moves.

    Once ``stop[0]`` is set, the moves not counted to the end keep the count -1.
    """
    count = generate_legal_moves(state, history, rules, moves)
    for i in range(count):
        counts[i] = -1
    for i in range(count):
        if stop[0] != 0:
            break
        make_move(state, history, moves[i])
        leaves = perft(state, history, rules, depth - 1, buffers, stop)
        unmake_move(state, history)
        if stop[0] != 0:
            break  # this move's walk may have been cut short
        counts[i] = leaves
    return count

"""Perft: count the leaf positions a given number of plies ahead (a move generator's test)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.ai.jit import hot
from doushouqi.jungle.ai.movegen import MAX_MOVES, count_legal_moves, generate_legal_moves
from doushouqi.jungle.ai.state import make_move, unmake_move

__all__ = ["new_move_buffers", "perft", "perft_divide"]


def new_move_buffers(depth: int) -> NDArray[np.int64]:
    """One move list per ply of a depth-``depth`` walk (row ``d`` is used at remaining depth d)."""
    return np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


@hot
def perft(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    depth: int,
    buffers: NDArray[np.int64],
) -> int:
    """Leaf count at ``depth`` plies; the last ply is counted without playing it (bulk count).

    ``history`` needs ``depth`` free rows and ``buffers`` ``depth + 1`` rows.
    """
    if depth <= 1:
        return count_legal_moves(state, history, rules) if depth == 1 else 1
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
            total += perft(state, history, rules, depth - 1, buffers)
            unmake_move(state, history)
    return total


@hot
def perft_divide(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    depth: int,
    buffers: NDArray[np.int64],
    moves: NDArray[np.int64],
    counts: NDArray[np.int64],
) -> int:
    """Perft split by first move: fills ``moves`` and ``counts``, returns the number of moves."""
    count = generate_legal_moves(state, history, rules, moves)
    for i in range(count):
        make_move(state, history, moves[i])
        counts[i] = perft(state, history, rules, depth - 1, buffers)
        unmake_move(state, history)
    return count

"""Perft: count the leaf positions a given number of plies ahead (a move generator's test)."""

from __future__ import annotations

import numpy as np
from numba import njit

from doushouqi.jungle.ai.jit import HOT
from doushouqi.jungle.ai.movegen import MAX_MOVES, count_legal_moves, generate_legal_moves
from doushouqi.jungle.ai.state import make_move, unmake_move

__all__ = ["new_move_buffers", "perft", "perft_divide"]


def new_move_buffers(depth: int) -> np.ndarray:
    """One move list per ply of a depth-``depth`` walk (row ``d`` is used at remaining depth d)."""
    return np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)


@njit(**HOT)
def perft(
    state: np.ndarray, history: np.ndarray, rules: np.ndarray, depth: int, buffers: np.ndarray
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


@njit(**HOT)
def perft_divide(
    state: np.ndarray,
    history: np.ndarray,
    rules: np.ndarray,
    depth: int,
    buffers: np.ndarray,
    moves: np.ndarray,
    counts: np.ndarray,
) -> int:
    """Perft split by first move: fills ``moves`` and ``counts``, returns the number of moves."""
    count = generate_legal_moves(state, history, rules, moves)
    for i in range(count):
        make_move(state, history, moves[i])
        counts[i] = perft(state, history, rules, depth - 1, buffers)
        unmake_move(state, history)
    return count

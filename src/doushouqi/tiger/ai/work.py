"""The search's scratch memory: the ``work`` array's layout, and the helpers that keep its
move lists, killers, history and principal variation (move ordering).

One flat int64 array holds everything mutable but the table: control words (``C_*``: stop
flag, node count, limits, knobs), killers, history, the triangular PV table, per-ply move
lists and their ordering keys, the root moves, an evaluation cache and the evaluation's
scratch space. Few array arguments keep the recursive calls cheap.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.tiger.ai.evaluate import SCRATCH_SIZE
from doushouqi.tiger.ai.movegen import MAX_MOVES
from doushouqi.tiger.ai.state import A1, JUMP_FLAG, S_TIGER, S_TURN, jump_hops
from doushouqi.tiger.ai.tables import RULE_DIAGONALS, STEP

__all__ = [
    "MAX_PLY",
    "WORK_SIZE",
    "history_index",
    "new_work",
    "pick_move",
    "reward_quiet",
    "score_moves",
    "tick",
    "touches_tiger",
    "update_pv",
]

MAX_PLY = 96

# Control words.
C_STOP = 0  # set by another thread to stop
C_ABORT = 1  # set by the search when it stops
C_NODES = 2
C_NODE_LIMIT = 3  # 0 = none
C_SELDEPTH = 4
C_ROOT_PLY = 5  # history rows before the root (repetitions at or after it are draws)
C_AGE = 6  # TT generation, one per search
C_NOISE = 7  # evaluation noise amplitude (weaker levels), 0 = none
C_NOISE_SEED = 8
C_BEST_MOVE = 9  # best root move of the current iteration (only completed subtrees)
C_BEST_SCORE = 10
C_ROOT_COUNT = 11
C_EXT_BUDGET = 12  # extension plies each path may receive
C_NULL_MOVE = 13  # 1 = null-move pruning allowed
C_QTRAPS = 14  # quiescence plies that still try the men's closing-in moves
C_LMR = 15  # 1 = late move reductions allowed
C_FUTILITY_MARGIN = 16  # reverse futility margin per ply, centipawns
C_CONTEMPT = 17  # a draw scores this much below zero for the side to move at the root
C_NO_QUIESCENCE = 18  # 1 = leaves are evaluated as they stand (the beginner level)
C_NULL_FREEDOM = 19  # null move only while every tiger has at least this freedom
CTL_SIZE = 32
W_KILLERS = CTL_SIZE
#: History of quiet moves by side, from-point and to-point (128 × 128 each).
W_HISTORY = W_KILLERS + 2 * MAX_PLY
HISTORY_SIZE = 128 * 128
W_PV = W_HISTORY + 2 * HISTORY_SIZE
W_PV_LEN = W_PV + MAX_PLY * MAX_PLY
W_MOVES = W_PV_LEN + MAX_PLY
W_SCORES = W_MOVES + MAX_PLY * MAX_MOVES
W_ROOT_MOVES = W_SCORES + MAX_PLY * MAX_MOVES
W_ROOT_SCORES = W_ROOT_MOVES + MAX_MOVES
#: Static evaluations by hash (key, score pairs): re-searches and transpositions reuse them.
EVAL_CACHE_ENTRIES = 1 << 15
W_EVAL_CACHE = W_ROOT_SCORES + MAX_MOVES
W_SCRATCH = W_EVAL_CACHE + 2 * EVAL_CACHE_ENTRIES
WORK_SIZE = W_SCRATCH + SCRATCH_SIZE


def new_work() -> NDArray[np.int64]:
    return np.zeros(WORK_SIZE, dtype=np.int64)


@njit(f"boolean({A1})", **HOT_NOGIL)
def tick(work: NDArray[np.int64]) -> bool:
    """Count a node; True when the search must stop."""
    nodes = work[C_NODES] + 1
    work[C_NODES] = nodes
    limit = work[C_NODE_LIMIT]
    if (limit > 0 and nodes >= limit) or ((nodes & 1023) == 0 and work[C_STOP] != 0):
        work[C_ABORT] = 1
    aborted: bool = work[C_ABORT] != 0
    return aborted


@njit("int64(int64, int64)", **HOT_NOGIL)
def history_index(us: int, move: int) -> int:
    """The history entry of a step: by side, from-point and to-point."""
    index: int = W_HISTORY + HISTORY_SIZE * us + (move & 127) * 128 + ((move >> 8) & 127)
    return index


@njit(f"boolean({A1}, {A1}, int64)", **HOT_NOGIL)
def touches_tiger(state: NDArray[np.int64], rules: NDArray[np.int64], to: int) -> bool:
    """Whether ``to`` is a neighbour of a tiger: a man stepping there closes in on it."""
    diagonals = rules[RULE_DIAGONALS]
    for direction in range(8):
        near = STEP[diagonals, to, direction]
        if near >= 0 and (near == state[S_TIGER] or near == state[S_TIGER + 1]):
            return True
    return False


@njit(f"void({A1}, {A1}, {A1}, int64, int64, int64, int64)", **HOT_NOGIL)
def score_moves(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    base: int,
    count: int,
    tt_move: int,
    ply: int,
) -> None:
    """Ordering keys: the TT move, jumps (more men first), the men's steps next to a tiger,
    killers, history."""
    us = state[S_TURN]
    killer1 = work[W_KILLERS + 2 * ply]
    killer2 = work[W_KILLERS + 2 * ply + 1]
    for i in range(base, base + count):
        move = work[i]
        if move == tt_move:
            key = 1 << 40
        elif (move & JUMP_FLAG) != 0:
            key = (1 << 38) + jump_hops(move)
        elif us == 1 and touches_tiger(state, rules, (move >> 8) & 127):
            key = (1 << 35) + work[history_index(us, move)]
        elif move == killer1:
            key = 1 << 34
        elif move == killer2:
            key = (1 << 34) - 1
        else:
            key = work[history_index(us, move)]
        work[i + (W_SCORES - W_MOVES)] = key


@njit(f"int64({A1}, int64, int64, int64)", **HOT_NOGIL)
def pick_move(work: NDArray[np.int64], base: int, count: int, index: int) -> int:
    """Swap the best-keyed remaining move to ``index`` and return it (selection sort)."""
    offset = W_SCORES - W_MOVES
    best = index
    for i in range(index + 1, count):
        if work[base + i + offset] > work[base + best + offset]:
            best = i
    if best != index:
        a = base + index
        b = base + best
        work[a], work[b] = work[b], work[a]
        work[a + offset], work[b + offset] = work[b + offset], work[a + offset]
    move: int = work[base + index]
    return move


@njit(f"void({A1}, int64, int64)", **HOT_NOGIL)
def update_pv(work: NDArray[np.int64], ply: int, move: int) -> None:
    row = W_PV + ply * MAX_PLY
    work[row + ply] = move
    child_row = row + MAX_PLY
    end = work[W_PV_LEN + ply + 1]
    for i in range(ply + 1, end):
        work[row + i] = work[child_row + i]
    work[W_PV_LEN + ply] = max(end, ply + 1)


@njit(f"void({A1}, int64, int64, int64, int64)", **HOT_NOGIL)
def reward_quiet(work: NDArray[np.int64], us: int, ply: int, move: int, bonus: int) -> None:
    index = history_index(us, move)
    # History with gravity: values stay within +-16384 and older results fade.
    work[index] += bonus - work[index] * abs(bonus) // 16384
    if bonus > 0 and work[W_KILLERS + 2 * ply] != move:
        work[W_KILLERS + 2 * ply + 1] = work[W_KILLERS + 2 * ply]
        work[W_KILLERS + 2 * ply] = move

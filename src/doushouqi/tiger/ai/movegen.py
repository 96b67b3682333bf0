"""Compiled move generation: every legal move of a position, exactly as the rules library's
:meth:`doushouqi.tiger.board.Board.generate_legal_moves` (checked by perft in the tests).

Moves come out in the library's order: by the point moved from, a tiger's steps (directions in
table order) before its jumps; under ``multi_jump`` every prefix of a chain is a move of its
own, found depth first. While a chain is followed, the tiger's start point and the men it has
taken are empty on the board (what the library decides: a chain may land where it took a man,
or come back to its start), and restored afterwards.

Generators write into ``moves[base : base + capacity]`` and return how many moves there are,
also beyond ``capacity`` (only the first ``capacity`` are written): a caller with a
fixed buffer sees when a position has more (only a multi-jump position built for it could).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.tiger.ai.state import (
    A1,
    A2,
    EMPTY,
    JUMP_FLAG,
    MAN,
    MAX_HOPS,
    S_BOARD,
    S_MEN,
    S_TIGER,
    S_TURN,
    encode_step,
    make_move,
    unmake_move,
)
from doushouqi.tiger.ai.tables import (
    JUMP_LAND,
    JUMP_OVER,
    RANK,
    REVERSE,
    RULE_CAPTURE_MANDATORY,
    RULE_DIAGONALS,
    RULE_MEN_RETREAT,
    RULE_MULTI_JUMP,
    RULE_WINS_BELOW,
    STEP,
)

__all__ = [
    "MAX_MOVES",
    "count_tiger_moves",
    "generate_moves",
    "has_legal_move",
    "is_game_over_on_board",
    "perft",
    "tiger_can_jump",
]

#: Room for one position's moves in the search's buffers: 18 men have at most 144 steps.
MAX_MOVES = 256


@njit(f"boolean({A1}, {A1})", **HOT_NOGIL)
def is_game_over_on_board(state: NDArray[np.int64], rules: NDArray[np.int64]) -> bool:
    """Too few men are left: the tiger has won, and no side has a move."""
    over: bool = state[S_MEN] < rules[RULE_WINS_BELOW]
    return over


@njit(f"boolean({A1}, int64, int64)", **HOT_NOGIL)
def _tiger_has_jump(state: NDArray[np.int64], diagonals: int, point: int) -> bool:
    for direction in range(8):
        over = JUMP_OVER[diagonals, point, direction]
        if (
            over >= 0
            and state[S_BOARD + over] == MAN
            and state[S_BOARD + JUMP_LAND[diagonals, point, direction]] == EMPTY
        ):
            return True
    return False


@njit(f"boolean({A1}, {A1})", **HOT_NOGIL)
def tiger_can_jump(state: NDArray[np.int64], rules: NDArray[np.int64]) -> bool:
    """Whether any tiger can jump a man now."""
    diagonals = rules[RULE_DIAGONALS]
    for slot in range(2):
        point = state[S_TIGER + slot]
        if point >= 0 and _tiger_has_jump(state, diagonals, point):
            return True
    return False


@njit(f"int64({A1}, int64, {A1}, int64, int64, int64, int64, int64, int64, boolean)",
      **HOT_NOGIL)  # fmt: skip
def _chains(
    state: NDArray[np.int64],
    diagonals: int,
    moves: NDArray[np.int64],
    base: int,
    capacity: int,
    count: int,
    at: int,
    move: int,
    hop: int,
    multi: bool,
) -> int:
    """The jumps from ``at`` as hop ``hop`` of ``move`` (its earlier hops already encoded),
    and under ``multi`` their continuations; returns the new count."""
    shift = 8 + 3 * hop
    for direction in range(8):
        over = JUMP_OVER[diagonals, at, direction]
        if over < 0 or state[S_BOARD + over] != MAN:
            continue
        land = JUMP_LAND[diagonals, at, direction]
        if state[S_BOARD + land] != EMPTY:
            continue
        longer = move | (direction << shift)
        if count < capacity:
            end = longer
            if hop + 1 < MAX_HOPS:
                end |= REVERSE[direction] << (shift + 3)
            moves[base + count] = end
        count += 1
        if multi and hop + 1 < MAX_HOPS:
            state[S_BOARD + over] = EMPTY  # taken: neither jumped again nor in the way
            count = _chains(state, diagonals, moves, base, capacity, count, land, longer,
                            hop + 1, multi)  # fmt: skip
            state[S_BOARD + over] = MAN
    return count


@njit(f"int64({A1}, {A1}, {A1}, int64, int64, boolean)", **HOT_NOGIL)
def _tiger_moves(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    base: int,
    capacity: int,
    steps: bool,
) -> int:
    diagonals = rules[RULE_DIAGONALS]
    multi = rules[RULE_MULTI_JUMP] != 0
    first = state[S_TIGER]
    second = state[S_TIGER + 1]
    if second >= 0 and second < first:
        first, second = second, first
    count = 0
    for slot in range(2):
        point = first if slot == 0 else second
        if point < 0:
            continue
        if steps:
            for direction in range(8):
                to = STEP[diagonals, point, direction]
                if to >= 0 and state[S_BOARD + to] == EMPTY:
                    if count < capacity:
                        moves[base + count] = encode_step(point, to)
                    count += 1
        code = state[S_BOARD + point]
        state[S_BOARD + point] = EMPTY  # a chain may come back to where it started
        count = _chains(state, diagonals, moves, base, capacity, count, point,
                        point | JUMP_FLAG, 0, multi)  # fmt: skip
        state[S_BOARD + point] = code
    return count


@njit(f"int64({A1}, {A1}, {A1}, int64, int64)", **HOT_NOGIL)
def _men_moves(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    base: int,
    capacity: int,
) -> int:
    diagonals = rules[RULE_DIAGONALS]
    retreat = rules[RULE_MEN_RETREAT] != 0
    count = 0
    for point in range(87):
        if state[S_BOARD + point] != MAN:
            continue
        rank = RANK[point]
        for direction in range(8):
            to = STEP[diagonals, point, direction]
            if to >= 0 and state[S_BOARD + to] == EMPTY and (retreat or RANK[to] >= rank):
                if count < capacity:
                    moves[base + count] = encode_step(point, to)
                count += 1
    return count


@njit(f"int64({A1}, {A1}, {A1}, int64, int64)", **HOT_NOGIL)
def generate_moves(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    base: int,
    capacity: int,
) -> int:
    """The legal moves into ``moves[base:]`` (at most ``capacity`` written); how many there are."""
    if is_game_over_on_board(state, rules):
        return 0
    if state[S_TURN] == 1:
        return _men_moves(state, rules, moves, base, capacity)
    steps = rules[RULE_CAPTURE_MANDATORY] == 0 or not tiger_can_jump(state, rules)
    return _tiger_moves(state, rules, moves, base, capacity, steps)


@njit(f"int64({A1}, {A1}, int64)", **HOT_NOGIL)
def count_tiger_moves(state: NDArray[np.int64], rules: NDArray[np.int64], point: int) -> int:
    """The empty neighbours of the tiger on ``point`` plus its single jumps: its freedom,
    whoever is to move (the evaluation's mobility; 0 = hemmed in)."""
    diagonals = rules[RULE_DIAGONALS]
    count = 0
    for direction in range(8):
        to = STEP[diagonals, point, direction]
        if to < 0:
            continue
        if state[S_BOARD + to] == EMPTY:
            count += 1
        elif state[S_BOARD + to] == MAN:
            land = JUMP_LAND[diagonals, point, direction]
            if land >= 0 and state[S_BOARD + land] == EMPTY:
                count += 1
    return count


@njit(f"boolean({A1}, {A1})", **HOT_NOGIL)
def has_legal_move(state: NDArray[np.int64], rules: NDArray[np.int64]) -> bool:
    """Whether the side to move has a legal move (without listing them)."""
    if is_game_over_on_board(state, rules):
        return False
    diagonals = rules[RULE_DIAGONALS]
    if state[S_TURN] == 0:
        for slot in range(2):
            point = state[S_TIGER + slot]
            if point >= 0 and count_tiger_moves(state, rules, point) > 0:
                return True
        return False
    retreat = rules[RULE_MEN_RETREAT] != 0
    for point in range(87):
        if state[S_BOARD + point] != MAN:
            continue
        for direction in range(8):
            to = STEP[diagonals, point, direction]
            if to >= 0 and state[S_BOARD + to] == EMPTY and (retreat or RANK[to] >= RANK[point]):
                return True
    return False


@njit(f"int64({A1}, {A2}, {A1}, {A1}, int64, int64)", **HOT_NOGIL)
def perft(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    moves: NDArray[np.int64],
    capacity: int,
    depth: int,
) -> int:
    """Move sequences ``depth`` plies long; ``moves`` holds ``capacity`` moves per ply of
    depth. -1 when a position had more moves than that (the caller retries with more room)."""
    if depth < 1:
        return 1
    base = (depth - 1) * capacity
    count = generate_moves(state, rules, moves, base, capacity)
    if depth == 1:
        return count
    if count > capacity:
        return -1
    total = 0
    for index in range(count):
        make_move(state, history, moves[base + index])
        below = perft(state, history, rules, moves, capacity, depth - 1)
        unmake_move(state, history)
        if below < 0:
            return -1
        total += below
    return total

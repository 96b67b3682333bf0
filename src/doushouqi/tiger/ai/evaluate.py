"""The static evaluation of a 老虎棋 position, from the side to move's view, in centipawns.

The terms (weights in :mod:`.eval_params`):

* **men taken**, against the tiger's winning threshold (``tiger_wins_below``): a table by the
  men's margin over it, each man nearer the threshold worth more, counted from the rule
  set's start (which scores 0);
* **the tiger's freedom**: per tiger, its empty neighbours plus its jumps (0 = hemmed in, the
  men's goal), and its **room**: the empty points its tigers reach by steps, against the
  room of the start;
* **men exposed**: men a tiger can jump now (by who is to move: the tiger takes one, the
  men can usually save one but not two), and every way a man could be jumped later — an
  empty point on each side of him along a line — weighted by how many steps the nearest
  tiger needs to the point to jump from;
* **formation**: men that cannot be jumped from any side (guarded: a man or the edge beyond
  them, "两两结队");
* **advancement** of the men toward the nest, men on the nest's points, tigers in the nest;
* the side to move's tempo.

The tigers' step distances come from one breadth-first search over the empty points, in the
``scratch`` array the caller lends (``SCRATCH_SIZE`` entries from ``base``), so an evaluation
allocates nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.tiger.ai.eval_params import (
    P_GUARDED,
    P_MAN_RANK,
    P_MARGIN,
    P_MOBILITY,
    P_NEST_MAN,
    P_OPEN,
    P_REACH,
    P_SPACE,
    P_SPACE_NEAR,
    P_SPACE_NEAR_POINTS,
    P_TEMPO,
    P_THREAT_MEN_TO_MOVE,
    P_THREAT_TIGER_TO_MOVE,
    P_TIGER_IN_NEST,
)
from doushouqi.tiger.ai.movegen import count_tiger_moves
from doushouqi.tiger.ai.state import A1, EMPTY, MAN, S_BOARD, S_MEN, S_TIGER, S_TURN
from doushouqi.tiger.ai.tables import (
    IN_NEST,
    JUMP_LAND,
    JUMP_OVER,
    RANK,
    REACH_DISTANCES,
    REVERSE,
    RULE_DIAGONALS,
    RULE_MEN,
    RULE_START_GUARDED,
    RULE_START_REACH,
    RULE_TIGERS,
    RULE_WINS_BELOW,
    STEP,
)

__all__ = ["FAR", "SCRATCH_SIZE", "UNREACHED", "evaluate", "tiger_distances"]

#: Distances beyond this weigh as this (the ``open`` table's last entry).
FAR = 8
#: The distance of a point no tiger reaches by steps.
UNREACHED = 99
#: Scratch entries an evaluation uses: distances, then the search's queue.
SCRATCH_SIZE = 2 * 87


@njit(f"int64({A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def tiger_distances(
    state: NDArray[np.int64], rules: NDArray[np.int64], scratch: NDArray[np.int64], base: int
) -> int:
    """Steps from the nearest tiger to every point through empty points, into
    ``scratch[base : base + 87]`` (:data:`UNREACHED` where none goes); returns the number of
    empty points reached (the tigers' room)."""
    diagonals = rules[RULE_DIAGONALS]
    queue = base + 87
    for point in range(87):
        scratch[base + point] = UNREACHED
    head = 0
    tail = 0
    for slot in range(2):
        point = state[S_TIGER + slot]
        if point >= 0:
            scratch[base + point] = 0
            scratch[queue + tail] = point
            tail += 1
    tigers = tail
    while head < tail:
        point = scratch[queue + head]
        head += 1
        distance = scratch[base + point] + 1
        for direction in range(8):
            to = STEP[diagonals, point, direction]
            if to >= 0 and state[S_BOARD + to] == EMPTY and scratch[base + to] == UNREACHED:
                scratch[base + to] = distance
                scratch[queue + tail] = to
                tail += 1
    return tail - tigers


@njit(f"boolean({A1}, {A1}, int64, int64)", **HOT_NOGIL)
def _threatened_by(
    state: NDArray[np.int64], rules: NDArray[np.int64], tiger: int, man: int
) -> bool:
    """Whether the tiger on ``tiger`` can jump the man on ``man`` now."""
    if tiger < 0:
        return False
    diagonals = rules[RULE_DIAGONALS]
    for direction in range(8):
        if (
            JUMP_OVER[diagonals, tiger, direction] == man
            and state[S_BOARD + JUMP_LAND[diagonals, tiger, direction]] == EMPTY
        ):
            return True
    return False


@njit(f"int64({A1}, {A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def evaluate(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    scratch: NDArray[np.int64],
    base: int,
) -> int:
    """The position's value for the side to move (no search: a leaf's judgement)."""
    diagonals = rules[RULE_DIAGONALS]
    tiger_score = 0  # for the tiger side; the men's terms are subtracted

    # Counted from the rule set's start, so that the start is about even whatever the
    # threshold and the men's count (a draw, 0, then means what it says).
    margin = min(max(state[S_MEN] - rules[RULE_WINS_BELOW], 0), 18)
    start = min(max(rules[RULE_MEN] - rules[RULE_WINS_BELOW], 0), 18)
    tiger_score += params[P_MARGIN + start] - params[P_MARGIN + margin]

    # The tigers' room, against the room of the start (every point not taken).
    room = tiger_distances(state, rules, scratch, base)
    open_board = 87 - rules[RULE_MEN] - rules[RULE_TIGERS]
    near = params[P_SPACE_NEAR_POINTS]
    tiger_score += (room - open_board) * params[P_SPACE] + (
        min(room, near) - min(open_board, near)
    ) * params[P_SPACE_NEAR]
    for point in range(87):
        distance = scratch[base + point]
        if 0 < distance < UNREACHED:
            tiger_score += params[P_REACH + min(distance, REACH_DISTANCES - 1)]
    for distance in range(1, REACH_DISTANCES):
        tiger_score -= params[P_REACH + distance] * rules[RULE_START_REACH + distance]

    threatened = 0
    highest = 0  # the highest tiger's rank: men advance up to it
    for slot in range(2):
        point = state[S_TIGER + slot]
        if point < 0:
            continue
        highest = max(highest, RANK[point])
        freedom = min(count_tiger_moves(state, rules, point), 8)
        tiger_score += params[P_MOBILITY + freedom]
        if IN_NEST[point] != 0 and RANK[point] >= 10:
            tiger_score += params[P_TIGER_IN_NEST]
        for direction in range(8):
            over = JUMP_OVER[diagonals, point, direction]
            # Two tigers may threaten one man: the second counts only men the first
            # cannot take.
            if (
                over >= 0
                and state[S_BOARD + over] == MAN
                and state[S_BOARD + JUMP_LAND[diagonals, point, direction]] == EMPTY
                and (slot == 0 or not _threatened_by(state, rules, state[S_TIGER], over))
            ):
                threatened += 1
    threatened = min(threatened, 3)
    if state[S_TURN] == 0:
        tiger_score += params[P_THREAT_TIGER_TO_MOVE + threatened]
    else:
        tiger_score += params[P_THREAT_MEN_TO_MOVE + threatened]

    # Counted from the start's guarded men, as the men taken and the room are.
    men_score = -params[P_GUARDED] * rules[RULE_START_GUARDED]
    for point in range(87):
        if state[S_BOARD + point] != MAN:
            continue
        men_score += params[P_MAN_RANK + min(RANK[point], highest)]
        if IN_NEST[point] != 0:
            men_score += params[P_NEST_MAN]
        exposed = False
        for direction in range(8):
            start = STEP[diagonals, point, direction]
            if start < 0:
                continue
            land = STEP[diagonals, point, REVERSE[direction]]
            if land < 0 or state[S_BOARD + land] != EMPTY:
                continue
            code = state[S_BOARD + start]
            if code == MAN:
                continue
            exposed = True
            if code == EMPTY:
                tiger_score += params[P_OPEN + min(max(1, scratch[base + start]), FAR)]
        if not exposed:
            men_score += params[P_GUARDED]

    score = tiger_score - men_score
    if state[S_TURN] == 1:
        score = -score
    return score + params[P_TEMPO]  # type: ignore[no-any-return]

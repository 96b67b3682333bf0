"""Constant tables of the compiled engine, built once from the rules library's geometry, and a
rule set compiled to an int64 array.

Directions are numbered as :mod:`doushouqi.tiger.points` orders them: 0 down, 1 left, 2 right,
3 up, then the diagonals 4 (left, down), 5 (right, down), 6 (left, up), 7 (right, up). The
reverse of ``d`` is ``REVERSE[d]``. For each ``diagonals`` option (0 none, 1 nest, 2 all):

* ``STEP[option, point, direction]``: the neighbour on a line that way, or -1;
* ``JUMP_OVER`` / ``JUMP_LAND[option, point, direction]``: the point jumped over and the
  landing point of a jump that way (both segments lines), or -1.

``OVER`` / ``LAND[point, direction]`` are the same points by geometry alone, whatever the
lines: what playing a move needs (as the library's ``BETWEEN``), so that make and unmake take
no rule set. Every table is checked against the library's own (``NEIGHBOURS``, ``JUMPS``)
by the tests.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.tiger.ai import _numba_cache
from doushouqi.tiger.board import Board
from doushouqi.tiger.points import (
    JUMPS,
    NEIGHBOURS,
    NUM_POINTS,
    Diagonals,
    point_at,
    point_file,
    point_rank,
)
from doushouqi.tiger.rules import RuleSet

__all__ = [
    "DIAGONAL_OPTIONS",
    "DIRECTIONS",
    "IN_NEST",
    "JUMP_LAND",
    "JUMP_OVER",
    "LAND",
    "NUM_POINTS",
    "OVER",
    "RANK",
    "REACH_DISTANCES",
    "REVERSE",
    "RULES_SIZE",
    "RULE_CAPTURE_MANDATORY",
    "RULE_DIAGONALS",
    "RULE_FIRST",
    "RULE_MAX_ROUNDS",
    "RULE_MEN",
    "RULE_MEN_RETREAT",
    "RULE_MULTI_JUMP",
    "RULE_START_GUARDED",
    "RULE_START_REACH",
    "RULE_TIGERS",
    "RULE_WINS_BELOW",
    "STEP",
    "ZOBRIST",
    "ZOBRIST_TURN",
    "compile_rules",
]

#: (file, rank) steps of the eight directions, in the library's order.
DIRECTIONS = ((0, -1), (-1, 0), (1, 0), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1))
REVERSE = np.array([3, 2, 1, 0, 7, 6, 5, 4], dtype=np.int64)
#: The ``diagonals`` options in table order.
DIAGONAL_OPTIONS = (Diagonals.NONE, Diagonals.NEST, Diagonals.ALL)


def _geometry() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    over = np.full((NUM_POINTS, 8), -1, dtype=np.int64)
    land = np.full((NUM_POINTS, 8), -1, dtype=np.int64)
    for point in range(NUM_POINTS):
        f, r = point_file(point), point_rank(point)
        for d, (df, dr) in enumerate(DIRECTIONS):
            near, far = point_at(f + df, r + dr), point_at(f + 2 * df, r + 2 * dr)
            if near is not None and far is not None:
                over[point, d], land[point, d] = near, far
    return over, land


def _direction(a: int, b: int, steps: int) -> int:
    df = (point_file(b) - point_file(a)) // steps
    dr = (point_rank(b) - point_rank(a)) // steps
    return DIRECTIONS.index((df, dr))


def _lines() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    step = np.full((3, NUM_POINTS, 8), -1, dtype=np.int64)
    jump_over = np.full((3, NUM_POINTS, 8), -1, dtype=np.int64)
    jump_land = np.full((3, NUM_POINTS, 8), -1, dtype=np.int64)
    for index, option in enumerate(DIAGONAL_OPTIONS):
        for point in range(NUM_POINTS):
            for near in NEIGHBOURS[option][point]:
                step[index, point, _direction(point, near, 1)] = near
            for near, far in JUMPS[option][point]:
                d = _direction(point, far, 2)
                jump_over[index, point, d], jump_land[index, point, d] = near, far
    return step, jump_over, jump_land


OVER, LAND = _geometry()
STEP, JUMP_OVER, JUMP_LAND = _lines()
RANK = np.array([point_rank(p) for p in range(NUM_POINTS)], dtype=np.int64)
IN_NEST = np.array([point_rank(p) >= 10 or (point_rank(p) == 9 and 3 <= point_file(p) <= 5)
                    for p in range(NUM_POINTS)], dtype=np.int64)  # fmt: skip

# Zobrist keys: [piece code (1 tiger, 2 man), point], and the men to move. The engine's own,
# from a fixed seed: hashes only ever meet hashes of the same engine.
_RNG = np.random.default_rng(20240611)
ZOBRIST = np.zeros((3, NUM_POINTS), dtype=np.int64)
ZOBRIST[1:] = _RNG.integers(-(2**63), 2**63 - 1, size=(2, NUM_POINTS), dtype=np.int64)
ZOBRIST_TURN = np.int64(_RNG.integers(-(2**63), 2**63 - 1, dtype=np.int64))

# ------------------------------------------------------------------- compiled rule set
RULE_DIAGONALS = 0  # 0 none, 1 nest, 2 all
RULE_MEN_RETREAT = 1
RULE_MULTI_JUMP = 2
RULE_CAPTURE_MANDATORY = 3
RULE_WINS_BELOW = 4
RULE_MAX_ROUNDS = 5  # 0: no limit
RULE_FIRST = 6
RULE_TIGERS = 7
RULE_MEN = 8
#: How many empty points the start's tigers reach at each step distance (1-15, 15 for
#: farther; entry 0 unused): what the evaluation's ``reach`` term is counted against, so that
#: the start scores the same under every rule set.
RULE_START_REACH = 9
REACH_DISTANCES = 16
#: How many of the start's men no tiger could ever jump where they stand (a man or the edge
#: beyond them on every line): what the evaluation's ``guarded`` term is counted against.
RULE_START_GUARDED = RULE_START_REACH + REACH_DISTANCES
RULES_SIZE = RULE_START_GUARDED + 1


def compile_rules(rules: RuleSet) -> NDArray[np.int64]:
    """A rule set as the int64 array the compiled functions read."""
    compiled = np.zeros(RULES_SIZE, dtype=np.int64)
    compiled[RULE_DIAGONALS] = DIAGONAL_OPTIONS.index(rules.diagonals)
    compiled[RULE_MEN_RETREAT] = rules.men_retreat
    compiled[RULE_MULTI_JUMP] = rules.multi_jump
    compiled[RULE_CAPTURE_MANDATORY] = rules.capture_mandatory
    compiled[RULE_WINS_BELOW] = rules.tiger_wins_below
    compiled[RULE_MAX_ROUNDS] = rules.max_rounds or 0
    compiled[RULE_FIRST] = rules.first
    compiled[RULE_TIGERS] = rules.tigers
    compiled[RULE_MEN] = rules.men
    compiled[RULE_START_REACH : RULE_START_REACH + REACH_DISTANCES] = _start_reach(rules)
    compiled[RULE_START_GUARDED] = _start_guarded(rules)
    return compiled


def _start_guarded(rules: RuleSet) -> int:
    """The start's men that no jump could take (see :data:`RULE_START_GUARDED`): on every
    line through a man, the point on one side is off the lines or a man, or the point on the
    other side is off the lines or taken."""
    board = Board(rules=rules)
    men = set(board.man_points())
    taken = men | set(board.tiger_points())
    steps = STEP[DIAGONAL_OPTIONS.index(rules.diagonals)]
    guarded = 0
    for man in men:
        exposed = False
        for direction in range(len(DIRECTIONS)):
            start, land = steps[man][direction], steps[man][REVERSE[direction]]
            if start >= 0 and land >= 0 and land not in taken and start not in men:
                exposed = True
        guarded += not exposed
    return guarded


def _start_reach(rules: RuleSet) -> list[int]:
    """Empty points the start's tigers reach by steps, counted per distance (see
    :data:`RULE_START_REACH`)."""
    board = Board(rules=rules)
    taken = set(board.man_points()) | set(board.tiger_points())
    steps = STEP[DIAGONAL_OPTIONS.index(rules.diagonals)]
    distance = {point: 0 for point in board.tiger_points()}
    frontier = list(distance)
    counts = [0] * REACH_DISTANCES
    while frontier:
        following = []
        for point in frontier:
            for to in steps[point]:
                if to >= 0 and to not in taken and to not in distance:
                    distance[to] = distance[point] + 1
                    counts[min(distance[to], REACH_DISTANCES - 1)] += 1
                    following.append(int(to))
        frontier = following
    return counts


# Compiled code bakes these in: machine code built from other tables must not be reused.
_numba_cache.discard_stale_cache(
    (OVER, LAND, STEP, JUMP_OVER, JUMP_LAND, RANK, IN_NEST, ZOBRIST, ZOBRIST_TURN)
)

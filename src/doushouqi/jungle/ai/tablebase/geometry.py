"""The board and the index as numpy arrays, for the compiled generator (:mod:`.kernels`).

Everything is in the mover's frame (docs: :mod:`doushouqi.jungle.tablebase.file_format`): the side
to move
stands at the bottom, its den is d1 and the enemy den d9. The arrays are passed to the compiled
functions as arguments (never read as globals), so numba's cache can never hold stale copies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from doushouqi.jungle.squares import BLUE, DENS, JUMPS, RED, STEPS, TRAPS, WATER, iter_squares
from doushouqi.jungle.tablebase.file_format import LAND_DOMAIN, RAT_DOMAIN, ranks_of

__all__ = ["Geometry", "RuleArrays", "geometry", "rule_arrays"]

#: Own den and enemy den in the mover's frame.
OWN_DEN = DENS[RED]
ENEMY_DEN = DENS[BLUE]


class Geometry(NamedTuple):
    steps: np.ndarray  # [63, 4] neighbour squares, -1 padded
    jumps: np.ndarray  # [63, 4] lion/tiger landing squares, -1 padded
    paths: np.ndarray  # [63, 4] water squares crossed, as a 64-bit mask
    water: np.ndarray  # [63] 1 on water
    own_trap: np.ndarray  # [63] 1 on the mover's own traps (around d1)
    enemy_trap: np.ndarray  # [63] 1 on the enemy's traps (around d9)
    full_pos: np.ndarray  # [2, 63] digit of a square in the full domain (row 1: rat), -1
    half_pos: np.ndarray  # [2, 63] digit in the first slot's half domain, -1
    full_sq: np.ndarray  # [2, 61] square of each digit (full domain), -1 padded
    half_sq: np.ndarray  # [2, 61] square of each digit (half domain), -1 padded
    full_size: np.ndarray  # [2]
    half_size: np.ndarray  # [2]


class RuleArrays(NamedTuple):
    rank: np.ndarray  # [9] rank of each animal
    flags: np.ndarray  # [3] own_rat_blocks_jump, rat_captures_across_water, trapped_can_capture


def geometry() -> Geometry:
    steps = np.full((63, 4), -1, np.int64)
    jumps = np.full((63, 4), -1, np.int64)
    paths = np.zeros((63, 4), np.int64)
    for square in range(63):
        for i, target in enumerate(iter_squares(STEPS[square])):
            steps[square, i] = target
        for i, (landing, path) in enumerate(JUMPS[square]):
            jumps[square, i] = landing
            paths[square, i] = path
    water = np.array([WATER >> s & 1 for s in range(63)], np.int64)
    own_trap = np.array([TRAPS[RED] >> s & 1 for s in range(63)], np.int64)
    enemy_trap = np.array([TRAPS[BLUE] >> s & 1 for s in range(63)], np.int64)
    full_pos = np.full((2, 63), -1, np.int64)
    half_pos = np.full((2, 63), -1, np.int64)
    full_sq = np.full((2, 61), -1, np.int64)
    half_sq = np.full((2, 61), -1, np.int64)
    full_size = np.zeros(2, np.int64)
    half_size = np.zeros(2, np.int64)
    for rat, domain in ((0, LAND_DOMAIN), (1, RAT_DOMAIN)):
        half = [s for s in domain if s % 7 <= 3]
        for digit, square in enumerate(domain):
            full_pos[rat, square] = digit
            full_sq[rat, digit] = square
        for digit, square in enumerate(half):
            half_pos[rat, square] = digit
            half_sq[rat, digit] = square
        full_size[rat] = len(domain)
        half_size[rat] = len(half)
    return Geometry(
        steps, jumps, paths, water, own_trap, enemy_trap,
        full_pos, half_pos, full_sq, half_sq, full_size, half_size,
    )  # fmt: skip


def rule_arrays(options: Mapping[str, Any]) -> RuleArrays:
    """The options of :func:`doushouqi.jungle.tablebase.file_format.rules_key` as arrays."""
    rank = np.array(ranks_of(options), np.int64)
    flags = np.array(
        [
            int(bool(options["own_rat_blocks_jump"])),
            int(bool(options["rat_captures_across_water"])),
            int(bool(options["trapped_can_capture"])),
        ],
        np.int64,
    )
    return RuleArrays(rank, flags)


def kinds_array(kinds: Sequence[int]) -> np.ndarray:
    return np.array(list(kinds), np.int64)

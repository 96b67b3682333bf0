"""Constant tables for the engine core, as numpy arrays that numba freezes into the code.

Geometry and Zobrist keys come from the rules library (``doushouqi.jungle.squares``,
``doushouqi.jungle.zobrist``) so that both agree by construction; a position's engine hash equals
``Board.zobrist_hash()`` (read as a signed 64-bit number).

Every square-indexed table has 64 rows: row 63 is the off-board square where a captured animal
"stands" (as in the library), and its entries are empty so that a stray lookup does no harm.

A rule set is compiled once into a small int64 array (:func:`compile_rules`); the ``RULE_*``
constants are its indices.

numba bakes these arrays into each compiled function; :mod:`._numba_cache` (run at the end of
this module) drops the on-disk cache when a table or a source file of this package changes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.ai._numba_cache import discard_stale_cache
from doushouqi.jungle.rules import Ranks, Repetition, RuleSet, find_rules
from doushouqi.jungle.squares import CAPTURED, DEN, DOG, JUMPS, STEPS, TRAPS, WATER, WOLF
from doushouqi.jungle.zobrist import PIECE_SQUARE_KEYS, TURN_KEY

__all__ = [
    "ALL_TRAPS",
    "CAPTURED",
    "DEN_BB",
    "JUMP_COUNT",
    "JUMP_LANDING",
    "JUMP_PATH",
    "LAND",
    "MAX_JUMPS",
    "NEIGHBOURS",
    "RULES_SIZE",
    "RULE_7_3",
    "RULE_17_5",
    "RULE_FIRST_PLAYER",
    "RULE_NO_CAPTURE_PLIES",
    "RULE_OWN_RAT_BLOCKS_JUMP",
    "RULE_RANK",
    "RULE_RAT_CAPTURES_ACROSS_WATER",
    "RULE_REPETITION_MUST_VARY",
    "RULE_TRAPPED_CAN_CAPTURE",
    "TRAP_BB",
    "WATER_BB",
    "ZOBRIST_PIECE",
    "ZOBRIST_TURN",
    "compile_rules",
]

BOARD_MASK = (1 << 63) - 1

WATER_BB = np.int64(WATER)
LAND = np.int64(BOARD_MASK & ~WATER)
#: DEN_BB[c]: c's own den (which c may not enter); TRAP_BB[c]: the traps around it.
DEN_BB = np.array(DEN, dtype=np.int64)
TRAP_BB = np.array(TRAPS, dtype=np.int64)
ALL_TRAPS = np.int64(TRAPS[0] | TRAPS[1])

#: NEIGHBOURS[s]: orthogonal neighbours of s (row 63 empty).
NEIGHBOURS = np.zeros(64, dtype=np.int64)
NEIGHBOURS[:63] = STEPS

MAX_JUMPS = max(len(jumps) for jumps in JUMPS)
#: Lake jumps from square s: JUMP_LANDING[s, i] over the water squares JUMP_PATH[s, i].
JUMP_COUNT = np.zeros(64, dtype=np.int64)
JUMP_LANDING = np.zeros((64, MAX_JUMPS), dtype=np.int64)
JUMP_PATH = np.zeros((64, MAX_JUMPS), dtype=np.int64)
for _square, _jumps in enumerate(JUMPS):
    JUMP_COUNT[_square] = len(_jumps)
    for _i, (_landing, _path) in enumerate(_jumps):
        JUMP_LANDING[_square, _i] = _landing
        JUMP_PATH[_square, _i] = _path


def _signed(value: int) -> int:
    """A 64-bit unsigned key reinterpreted as int64 (same bits)."""
    return value - (1 << 64) if value >= 1 << 63 else value


#: ZOBRIST_PIECE[code, s]; code 0 and square 63 are all zero.
ZOBRIST_PIECE = np.zeros((17, 64), dtype=np.int64)
for _code in range(1, 17):
    ZOBRIST_PIECE[_code, :63] = [_signed(k) for k in PIECE_SQUARE_KEYS[_code]]
#: XORed into the hash when Blue is to move.
ZOBRIST_TURN = np.int64(_signed(TURN_KEY))

# ---------------------------------------------------------------------------- compiled rules

RULE_OWN_RAT_BLOCKS_JUMP = 0
RULE_RAT_CAPTURES_ACROSS_WATER = 1
RULE_TRAPPED_CAN_CAPTURE = 2
RULE_REPETITION_MUST_VARY = 3
#: Plies without a capture after which the game is drawn (0 = no limit).
RULE_NO_CAPTURE_PLIES = 4
RULE_7_3 = 5
RULE_17_5 = 6
RULE_FIRST_PLAYER = 7
#: 17 entries from here: the rank of each piece code (index 0 unused).
RULE_RANK = 8
RULES_SIZE = RULE_RANK + 17


def compile_rules(rules: RuleSet | str) -> NDArray[np.int64]:
    """The rule set as the int64 array the compiled functions read (see the RULE_* indices).

    >>> int(compile_rules("classic-dog")[RULE_RANK + DOG])
    4
    """
    rules = find_rules(rules)
    flags = np.zeros(RULES_SIZE, dtype=np.int64)
    flags[RULE_OWN_RAT_BLOCKS_JUMP] = rules.own_rat_blocks_jump
    flags[RULE_RAT_CAPTURES_ACROSS_WATER] = rules.rat_captures_across_water
    flags[RULE_TRAPPED_CAN_CAPTURE] = rules.trapped_can_capture
    flags[RULE_REPETITION_MUST_VARY] = rules.repetition is Repetition.INITIATOR_MUST_VARY
    flags[RULE_NO_CAPTURE_PLIES] = 2 * (rules.no_capture_draw_rounds or 0)
    flags[RULE_7_3] = rules.rule_7_3
    flags[RULE_17_5] = rules.rule_17_5
    flags[RULE_FIRST_PLAYER] = rules.first_player
    ranks = list(range(9))
    if rules.ranks is Ranks.DOG_OVER_WOLF:
        ranks[DOG], ranks[WOLF] = ranks[WOLF], ranks[DOG]
    for color in (0, 1):
        for animal in range(1, 9):
            flags[RULE_RANK + color * 8 + animal] = ranks[animal]
    return flags


discard_stale_cache(
    value
    for name, value in sorted(globals().items())
    if isinstance(value, (np.ndarray, np.generic)) and name.isupper()
)

"""The search's scratch memory: the ``work`` array's layout, and the helpers that keep its
move lists, killers, history and principal variation (move ordering).

One flat int64 array holds everything mutable but the table: control words (``C_*``: stop
flag, node count, limits, knobs), killers, history, the triangular PV table, per-ply move lists
and their ordering keys, the root moves and an evaluation cache. Few array arguments keep the
recursive calls cheap.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL, inline
from doushouqi.jungle.ai.eval_params import P_MATERIAL
from doushouqi.jungle.ai.movegen import MAX_MOVES
from doushouqi.jungle.ai.state import (
    H_HASH,
    S_BOARD,
    S_HALFMOVE,
    S_HASH,
    S_OCCUPANCY,
    S_PLY,
    S_TURN,
)
from doushouqi.jungle.ai.tables import NEIGHBOURS, RULE_RANK, TRAP_BB
from doushouqi.jungle.squares import DENS

__all__ = [
    "A1",
    "A2",
    "ACC_SLOTS",
    "ACC_STRIDE",
    "DEN_SQUARE",
    "EVAL_SUMS_STRIDE",
    "EVAL_TERMS_HEADER",
    "MAX_HIDDEN",
    "MAX_PLY",
    "WORK_SIZE",
    "W_ACC",
    "W_ACC_ACTIVE",
    "W_EVAL_SUMS",
    "W_EVAL_TERMS",
    "animal_value",
    "build_key_filter",
    "key_filter_bit",
    "nearest_tagged_slot",
    "new_work",
    "path_key",
    "pick_move",
    "replay_history",
    "reward_quiet",
    "rewind_history",
    "score_moves",
    "tick",
    "update_pv",
]

#: Signature types of the compiled functions: 1-D and 2-D C-contiguous int64 arrays. Every
#: compiled function of the search declares its signature: numba would otherwise compile a
#: variant per literal argument (slow to build), and a cached recursive function calling
#: another variant of itself crashes when loaded back from the cache (numba issues #6061,
#: #6713). Recursive calls must therefore pass no literal values.
A1 = "int64[::1]"
A2 = "int64[:, ::1]"

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
C_QCHECKS = 14  # quiescence plies that still try den threats
C_LMR = 15  # 1 = late move reductions allowed
C_FUTILITY_MARGIN = 16  # reverse futility margin per ply, centipawns
C_DANGER_RADIUS = 17  # enemy animals this close to our den switch pruning off
C_CONTEMPT = 18  # a draw scores this much below zero for the side to move at the root
C_NO_QUIESCENCE = 19  # 1 = leaves are evaluated as they stand (the beginner level)
#: Plies without a capture over which an evaluation fades toward a draw (0 = never; rules with
#: a no-capture limit fade over that limit instead): a lead must make progress to count.
C_PROGRESS_PLIES = 20
C_TBHITS = 21  # positions scored from the endgame tables
#: History rows from which a position met again is a draw at once (its second occurrence): the
#: root's ply (repetitions inside the search), or 0 when the root side, well ahead, counts a
#: return to any position of the game since the last capture as a draw (search_driver's
#: ``twofold_lead``): the opponent could repeat it once more and draw.
C_REPEAT_FROM = 22
#: Pruning experiments of issue 31's second search round (off: 0, and 100 for C_LMR_PERCENT;
#: tuning.py's ``DEFAULT_TUNING`` says what each value means).
C_LMP = 23  # late move pruning: quiet moves tried at depth d <= 3 before the rest are skipped
C_QUIET_FUTILITY = 24  # frontier futility of quiet moves, centipawns per ply (depth <= 2)
C_IIR = 25  # 1 = internal iterative reduction: no TT move at depth >= 4 searches one ply less
C_QSEE = 26  # 1 = quiescence skips captures that give a more valuable animal for a lesser one
C_LMR_PERCENT = 27  # LMR's log x log reduction scaled by this % (100: the table as it is)
C_LMR_IN_DANGER = 28  # 1 = LMR also with an enemy near our den (never in den check)
#: Issue 31's third search round (the danger rule): 0 = C_DANGER_RADIUS's Manhattan rule.
C_DANGER_MOVES = 29  # danger: an enemy that can stand on our trap within this many moves
C_DANGER_GUARDS = 30  # 1 = ... unless our guard gets next to it in time; 2 = one per runner
C_HISTORY_WRITES = 31  # writes to the history so far (the journal's next entry, unwrapped)
#: Issue 31's third speed round: nodes up to this depth search a legal table move before they
#: generate their other moves (0: every node generates first; the same search either way).
C_STAGED_DEPTH = 32
#: The root's history row plus one when ``W_KEY_FILTER`` holds the keys of the game before
#: that root (:func:`build_key_filter`), else anything else (0: no filter, scan everything).
C_KEY_FILTER = 33
#: The finer danger rule (C_DANGER_MOVES) at the nodes of one side only: that side + 1 (the
#: root side well ahead: search_driver's ``danger_lead``), or 0 for both sides' nodes.
C_DANGER_SIDE = 34
CTL_SIZE = 40
W_KILLERS = CTL_SIZE
W_HISTORY = W_KILLERS + 2 * MAX_PLY
W_PV = W_HISTORY + 2 * 4096
W_PV_LEN = W_PV + MAX_PLY * MAX_PLY
W_MOVES = W_PV_LEN + MAX_PLY
W_SCORES = W_MOVES + MAX_PLY * MAX_MOVES
W_ROOT_MOVES = W_SCORES + MAX_PLY * MAX_MOVES
W_ROOT_SCORES = W_ROOT_MOVES + MAX_MOVES
#: Static evaluations by hash (key, score pairs): re-searches and transpositions reuse them.
EVAL_CACHE_ENTRIES = 1 << 15
W_EVAL_CACHE = W_ROOT_SCORES + MAX_MOVES
#: The learned evaluation's accumulators (:mod:`.nnue`): per search ply 0..MAX_PLY and one
#: spare, the hash of the position they belong to, then Red's and Blue's first-layer sums
#: (int32, two a word); then the scratch of its clipped activations (int32, two a word).
MAX_HIDDEN = 128
ACC_STRIDE = 1 + MAX_HIDDEN
ACC_SLOTS = MAX_PLY + 2
W_ACC = W_EVAL_CACHE + 2 * EVAL_CACHE_ENTRIES
W_ACC_ACTIVE = W_ACC + ACC_SLOTS * ACC_STRIDE
#: The history's journal: the last JOURNAL_ENTRIES writes to it (slot, value before), a ring,
#: so that a node can score its moves by the history as it stood before it searched its table
#: move (:func:`rewind_history`), as it would have had it generated the list first.
JOURNAL_ENTRIES = 1 << 12
W_JOURNAL = W_ACC_ACTIVE + MAX_HIDDEN
#: The hand-tuned evaluation's sums over single animals (:mod:`.evaluate`): per search ply
#: 0..MAX_PLY and one spare, the hash of the position they belong to, then its
#: ``EVAL_SUMS`` words. After the evaluation cache, so that clearing it (other weights, other
#: rules) clears them too.
EVAL_SUMS_STRIDE = 16
W_EVAL_SUMS = W_JOURNAL + 2 * JOURNAL_ENTRIES
#: A bit per 12-bit key prefix (4,096 bits) of the positions the game has stood in since its
#: last capture before the root: a node whose key's bit is clear skips the repetition scan's
#: rows before the root (no row there can hold its key).
KEY_FILTER_WORDS = 64
W_KEY_FILTER = W_EVAL_SUMS + ACC_SLOTS * EVAL_SUMS_STRIDE
#: The hand-tuned evaluation's terms of single animals by square (:mod:`.evaluate`), made from
#: the weights and the rules at the first evaluation after the evaluation cache was cleared
#: (other weights, other rules clear it: this block lies after it). Word 0 is nonzero once
#: made; then ``EVAL_SUMS_STRIDE`` words for each animal code 0..16 and square 0..63: what
#: that animal there adds to each of the ``EVAL_SUMS`` words (code 0, a pass, and square 63,
#: captured: nothing), so that a move moves the sums on by a few loads.
EVAL_TERMS_HEADER = 8
W_EVAL_TERMS = W_KEY_FILTER + KEY_FILTER_WORDS
WORK_SIZE = W_EVAL_TERMS + EVAL_TERMS_HEADER + 17 * 64 * EVAL_SUMS_STRIDE

#: DEN_SQUARE[c]: c's own den.
DEN_SQUARE = np.array(DENS, dtype=np.int64)


def new_work() -> NDArray[np.int64]:
    return np.zeros(WORK_SIZE, dtype=np.int64)


@inline
def path_key(state: NDArray[np.int64], history: NDArray[np.int64], back: int) -> int:
    """The hash of the position ``back`` plies up the path (0: this one)."""
    key: int = state[S_HASH] if back == 0 else history[state[S_PLY] - back, H_HASH]
    return key


@inline
def nearest_tagged_slot(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    work: NDArray[np.int64],
    base: int,
    stride: int,
) -> int:
    """How many plies up the path the nearest of the per-ply slots at ``work[base:]``
    (``stride`` words a search ply, the first the hash of the position it was made for) still
    holds this path's position: 0 for this ply's own, -1 when none does. For a search ply only
    (its slot between 0 and MAX_PLY): the learned evaluation's accumulators and the hand-tuned
    one's sums both follow the path this way."""
    slot = state[S_PLY] - work[C_ROOT_PLY]
    here = base + slot * stride
    for back in range(slot + 1):
        if work[here - back * stride] == path_key(state, history, back):
            return back
    return -1


@inline
def key_filter_bit(key: int) -> int:
    """The bit of ``W_KEY_FILTER`` (0..4095) that stands for a position's key: its top 12 bits
    (Zobrist keys are uniform)."""
    bit: int = (key >> 52) & 4095
    return bit


@njit(f"void({A1}, {A2}, {A1})", **HOT_NOGIL)
def build_key_filter(
    state: NDArray[np.int64], history: NDArray[np.int64], work: NDArray[np.int64]
) -> None:
    """Fill ``W_KEY_FILTER`` with the keys of the history rows a node below this root could
    repeat (since the last capture: a capture in the tree cuts the scan off above the root) and
    mark it valid for this root (``C_KEY_FILTER``). Called for each search's root."""
    for word in range(KEY_FILTER_WORDS):
        work[W_KEY_FILTER + word] = 0
    ply = state[S_PLY]
    for row in range(max(0, ply - state[S_HALFMOVE]), ply):
        bit = key_filter_bit(history[row, H_HASH])
        work[W_KEY_FILTER + (bit >> 6)] |= 1 << (bit & 63)
    work[C_KEY_FILTER] = ply + 1


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


@njit(f"int64({A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def animal_value(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64], square: int
) -> int:
    value: int = params[P_MATERIAL + rules[RULE_RANK + state[S_BOARD + square]]]
    return value


@njit(f"void({A1}, {A1}, {A1}, {A1}, int64, int64, int64, int64)", **HOT_NOGIL)
def score_moves(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    base: int,
    count: int,
    tt_move: int,
    ply: int,
) -> None:
    """Ordering keys: TT move, den entry, captures (most valuable victim, then least valuable
    attacker; intruders in our traps first), den threats, killers, history."""
    us = state[S_TURN]
    enemy_den = DEN_SQUARE[1 - us]
    enemy_traps = TRAP_BB[1 - us]
    enemy_occupancy = state[S_OCCUPANCY + 1 - us]
    killer1 = work[W_KILLERS + 2 * ply]
    killer2 = work[W_KILLERS + 2 * ply + 1]
    history_base = W_HISTORY + 4096 * us
    for i in range(base, base + count):
        move = work[np.uint64(i)]  # unsigned indices, as in pick_move
        to = move >> 6
        if move == tt_move:
            key = 1 << 40
        elif to == enemy_den:
            key = 1 << 39
        elif state[S_BOARD + to] != 0:
            key = (1 << 36) + 64 * animal_value(state, rules, params, to)
            key -= rules[RULE_RANK + state[S_BOARD + (move & 63)]]
            if (TRAP_BB[us] >> to) & 1:
                key += 1 << 37
        elif (enemy_traps >> to) & 1 and (NEIGHBOURS[to] & enemy_occupancy) == 0:
            key = 1 << 35
        elif move == killer1:
            key = 1 << 34
        elif move == killer2:
            key = (1 << 34) - 1
        else:
            key = work[np.uint64(history_base + move)]
        work[np.uint64(i + (W_SCORES - W_MOVES))] = key


@njit(f"int64({A1}, int64, int64, int64)", **HOT_NOGIL)
def pick_move(work: NDArray[np.int64], base: int, count: int, index: int) -> int:
    """Swap the best-keyed remaining move to ``index`` and return it (selection sort: of equal
    keys the first wins)."""
    offset = W_SCORES - W_MOVES
    first = base + index
    best = first
    # The best key so far stays in a register instead of being read again at every step.
    best_key = work[first + offset]
    # The keys are read by unsigned index: numba's code for a signed one adds the array's
    # length to a negative index (a compare and a conditional move per key), and they were
    # nearly half of the loop's instructions.
    for i in range(first + 1, base + count):
        key = work[np.uint64(i + offset)]
        if key > best_key:
            best = i
            best_key = key
    if best != first:
        work[first], work[best] = work[best], work[first]
        work[first + offset], work[best + offset] = best_key, work[first + offset]
    move: int = work[first]
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
    index = W_HISTORY + 4096 * us + move
    writes = work[C_HISTORY_WRITES]
    entry = W_JOURNAL + 2 * (writes & (JOURNAL_ENTRIES - 1))
    work[entry] = index
    work[entry + 1] = work[index]
    work[C_HISTORY_WRITES] = writes + 1
    # History with gravity: values stay within +-16384 and older results fade.
    work[index] += bonus - work[index] * abs(bonus) // 16384
    if bonus > 0 and work[W_KILLERS + 2 * ply] != move:
        work[W_KILLERS + 2 * ply + 1] = work[W_KILLERS + 2 * ply]
        work[W_KILLERS + 2 * ply] = move


@njit(f"boolean({A1}, int64)", **HOT_NOGIL)
def rewind_history(work: NDArray[np.int64], since: int) -> bool:
    """Undo the history's writes made since ``work[C_HISTORY_WRITES]`` was ``since`` (newest
    first, each entry keeping the value it undid), so that it reads as it did then; False, and
    nothing undone, when the journal no longer holds them all. :func:`replay_history` redoes
    them."""
    writes = work[C_HISTORY_WRITES]
    if writes - since > JOURNAL_ENTRIES:
        return False
    for number in range(writes - 1, since - 1, -1):
        entry = W_JOURNAL + 2 * (number & (JOURNAL_ENTRIES - 1))
        index = work[entry]
        work[entry + 1], work[index] = work[index], work[entry + 1]
    return True


@njit(f"void({A1}, int64)", **HOT_NOGIL)
def replay_history(work: NDArray[np.int64], since: int) -> None:
    """Redo what :func:`rewind_history` undid (oldest first)."""
    for number in range(since, work[C_HISTORY_WRITES]):
        entry = W_JOURNAL + 2 * (number & (JOURNAL_ENTRIES - 1))
        index = work[entry]
        work[entry + 1], work[index] = work[index], work[entry + 1]

"""Static evaluation (compiled): centipawns from the side to move's point of view.

Terms, each weighted by an entry of the ``params`` array (:mod:`.eval_params`):

* material by rank, and a rat bonus while the enemy elephant lives (only the rat takes it);
* piece-square tables per animal — mostly "moves to the enemy den" for that animal (a lion or
  tiger counts its jumps, a land animal walks around the lakes), plus water for the rat;
* mobility per animal: squares it may move to, jumps included (a rat in the water that blocks
  a jump lowers the jumper's mobility); a rat blocking an enemy jump earns a bonus of its own;
* den pressure: "attack units" of animals near the enemy den, minus "guard units" of the
  enemy's animals near it, through a convex table (two attackers are worth more than twice
  one: a single defender can answer only one of them);
* pressing a lead home: a side ahead in material brings its animals toward the enemy den
  (centipawns per step within 8 of it, scaled by the lead): several attackers, not one; it
  hunts the enemy's animals (each one's nearest hunter able to capture it), and it gains by
  trading down (a share of its lead for the enemy material gone) — a lead turned into
  captures ends in the endgame tables;
* den races: an enemy animal that can reach one of our traps before any of our animals can
  stand on it or next to it (moves on an empty board, the side to move a tempo ahead) enters
  the den unless caught on its way — the side ahead that sends everything forward loses this
  way; charged by the runner's distance;
* traps: an own trap that no own animal stands next to cannot be defended — an enemy animal
  entering it would threaten the den with nobody to capture it; worse with an enemy next to it;
* threats: for the side to move, enemy animals it can capture now, and its own animals the
  enemy can capture (two attacked animals cannot both be saved by one move); tempo.

Mobility and threats need every animal's moves, which costs three quarters of the time; with
their weights at zero (the defaults — self-play found them worth nothing beyond what the
search sees) the moves are not generated at all.

The search only evaluates quiet positions (quiescence has resolved captures and den threats),
so these terms describe pressure, not the immediate tactics. It calls
:func:`evaluate_in_search`, the same value, whose terms of one animal each (material,
piece-square, den attack and guard units, press) are kept per search ply and moved on by the
moves played, instead of summed over every animal at each evaluation.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL, inline
from doushouqi.jungle.ai.bitops import lowest_square, popcount
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import (
    ATTACK_TABLE_SIZE,
    P_ATTACK_TABLE,
    P_ATTACK_WEIGHT,
    P_GUARD_WEIGHT,
    P_HANGING_SECOND,
    P_HANGING_SINGLE,
    P_HOME_GUARD,
    P_HOME_MARGIN,
    P_HUNT,
    P_MATERIAL,
    P_MOBILITY,
    P_PRESS,
    P_PRESS_LEAD,
    P_PST,
    P_RACE,
    P_RAT_BLOCKS_JUMP,
    P_RAT_VS_ELEPHANT,
    P_TEMPO,
    P_THREAT_ON_MOVE,
    P_TRADE_DOWN,
    P_TRAP_OPEN,
    P_TRAP_OPEN_ADJACENT,
    RACE_TABLE_SIZE,
    default_params,
    steps_to,
)
from doushouqi.jungle.ai.movegen import piece_targets
from doushouqi.jungle.ai.state import (
    H_CAPTURED,
    H_CODE,
    H_FROM,
    H_TO,
    S_BOARD,
    S_HASH,
    S_OCCUPANCY,
    S_PLY,
    S_TURN,
    S_WHERE,
)
from doushouqi.jungle.ai.tables import (
    CAPTURED,
    JUMP_COUNT,
    JUMP_PATH,
    NEIGHBOURS,
    RULE_RANK,
    WATER_BB,
)
from doushouqi.jungle.ai.work import (
    ACC_SLOTS,
    C_ROOT_PLY,
    EVAL_SUMS_STRIDE,
    EVAL_TERMS_HEADER,
    MAX_PLY,
    W_EVAL_SUMS,
    W_EVAL_TERMS,
    nearest_tagged_slot,
    path_key,
)
from doushouqi.jungle.squares import DENS, ELEPHANT, LION, RAT, TIGER, TRAPS, iter_squares

__all__ = [
    "build_eval_terms",
    "evaluate",
    "evaluate_batch",
    "evaluate_in_search",
    "static_eval",
]


#: Signature types: 1-D and 2-D C-contiguous int64 arrays (see :mod:`.search` for why the
#: compiled functions declare their signatures).
A1 = "int64[::1]"
A2 = "int64[:, ::1]"


def _manhattan(a: int, b: int) -> int:
    return abs(a // 7 - b // 7) + abs(a % 7 - b % 7)


#: ENEMY_DEN_DISTANCE[c, s] / OWN_DEN_DISTANCE[c, s]: Manhattan distance from s to the den of
#: c's enemy / of c itself (row 63, a captured animal, is far from everything).
ENEMY_DEN_DISTANCE = np.full((2, 64), 99, dtype=np.int64)
OWN_DEN_DISTANCE = np.full((2, 64), 99, dtype=np.int64)
for _c in (0, 1):
    for _s in range(63):
        ENEMY_DEN_DISTANCE[_c, _s] = _manhattan(_s, DENS[1 - _c])
        OWN_DEN_DISTANCE[_c, _s] = _manhattan(_s, DENS[_c])
#: MANHATTAN[64 * a + b]: steps between two squares of the board (the hunt's yardstick), one
#: byte each (4 KiB: it stays in the first-level cache).
MANHATTAN = np.zeros(64 * 64, dtype=np.uint8)
for _a in range(63):
    for _b in range(63):
        MANHATTAN[64 * _a + _b] = _manhattan(_a, _b)
#: TRAP_SQUARES[c]: the three traps around c's den.
TRAP_SQUARES = np.array([list(iter_squares(TRAPS[c])) for c in (0, 1)], dtype=np.int64)
#: TRAP_NEIGHBOURS[3 * c + i]: the squares next to c's trap i.
TRAP_NEIGHBOURS = np.array([NEIGHBOURS[t] for t in TRAP_SQUARES.ravel()], dtype=np.int64)

#: MOVER_KIND[animal]: how it moves, for the race tables: 0 walks, 1 swims (the rat),
#: 2 jumps the lakes (tiger, lion).
MOVER_KIND = np.array([0, 1, 0, 0, 0, 0, 2, 2, 0], dtype=np.int64)
#: RUN_STEPS[c, i, kind, s]: moves from s to c's trap i for an enemy animal of that kind;
#: GUARD_STEPS[c, i, kind, s]: moves for c's own animal to stand on that trap or next to it
#: (its own den closed). Row 63, a captured animal, is far.
RUN_STEPS = np.full((2, 3, 3, 64), 99, dtype=np.int64)
GUARD_STEPS = np.full((2, 3, 3, 64), 99, dtype=np.int64)
for _c in (0, 1):
    for _i in range(3):
        _trap = int(TRAP_SQUARES[_c, _i])
        _post = [_trap] + [s for s in iter_squares(int(NEIGHBOURS[_trap])) if s != DENS[_c]]
        for _kind, (_swims, _jumps) in enumerate(((False, False), (True, False), (False, True))):
            RUN_STEPS[_c, _i, _kind, :63] = steps_to(
                [_trap], swims=_swims, jumps=_jumps, closed=DENS
            )
            GUARD_STEPS[_c, _i, _kind, :63] = steps_to(
                _post, swims=_swims, jumps=_jumps, closed=[DENS[_c]]
            )

#: GEOMETRY[64 * code + s]: all the evaluation reads of the board's geometry for animal
#: ``code`` (8 * colour + animal) on square s, packed in one word, so that an animal costs one
#: load (the race terms alone read a four-dimensional table 48 times an evaluation before):
#: bits 8i..8i+7 (i < 3): its moves, as a runner, to the enemy's trap i (RUN_STEPS); bits
#: 24+8i..31+8i: its moves to guard its own trap i (GUARD_STEPS) — six byte lanes, each at most
#: 99, so that a side's minimum over its animals is taken for all six at once (in
#: :func:`evaluate`); bits 48..55: Manhattan steps to the enemy den; bits 56..62: to its own.
GEOMETRY = np.zeros(16 * 64 + 64, dtype=np.int64)
for _code in range(1, 17):
    _colour, _animal = (_code - 1) // 8, (_code - 1) % 8 + 1
    _kind = int(MOVER_KIND[_animal])
    for _s in range(64):
        _word = 0
        for _i in range(3):
            _word |= int(RUN_STEPS[1 - _colour, _i, _kind, _s]) << (8 * _i)
            _word |= int(GUARD_STEPS[_colour, _i, _kind, _s]) << (24 + 8 * _i)
        _word |= min(99, int(ENEMY_DEN_DISTANCE[_colour, _s])) << 48
        _word |= min(99, int(OWN_DEN_DISTANCE[_colour, _s])) << 56
        GEOMETRY[64 * _code + _s] = _word
#: The six race lanes of a GEOMETRY word, and all of them "far" (99, what a side without
#: animals would read).
LANES = (1 << 48) - 1
LANES_FAR = 0x636363636363
#: Bit 7 of each lane.
LANE_HIGH = 0x808080808080


@njit(f"int64({A1}, {A1}, int64, int64)", **HOT_NOGIL)
def _rat_blocks(state: NDArray[np.int64], params: NDArray[np.int64], c: int, rat: int) -> int:
    """Side c's bonus for its rat (in the water on ``rat``) blocking enemy lion/tiger jumps."""
    score = 0
    for jumper in (LION, TIGER):
        where = state[S_WHERE + 8 * (1 - c) + jumper]
        if where == CAPTURED:
            continue
        for i in range(JUMP_COUNT[where]):
            if (JUMP_PATH[where, i] >> rat) & 1:
                score += params[P_RAT_BLOCKS_JUMP]
    return score


@njit(f"int64({A1}, int64, int64, boolean, int64)", **HOT_NOGIL)
def _race_penalty(
    params: NDArray[np.int64], runs: int, guards: int, c_to_move: bool, margin: int
) -> int:
    """What side c loses to the nearest enemy runner that wins the race to one of c's traps:
    it stands there after r moves, and no animal of c's can stand on the trap or next to it
    by then (r moves if c is to move, else r - 1; ``margin`` moves fewer: the home guard of a
    side ahead, 0 otherwise). ``runs``: byte i the enemy's nearest runner to c's trap i;
    ``guards``: byte 3 + i c's nearest guard of it (lanes of :data:`GEOMETRY`, each the
    minimum over a side's animals)."""
    worst = 0
    for i in range(3):
        run = (runs >> (8 * i)) & 0xFF
        if run == 0 or run >= RACE_TABLE_SIZE:
            continue  # on the trap already: the search's den check; or too far to count
        guard = (guards >> (24 + 8 * i)) & 0xFF
        if guard > (run if c_to_move else run - 1) - margin:
            worst = max(worst, params[P_RACE + run])
    return worst


#: Seven-bit lanes, one per animal (lane a - 1 for animal a, 56 bits in all): ``_ONES`` has 1
#: in each, ``_GUARD_BITS`` each lane's top bit, ``_LOW_BITS`` its six value bits. Values stay
#: below 64, so a lane's top bit can take a borrow without disturbing its neighbour.
_ONES = sum(1 << (7 * lane) for lane in range(8))
_GUARD_BITS = _ONES << 6
_LOW_BITS = _ONES * 63
#: SQUARE_ROW[s], SQUARE_COL[s]: the row and column of s; a captured animal (63) stands on row
#: 40, farther from every square than the hunt counts (8 steps).
CAPTURED_ROW = 40
SQUARE_ROW = np.array([s // 7 for s in range(63)] + [CAPTURED_ROW], dtype=np.int64)
SQUARE_COL = np.array([s % 7 for s in range(63)] + [0], dtype=np.int64)


@inline
def _lanes_at_least(a: int, b: int) -> int:
    """1 in each seven-bit lane where a's value is at least b's, else 0."""
    not_below: int = (((a | _GUARD_BITS) - b) & _GUARD_BITS) >> 6
    return not_below


@inline
def _lanes_distance(a: int, b: int) -> int:
    """|a - b| in each seven-bit lane."""
    take_a_minus_b = _lanes_at_least(a, b) * 63
    a_minus_b = ((a | _GUARD_BITS) - b) & take_a_minus_b
    b_minus_a = ((b | _GUARD_BITS) - a) & ~take_a_minus_b & _LOW_BITS
    distance: int = a_minus_b | b_minus_a
    return distance


@inline
def _lanes_min(a: int, b: int) -> int:
    """The smaller value in each seven-bit lane."""
    take_b = _lanes_at_least(a, b) * 63
    smaller: int = (b & take_b) | (a & ~take_b & _LOW_BITS)
    return smaller


@njit(f"int64({A1}, int64, int64, int64, int64, int64, int64, int64, int64, int64)", **HOT_NOGIL)
def _lead_terms(
    params: NDArray[np.int64],
    rows: int,
    cols: int,
    ranks: int,
    enemy_rows: int,
    enemy_cols: int,
    enemy_ranks: int,
    enemy_material: int,
    lead: int,
    press: int,
) -> int:
    """What a side ahead by ``lead`` cp gets for pressing it home: its animals near the enemy
    den (``press`` steps), hunting the enemy's animals (Manhattan steps: a guide, not a path),
    and the share of the enemy's starting material (now ``enemy_material``) that is gone.
    Each side's animals come as three words of seven-bit lanes, lane a - 1 for animal a: rows,
    columns (a captured animal on row 40, farther than the hunt counts) and ranks (0:
    captured) — kept along the search path with the other sums (``SUM_ROWS_RED``...), so that
    nothing here reads the board.

    The hunt measures all eight hunters at once: each prey's nearest able hunter is a lane
    minimum."""
    scale = min(1000, lead)
    score: int = params[P_PRESS] * press * scale // 1000
    hunt = 0
    for prey in range(1, 9):
        lane = 7 * (prey - 1)
        row = (enemy_rows >> lane) & 127
        if row == CAPTURED_ROW:
            continue
        prey_rank = (enemy_ranks >> lane) & 127
        # Able hunters: rank at least the prey's, but not the elephant against the rat (the
        # one capture rank allows that the rules do not), and the rat against the elephant.
        able = _lanes_at_least(ranks, prey_rank * _ONES)
        if prey == RAT:
            able &= ~(1 << (7 * (ELEPHANT - 1)))
        elif prey == ELEPHANT:
            able |= 1 << (7 * (RAT - 1))
        col = (enemy_cols >> lane) & 127
        steps = _lanes_distance(rows, row * _ONES) + _lanes_distance(cols, col * _ONES)
        steps |= (_ONES & ~able) * 63  # the unable ones: 63 steps, never the nearest
        steps = _lanes_min(steps, steps >> 28)
        steps = _lanes_min(steps, steps >> 14)
        steps = _lanes_min(steps, steps >> 7)
        hunt += 8 - min(8, steps & 63)
    score += params[P_HUNT] * hunt * scale // 1000
    start = 0
    for rank in range(1, 9):
        start += params[P_MATERIAL + rank]
    gone = max(0, start - enemy_material)
    score += params[P_TRADE_DOWN] * lead * gone // (100 * max(1, start))
    return score


@njit(f"int64({A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def _victim_value(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64], square: int
) -> int:
    value: int = params[P_MATERIAL + rules[RULE_RANK + state[S_BOARD + square]]]
    return value


#: Where :func:`evaluate`'s sums over single animals stand in a slot of ``work``'s
#: ``W_EVAL_SUMS`` (word 0 holds the position's hash): Red's minus Blue's material and
#: piece-square values, Red's minus Blue's material (the lead), Red's den attack units minus
#: Blue's guard units, Blue's attack units minus Red's guard units, and each side's press steps;
#: then what the lead terms read (:func:`_lead_terms`): Blue's material, and each side's rows,
#: columns and ranks in seven-bit lanes (one per animal). ``SUM_WORDS``: words 1.. in use.
SUM_SCORE, SUM_MATERIAL, SUM_ATTACK_RED, SUM_ATTACK_BLUE, SUM_PRESS_RED, SUM_PRESS_BLUE = (
    1, 2, 3, 4, 5, 6,
)  # fmt: skip
SUM_MATERIAL_BLUE, SUM_ROWS_RED, SUM_COLS_RED, SUM_RANKS_RED = 7, 8, 9, 10
SUM_ROWS_BLUE, SUM_COLS_BLUE, SUM_RANKS_BLUE = 11, 12, 13
SUM_WORDS = 14


@inline
def _animal_terms(
    rules: NDArray[np.int64], params: NDArray[np.int64], code: int, square: int
) -> tuple[int, int, int, int, int]:
    """What animal ``code`` on ``square`` adds to its side's sums: material and piece-square
    value, material, den attack units, guard units of its own den, press steps (toward the
    enemy den). Each depends on this one animal only, so a move changes them by the difference
    of two squares (and a capture by the victim's)."""
    colour = (code - 1) >> 3
    animal = code - 8 * colour
    value = params[P_MATERIAL + rules[RULE_RANK + code]]
    relative = square if colour == 0 else 62 - square
    geometry = GEOMETRY[64 * code + square]
    distance = (geometry >> 48) & 0xFF
    units = params[P_ATTACK_WEIGHT + distance] if distance <= 4 else 0
    press = 8 - distance if distance < 8 else 0
    distance = geometry >> 56
    guards = params[P_GUARD_WEIGHT + distance] if distance <= 3 else 0
    return value + params[P_PST + animal * 63 + relative], value, units, guards, press


@inline
def _sums_from_scratch(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64]
) -> tuple[int, int, int, int, int, int]:
    """The sums over single animals (the ``SUM_*`` words, in order) from every animal."""
    score = material = attack_red = attack_blue = press_red = press_blue = 0
    for code in range(1, 17):
        square = state[S_WHERE + code]
        if square != CAPTURED:
            value, worth, units, guards, press = _animal_terms(rules, params, code, square)
            if code <= 8:
                score += value
                material += worth
                attack_red += units
                attack_blue -= guards
                press_red += press
            else:
                score -= value
                material -= worth
                attack_blue += units
                attack_red -= guards
                press_blue += press
    return score, material, attack_red, attack_blue, press_red, press_blue


@inline
def _terms_at(code: int, square: int) -> int:
    """Where animal ``code``'s terms on ``square`` stand in ``work`` (``W_EVAL_TERMS``)."""
    at: int = W_EVAL_TERMS + EVAL_TERMS_HEADER + (64 * code + square) * EVAL_SUMS_STRIDE
    return at


@njit(f"void({A1}, {A1}, {A1})", **HOT_NOGIL)
def build_eval_terms(
    rules: NDArray[np.int64], params: NDArray[np.int64], work: NDArray[np.int64]
) -> None:
    """Fill ``work``'s table of the terms of single animals by square (:data:`.work.W_EVAL_TERMS`)
    from ``rules`` and ``params``: each animal's :func:`_animal_terms` on each square, with the
    sign and the ``SUM_*`` word it goes to, so that the sums are plain sums of entries."""
    for word in range(EVAL_TERMS_HEADER + 17 * 64 * EVAL_SUMS_STRIDE):
        work[W_EVAL_TERMS + word] = 0
    for code in range(1, 17):
        for square in range(63):
            value, worth, units, guards, press = _animal_terms(rules, params, code, square)
            at = _terms_at(code, square)
            # The lanes: a row relative to a captured animal's (the sums start from row 40 in
            # every lane, so that square 63 can add nothing), column, rank.
            lane = 7 * ((code - 1) & 7)
            rows = (SQUARE_ROW[square] - CAPTURED_ROW) << lane
            cols = SQUARE_COL[square] << lane
            ranks = rules[RULE_RANK + code] << lane
            if code <= 8:
                work[at + SUM_ROWS_RED] = rows
                work[at + SUM_COLS_RED] = cols
                work[at + SUM_RANKS_RED] = ranks
                work[at + SUM_SCORE] = value
                work[at + SUM_MATERIAL] = worth
                work[at + SUM_ATTACK_RED] = units
                work[at + SUM_ATTACK_BLUE] = -guards
                work[at + SUM_PRESS_RED] = press
            else:
                work[at + SUM_SCORE] = -value
                work[at + SUM_MATERIAL] = -worth
                work[at + SUM_ATTACK_BLUE] = units
                work[at + SUM_ATTACK_RED] = -guards
                work[at + SUM_PRESS_BLUE] = press
                work[at + SUM_MATERIAL_BLUE] = worth
                work[at + SUM_ROWS_BLUE] = rows
                work[at + SUM_COLS_BLUE] = cols
                work[at + SUM_RANKS_BLUE] = ranks
    work[W_EVAL_TERMS] = 1


@inline
def _sums_from_terms(state: NDArray[np.int64], work: NDArray[np.int64], here: int) -> int:
    """The sums over single animals into the slot at ``here``, from the table of terms (a
    captured animal's square 63 adds nothing); returns ``here``."""
    for i in range(1, SUM_WORDS):
        work[here + i] = 0
    work[here + SUM_ROWS_RED] = CAPTURED_ROW * _ONES
    work[here + SUM_ROWS_BLUE] = CAPTURED_ROW * _ONES
    for code in range(1, 17):
        at = _terms_at(code, state[S_WHERE + code])
        for i in range(1, SUM_WORDS):
            work[np.uint64(here + i)] += work[np.uint64(at + i)]
    return here


@inline
def _lanes_from_scratch(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64]
) -> tuple[int, int, int, int, int, int, int]:
    """What the lead terms read (the ``SUM_MATERIAL_BLUE``.. ``SUM_RANKS_BLUE`` words, in
    order) from every animal: Blue's material, and each side's rows, columns and ranks in
    seven-bit lanes (a captured animal: row 40, column 0, rank 0)."""
    material_blue = rows0 = cols0 = ranks0 = rows1 = cols1 = ranks1 = 0
    for animal in range(1, 9):
        lane = 7 * (animal - 1)
        square = state[S_WHERE + animal]
        rows0 |= SQUARE_ROW[square] << lane
        cols0 |= SQUARE_COL[square] << lane
        if square != CAPTURED:
            ranks0 |= rules[RULE_RANK + animal] << lane
        square = state[S_WHERE + 8 + animal]
        rows1 |= SQUARE_ROW[square] << lane
        cols1 |= SQUARE_COL[square] << lane
        if square != CAPTURED:
            ranks1 |= rules[RULE_RANK + 8 + animal] << lane
            material_blue += params[P_MATERIAL + rules[RULE_RANK + 8 + animal]]
    return material_blue, rows0, cols0, ranks0, rows1, cols1, ranks1


@inline
def _sums_after_move(
    work: NDArray[np.int64], source: int, code: int, frm: int, to: int, captured: int
) -> int:
    """The sums of ``work[source:]`` moved on by one ply into the next slot: plus the mover's
    terms on ``to``, minus its terms on ``frm`` and the victim's (a pass, code 0, and no victim
    read the table's empty row 0); returns the next slot's start."""
    target = source + EVAL_SUMS_STRIDE
    arrive = _terms_at(code, to)
    leave = _terms_at(code, frm)
    victim = _terms_at(captured, to)
    # Unsigned indices: numba's code for a signed one (a negative index counts from the end)
    # kept this loop from being vectorised.
    for i in range(1, SUM_WORDS):
        work[np.uint64(target + i)] = (
            work[np.uint64(source + i)]
            + work[np.uint64(arrive + i)]
            - work[np.uint64(leave + i)]
            - work[np.uint64(victim + i)]
        )
    return target


@inline
def _sums_in_search(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """Where in ``work`` this position's sums over single animals stand, brought up to date:
    a slot per search ply, tagged with the hash of the position it belongs to (as the learned
    evaluation's accumulators, :mod:`.nnue`); the nearest ply up the path whose slot is this
    path's is moved on by the moves played since (usually one or two), and without one the
    sums are taken from scratch. Off the search's plies (a quiescence call outside a search):
    the spare slot, from scratch."""
    row = state[S_PLY]
    slot = row - work[C_ROOT_PLY]
    tag = state[S_HASH]
    if slot < 0 or slot > MAX_PLY:
        here = W_EVAL_SUMS + (ACC_SLOTS - 1) * EVAL_SUMS_STRIDE
        back = -1  # from scratch, untagged
        tag = 0
    else:
        here = W_EVAL_SUMS + slot * EVAL_SUMS_STRIDE
        back = nearest_tagged_slot(state, history, work, W_EVAL_SUMS, EVAL_SUMS_STRIDE)
    if work[W_EVAL_TERMS] == 0:
        build_eval_terms(rules, params, work)  # cleared with the cache: other weights or rules
    if back < 0:
        _sums_from_terms(state, work, here)
        work[here] = tag
    else:
        source = here - back * EVAL_SUMS_STRIDE
        while back > 0:
            ply = row - back  # the history row of the move from this slot to the next
            source = _sums_after_move(
                work, source, history[ply, H_CODE], history[ply, H_FROM], history[ply, H_TO],
                history[ply, H_CAPTURED],
            )  # fmt: skip
            back -= 1
            work[source] = path_key(state, history, back)
    return here


@inline
def _byte_lanes_min(lanes: int, geometry: int) -> int:
    """The minimum of ``lanes`` and a GEOMETRY word's six race lanes, lane by lane: in lane l,
    (a_l + 128) - b_l is at least 29 (lanes hold at most 99), so no borrow crosses lanes, and
    its bit 7 is set exactly where a_l >= b_l; spread over the lane, it picks b_l there."""
    runs_guards = geometry & LANES
    not_below = (((lanes | LANE_HIGH) - runs_guards) & LANE_HIGH) >> 7
    take = not_below * 0xFF
    smaller: int = (runs_guards & take) | (lanes & ~take)
    return smaller


@inline
def _evaluate_given(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    score_sum: int,
    material: int,
    attack_red: int,
    attack_blue: int,
    press_red: int,
    press_blue: int,
    material_blue: int,
    rows0: int,
    cols0: int,
    ranks0: int,
    rows1: int,
    cols1: int,
    ranks1: int,
) -> int:
    """:func:`evaluate` given the sums over single animals (the ``SUM_*`` words): adds the
    terms that look at several animals (the rat against the elephant, open traps, blocked
    jumps, the attack table, den races, the lead terms, mobility and threats). The score is
    built as Red's minus Blue's, then turned to the side to move."""
    moves = (
        params[P_HANGING_SINGLE] != 0
        or params[P_HANGING_SECOND] != 0
        or params[P_THREAT_ON_MOVE] != 0
    )
    for animal in range(1, 9):
        moves = moves or params[P_MOBILITY + animal] != 0
    red_minus_blue = score_sum
    captures0 = captures1 = 0
    if moves:
        # Mobility and the squares each side attacks (enemy animals it can capture).
        for c in range(2):
            enemy_occupancy = state[S_OCCUPANCY + 1 - c]
            for animal in range(1, 9):
                code = 8 * c + animal
                square = state[S_WHERE + code]
                if square == CAPTURED:
                    continue
                targets = piece_targets(state, rules, code, square)
                mobility = params[P_MOBILITY + animal] * popcount(targets)
                if c == 0:
                    red_minus_blue += mobility
                    captures0 |= targets & enemy_occupancy
                else:
                    red_minus_blue -= mobility
                    captures1 |= targets & enemy_occupancy
    # Each side's nearest runner to each enemy trap and guard of each own trap (GEOMETRY's
    # lanes, the minimum over its animals; a captured animal's square 63 reads "far").
    lanes0 = lanes1 = LANES_FAR
    for animal in range(1, 9):
        lanes0 = _byte_lanes_min(lanes0, GEOMETRY[64 * animal + state[S_WHERE + animal]])
        lanes1 = _byte_lanes_min(lanes1, GEOMETRY[64 * (8 + animal) + state[S_WHERE + 8 + animal]])
    for c in range(2):
        enemy = 1 - c
        enemy_occupancy = state[S_OCCUPANCY + enemy]
        own_occupancy = state[S_OCCUPANCY + c]
        side_score = 0
        rat = state[S_WHERE + 8 * c + RAT]
        if rat != CAPTURED and state[S_WHERE + 8 * enemy + ELEPHANT] != CAPTURED:
            side_score += params[P_RAT_VS_ELEPHANT]
        for i in range(3):
            neighbours = TRAP_NEIGHBOURS[3 * c + i]
            if (neighbours & own_occupancy) == 0:
                side_score -= params[P_TRAP_OPEN]
                if (neighbours & enemy_occupancy) != 0:
                    side_score -= params[P_TRAP_OPEN_ADJACENT]
        if rat != CAPTURED and ((WATER_BB >> rat) & 1) != 0:
            side_score += _rat_blocks(state, params, c, rat)
        red_minus_blue += side_score if c == 0 else -side_score

    top = ATTACK_TABLE_SIZE - 1
    red_minus_blue += params[P_ATTACK_TABLE + min(top, max(0, attack_red))]
    red_minus_blue -= params[P_ATTACK_TABLE + min(top, max(0, attack_blue))]
    # Pressing a lead home: the side well ahead brings its animals to the enemy den.
    lead = material
    threshold = params[P_PRESS_LEAD]
    if threshold > 0 and (lead >= threshold or -lead >= threshold):
        if lead >= threshold:
            red_minus_blue += _lead_terms(
                params, rows0, cols0, ranks0, rows1, cols1, ranks1, material_blue, lead, press_red
            )
        else:
            material_red = material_blue + material
            red_minus_blue -= _lead_terms(
                params, rows1, cols1, ranks1, rows0, cols0, ranks0, material_red, -lead,
                press_blue,
            )  # fmt: skip
    turn = state[S_TURN]
    # The home guard: the side ahead loses its races earlier, and each costs it more.
    margin_red = margin_blue = gain_red = gain_blue = 0
    if threshold > 0 and (params[P_HOME_GUARD] != 0 or params[P_HOME_MARGIN] != 0):
        if lead >= threshold:
            margin_red = params[P_HOME_MARGIN]
            gain_red = params[P_HOME_GUARD] * min(1000, lead) // 1000
        elif -lead >= threshold:
            margin_blue = params[P_HOME_MARGIN]
            gain_blue = params[P_HOME_GUARD] * min(1000, -lead) // 1000
    # Red's traps: Blue's runners (lanes1) against Red's guards (lanes0); and the other way.
    race = _race_penalty(params, lanes1, lanes0, turn == 0, margin_red)
    red_minus_blue -= race + race * gain_red // 100
    race = _race_penalty(params, lanes0, lanes1, turn == 1, margin_blue)
    red_minus_blue += race + race * gain_blue // 100
    if turn == 0:
        score = red_minus_blue
        ours_attacked = captures1
        theirs_attacked = captures0
    else:
        score = -red_minus_blue
        ours_attacked = captures0
        theirs_attacked = captures1
    score += params[P_TEMPO]

    best = 0
    while theirs_attacked != 0:
        square = lowest_square(theirs_attacked)
        theirs_attacked &= theirs_attacked - 1
        best = max(best, _victim_value(state, rules, params, square))
    score += best * params[P_THREAT_ON_MOVE] // 64

    if ours_attacked != 0:
        first = 0
        second = 0
        count = 0
        while ours_attacked != 0:
            square = lowest_square(ours_attacked)
            ours_attacked &= ours_attacked - 1
            value = _victim_value(state, rules, params, square)
            count += 1
            if value > first:
                second = first
                first = value
            elif value > second:
                second = value
        if count == 1:
            score -= first * params[P_HANGING_SINGLE] // 64
        else:
            score -= second * params[P_HANGING_SECOND] // 64
    result: int = score
    return result


@njit(f"int64({A1}, {A1}, {A1})", **HOT_NOGIL)
def evaluate(state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64]) -> int:
    """Centipawns for the side to move (the position must not be over on the board), every
    term from scratch."""
    score_sum, material, attack_red, attack_blue, press_red, press_blue = _sums_from_scratch(
        state, rules, params
    )
    material_blue, rows0, cols0, ranks0, rows1, cols1, ranks1 = _lanes_from_scratch(
        state, rules, params
    )
    score: int = _evaluate_given(
        state, rules, params, score_sum, material, attack_red, attack_blue, press_red,
        press_blue, material_blue, rows0, cols0, ranks0, rows1, cols1, ranks1,
    )  # fmt: skip
    return score


@njit(f"int64({A1}, {A2}, {A1}, {A1}, {A1})", **HOT_NOGIL)
def evaluate_in_search(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """:func:`evaluate` inside a search (the same value): its sums over single animals kept per
    search ply in ``work`` and moved on along the path (:func:`_sums_in_search`), not summed
    over every animal at each evaluation. ``work``'s sums must belong to ``rules`` and
    ``params`` (the driver clears them with the evaluation cache)."""
    at = _sums_in_search(state, history, rules, params, work)
    score: int = _evaluate_given(
        state, rules, params, work[at + SUM_SCORE], work[at + SUM_MATERIAL],
        work[at + SUM_ATTACK_RED], work[at + SUM_ATTACK_BLUE], work[at + SUM_PRESS_RED],
        work[at + SUM_PRESS_BLUE], work[at + SUM_MATERIAL_BLUE], work[at + SUM_ROWS_RED],
        work[at + SUM_COLS_RED], work[at + SUM_RANKS_RED], work[at + SUM_ROWS_BLUE],
        work[at + SUM_COLS_BLUE], work[at + SUM_RANKS_BLUE],
    )  # fmt: skip
    return score


@njit(f"void({A2}, {A1}, {A1}, {A1})", **HOT_NOGIL)
def evaluate_batch(
    states: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    out: NDArray[np.int64],
) -> None:
    """:func:`evaluate` of every row of ``states`` (one position's state a row) into ``out``
    (for tuners: one compiled call for a whole data set)."""
    for i in range(states.shape[0]):
        out[i] = evaluate(states[i], rules, params)


_DEFAULT_PARAMS = default_params()


def static_eval(position: Position, params: NDArray[np.int64] | None = None) -> int:
    """:func:`evaluate` of a position (default weights unless given)."""
    weights = _DEFAULT_PARAMS if params is None else params
    return int(evaluate(position.state, position.compiled_rules, weights))

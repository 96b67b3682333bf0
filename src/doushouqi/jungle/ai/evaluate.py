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

The search only calls :func:`evaluate` in quiet positions (quiescence has resolved captures
and den threats), so these terms describe pressure, not the immediate tactics.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.jungle.ai.bitops import lowest_square, popcount
from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import (
    ATTACK_TABLE_SIZE,
    P_ATTACK_TABLE,
    P_ATTACK_WEIGHT,
    P_GUARD_WEIGHT,
    P_HANGING_SECOND,
    P_HANGING_SINGLE,
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
from doushouqi.jungle.ai.jit import HOT_NOGIL
from doushouqi.jungle.ai.movegen import piece_targets
from doushouqi.jungle.ai.state import S_BOARD, S_OCCUPANCY, S_TURN, S_WHERE
from doushouqi.jungle.ai.tables import (
    CAPTURED,
    JUMP_COUNT,
    JUMP_PATH,
    NEIGHBOURS,
    RULE_RANK,
    WATER_BB,
)
from doushouqi.jungle.squares import DENS, ELEPHANT, LION, RAT, TIGER, TRAPS, iter_squares

__all__ = ["evaluate", "evaluate_batch", "static_eval"]


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
#: MANHATTAN[a, b]: steps between two squares of the board (the hunt's yardstick).
MANHATTAN = np.array([[_manhattan(a, b) for b in range(63)] for a in range(63)], dtype=np.int64)
#: TRAP_SQUARES[c]: the three traps around c's den.
TRAP_SQUARES = np.array([list(iter_squares(TRAPS[c])) for c in (0, 1)], dtype=np.int64)

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


@njit(f"UniTuple(int64, 6)({A1}, {A1}, {A1}, int64, boolean)", **HOT_NOGIL)
def _side_terms(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    c: int,
    moves: bool,
) -> tuple[int, int, int, int, int, int]:
    """Side c's own terms: (score, squares of enemy animals it can capture, attack units near
    the enemy den, guard units near its own den, material, steps its animals stand within 8
    of the enemy den). Without ``moves`` the animals' moves are not generated: no mobility
    and no captures (most of the evaluation's cost)."""
    enemy = 1 - c
    own_occupancy = state[S_OCCUPANCY + c]
    enemy_occupancy = state[S_OCCUPANCY + enemy]
    enemy_elephant_alive = state[S_WHERE + 8 * enemy + ELEPHANT] != CAPTURED
    score = 0
    captures = 0
    units = 0
    guards = 0
    material = 0
    press = 0
    for animal in range(1, 9):
        code = 8 * c + animal
        square = state[S_WHERE + code]
        if square == CAPTURED:
            continue
        value = params[P_MATERIAL + rules[RULE_RANK + code]]
        score += value
        material += value
        if animal == RAT and enemy_elephant_alive:
            score += params[P_RAT_VS_ELEPHANT]
        relative = square if c == 0 else 62 - square
        score += params[P_PST + animal * 63 + relative]
        if moves:
            targets = piece_targets(state, rules, code, square)
            score += params[P_MOBILITY + animal] * popcount(targets)
            captures |= targets & enemy_occupancy
        distance = ENEMY_DEN_DISTANCE[c, square]
        if distance <= 4:
            units += params[P_ATTACK_WEIGHT + distance]
        if distance < 8:
            press += 8 - distance
        distance = OWN_DEN_DISTANCE[c, square]
        if distance <= 3:
            guards += params[P_GUARD_WEIGHT + distance]

    for i in range(3):
        trap = TRAP_SQUARES[c, i]
        if (NEIGHBOURS[trap] & own_occupancy) == 0:
            score -= params[P_TRAP_OPEN]
            if (NEIGHBOURS[trap] & enemy_occupancy) != 0:
                score -= params[P_TRAP_OPEN_ADJACENT]

    rat = state[S_WHERE + 8 * c + RAT]
    if rat != CAPTURED and ((WATER_BB >> rat) & 1) != 0:
        for jumper in (LION, TIGER):
            where = state[S_WHERE + 8 * enemy + jumper]
            if where == CAPTURED:
                continue
            for i in range(JUMP_COUNT[where]):
                if (JUMP_PATH[where, i] >> rat) & 1:
                    score += params[P_RAT_BLOCKS_JUMP]
    return score, captures, units, guards, material, press


@njit(f"int64({A1}, {A1}, int64, boolean)", **HOT_NOGIL)
def _race_penalty(
    state: NDArray[np.int64], params: NDArray[np.int64], c: int, c_to_move: bool
) -> int:
    """What c loses to the nearest enemy runner that wins the race to one of c's traps: it
    stands there after r moves, and no animal of c's can stand on the trap or next to it by
    then (r moves if c is to move, else r - 1)."""
    enemy = 1 - c
    worst = 0
    for i in range(3):
        run = 99
        for animal in range(1, 9):
            square = state[S_WHERE + 8 * enemy + animal]
            run = min(run, RUN_STEPS[c, i, MOVER_KIND[animal], square])
        if run == 0 or run >= RACE_TABLE_SIZE:
            continue  # on the trap already: the search's den check; or too far to count
        guard = 99
        for animal in range(1, 9):
            square = state[S_WHERE + 8 * c + animal]
            guard = min(guard, GUARD_STEPS[c, i, MOVER_KIND[animal], square])
        if guard > (run if c_to_move else run - 1):
            worst = max(worst, params[P_RACE + run])
    return worst


@njit(f"int64({A1}, {A1}, {A1}, int64, int64, int64)", **HOT_NOGIL)
def _lead_terms(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    c: int,
    lead: int,
    press: int,
) -> int:
    """What side c, ahead by ``lead`` cp, gets for pressing it home: its animals near the
    enemy den (``press`` steps), hunting the enemy's animals (Manhattan steps: a guide, not
    a path), and the share of the enemy's starting material that is gone."""
    scale = min(1000, lead)
    score: int = params[P_PRESS] * press * scale // 1000
    enemy = 1 - c
    hunt = 0
    enemy_material = 0
    for prey in range(1, 9):
        target = state[S_WHERE + 8 * enemy + prey]
        if target == CAPTURED:
            continue
        prey_rank = rules[RULE_RANK + 8 * enemy + prey]
        enemy_material += params[P_MATERIAL + prey_rank]
        nearest = 8
        for hunter in range(1, 9):
            square = state[S_WHERE + 8 * c + hunter]
            if square == CAPTURED:
                continue
            rank = rules[RULE_RANK + 8 * c + hunter]
            if hunter == ELEPHANT and prey == RAT:
                continue  # the one capture rank allows that the rules do not
            if rank >= prey_rank or (hunter == RAT and prey == ELEPHANT):
                nearest = min(nearest, MANHATTAN[square, target])
        hunt += 8 - nearest
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


@njit(f"int64({A1}, {A1}, {A1})", **HOT_NOGIL)
def evaluate(state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64]) -> int:
    """Centipawns for the side to move (the position must not be over on the board)."""
    moves = (
        params[P_HANGING_SINGLE] != 0
        or params[P_HANGING_SECOND] != 0
        or params[P_THREAT_ON_MOVE] != 0
    )
    for animal in range(1, 9):
        moves = moves or params[P_MOBILITY + animal] != 0
    score0, captures0, units0, guards0, material0, press0 = _side_terms(
        state, rules, params, 0, moves
    )
    score1, captures1, units1, guards1, material1, press1 = _side_terms(
        state, rules, params, 1, moves
    )
    top = ATTACK_TABLE_SIZE - 1
    score0 += params[P_ATTACK_TABLE + min(top, max(0, units0 - guards1))]
    score1 += params[P_ATTACK_TABLE + min(top, max(0, units1 - guards0))]
    # Pressing a lead home: the side well ahead brings its animals to the enemy den.
    lead = material0 - material1
    threshold = params[P_PRESS_LEAD]
    if threshold > 0 and lead >= threshold:
        score0 += _lead_terms(state, rules, params, 0, lead, press0)
    elif threshold > 0 and -lead >= threshold:
        score1 += _lead_terms(state, rules, params, 1, -lead, press1)
    turn = state[S_TURN]
    score0 -= _race_penalty(state, params, 0, turn == 0)
    score1 -= _race_penalty(state, params, 1, turn == 1)
    if turn == 0:
        score: int = score0 - score1
        ours_attacked = captures1
        theirs_attacked = captures0
    else:
        score = score1 - score0
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

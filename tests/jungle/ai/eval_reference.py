"""A straightforward reference of the hand-tuned evaluation (:mod:`doushouqi.jungle.ai.evaluate`)
in plain Python: every term summed the obvious way, with its own tables, so that a faster
compiled evaluation can be checked against it position by position (the engine's evaluation
as it was before issue 31's second speed round restructured it)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

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
    steps_to,
)
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

__all__ = ["reference_evaluate"]


def _manhattan(a: int, b: int) -> int:
    if a == CAPTURED or b == CAPTURED:
        return 99
    return abs(a // 7 - b // 7) + abs(a % 7 - b % 7)


def _mover_kind(animal: int) -> int:
    """0 walks, 1 swims (the rat), 2 jumps the lakes (tiger, lion)."""
    return 1 if animal == RAT else 2 if animal in (LION, TIGER) else 0


_KINDS = ((False, False), (True, False), (False, True))
_TRAPS = [list(iter_squares(TRAPS[c])) for c in (0, 1)]
#: _RUN[c][i][kind][s]: moves of an enemy animal of that kind from s to c's trap i;
#: _GUARD[c][i][kind][s]: moves of c's own animal to stand on that trap or next to it.
_RUN = [
    [[[*steps_to([trap], swims=s, jumps=j, closed=DENS), 99] for s, j in _KINDS] for trap in traps]
    for traps in _TRAPS
]
_GUARD = [
    [
        [
            [
                *steps_to(
                    [trap, *(n for n in iter_squares(int(NEIGHBOURS[trap])) if n != DENS[c])],
                    swims=s,
                    jumps=j,
                    closed=[DENS[c]],
                ),
                99,
            ]
            for s, j in _KINDS
        ]
        for trap in _TRAPS[c]
    ]
    for c in (0, 1)
]


def _popcount(bits: int) -> int:
    return bin(bits & ((1 << 64) - 1)).count("1")


def _side_terms(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64], c: int,
    moves: bool,
) -> tuple[int, int, int, int, int, int]:  # fmt: skip
    enemy = 1 - c
    own_occupancy = int(state[S_OCCUPANCY + c])
    enemy_occupancy = int(state[S_OCCUPANCY + enemy])
    enemy_elephant_alive = state[S_WHERE + 8 * enemy + ELEPHANT] != CAPTURED
    score = captures = units = guards = material = press = 0
    for animal in range(1, 9):
        code = 8 * c + animal
        square = int(state[S_WHERE + code])
        if square == CAPTURED:
            continue
        value = int(params[P_MATERIAL + rules[RULE_RANK + code]])
        score += value
        material += value
        if animal == RAT and enemy_elephant_alive:
            score += int(params[P_RAT_VS_ELEPHANT])
        relative = square if c == 0 else 62 - square
        score += int(params[P_PST + animal * 63 + relative])
        if moves:
            targets = int(piece_targets(state, rules, code, square))
            score += int(params[P_MOBILITY + animal]) * _popcount(targets)
            captures |= targets & enemy_occupancy
        distance = _manhattan(square, DENS[enemy])
        if distance <= 4:
            units += int(params[P_ATTACK_WEIGHT + distance])
        if distance < 8:
            press += 8 - distance
        distance = _manhattan(square, DENS[c])
        if distance <= 3:
            guards += int(params[P_GUARD_WEIGHT + distance])
    for trap in _TRAPS[c]:
        if int(NEIGHBOURS[trap]) & own_occupancy == 0:
            score -= int(params[P_TRAP_OPEN])
            if int(NEIGHBOURS[trap]) & enemy_occupancy != 0:
                score -= int(params[P_TRAP_OPEN_ADJACENT])
    rat = int(state[S_WHERE + 8 * c + RAT])
    if rat != CAPTURED and (int(WATER_BB) >> rat) & 1:
        for jumper in (LION, TIGER):
            where = int(state[S_WHERE + 8 * enemy + jumper])
            if where == CAPTURED:
                continue
            for i in range(int(JUMP_COUNT[where])):
                if (int(JUMP_PATH[where, i]) >> rat) & 1:
                    score += int(params[P_RAT_BLOCKS_JUMP])
    return score, captures, units, guards, material, press


def _race_penalty(
    state: NDArray[np.int64], params: NDArray[np.int64], c: int, c_to_move: bool, margin: int = 0
) -> int:
    enemy = 1 - c
    worst = 0
    for i in range(3):
        run = min(
            _RUN[c][i][_mover_kind(a)][int(state[S_WHERE + 8 * enemy + a])] for a in range(1, 9)
        )
        if run == 0 or run >= RACE_TABLE_SIZE:
            continue
        guard = min(
            _GUARD[c][i][_mover_kind(a)][int(state[S_WHERE + 8 * c + a])] for a in range(1, 9)
        )
        allowed = (run if c_to_move else run - 1) - margin
        if guard > allowed:
            worst = max(worst, int(params[P_RACE + run]))
    return worst


def _lead_terms(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64], c: int,
    lead: int, press: int,
) -> int:  # fmt: skip
    scale = min(1000, lead)
    score = int(params[P_PRESS]) * press * scale // 1000
    enemy = 1 - c
    hunt = 0
    enemy_material = 0
    for prey in range(1, 9):
        target = int(state[S_WHERE + 8 * enemy + prey])
        if target == CAPTURED:
            continue
        prey_rank = int(rules[RULE_RANK + 8 * enemy + prey])
        enemy_material += int(params[P_MATERIAL + prey_rank])
        nearest = 8
        for hunter in range(1, 9):
            square = int(state[S_WHERE + 8 * c + hunter])
            if square == CAPTURED or (hunter == ELEPHANT and prey == RAT):
                continue
            rank = int(rules[RULE_RANK + 8 * c + hunter])
            if rank >= prey_rank or (hunter == RAT and prey == ELEPHANT):
                nearest = min(nearest, _manhattan(square, target))
        hunt += 8 - nearest
    score += int(params[P_HUNT]) * hunt * scale // 1000
    start = sum(int(params[P_MATERIAL + rank]) for rank in range(1, 9))
    gone = max(0, start - enemy_material)
    score += int(params[P_TRADE_DOWN]) * lead * gone // (100 * max(1, start))
    return score


def _victim_value(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64], square: int
) -> int:
    return int(params[P_MATERIAL + rules[RULE_RANK + state[S_BOARD + square]]])


def reference_evaluate(
    state: NDArray[np.int64], rules: NDArray[np.int64], params: NDArray[np.int64]
) -> int:
    """Centipawns for the side to move, as :func:`doushouqi.jungle.ai.evaluate.evaluate`."""
    moves = any(
        params[p] != 0 for p in (P_HANGING_SINGLE, P_HANGING_SECOND, P_THREAT_ON_MOVE)
    ) or any(params[P_MOBILITY + animal] != 0 for animal in range(1, 9))
    s0, cap0, units0, guards0, mat0, press0 = _side_terms(state, rules, params, 0, moves)
    s1, cap1, units1, guards1, mat1, press1 = _side_terms(state, rules, params, 1, moves)
    top = ATTACK_TABLE_SIZE - 1
    s0 += int(params[P_ATTACK_TABLE + min(top, max(0, units0 - guards1))])
    s1 += int(params[P_ATTACK_TABLE + min(top, max(0, units1 - guards0))])
    lead = mat0 - mat1
    threshold = int(params[P_PRESS_LEAD])
    if threshold > 0 and lead >= threshold:
        s0 += _lead_terms(state, rules, params, 0, lead, press0)
    elif threshold > 0 and -lead >= threshold:
        s1 += _lead_terms(state, rules, params, 1, -lead, press1)
    turn = int(state[S_TURN])
    # The home guard: the side ahead by press_lead or more loses its races home_margin moves
    # earlier, and each costs it home_guard % more at a lead of 1000 (scaled below that).
    for c, ahead_by in ((0, lead), (1, -lead)):
        margin = gain = 0
        if threshold > 0 and ahead_by >= threshold:
            margin = int(params[P_HOME_MARGIN])
            gain = int(params[P_HOME_GUARD]) * min(1000, ahead_by) // 1000
        race = _race_penalty(state, params, c, turn == c, margin)
        race += race * gain // 100
        if c == 0:
            s0 -= race
        else:
            s1 -= race
    score = (s0 - s1) if turn == 0 else (s1 - s0)
    ours, theirs = (cap1, cap0) if turn == 0 else (cap0, cap1)
    score += int(params[P_TEMPO])
    # The most valuable animal attacked, never below 0 (the engine's maximum starts there).
    best = max(
        [0, *(_victim_value(state, rules, params, s) for s in range(63) if (theirs >> s) & 1)]
    )
    score += best * int(params[P_THREAT_ON_MOVE]) // 64
    # Kept as the engine has it: the two largest values by strict comparison (of two equal
    # values the second counts as 0), the count of attacked animals decides which term applies.
    first = second = count = 0
    for square in range(63):
        if (ours >> square) & 1:
            value = _victim_value(state, rules, params, square)
            count += 1
            if value > first:
                first, second = value, first
            elif value > second:
                second = value
    if count == 1:
        score -= first * int(params[P_HANGING_SINGLE]) // 64
    elif count >= 2:
        score -= second * int(params[P_HANGING_SECOND]) // 64
    return score

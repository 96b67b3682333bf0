"""Compiled quiescence search: captures, den entries and den threats until the position is
quiet, from the leaves of the main search (:mod:`.search`), on the same arrays."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.jungle.ai.bitops import lowest_square, popcount
from doushouqi.jungle.ai.movegen import (
    MAX_MOVES,
    generate_legal_moves,
    generate_moves_onto,
    is_game_over_on_board,
    is_square_attacked,
)
from doushouqi.jungle.ai.search_node import (
    UNSETTLED,
    cached_eval,
    draw_score,
    eval_prefetch,
    has_den_entry,
    restrictions_off,
    settled_score,
    tablebase_score,
)
from doushouqi.jungle.ai.state import (
    S_HALFMOVE,
    S_HASH,
    S_OCCUPANCY,
    S_TURN,
    make_move,
    unmake_move,
)
from doushouqi.jungle.ai.tables import NEIGHBOURS, RULE_NO_CAPTURE_PLIES, TRAP_BB
from doushouqi.jungle.ai.tbprobe import M_MAX_ANIMALS, TB1, TB_MISS
from doushouqi.jungle.ai.work import (
    A1,
    A2,
    C_ABORT,
    C_NO_QUIESCENCE,
    C_QCHECKS,
    C_QSEE,
    C_SELDEPTH,
    DEN_SQUARE,
    MAX_PLY,
    W_MOVES,
    W_PV_LEN,
    animal_value,
    pick_move,
    score_moves,
    tick,
)
from doushouqi.jungle.analysis import DEN_SCORE

__all__ = ["INFINITE", "LEAF", "QUIESCENCE_ARRAYS", "qsearch"]

INFINITE = DEN_SCORE + 1
#: ``qply`` of a leaf of the main search entered straight into quiescence (:func:`qsearch`).
LEAF = -1
#: Signature of the arrays state, history, rules, work, params, tb_values, tb_meta (the search's
#: without the table); :mod:`.work` says why every compiled function declares its signature.
QUIESCENCE_ARRAYS = f"{A1}, {A2}, {A1}, {A1}, {A1}, {TB1}, {A1}"


@njit(f"boolean({A1}, {A2}, {A1}, int64)", **HOT_NOGIL)
def _recaptured(
    state: NDArray[np.int64], history: NDArray[np.int64], rules: NDArray[np.int64], move: int
) -> bool:
    """Whether the animal that makes capture ``move`` can be captured on its new square."""
    make_move(state, history, move)
    attacked: bool = is_square_attacked(state, rules, move >> 6)
    unmake_move(state, history)
    return attacked


@njit(f"int64({QUIESCENCE_ARRAYS}, int64, int64, int64, int64)", **HOT_NOGIL)
def qsearch(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    tb_values: NDArray[np.int8],
    tb_meta: NDArray[np.int64],
    alpha: int,
    beta: int,
    ply: int,
    qply: int,
) -> int:
    """Captures, den entries and den threats (entering an unguarded enemy trap) until quiet.

    ``qply`` counts the plies of quiescence so far; :data:`LEAF` enters it for a leaf of the
    main search (a node of ``negamax`` at depth 0 that no den check extends), which first takes
    that node's own first steps (:func:`.search_node.settled_score`): the same nodes as through
    ``negamax``, without the cost of a call through it."""
    eval_prefetch(work, state[S_HASH])
    if qply == LEAF:
        settled = settled_score(state, history, rules, work, params, ply)
        if settled != UNSETTLED:
            return settled
        qply = 0
    if tick(work):
        return 0
    work[W_PV_LEN + ply] = ply
    if ply > work[C_SELDEPTH]:
        work[C_SELDEPTH] = ply
    if is_game_over_on_board(state):
        return -(DEN_SCORE - ply)
    limit = rules[RULE_NO_CAPTURE_PLIES]
    if limit != 0 and state[S_HALFMOVE] >= limit:
        return draw_score(work, ply)
    us = state[S_TURN]
    enemy = 1 - us
    own = state[S_OCCUPANCY + us]
    if (own & TRAP_BB[enemy]) != 0 and restrictions_off(rules):
        return DEN_SCORE - ply - 1
    if popcount(own | state[S_OCCUPANCY + enemy]) <= tb_meta[M_MAX_ANIMALS]:
        exact = tablebase_score(state, rules, work, tb_values, tb_meta, ply)
        if exact != TB_MISS:
            return exact
    if ply >= MAX_PLY - 1 or work[C_NO_QUIESCENCE] != 0:
        return cached_eval(state, history, rules, params, work)
    intruders = state[S_OCCUPANCY + enemy] & TRAP_BB[us]
    stand = -INFINITE
    if intruders == 0 and (own & TRAP_BB[enemy]) == 0 and popcount(own) >= 3:
        # Nothing here needs the move list first (no den check, no den entry, and too many
        # animals to be left without a move): stand pat before generating anything.
        stand = cached_eval(state, history, rules, params, work)
        if stand >= beta:
            return stand
    base = W_MOVES + ply * MAX_MOVES
    enemy_occupancy = state[S_OCCUPANCY + enemy]
    threats = qply < work[C_QCHECKS]
    if intruders == 0 and (own & TRAP_BB[enemy]) == 0:
        # Only captures and den threats are searched below, and no den entry is possible (the
        # den's neighbours are its traps): generate just those moves (the same list the filter
        # below would keep, in the same order), and whether there is any move at all.
        targets = enemy_occupancy
        if threats:
            traps = TRAP_BB[enemy]
            while traps != 0:
                trap = lowest_square(traps)
                traps &= traps - 1
                if (NEIGHBOURS[trap] & enemy_occupancy) == 0:
                    targets |= 1 << trap
        count = generate_moves_onto(state, history, rules, work[base : base + MAX_MOVES], targets)
        if count < 0:
            return -(DEN_SCORE - ply)
    else:
        count = generate_legal_moves(state, history, rules, work[base : base + MAX_MOVES])
        if count == 0:
            return -(DEN_SCORE - ply)
        if has_den_entry(work, base, count, DEN_SQUARE[enemy]):
            return DEN_SCORE - ply - 1

    if intruders != 0:
        # Den check: no standing pat; only capturing the intruder helps (any other move lets
        # it into the den), unless move restrictions might keep it out: then try everything.
        exact = not restrictions_off(rules)
        kept = 0
        for i in range(base, base + count):
            move = work[i]
            if exact or ((intruders >> (move >> 6)) & 1) != 0:
                work[base + kept] = move
                kept += 1
        if kept == 0:
            return -(DEN_SCORE - ply - 2)
        best = -INFINITE
    else:
        if stand == -INFINITE:
            stand = cached_eval(state, history, rules, params, work)
            if stand >= beta:
                return stand
        if stand > alpha:
            alpha = stand
        best = stand
        kept = 0
        for i in range(base, base + count):
            move = work[i]
            to = move >> 6
            if (enemy_occupancy >> to) & 1:
                # Delta pruning: even winning this animal for free would not reach alpha.
                victim = animal_value(state, rules, params, to)
                if stand + victim + 200 < alpha:
                    continue
                if (
                    work[C_QSEE] != 0
                    and animal_value(state, rules, params, move & 63) > victim
                    and _recaptured(state, history, rules, move)
                ):
                    # A losing exchange on rank: the capturer is worth more than its victim
                    # and is taken back at once (Jungle's captures are by rank, so there is
                    # no longer sequence that could make up for it but a den threat, which
                    # quiescence tries separately).
                    continue
            elif not (
                threats and (TRAP_BB[enemy] >> to) & 1 and (NEIGHBOURS[to] & enemy_occupancy) == 0
            ):
                continue
            work[base + kept] = move
            kept += 1
        if kept == 0:
            return stand
    score_moves(state, rules, work, params, base, kept, 0, ply)
    for index in range(kept):
        move = pick_move(work, base, kept, index)
        make_move(state, history, move)
        score = -qsearch(state, history, rules, work, params, tb_values, tb_meta,
                         -beta, -alpha, ply + 1, qply + 1)  # fmt: skip
        unmake_move(state, history)
        if work[C_ABORT] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best

"""Compiled alpha-beta search: principal variation search over the engine core's arrays.

One call of :func:`search_root` searches the root position to one depth; the iterative
deepening driver (Python, :mod:`.search_driver`) calls it depth after depth, so that it can report
and manage time between iterations; its leaves go on in quiescence (:mod:`.quiescence`).
Everything mutable lives in arrays owned by the caller:

* ``tt`` — the transposition table (:mod:`.ttable`);
* ``work`` — one flat int64 array for the rest: control words, killers, history, PV, move
  lists, evaluation cache (:mod:`.work`, which also holds the move ordering);
* ``params`` — the evaluation weights (:mod:`.eval_params`).

Scores are centipawns for the side to move. A won game scores ``DEN_SCORE - plies`` (plies
from the root to the position where the loser is to move), so the fastest den wins; the TT
keeps such scores relative to the node (:func:`score_to_tt`).

Den fights are Jungle's checks: an enemy animal on one of our traps (they all touch the den)
enters the den next move unless captured. Such a node is "in den check": it never stands pat,
gets one ply of extension while the path's extension budget lasts, and is never pruned by null
move, futility or late-move reductions. Neither are nodes with an enemy animal near our den.

Endgame tables: ``tb_values`` and ``tb_meta`` (:mod:`.tbprobe`) hold the tables the driver
loaded for this search (arrays that cover nothing otherwise). A node with no more animals
than the largest of them (one popcount) is probed, in ``negamax`` after the TT and in
quiescence; a covered one returns its exact score (:func:`tablebase_score`) and counts in
``work[C_TBHITS]``.

Stopping: ``work[C_STOP]`` is read every 1024 nodes (another thread sets it: the search runs
with the GIL released) and ``work[C_NODE_LIMIT]`` at every node; either sets
``work[C_ABORT]``, after which every frame returns at once and the driver ignores the result
of the unfinished iteration except a root move whose search completed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.jungle.ai.bitops import popcount
from doushouqi.jungle.ai.evaluate import (
    OWN_DEN_DISTANCE,
)
from doushouqi.jungle.ai.movegen import (
    MAX_MOVES,
    compute_restrictions,
    generate_legal_moves,
    generate_moves_given_restrictions,
    is_legal_given_restrictions,
)
from doushouqi.jungle.ai.quiescence import INFINITE, LEAF, QUIESCENCE_ARRAYS, qsearch
from doushouqi.jungle.ai.search_node import (
    DANGER_ZONE,
    UNSETTLED,
    cached_eval,
    eval_prefetch,
    has_den_entry,
    runner_danger,
    settled_score,
    tablebase_score,
    tt_key,
)
from doushouqi.jungle.ai.state import (
    H_CODE,
    S_BOARD,
    S_HASH,
    S_OCCUPANCY,
    S_PLY,
    S_TURN,
    hash_after,
    make_move,
    make_pass,
    unmake_move,
)
from doushouqi.jungle.ai.tables import (
    TRAP_BB,
    ZOBRIST_TURN,
)
from doushouqi.jungle.ai.tbprobe import M_MAX_ANIMALS, TB1, TB_MISS
from doushouqi.jungle.ai.ttable import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    DEN_BOUND,
    new_tt,
    score_from_tt,
    score_to_tt,
    tt_prefetch,
    tt_probe_move,
    tt_slot,
    tt_store,
)
from doushouqi.jungle.ai.work import (
    A1,
    A2,
    C_ABORT,
    C_AGE,
    C_BEST_MOVE,
    C_BEST_SCORE,
    C_CONTEMPT,
    C_DANGER_GUARDS,
    C_DANGER_MOVES,
    C_DANGER_RADIUS,
    C_DANGER_SIDE,
    C_EXT_BUDGET,
    C_FUTILITY_MARGIN,
    C_HISTORY_WRITES,
    C_IIR,
    C_LMP,
    C_LMR,
    C_LMR_IN_DANGER,
    C_LMR_PERCENT,
    C_NODE_LIMIT,
    C_NODES,
    C_NULL_MOVE,
    C_QUIET_FUTILITY,
    C_ROOT_COUNT,
    C_STAGED_DEPTH,
    DEN_SQUARE,
    MAX_PLY,
    W_EVAL_CACHE,
    W_HISTORY,
    W_KILLERS,
    W_MOVES,
    W_PV_LEN,
    W_ROOT_MOVES,
    W_ROOT_SCORES,
    build_key_filter,
    new_work,
    pick_move,
    replay_history,
    reward_quiet,
    rewind_history,
    score_moves,
    update_pv,
)
from doushouqi.jungle.analysis import DEN_SCORE

__all__ = [
    "BOUND_EXACT",
    "BOUND_LOWER",
    "BOUND_UPPER",
    "DEN_BOUND",
    "INFINITE",
    "MAX_PLY",
    "W_EVAL_CACHE",
    "new_tt",
    "new_work",
    "prepare_root",
    "root_lead",
    "search_root",
    "tt_probe_move",
]

#: LMR[depth, move index]: plies to reduce a late quiet move; LMR_MILLI the same reduction
#: unrounded, in thousandths of a ply (for ``C_LMR_PERCENT`` other than 100).
LMR = np.zeros((64, MAX_MOVES), dtype=np.int64)
LMR_MILLI = np.zeros((64, MAX_MOVES), dtype=np.int64)
for _d in range(1, 64):
    for _i in range(1, MAX_MOVES):
        LMR[_d, _i] = int(0.5 + math.log(_d) * math.log(_i) / 2.2)
        LMR_MILLI[_d, _i] = int(1000 * math.log(_d) * math.log(_i) / 2.2)


#: Signatures of the arrays state, history, rules, tt, work, params, tb_values, tb_meta (the
#: endgame tables, :mod:`.tbprobe`), and of the first six (the root's move list); without tt
#: they are :data:`.quiescence.QUIESCENCE_ARRAYS`. :mod:`.work` says why every compiled
#: function declares its signature.
SEARCH_ARRAYS = f"{A1}, {A2}, {A1}, {A2}, {A1}, {A1}, {TB1}, {A1}"
ROOT_ARRAYS = f"{A1}, {A2}, {A1}, {A2}, {A1}, {A1}"


# --------------------------------------------------------------------------- main search


@njit(f"UniTuple(int64, 2)({ROOT_ARRAYS}, int64, int64, int64, int64, boolean)", **HOT_NOGIL)
def _moves_after_table_move(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    base: int,
    tt_move: int,
    ply: int,
    history_mark: int,
    prefetch_next: bool,
) -> tuple[int, int]:
    """A node's move list once its table move, searched before the list was made, did not cut
    off: the list in the order it would have had (the table move first, put in slot 0 as
    picking it would), scored by the history as it stood before that move's search changed it
    (``work[C_HISTORY_WRITES]`` was ``history_mark``). Returns the count and, when
    ``prefetch_next``, the second move (its child's table bucket loading), else 0. Apart from
    ``negamax`` (a call site there costs every node)."""
    # The search below the table move overwrote the restrictions' scratch space in ``state``.
    restricted = compute_restrictions(state, history, rules)
    count = generate_moves_given_restrictions(
        state, history, rules, work[base : base + MAX_MOVES], restricted
    )
    rewound = rewind_history(work, history_mark)
    score_moves(state, rules, work, params, base, count, tt_move, ply)
    if rewound:
        replay_history(work, history_mark)
    pick_move(work, base, count, 0)
    next_move = 0
    if prefetch_next and count > 1:
        next_move = pick_move(work, base, count, 1)
        tt_prefetch(tt, hash_after(state, next_move))
    return count, next_move


@njit(f"int64({SEARCH_ARRAYS}, int64, int64, int64, int64, int64)", **HOT_NOGIL)
def negamax(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    tb_values: NDArray[np.int8],
    tb_meta: NDArray[np.int64],
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    extensions: int,
) -> int:
    # The table's bucket and the evaluation's cache slot for this board, loading while the
    # checks below run (with 7-3 / 17-5 forbidding squares the table's key differs: then that
    # is only a wasted hint).
    tt_prefetch(tt, state[S_HASH])
    eval_prefetch(work, state[S_HASH])
    settled = settled_score(state, history, rules, work, params, ply)
    if settled != UNSETTLED:
        return settled
    us = state[S_TURN]
    enemy = 1 - us
    own = state[S_OCCUPANCY + us]
    theirs = state[S_OCCUPANCY + enemy]
    in_check = (theirs & TRAP_BB[us]) != 0
    if in_check and extensions > 0:
        depth += 1
        extensions -= 1
    if depth <= 0:
        return qsearch(state, history, rules, work, params, tb_values, tb_meta,
                       alpha, beta, ply, 0)  # fmt: skip

    # A den win from here cannot be faster than the next move, nor a loss slower than ours.
    alpha = max(alpha, -(DEN_SCORE - ply))
    beta = min(beta, DEN_SCORE - ply - 1)
    if alpha >= beta:
        return alpha
    pv_node = beta - alpha > 1

    # Computed once for the table key and the move generator below (no-op without 7-3 / 17-5).
    restricted = compute_restrictions(state, history, rules)
    key = tt_key(state, restricted)
    slot = tt_slot(tt, key)
    tt_move = 0
    if slot >= 0:
        data = tt[slot, 1]
        tt_move = data & 0xFFF
        if not pv_node and ((data >> 12) & 0xFF) - 64 >= depth:
            tt_score = score_from_tt(data >> 32, ply)
            bound = (data >> 20) & 3
            if (
                bound == BOUND_EXACT
                or (bound == BOUND_LOWER and tt_score >= beta)
                or (bound == BOUND_UPPER and tt_score <= alpha)
            ):
                return tt_score

    if tt_move != 0 and depth >= 2:
        # The table's move is searched first: its child's bucket loads meanwhile (an invalid
        # move from a colliding key only wastes the hint).
        tt_prefetch(tt, hash_after(state, tt_move))

    # A position the endgame tables cover has an exact score (a cheap count first: the probe
    # costs nothing while there are more animals than any loaded table has).
    if popcount(own | theirs) <= tb_meta[M_MAX_ANIMALS]:
        exact = tablebase_score(state, rules, work, tb_values, tb_meta, ply)
        if exact != TB_MISS:
            tt_store(tt, key, 0, min(depth + 6, MAX_PLY), BOUND_EXACT,
                     score_to_tt(exact, ply), work[C_AGE])  # fmt: skip
            return exact

    # An enemy animal near our den makes every tempo count: no pruning on "I could pass".
    if work[C_DANGER_MOVES] == 0 or (work[C_DANGER_SIDE] != 0 and work[C_DANGER_SIDE] != us + 1):
        danger = in_check or (theirs & DANGER_ZONE[work[C_DANGER_RADIUS], us]) != 0
    else:  # the finer rule: a runner that can reach a trap (and beats our guards to it)
        danger = in_check or runner_danger(state, us, work[C_DANGER_MOVES], work[C_DANGER_GUARDS])
    static = -INFINITE
    if not pv_node and not danger:
        if work[C_NULL_MOVE] != 0 and depth >= 2:
            tt_prefetch(tt, state[S_HASH] ^ ZOBRIST_TURN)  # the null move's child, perhaps
        static = cached_eval(state, history, rules, params, work)
        margin = work[C_FUTILITY_MARGIN] * depth
        if depth <= 3 and abs(beta) < DEN_BOUND and static - margin >= beta:
            return static
        if (
            work[C_NULL_MOVE] != 0
            and history[state[S_PLY] - 1, H_CODE] != 0  # no two passes in a row
            and depth >= 2
            and static >= beta
            and popcount(own) >= 3  # few animals: zugzwang (no good move, 困毙) is real
        ):
            null_depth = depth - 1 - (2 + depth // 4)
            make_pass(state, history)
            if null_depth <= 0 and (extensions == 0 or (own & TRAP_BB[enemy]) == 0):
                # A leaf (no den check extends it): quiescence entered directly.
                score = -qsearch(state, history, rules, work, params, tb_values, tb_meta,
                                 -beta, -beta + 1, ply + 1, LEAF)  # fmt: skip
            else:
                score = -negamax(
                    state, history, rules, tt, work, params, tb_values, tb_meta,
                    null_depth, -beta, -beta + 1, ply + 1, extensions,
                )  # fmt: skip
            unmake_move(state, history)
            if work[C_ABORT] != 0:
                return 0
            if score >= beta:
                return beta if score > DEN_BOUND else score
            # The search below the pass overwrote the restrictions' scratch space in ``state``.
            restricted = compute_restrictions(state, history, rules)

    # Internal iterative reduction: a node the table knows no move for is likely new and
    # unimportant (the principal line's nodes have theirs); search it one ply shallower.
    if tt_move == 0 and depth >= 4 and work[C_IIR] != 0 and not danger:
        depth -= 1

    # Shallow non-PV nodes, nothing near our den: late quiet moves (past ``lmp_after``) and,
    # when even a margin above the static evaluation stays at or below alpha, every quiet
    # move after the first are not searched (pruned, so they cannot raise alpha; the node's
    # score stays an upper bound, which is what it is anyway when no move beats alpha).
    prune_quiet = not pv_node and not danger and depth <= 3
    lmp_after = 0
    if prune_quiet and work[C_LMP] != 0:
        lmp_after = work[C_LMP] + depth * depth
    futile = (
        prune_quiet
        and work[C_QUIET_FUTILITY] != 0
        and depth <= 2
        and abs(alpha) < DEN_BOUND
        and static + work[C_QUIET_FUTILITY] * depth <= alpha
    )
    # Reductions are re-searched when they fail high, so unlike the prunings they may be
    # allowed near our den (C_LMR_IN_DANGER), though never in den check.
    reducible = not in_check and (not danger or work[C_LMR_IN_DANGER] != 0)

    base = W_MOVES + ply * MAX_MOVES
    # Staged generation: a legal table move is searched before the list exists, and most such
    # nodes cut off on it, never generating the rest. Its legality proves a move exists (the
    # loss by 困毙 below cannot apply); a den entry is looked for in the list only with our
    # animal on an enemy trap (and restrictions on, else the node returned above): then the
    # list comes first.
    history_mark = 0
    generated = not (
        tt_move != 0
        and depth <= work[C_STAGED_DEPTH]
        and (own & TRAP_BB[enemy]) == 0
        and is_legal_given_restrictions(state, history, rules, tt_move, restricted)
    )
    if generated:
        count = generate_moves_given_restrictions(
            state, history, rules, work[base : base + MAX_MOVES], restricted
        )
        if count == 0:
            return -(DEN_SCORE - ply)  # no legal move loses (困毙)
        if (own & TRAP_BB[enemy]) != 0 and has_den_entry(work, base, count, DEN_SQUARE[enemy]):
            return DEN_SCORE - ply - 1
        score_moves(state, rules, work, params, base, count, tt_move, ply)
    else:
        work[base] = tt_move
        count = 1
        history_mark = work[C_HISTORY_WRITES]

    killer1 = work[W_KILLERS + 2 * ply]
    killer2 = work[W_KILLERS + 2 * ply + 1]
    history_base = W_HISTORY + 4096 * us
    original_alpha = alpha
    best = -INFINITE
    best_move = 0
    quiets = 0
    # The next move is picked before this one is searched (the same order: the searches below
    # use other plies' lists), so that its child's table bucket loads meanwhile; at depth 1 the
    # children are quiescence nodes, which do not probe the table.
    prefetch_next = depth >= 2
    next_move = pick_move(work, base, count, 0) if prefetch_next and generated else 0
    for index in range(MAX_MOVES):
        if index >= count:
            break
        if not generated:
            move = tt_move  # index 0, the list not made yet
        elif prefetch_next:
            move = next_move
            if index + 1 < count:
                next_move = pick_move(work, base, count, index + 1)
                tt_prefetch(tt, hash_after(state, next_move))
        else:
            move = pick_move(work, base, count, index)
        to = move >> 6
        quiet = (
            state[S_BOARD + to] == 0
            and ((TRAP_BB[enemy] >> to) & 1) == 0
            and OWN_DEN_DISTANCE[enemy, to] > 2
        )
        if quiet:
            quiets += 1
            if (
                index > 0
                and best > -DEN_BOUND
                and move != killer1
                and (futile or (lmp_after != 0 and quiets > lmp_after))
            ):
                continue
        make_move(state, history, move)
        new_depth = depth - 1
        reduction = 0
        if (
            index > 0
            and depth >= 3
            and work[C_LMR] != 0
            and quiet
            and reducible
            and index >= (3 if pv_node else 2)
            and move != killer1
            and move != killer2
        ):
            percent = work[C_LMR_PERCENT]
            if percent == 100:
                reduction = LMR[min(depth, 63), index]
            else:
                reduction = (LMR_MILLI[min(depth, 63), index] * percent + 50000) // 100000
            if pv_node:
                reduction -= 1
            if work[history_base + move] > 4000:
                reduction -= 1
            reduction = max(0, min(reduction, new_depth - 1))
        # A child at depth 0 that no den check extends is a leaf: quiescence, entered directly
        # (negamax's frame costs more than the leaf's work). The first move is searched with
        # the full window; a later one with a null window at its reduced depth, again at full
        # depth if a reduction failed high, and with the full window if it lands inside it. One
        # call site each (numba clears every call site's return slots at each entry).
        leaf = new_depth <= 0 and (
            extensions == 0 or (state[S_OCCUPANCY + us] & TRAP_BB[enemy]) == 0
        )
        child_depth = new_depth - reduction
        full_window = index == 0
        while True:
            low = -beta if full_window else -alpha - 1
            if leaf:
                score = -qsearch(state, history, rules, work, params, tb_values, tb_meta,
                                 low, -alpha, ply + 1, LEAF)  # fmt: skip
            else:
                score = -negamax(
                    state, history, rules, tt, work, params, tb_values, tb_meta,
                    child_depth, low, -alpha, ply + 1, extensions,
                )  # fmt: skip
            if full_window or work[C_ABORT] != 0:
                break
            if child_depth < new_depth and score > alpha:
                child_depth = new_depth
            elif alpha < score < beta:
                full_window = True
            else:
                break
        unmake_move(state, history)
        if work[C_ABORT] != 0:
            return 0
        if score > best:
            best = score
            if score > alpha:
                best_move = move
                alpha = score
                if pv_node:
                    update_pv(work, ply, move)
                if score >= beta:
                    if quiet:
                        bonus = min(depth * depth, 400)
                        reward_quiet(work, us, ply, move, bonus)
                        # The quiet moves tried before it did not cut: lower their history.
                        for j in range(index):
                            other = work[base + j]
                            if state[S_BOARD + (other >> 6)] == 0:
                                reward_quiet(work, us, ply, other, -bonus)
                    break
        if not generated:
            count, next_move = _moves_after_table_move(
                state, history, rules, tt, work, params, base, tt_move, ply, history_mark,
                prefetch_next,
            )  # fmt: skip
            generated = True

    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt_store(tt, key, best_move, depth, bound, score_to_tt(best, ply), work[C_AGE])
    return best


# ------------------------------------------------------------------------------- root


@njit(f"int64({ROOT_ARRAYS})", **HOT_NOGIL)
def prepare_root(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
) -> int:
    """Generate the root moves into ``work``, in static order; returns how many. Also fills
    the repetition scan's filter of the keys before this root (:func:`.work.build_key_filter`)."""
    build_key_filter(state, history, work)
    base = W_MOVES
    count = generate_legal_moves(state, history, rules, work[base : base + MAX_MOVES])
    tt_move = tt_probe_move(tt, tt_key(state, compute_restrictions(state, history, rules)))
    score_moves(state, rules, work, params, base, count, tt_move, 0)
    for index in range(count):
        work[W_ROOT_MOVES + index] = pick_move(work, base, count, index)
        work[W_ROOT_SCORES + index] = -INFINITE
    work[C_ROOT_COUNT] = count
    return count


@njit(f"int64({QUIESCENCE_ARRAYS})", **HOT_NOGIL)
def root_lead(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    tb_values: NDArray[np.int8],
    tb_meta: NDArray[np.int64],
) -> int:
    """The root side's lead for the contempt: the root's quiescence score (the captures in
    the air played out) with every draw scored 0. Not a search score: once a search has found
    a repetition, its score is the draw's own, and a contempt taken from it would fall just
    when the side ahead needs it. Call it after :func:`prepare_root` (it uses the first ply's
    move list). Its nodes are not counted: a node budget buys the same search as before."""
    contempt, nodes, limit = work[C_CONTEMPT], work[C_NODES], work[C_NODE_LIMIT]
    work[C_CONTEMPT] = 0
    work[C_NODE_LIMIT] = 0
    lead: int = qsearch(state, history, rules, work, params, tb_values, tb_meta,
                        -INFINITE, INFINITE, 0, 0)  # fmt: skip
    work[C_CONTEMPT], work[C_NODES], work[C_NODE_LIMIT] = contempt, nodes, limit
    work[C_ABORT] = 0  # a stop asked meanwhile is seen again within 1024 nodes
    return lead


@njit(f"int64({SEARCH_ARRAYS}, int64, int64, int64, boolean)", **HOT_NOGIL)
def search_root(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    tb_values: NDArray[np.int8],
    tb_meta: NDArray[np.int64],
    depth: int,
    alpha: int,
    beta: int,
    exact_all: bool,
) -> int:
    """Search the root moves of :func:`prepare_root` to ``depth`` in the window (alpha, beta).

    Returns the best score (a bound when it falls outside the window). A move that scored
    above alpha goes first in the root list and into ``work[C_BEST_MOVE]`` (which the caller
    zeroes before each call), its line into PV row 0; when every move fails low, nothing
    moves. With
    ``exact_all`` every root move gets a full-window search, so ``W_ROOT_SCORES`` holds exact
    scores for all of them (used by the weaker levels to choose among near-best moves).
    """
    count = work[C_ROOT_COUNT]
    work[W_PV_LEN] = 0
    extensions = work[C_EXT_BUDGET]
    original_alpha = alpha
    best = -INFINITE
    best_index = -1
    for index in range(count):
        move = work[W_ROOT_MOVES + index]
        make_move(state, history, move)
        if exact_all:
            score = -negamax(
                state, history, rules, tt, work, params, tb_values, tb_meta,
                depth - 1, -INFINITE, INFINITE, 1, extensions,
            )  # fmt: skip
        elif index == 0:
            score = -negamax(
                state, history, rules, tt, work, params, tb_values, tb_meta,
                depth - 1, -beta, -alpha, 1, extensions,
            )  # fmt: skip
        else:
            score = -negamax(
                state, history, rules, tt, work, params, tb_values, tb_meta,
                depth - 1, -alpha - 1, -alpha, 1, extensions,
            )  # fmt: skip
            if alpha < score < beta and work[C_ABORT] == 0:
                score = -negamax(
                    state, history, rules, tt, work, params, tb_values, tb_meta,
                    depth - 1, -beta, -alpha, 1, extensions,
                )  # fmt: skip
        unmake_move(state, history)
        if work[C_ABORT] != 0:
            break
        work[W_ROOT_SCORES + index] = score
        if score > best:
            best = score
            # Only a score above alpha is evidence: below it, every score is an upper bound
            # (the driver widens the window and searches again) and proves no move better.
            if score > alpha:
                best_index = index
                update_pv(work, 0, move)
                work[C_BEST_MOVE] = move
                work[C_BEST_SCORE] = score
                if not exact_all:
                    alpha = score
                    if alpha >= beta:
                        break

    if best_index > 0:
        # The best move goes first for the next iteration; the others keep their order.
        move = work[W_ROOT_MOVES + best_index]
        score = work[W_ROOT_SCORES + best_index]
        for i in range(best_index, 0, -1):
            work[W_ROOT_MOVES + i] = work[W_ROOT_MOVES + i - 1]
            work[W_ROOT_SCORES + i] = work[W_ROOT_SCORES + i - 1]
        work[W_ROOT_MOVES] = move
        work[W_ROOT_SCORES] = score
    if work[C_ABORT] == 0 and best_index >= 0:
        if best >= beta:
            bound = BOUND_LOWER
        elif best > original_alpha:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        tt_store(
            tt, tt_key(state, compute_restrictions(state, history, rules)),
            work[W_ROOT_MOVES], depth, bound,
            score_to_tt(best, 0), work[C_AGE],
        )  # fmt: skip
    return best

"""Compiled alpha-beta search of 老虎棋: principal variation search over the core's arrays.

One call of :func:`search_root` searches the root to one depth; the iterative deepening
driver (Python, :mod:`.search_driver`) calls it depth after depth, so that it can report and
keep the time between iterations. Everything mutable lives in arrays the caller owns: ``tt``
(:mod:`.ttable`), ``work`` (:mod:`.work`: control words, killers, history, PV, move lists,
evaluation cache) and ``params`` (:mod:`.eval_params`).

Scores are centipawns for the side to move. A won game scores ``WIN_SCORE - plies`` (plies
from the root to the position where the loser is to move, or where the tiger has taken
enough men), so the fastest win is preferred and the longest defence.

The game's endings, as the rules library decides them and in its order: too few men (the
tiger has won), no legal move for the side to move (it loses: a trapped tiger, blocked men),
then the draws: a repetition (a position that stood before inside the search, or twice
before the root, as Jungle's engine counts), and ``max_rounds`` (only where the side to move
still has a move).

What is tactical here: jumps, and the men closing the cage. Quiescence searches the tiger's
jumps and, for a few plies, the men's steps next to a tiger with little freedom; a position
where a tiger has at most one way out gets one ply of extension while the path's budget lasts
(the cage fight is a forced sequence), and is never pruned by null move, futility or late-move
reductions. Null move is off while any tiger is short of freedom (there, having to move is
what loses: 困住 is a zugzwang).

Stopping: ``work[C_STOP]`` is read every 1024 nodes (another thread sets it; the search runs
with the GIL released) and ``work[C_NODE_LIMIT]`` at every node; either sets ``work[C_ABORT]``,
after which every frame returns at once.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.tiger.ai.evaluate import evaluate
from doushouqi.tiger.ai.movegen import (
    MAX_MOVES,
    count_tiger_moves,
    generate_moves,
    is_game_over_on_board,
)
from doushouqi.tiger.ai.state import (
    A1,
    A2,
    H_HASH,
    H_MOVE,
    JUMP_FLAG,
    PASS_MOVE,
    S_HALFMOVE,
    S_HASH,
    S_NUMBER,
    S_PLY,
    S_TIGER,
    S_TURN,
    make_move,
    make_pass,
    unmake_move,
)
from doushouqi.tiger.ai.tables import RULE_MAX_ROUNDS
from doushouqi.tiger.ai.ttable import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    WIN_BOUND,
    score_from_tt,
    score_to_tt,
    tt_probe_move,
    tt_slot,
    tt_store,
)
from doushouqi.tiger.ai.work import (
    C_ABORT,
    C_AGE,
    C_BEST_MOVE,
    C_BEST_SCORE,
    C_CONTEMPT,
    C_EXT_BUDGET,
    C_FUTILITY_MARGIN,
    C_LMR,
    C_NO_QUIESCENCE,
    C_NOISE,
    C_NOISE_SEED,
    C_NULL_FREEDOM,
    C_NULL_MOVE,
    C_QTRAPS,
    C_ROOT_COUNT,
    C_ROOT_PLY,
    C_SELDEPTH,
    EVAL_CACHE_ENTRIES,
    MAX_PLY,
    W_EVAL_CACHE,
    W_KILLERS,
    W_MOVES,
    W_PV_LEN,
    W_ROOT_MOVES,
    W_ROOT_SCORES,
    W_SCRATCH,
    history_index,
    pick_move,
    reward_quiet,
    score_moves,
    tick,
    touches_tiger,
    update_pv,
)
from doushouqi.tiger.analysis import WIN_SCORE

__all__ = ["INFINITE", "MAX_PLY", "prepare_root", "search_root", "tt_probe_move"]

INFINITE = WIN_SCORE + 1
#: A tiger with at most this much freedom is in a cage fight: extensions, no pruning.
CAGED = 1
#: LMR[depth, move index]: plies to reduce a late quiet move.
LMR = np.zeros((64, MAX_MOVES), dtype=np.int64)
for _d in range(1, 64):
    for _i in range(1, MAX_MOVES):
        LMR[_d, _i] = int(0.5 + math.log(_d) * math.log(_i) / 2.2)

#: Signatures of the arrays state, history, rules, tt, work, params, and of the same
#: without tt (quiescence).
SEARCH_ARRAYS = f"{A1}, {A2}, {A1}, {A2}, {A1}, {A1}"
QUIESCENCE_ARRAYS = f"{A1}, {A2}, {A1}, {A1}, {A1}"


@njit(f"int64({A1}, int64)", **HOT_NOGIL)
def _tiger_won(state: NDArray[np.int64], ply: int) -> int:
    """The score of a position where the tiger has taken enough men, for the side to move."""
    if state[S_TURN] == 0:
        return WIN_SCORE - ply
    return -(WIN_SCORE - ply)


@njit(f"boolean({A1}, {A2}, int64)", **HOT_NOGIL)
def _is_repetition(state: NDArray[np.int64], history: NDArray[np.int64], root_ply: int) -> bool:
    """A draw by repetition: the position stood before inside the search (the side that could
    repeat once can repeat again), or twice before the root (the rules' third time)."""
    halfmove = state[S_HALFMOVE]
    if halfmove < 4:
        return False
    ply = state[S_PLY]
    key = state[S_HASH]
    count = 1
    lowest = max(0, ply - halfmove)
    i = ply - 2
    while i >= lowest:
        if history[i, H_HASH] == key:
            if i >= root_ply:
                return True
            count += 1
            if count >= 3:
                return True
        i -= 2  # every ply, a pass too, changes the side to move
    return False


@njit(f"boolean({A1}, {A1})", **HOT_NOGIL)
def _past_max_rounds(state: NDArray[np.int64], rules: NDArray[np.int64]) -> bool:
    rounds = rules[RULE_MAX_ROUNDS]
    past: bool = rounds != 0 and state[S_NUMBER] > rounds
    return past


@njit(f"int64({A1}, int64)", **HOT_NOGIL)
def _draw_score(work: NDArray[np.int64], ply: int) -> int:
    """A draw, from the side to move's view: the root side thinks it can do better."""
    contempt: int = work[C_CONTEMPT]
    return -contempt if ply % 2 == 0 else contempt


@njit(f"int64({A1}, {A1})", **HOT_NOGIL)
def _least_freedom(state: NDArray[np.int64], rules: NDArray[np.int64]) -> int:
    """The freedom of the tiger that has the least (steps and jumps, whoever is to move)."""
    least = 99
    for slot in range(2):
        point = state[S_TIGER + slot]
        if point >= 0:
            least = min(least, count_tiger_moves(state, rules, point))
    return least


@njit(f"int64({A1}, {A1}, {A1}, {A1})", **HOT_NOGIL)
def _eval(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    key = state[S_HASH]
    slot = W_EVAL_CACHE + 2 * (key & (EVAL_CACHE_ENTRIES - 1))
    if work[slot] == key:
        score = work[slot + 1]
    else:
        score = evaluate(state, rules, params, work, W_SCRATCH)
        work[slot] = key
        work[slot + 1] = score
    amplitude = work[C_NOISE]
    if amplitude > 0:
        # Noise fixed per position and search, so the TT and re-searches stay consistent.
        mixed = (key ^ work[C_NOISE_SEED]) * -7046029254386353131
        score += ((mixed >> 20) & 0xFFFFF) % (2 * amplitude + 1) - amplitude
    return score  # type: ignore[no-any-return]


# ------------------------------------------------------------------------- quiescence


@njit(f"int64({QUIESCENCE_ARRAYS}, int64, int64, int64, int64)", **HOT_NOGIL)
def qsearch(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    alpha: int,
    beta: int,
    ply: int,
    qply: int,
) -> int:
    """The tiger's jumps, and for a few plies the men's steps beside a tiger with little
    freedom, until quiet."""
    if tick(work):
        return 0
    work[W_PV_LEN + ply] = ply
    if ply > work[C_SELDEPTH]:
        work[C_SELDEPTH] = ply
    if is_game_over_on_board(state, rules):
        return _tiger_won(state, ply)
    base = W_MOVES + ply * MAX_MOVES
    count = generate_moves(state, rules, work, base, MAX_MOVES)
    if count == 0:
        return -(WIN_SCORE - ply)
    if _past_max_rounds(state, rules):
        return _draw_score(work, ply)
    count = min(count, MAX_MOVES)
    stand = _eval(state, rules, params, work)
    if stand >= beta or ply >= MAX_PLY - 1 or work[C_NO_QUIESCENCE] != 0:
        return stand
    if stand > alpha:
        alpha = stand
    kept = 0
    if state[S_TURN] == 0:
        for i in range(base, base + count):
            if (work[i] & JUMP_FLAG) != 0:
                work[base + kept] = work[i]
                kept += 1
    elif qply < work[C_QTRAPS] and _least_freedom(state, rules) <= 2:
        for i in range(base, base + count):
            if touches_tiger(state, rules, (work[i] >> 8) & 127):
                work[base + kept] = work[i]
                kept += 1
    if kept == 0:
        return stand
    score_moves(state, rules, work, base, kept, 0, ply)
    best = stand
    for index in range(kept):
        move = pick_move(work, base, kept, index)
        make_move(state, history, move)
        score = -qsearch(state, history, rules, work, params, -beta, -alpha, ply + 1, qply + 1)
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


# --------------------------------------------------------------------------- main search


@njit(f"int64({SEARCH_ARRAYS}, int64, int64, int64, int64, int64)", **HOT_NOGIL)
def negamax(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    extensions: int,
) -> int:
    if tick(work):
        return 0
    work[W_PV_LEN + ply] = ply
    if ply > work[C_SELDEPTH]:
        work[C_SELDEPTH] = ply
    if is_game_over_on_board(state, rules):
        return _tiger_won(state, ply)
    if _is_repetition(state, history, work[C_ROOT_PLY]):
        return _draw_score(work, ply)
    if ply >= MAX_PLY - 1:
        return _eval(state, rules, params, work)
    caged = _least_freedom(state, rules) <= CAGED
    if caged and extensions > 0:
        depth += 1
        extensions -= 1
    if depth <= 0:
        return qsearch(state, history, rules, work, params, alpha, beta, ply, 0)

    # A win from here cannot come before the next move, nor a loss later than ours.
    alpha = max(alpha, -(WIN_SCORE - ply))
    beta = min(beta, WIN_SCORE - ply - 1)
    if alpha >= beta:
        return alpha
    pv_node = beta - alpha > 1

    key = state[S_HASH]
    slot = tt_slot(tt, key)
    tt_move = 0
    if slot >= 0:
        data = tt[slot, 1]
        tt_move = tt[slot, 2]
        if not pv_node and (data & 0xFF) - 64 >= depth:
            tt_score = score_from_tt(data >> 32, ply)
            bound = (data >> 8) & 3
            if (
                bound == BOUND_EXACT
                or (bound == BOUND_LOWER and tt_score >= beta)
                or (bound == BOUND_UPPER and tt_score <= alpha)
            ):
                return tt_score

    us = state[S_TURN]
    if not pv_node and not caged:
        static = _eval(state, rules, params, work)
        margin = work[C_FUTILITY_MARGIN] * depth
        if depth <= 3 and abs(beta) < WIN_BOUND and static - margin >= beta:
            return static
        if (
            work[C_NULL_MOVE] != 0
            and history[state[S_PLY] - 1, H_MOVE] != PASS_MOVE  # no two passes in a row
            and depth >= 2
            and static >= beta
            and _least_freedom(state, rules) >= work[C_NULL_FREEDOM]
        ):
            reduction = 2 + depth // 4
            make_pass(state, history)
            score = -negamax(
                state, history, rules, tt, work, params,
                depth - 1 - reduction, -beta, -beta + 1, ply + 1, extensions,
            )  # fmt: skip
            unmake_move(state, history)
            if work[C_ABORT] != 0:
                return 0
            if score >= beta:
                return beta if score > WIN_BOUND else score

    base = W_MOVES + ply * MAX_MOVES
    count = generate_moves(state, rules, work, base, MAX_MOVES)
    if count == 0:
        return -(WIN_SCORE - ply)  # trapped (困住), or men with no move
    if _past_max_rounds(state, rules):
        return _draw_score(work, ply)
    count = min(count, MAX_MOVES)
    score_moves(state, rules, work, base, count, tt_move, ply)

    killer1 = work[W_KILLERS + 2 * ply]
    killer2 = work[W_KILLERS + 2 * ply + 1]
    original_alpha = alpha
    best = -INFINITE
    best_move = 0
    for index in range(count):
        move = pick_move(work, base, count, index)
        quiet = (move & JUMP_FLAG) == 0 and not (
            us == 1 and touches_tiger(state, rules, (move >> 8) & 127)
        )
        make_move(state, history, move)
        new_depth = depth - 1
        if index == 0:
            score = -negamax(state, history, rules, tt, work, params,
                             new_depth, -beta, -alpha, ply + 1, extensions)  # fmt: skip
        else:
            reduction = 0
            if (
                depth >= 3
                and work[C_LMR] != 0
                and quiet
                and not caged
                and index >= (3 if pv_node else 2)
                and move != killer1
                and move != killer2
            ):
                reduction = LMR[min(depth, 63), index]
                if pv_node:
                    reduction -= 1
                if work[history_index(us, move)] > 4000:
                    reduction -= 1
                reduction = max(0, min(reduction, new_depth - 1))
            score = -negamax(
                state, history, rules, tt, work, params,
                new_depth - reduction, -alpha - 1, -alpha, ply + 1, extensions,
            )  # fmt: skip
            if score > alpha and reduction > 0 and work[C_ABORT] == 0:
                score = -negamax(state, history, rules, tt, work, params,
                                 new_depth, -alpha - 1, -alpha, ply + 1, extensions)  # fmt: skip
            if alpha < score < beta and work[C_ABORT] == 0:
                score = -negamax(state, history, rules, tt, work, params,
                                 new_depth, -beta, -alpha, ply + 1, extensions)  # fmt: skip
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
                            if (other & JUMP_FLAG) == 0:
                                reward_quiet(work, us, ply, other, -bonus)
                    break

    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt_store(tt, key, best_move, depth, bound, score_to_tt(best, ply), work[C_AGE])
    return best


# ------------------------------------------------------------------------------- root


@njit(f"int64({A1}, {A1}, {A2}, {A1})", **HOT_NOGIL)
def prepare_root(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """Generate the root moves into ``work``, in static order; returns how many (at most
    ``MAX_MOVES``: a multi-jump position built to have more is searched on its first ones)."""
    base = W_MOVES
    count = min(generate_moves(state, rules, work, base, MAX_MOVES), MAX_MOVES)
    tt_move = tt_probe_move(tt, state[S_HASH])
    score_moves(state, rules, work, base, count, tt_move, 0)
    for index in range(count):
        work[W_ROOT_MOVES + index] = pick_move(work, base, count, index)
        work[W_ROOT_SCORES + index] = -INFINITE
    work[C_ROOT_COUNT] = count
    return count


@njit(f"int64({SEARCH_ARRAYS}, int64, int64, int64, boolean)", **HOT_NOGIL)
def search_root(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    tt: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    depth: int,
    alpha: int,
    beta: int,
    exact_all: bool,
) -> int:
    """Search the root moves of :func:`prepare_root` to ``depth`` in the window (alpha, beta).

    Returns the best score (a bound when it falls outside the window). A move that scored
    above alpha goes first in the root list and into ``work[C_BEST_MOVE]`` (which the caller
    zeroes before each call), its line into PV row 0. With ``exact_all`` every root move gets
    a full-window search, so ``W_ROOT_SCORES`` holds exact scores for all of them (the weaker
    levels choose among near-best moves).
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
            score = -negamax(state, history, rules, tt, work, params,
                             depth - 1, -INFINITE, INFINITE, 1, extensions)  # fmt: skip
        elif index == 0:
            score = -negamax(state, history, rules, tt, work, params,
                             depth - 1, -beta, -alpha, 1, extensions)  # fmt: skip
        else:
            score = -negamax(state, history, rules, tt, work, params,
                             depth - 1, -alpha - 1, -alpha, 1, extensions)  # fmt: skip
            if alpha < score < beta and work[C_ABORT] == 0:
                score = -negamax(state, history, rules, tt, work, params,
                                 depth - 1, -beta, -alpha, 1, extensions)  # fmt: skip
        unmake_move(state, history)
        if work[C_ABORT] != 0:
            break
        work[W_ROOT_SCORES + index] = score
        if score > best:
            best = score
            # Only a score above alpha is evidence: below it, every score is an upper bound.
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
        tt_store(tt, state[S_HASH], work[W_ROOT_MOVES], depth, bound, score_to_tt(best, 0),
                 work[C_AGE])  # fmt: skip
    return best

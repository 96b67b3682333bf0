"""What a node of the compiled search asks before it searches moves (:mod:`.search`): whether
the position settles its score without a search (:func:`settled_score`), is the
position drawn (a repetition, the no-capture limit) and what a draw is worth, the table key, the
evaluation (cached by board, then faded by the no-capture clock), the endgame tables' exact
score, and whether an enemy animal threatens our den closely enough that no pruning may hand it
a tempo (today's rule by distance, :data:`DANGER_ZONE`; the finer rule by runners and guards,
:func:`runner_danger`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL, inline
from doushouqi.jungle.ai.bitops import prefetch
from doushouqi.jungle.ai.evaluate import (
    GUARD_STEPS,
    MOVER_KIND,
    OWN_DEN_DISTANCE,
    RUN_STEPS,
    evaluate_in_search,
)
from doushouqi.jungle.ai.movegen import is_game_over_on_board
from doushouqi.jungle.ai.nnue import adds_classic, network_evaluate, uses_network
from doushouqi.jungle.ai.state import (
    H_HASH,
    S_FORBID,
    S_HALFMOVE,
    S_HASH,
    S_OCCUPANCY,
    S_PLY,
    S_TURN,
    S_WHERE,
)
from doushouqi.jungle.ai.tables import (
    RULE_7_3,
    RULE_17_5,
    RULE_NO_CAPTURE_PLIES,
    RULE_REPETITION_MUST_VARY,
    TRAP_BB,
)
from doushouqi.jungle.ai.tbprobe import TB1, TB_MISS, tb_probe
from doushouqi.jungle.ai.work import (
    A1,
    A2,
    C_CONTEMPT,
    C_KEY_FILTER,
    C_NOISE,
    C_NOISE_SEED,
    C_PROGRESS_PLIES,
    C_REPEAT_FROM,
    C_ROOT_PLY,
    C_SELDEPTH,
    C_TBHITS,
    EVAL_CACHE_ENTRIES,
    MAX_PLY,
    W_EVAL_CACHE,
    W_KEY_FILTER,
    W_PV_LEN,
    key_filter_bit,
    tick,
)
from doushouqi.jungle.analysis import DEN_SCORE

__all__ = [
    "DANGER_ZONE",
    "DRAWN",
    "NOT_DRAWN",
    "RUNNER_ZONE",
    "SECOND_OCCURRENCE",
    "UNSETTLED",
    "cached_eval",
    "draw_kind",
    "draw_score",
    "eval_prefetch",
    "faded",
    "has_den_entry",
    "restrictions_off",
    "runner_danger",
    "settled_score",
    "tablebase_score",
    "tt_key",
]

#: DANGER_ZONE[r, c]: squares within r steps of c's den. An enemy animal three steps away can
#: reach a trap in two moves, so pruning that hands it a free tempo is off (radius 3).
DANGER_ZONE = np.zeros((8, 2), dtype=np.int64)
for _r in range(8):
    for _c in (0, 1):
        for _s in range(63):
            if OWN_DEN_DISTANCE[_c, _s] <= _r:
                DANGER_ZONE[_r, _c] |= 1 << _s
#: RUNNER_ZONE[n, c]: squares from which an enemy animal of some kind (a walker, the rat, a
#: jumper) can stand on one of c's traps within n moves on an empty board: a cheap first test
#: of the finer danger rule (``C_DANGER_MOVES``), which then looks at each animal's kind.
RUNNER_ZONE = np.zeros((8, 2), dtype=np.int64)
for _r in range(8):
    for _c in (0, 1):
        for _s in range(63):
            if RUN_STEPS[_c, :, :, _s].min() <= _r:
                RUNNER_ZONE[_r, _c] |= 1 << _s


#: What :func:`draw_kind` finds: no draw, a draw by rule, or a position of the game before the root
#: met a second time while the root side counts that as a draw (``C_REPEAT_FROM``).
NOT_DRAWN, DRAWN, SECOND_OCCURRENCE = 0, 1, 2


@njit(f"int64({A1}, {A2}, {A1}, {A1})", **HOT_NOGIL)
def draw_kind(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """DRAWN by the no-capture limit, by threefold repetition, or by a repetition inside the
    search (the side that could repeat once can repeat again; the game history before the root,
    ``work[C_ROOT_PLY]``, needs the full three); SECOND_OCCURRENCE when the position stood once
    before the root, at or after history row ``work[C_REPEAT_FROM]`` (only when the root side
    is well ahead: see ``C_REPEAT_FROM``); else NOT_DRAWN."""
    limit = rules[RULE_NO_CAPTURE_PLIES]
    halfmove = state[S_HALFMOVE]
    if limit != 0 and halfmove >= limit:
        return DRAWN
    if rules[RULE_REPETITION_MUST_VARY] != 0 or halfmove < 4:
        return NOT_DRAWN
    ply = state[S_PLY]
    key = state[S_HASH]
    lowest = max(0, ply - halfmove)
    root_ply = work[C_ROOT_PLY]
    # Every history row is one ply (a pass too) and the hash holds the side to move, so only
    # rows an even number of plies back can repeat this position: the odd ones are skipped.
    # First the rows inside the search, where one repetition is a draw.
    i = ply - 2
    while i >= lowest and i >= root_ply:
        if history[i, H_HASH] == key:
            return DRAWN
        i -= 2
    if i < lowest:
        return NOT_DRAWN
    if work[C_KEY_FILTER] == root_ply + 1:
        # The rows before the root: none holds this key if the filter's bit for it is clear.
        bit = key_filter_bit(key)
        if ((work[W_KEY_FILTER + (bit >> 6)] >> (bit & 63)) & 1) == 0:
            return NOT_DRAWN
    repeat_from = work[C_REPEAT_FROM]
    count = 1
    found = NOT_DRAWN
    while i >= lowest:
        if history[i, H_HASH] == key:
            count += 1
            if count >= 3:
                return DRAWN
            if i >= repeat_from:
                found = SECOND_OCCURRENCE
        i -= 2
    return found


@njit(f"int64({A1}, int64)", **HOT_NOGIL)
def draw_score(work: NDArray[np.int64], ply: int) -> int:
    """A draw, from the side to move's view: the root side thinks it can do better."""
    contempt: int = work[C_CONTEMPT]
    return -contempt if ply % 2 == 0 else contempt


@njit(f"boolean({A1})", **HOT_NOGIL)
def restrictions_off(rules: NDArray[np.int64]) -> bool:
    off: bool = rules[RULE_7_3] == 0 and rules[RULE_17_5] == 0
    return off


@njit(f"int64({A1}, boolean)", **HOT_NOGIL)
def tt_key(state: NDArray[np.int64], restricted: bool) -> int:
    """The position's transposition-table key: the board's hash and, when rule 7-3 / 17-5
    forbid squares now (``restricted``: what :func:`compute_restrictions` just returned), those
    squares — the same board reached by other recent moves has other legal moves, so it must
    not share their scores."""
    key: int = state[S_HASH]
    if not restricted:
        return key
    turn = state[S_TURN]
    for code in range(8 * turn + 1, 8 * turn + 9):
        forbidden = state[S_FORBID + code]
        if forbidden != 0:
            key ^= (forbidden ^ code) * -7046029254386353131
    return key


@njit(f"boolean({A1}, int64, int64, int64)", **HOT_NOGIL)
def has_den_entry(moves: NDArray[np.int64], base: int, count: int, den: int) -> bool:
    for i in range(base, base + count):  # noqa: SIM110 (no generators in compiled code)
        if (moves[i] >> 6) == den:
            return True
    return False


@njit(f"int64({A1}, {A1}, {A1}, int64)", **HOT_NOGIL)
def faded(
    state: NDArray[np.int64], rules: NDArray[np.int64], work: NDArray[np.int64], score: int
) -> int:
    """``score`` faded toward a draw as the plies without a capture add up: by half over the
    rule set's no-capture limit (or ``work[C_PROGRESS_PLIES]`` without one), so that of two
    equal leads the search prefers the one that has made progress — a capture resets the
    clock — and a lead that only shuffles is worth less and less (the static evaluation
    itself, cached by board, knows no clock)."""
    limit: int = rules[RULE_NO_CAPTURE_PLIES]
    if limit == 0:
        limit = work[C_PROGRESS_PLIES]
    if limit <= 0:
        return score
    halfmove: int = min(state[S_HALFMOVE], limit)
    return score * (2 * limit - halfmove) // (2 * limit)


@njit(f"void({A1}, int64)", **HOT_NOGIL)
def eval_prefetch(work: NDArray[np.int64], key: int) -> None:
    """Start loading the evaluation cache's slot for ``key`` (the cache, half a megabyte, is
    mostly outside the nearest caches; a node that evaluates reads it soon after its start)."""
    prefetch(work, 8 * (W_EVAL_CACHE + 2 * (key & (EVAL_CACHE_ENTRIES - 1))))


@njit(f"int64({A1}, {A2}, {A1}, {A1}, {A1})", **HOT_NOGIL)
def _network_score(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """The learned evaluation (with the hand-tuned one added when it is a correction)."""
    score: int = network_evaluate(state, history, params, work)
    if adds_classic(params):
        score += evaluate_in_search(state, history, rules, params, work)
    return score


@inline
def cached_eval(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    params: NDArray[np.int64],
    work: NDArray[np.int64],
) -> int:
    """The static evaluation (cached by hash): the learned one when ``params`` carries a
    network (:mod:`.nnue`, whose accumulators follow the path in ``history``), else the
    hand-tuned one. Inlined (one return): a call passing five arrays cost more than a hit in
    the cache; a miss calls the evaluation with the arrays it needs."""
    key = state[S_HASH]
    slot = W_EVAL_CACHE + 2 * (key & (EVAL_CACHE_ENTRIES - 1))
    if work[slot] == key:
        score = work[slot + 1]
    else:
        if uses_network(params):
            score = _network_score(state, history, rules, params, work)
        else:
            score = evaluate_in_search(state, history, rules, params, work)
        work[slot] = key
        work[slot + 1] = score
    amplitude = work[C_NOISE]
    if amplitude > 0:
        # Noise fixed per position and search, so the TT and re-searches stay consistent.
        mixed = (state[S_HASH] ^ work[C_NOISE_SEED]) * -7046029254386353131
        score += ((mixed >> 20) & 0xFFFFF) % (2 * amplitude + 1) - amplitude
    faded_score: int = faded(state, rules, work, score)
    return faded_score


@njit(f"int64({A1}, {A1}, {A1}, {TB1}, {A1}, int64)", **HOT_NOGIL)
def tablebase_score(
    state: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    tb_values: NDArray[np.int8],
    tb_meta: NDArray[np.int64],
    ply: int,
) -> int:
    """The exact score of a position the endgame tables cover, or ``TB_MISS``.

    A win in ``d`` plies scores as the den entry (or last capture) ``d`` plies on would:
    ``DEN_SCORE - (ply + d)``, so faster wins score higher and a table's win agrees with one
    the search finds itself; a draw is the search's draw score. Under a no-capture limit a
    win or loss counts only when it ends before the limit could (as the reader decides); the
    caller has ruled out path-dependent rules (the tables are only handed over for rule sets
    they answer) and repetitions (a drawn repetition is scored before this)."""
    value = tb_probe(state, tb_values, tb_meta)
    if value == TB_MISS:
        return TB_MISS
    if value == 0:
        work[C_TBHITS] += 1
        return draw_score(work, ply)
    plies = abs(value) - 1
    limit = rules[RULE_NO_CAPTURE_PLIES]
    if limit != 0 and state[S_HALFMOVE] + plies >= limit:
        return TB_MISS
    work[C_TBHITS] += 1
    if value > 0:
        return DEN_SCORE - ply - plies
    return -(DEN_SCORE - ply - plies)


@njit(f"boolean({A1}, int64, int64, int64)", **HOT_NOGIL)
def runner_danger(state: NDArray[np.int64], us: int, moves: int, guards: int) -> bool:
    """Whether an enemy animal can stand on one of our traps within ``moves`` of its moves (on
    an empty board, by its kind). With ``guards`` 1, only where none of our animals can stand
    on that trap or next to it by then (we are to move: in as many moves as the runner needs);
    with 2, where fewer of ours can than there are runners within ``moves`` of it (one guard
    captures one runner at a time)."""
    enemy = 1 - us
    if (state[S_OCCUPANCY + enemy] & RUNNER_ZONE[moves, us]) == 0:
        return False
    for i in range(3):
        run = 99
        runners = 0
        for animal in range(1, 9):
            steps = RUN_STEPS[us, i, MOVER_KIND[animal], state[S_WHERE + 8 * enemy + animal]]
            if steps <= moves:
                runners += 1
                run = min(run, steps)
        if runners == 0:
            continue
        if guards == 0:
            return True
        posted = 0
        for animal in range(1, 9):
            if GUARD_STEPS[us, i, MOVER_KIND[animal], state[S_WHERE + 8 * us + animal]] <= run:
                posted += 1
        if posted == 0 or (guards == 2 and posted < runners):
            return True
    return False


#: What :func:`settled_score` returns for a node that must be searched (no score is this low).
UNSETTLED = -(1 << 40)


@inline
def settled_score(
    state: NDArray[np.int64],
    history: NDArray[np.int64],
    rules: NDArray[np.int64],
    work: NDArray[np.int64],
    params: NDArray[np.int64],
    ply: int,
) -> int:
    """A node's first steps in the main search: count it (0 if the search must stop), then its
    score where the position settles it — a den entered (lost), a draw, a den entry next move
    (won, unless move restrictions might keep the animal out), the deepest ply (the static
    evaluation) — else :data:`UNSETTLED`. Inlined (one return) into ``negamax`` and into
    quiescence entered for a leaf of it (:data:`.quiescence.LEAF`)."""
    score = UNSETTLED
    if tick(work):
        score = 0
    else:
        work[W_PV_LEN + ply] = ply
        if ply > work[C_SELDEPTH]:
            work[C_SELDEPTH] = ply
        us = state[S_TURN]
        if is_game_over_on_board(state):
            score = -(DEN_SCORE - ply)
        else:
            drawn = draw_kind(state, history, rules, work)
            if drawn == DRAWN:
                score = draw_score(work, ply)
            elif drawn == SECOND_OCCURRENCE:
                # Not a draw yet, but one the opponent may force: a quarter of the draw's cost
                # to the root side, which then makes progress rather than shuffle back, prefers
                # this to a draw already certain, and does not give up an animal to avoid it (at
                # half the cost it did: the contempt of a large lead is large).
                score = draw_score(work, ply) // 4
            elif (state[S_OCCUPANCY + us] & TRAP_BB[1 - us]) != 0 and restrictions_off(rules):
                score = DEN_SCORE - ply - 1
            elif ply >= MAX_PLY - 1:
                score = cached_eval(state, history, rules, params, work)
    return score

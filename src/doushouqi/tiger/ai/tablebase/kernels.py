"""Compiled parts of the Tiger's table generator: the index, the moves and the un-moves, and
the retrograde solve level by level.

A job is the two tables of one material, the tiger against ``k`` men when ``k`` is the rule
set's ``tiger_wins_below`` (so that any capture wins for the tiger): ``vt`` (the tiger to
move) and ``vm`` (the men to move), each ``49 * C(86, k)`` entries indexed as
:mod:`doushouqi.tiger.tablebase.file_format` says (the tiger's point folded to files a-e by
the mirror, the men's set ranked among the other 86 points). Every entry is a position: men
never share a point with each other or the tiger, by construction of the index.

Values (``int16``, for the side to move): ``0`` unknown (a draw once the solve ends),
``d + 1`` a win in ``d`` plies, ``-(d + 1)`` a loss in ``d`` plies. Jungle's generator uses
the same encoding; nothing is shared with it (the games are siblings).

The geometry comes as arguments: ``step[point, direction]`` (a neighbour along a line, or
-1), ``jump_over`` / ``jump_land`` (a jump's man and landing point, or -1), ``rank`` (a point's
rank, for ``men_retreat``), ``half`` (the 49 points with files a-e, the tiger's domain),
``half_digit`` (a point's place in ``half``, or -1), ``mirror`` (a point's mirror image) and
``binom[n, r]`` (binomial coefficients).

**The solve.** The first pass finds what the moves alone decide: the tiger to move with a
jump wins in 1 (the capture leaves too few men), a side to move without a move has lost (in
0); every other entry counts its moves (``cnt``). Then level ``n`` = 1, 2, ...: at odd ``n``
the predecessors of every entry lost in ``n - 1`` are won in ``n``; at even ``n`` the
predecessors of every entry won in ``n - 1`` count one more move known to lose, and one with
no move left is lost in ``n`` (its longest defence is the last found). Predecessors are found
by un-moves: a man (or the tiger) steps back along a line to an empty point. Entries never
decided are draws: neither side can force its win, so play goes on until a position repeats.

**Symmetry.** An entry with the tiger on files a-d stands for two boards (itself and its
mirror image), one with the tiger on file e for itself (its mirror is another entry, or the
same when the men are symmetric too). Moves are generated from the entry's own board; the
un-moves start from every board an entry stands for and keep the predecessor boards that are
their entry's own (the tiger on files a-e), so that each pair (predecessor, move) is found
exactly once, as the counters need (the design of Jungle's un-move solve).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["first_pass", "rank_of", "spread", "unrank"]

#: The tiger's domain is files a-e: a point with a larger file is mirrored first.
LAST_FILE = 4
EMPTY, TIGER, MAN = 0, 1, 2


@njit(cache=True, nogil=True)
def _file(point: int) -> int:
    # Points 0-80 are rank-major (file = point % 9); the nest's 81-86 are d, e, f twice.
    if point < 81:
        return point % 9
    return 3 + (point - 81) % 3


@njit(cache=True, nogil=True)
def rank_of(men: np.ndarray, k: int, tiger: int, binom: np.ndarray) -> int:
    """The colex rank of the men's points (any order) among the 86 points but the tiger's."""
    q = np.empty(8, np.int64)
    for i in range(k):
        p = men[i]
        q[i] = p - 1 if p > tiger else p
    for i in range(1, k):  # insertion sort: k is 3 to 5
        x = q[i]
        j = i - 1
        while j >= 0 and q[j] > x:
            q[j + 1] = q[j]
            j -= 1
        q[j + 1] = x
    r = 0
    for i in range(k):
        r += binom[q[i], i + 1]
    return r


@njit(cache=True, nogil=True)
def unrank(r: int, k: int, tiger: int, binom: np.ndarray, out: np.ndarray) -> None:
    """The men's points (ascending) of colex rank ``r`` among the points but ``tiger``."""
    for i in range(k - 1, -1, -1):
        lo, hi = i, 85  # the largest c with binom[c, i + 1] <= r
        while lo < hi:
            mid = (lo + hi + 1) >> 1
            if binom[mid, i + 1] <= r:
                lo = mid
            else:
                hi = mid - 1
        r -= binom[lo, i + 1]
        out[i] = lo + 1 if lo >= tiger else lo


@njit(cache=True, nogil=True, parallel=True)
def first_pass(
    k: int, vt: np.ndarray, vm: np.ndarray, ct: np.ndarray, cm: np.ndarray, step: np.ndarray,
    jump_over: np.ndarray, jump_land: np.ndarray, rank: np.ndarray, retreat: bool,
    half: np.ndarray, binom: np.ndarray,
) -> None:  # fmt: skip
    """What the moves alone decide, and each undecided entry's count of moves."""
    per_tiger = binom[86, k]
    for digit in prange(half.shape[0]):
        tiger = half[digit]
        board = np.zeros(87, np.uint8)
        board[tiger] = TIGER
        q = np.empty(8, np.int64)
        men = np.empty(8, np.int64)
        for i in range(k):
            q[i] = i
        base = digit * per_tiger
        for r in range(per_tiger):
            for i in range(k):
                men[i] = q[i] + 1 if q[i] >= tiger else q[i]
                board[men[i]] = MAN
            steps = 0
            jump = False
            for d in range(8):
                s = step[tiger, d]
                if s < 0:
                    continue
                if board[s] == EMPTY:
                    steps += 1
                elif jump_over[tiger, d] == s and board[jump_land[tiger, d]] == EMPTY:
                    jump = True
            if jump:
                vt[base + r] = 2  # a capture leaves too few men: won in 1
            elif steps == 0:
                vt[base + r] = -1  # hemmed in: lost now
            ct[base + r] = steps
            moves = 0
            for i in range(k):
                m = men[i]
                for d in range(8):
                    s = step[m, d]
                    if s >= 0 and board[s] == EMPTY and (retreat or rank[s] >= rank[m]):
                        moves += 1
            if moves == 0:
                vm[base + r] = -1
            cm[base + r] = min(moves, 255)
            for i in range(k):
                board[men[i]] = EMPTY
            # The next set in colex order: raise the lowest point that can rise.
            i = 0
            while i < k - 1 and q[i] + 1 == q[i + 1]:
                i += 1
            q[i] += 1
            for j in range(i):
                q[j] = j


@njit(cache=True, nogil=True)
def _decide(
    target: np.ndarray, cnt: np.ndarray, index: int, level: int, odd: bool
) -> int:  # fmt: skip
    """One predecessor found for level ``level``: won now (odd), or one more losing move and
    lost when none is left (even); 1 if it was decided."""
    if target[index] != 0:
        return 0
    if odd:
        target[index] = level + 1
        return 1
    cnt[index] -= 1
    if cnt[index] == 0:
        target[index] = -(level + 1)
        return 1
    return 0


@njit(cache=True, nogil=True)
def spread(
    k: int, level: int, vt: np.ndarray, vm: np.ndarray, ct: np.ndarray, cm: np.ndarray,
    step: np.ndarray, rank: np.ndarray, retreat: bool, half: np.ndarray,
    half_digit: np.ndarray, mirror: np.ndarray, binom: np.ndarray,
) -> int:  # fmt: skip
    """Level ``level`` of the solve (see the module docstring); the entries it decided."""
    odd = level % 2 == 1
    wanted = -level if odd else level  # lost in level - 1, or won in level - 1
    per_tiger = binom[86, k]
    board = np.zeros(87, np.uint8)
    men = np.empty(8, np.int64)
    moved = np.empty(8, np.int64)
    changed = 0
    # The tiger to move: its predecessors are the men's, who made the last move. The tiger
    # stood where it stands, so only the entry's own board has predecessors of their own.
    for index in range(vt.shape[0]):
        if vt[index] != wanted:
            continue
        tiger = half[index // per_tiger]
        unrank(index % per_tiger, k, tiger, binom, men)
        board[tiger] = TIGER
        for i in range(k):
            board[men[i]] = MAN
        for i in range(k):
            to = men[i]
            for d in range(8):
                frm = step[to, d]
                if frm < 0 or board[frm] != EMPTY or not (retreat or rank[to] >= rank[frm]):
                    continue
                for j in range(k):
                    moved[j] = frm if j == i else men[j]
                parent = (index // per_tiger) * per_tiger + rank_of(moved, k, tiger, binom)
                changed += _decide(vm, cm, parent, level, odd)
        board[tiger] = EMPTY
        for i in range(k):
            board[men[i]] = EMPTY
    # The men to move: the tiger made the last move, from a neighbouring empty point.
    for index in range(vm.shape[0]):
        if vm[index] != wanted:
            continue
        own = half[index // per_tiger]
        unrank(index % per_tiger, k, own, binom, men)
        boards = 2 if _file(own) < LAST_FILE else 1
        for b in range(boards):
            tiger = mirror[own] if b == 1 else own
            for i in range(k):
                moved[i] = mirror[men[i]] if b == 1 else men[i]
                board[moved[i]] = MAN
            for d in range(8):
                frm = step[tiger, d]
                if frm < 0 or board[frm] != EMPTY or half_digit[frm] < 0:
                    continue
                parent = half_digit[frm] * per_tiger + rank_of(moved, k, frm, binom)
                changed += _decide(vt, ct, parent, level, odd)
            for i in range(k):
                board[moved[i]] = EMPTY
    return changed

"""Compiled parts of the low-memory solve: classic retrograde analysis with un-moves.

The solve of :mod:`.kernels` keeps every entry's successor list (about 80 bytes an entry with
the summaries): a five-animal job (323 M entries) does not fit in memory. This one keeps
5 bytes an entry and finds the predecessors of an entry when it is decided, by un-moving:

* ``val`` (``int16``): the value, :mod:`.kernels` encoding (0 while unknown);
* ``aux`` (``int16``): what the moves out of the job say. Negative: the entry can never be
  lost, ``-w`` when a den entry or a capture wins in ``w`` plies at best (``-INF`` when it
  cannot lose only because a capture draws). Otherwise the longest defence known so far,
  ``d + 1`` for a loss in ``d``: first the best capture into a won table, then raised by each
  successor in the job that is found won;
* ``cnt`` (``uint8``): the successors in the job (moves, with multiplicity) not yet known won.

The levels are those of :func:`doushouqi.jungle.ai.tablebase.kernels.solve_levels`, so the values
are the same, entry for entry: at odd level ``n`` an entry becomes a win in ``n`` when a
successor was lost at level ``n - 1`` (its predecessors are marked) or ``aux == -n``; at even
level ``n`` the winners of level ``n - 1`` lower their predecessors' counters and raise their
``aux``, and an entry whose counter is 0 and ``aux == n`` becomes a loss in ``n``.

**Un-moves.** A move that captures nothing is reversible: the animal steps back to the square
it came from, which must be empty and in its domain (a rat may come out of the water or go
back into it, another animal never stands on water, nobody on a den), or a lion or tiger
jumps back over the lake along the same squares, not blocked by a rat (an enemy rat always, an
own rat when ``own_rat_blocks_jump``). Captures lead out of the job and have no un-move here.

**Symmetry.** An entry with its first animal on files a-c stands for two boards, itself and
its mirror image (a position with the first animal on e-g is mirrored before it is indexed);
one with the first animal on file d for itself only (its mirror image is another entry). The
solve of :mod:`.kernels` generates the moves of the entry's own board (first animal on a-d).
So the un-moves start from every board the entry stands for, and keep only the predecessor
boards that are their entry's own board (first animal on a-d): each pair (predecessor board,
move) is then found exactly once, as the counters need.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from doushouqi.jungle.ai.tablebase.kernels import (
    BROKEN_VALUE,
    ENEMY_DEN,
    INF,
    LION,
    RAT,
    TIGER,
    decode,
    encode,
)
from doushouqi.jungle.ai.tablebase.kernels import gen_moves as _gen_moves

__all__ = ["first_pass", "predecessors", "settle", "spread_losses", "spread_wins"]

#: Entries per chunk of a parallel loop (the scratch arrays are made once a chunk).
CHUNK = 1 << 16
#: Most predecessors of one entry: 2 boards x 4 movers x (4 steps + 4 jumps).
MAX_PRED = 64


@njit(cache=True, nogil=True)
def _mirror(s: int) -> int:
    return s - 2 * (s % 7) + 6


@njit(cache=True, nogil=True)
def predecessors(
    kinds: np.ndarray, nm: int, n: int, index: int, parent_kinds: np.ndarray,
    sq: np.ndarray, board: np.ndarray, out: np.ndarray, geo_steps: np.ndarray,
    geo_jumps: np.ndarray, geo_paths: np.ndarray, full_pos: np.ndarray, half_pos: np.ndarray,
    full_sq: np.ndarray, half_sq: np.ndarray, full_size: np.ndarray, half_size: np.ndarray,
    flags: np.ndarray,
) -> int:  # fmt: skip
    """The entries (of the partner table, ``parent_kinds``: the opponent's animals first) with
    a move that captures nothing into entry ``index`` (of the table ``kinds``, ``nm`` of them
    the mover's), each once per such move, into ``out``; their count."""
    if not decode(kinds, n, index, sq, full_sq, half_sq, full_size, half_size):
        return 0
    pm = n - nm  # the predecessor's mover: the animals this entry's opponent has
    boards = 2 if sq[0] % 7 < 3 else 1
    count = 0
    for b in range(boards):
        # The predecessor's frame: a half turn, its mover (our opponent) first.
        for j in range(pm):
            s = sq[nm + j]
            board[j] = 62 - (_mirror(s) if b == 1 else s)
        for i in range(nm):
            s = sq[i]
            board[pm + i] = 62 - (_mirror(s) if b == 1 else s)
        for slot in range(pm):
            animal = parent_kinds[slot]
            to = board[slot]
            rat = 1 if animal == RAT else 0
            for k in range(8):
                if k < 4:
                    frm = geo_steps[to, k]
                    if frm < 0:
                        continue
                else:
                    if animal != LION and animal != TIGER:
                        break
                    frm = geo_jumps[to, k - 4]
                    if frm < 0:
                        continue
                    path = geo_paths[to, k - 4]
                    blocked = False
                    for j in range(n):
                        if (
                            parent_kinds[j] == RAT
                            and (j >= pm or flags[0] == 1)
                            and (path >> board[j]) & 1
                        ):
                            blocked = True
                    if blocked:
                        continue
                if full_pos[rat, frm] < 0:  # a den, or water for all but the rat
                    continue
                taken = False
                for j in range(n):
                    if board[j] == frm:
                        taken = True
                if taken:
                    continue
                first = frm if slot == 0 else board[0]
                if first % 7 > 3:  # not an entry's own board: its mirror is found instead
                    continue
                board[slot] = frm
                out[count] = encode(parent_kinds, n, board, full_pos, half_pos, full_size,
                                    half_size)  # fmt: skip
                board[slot] = to
                count += 1
    return count


@njit(cache=True, nogil=True, parallel=True)
def first_pass(
    kinds: np.ndarray, nm: int, n: int, size: int, ext_vals: np.ndarray, ext_off: np.ndarray,
    val: np.ndarray, aux: np.ndarray, cnt: np.ndarray, horizon: np.ndarray,
    geo_steps: np.ndarray, geo_jumps: np.ndarray, geo_paths: np.ndarray, water: np.ndarray,
    own_trap: np.ndarray, enemy_trap: np.ndarray, full_pos: np.ndarray, half_pos: np.ndarray,
    full_sq: np.ndarray, half_sq: np.ndarray, full_size: np.ndarray, half_size: np.ndarray,
    rank: np.ndarray, flags: np.ndarray,
) -> None:  # fmt: skip
    """Every entry's moves once (this table's slices of ``val``, ``aux``, ``cnt``): what
    :func:`doushouqi.jungle.ai.tablebase.kernels.build` finds without lists, folded into ``aux``.
    ``horizon`` gets [the longest winning capture of an unknown entry, the longest capture
    into a won table], as :func:`~doushouqi.jungle.ai.tablebase.kernels.solve_levels` computes."""
    chunks = (size + CHUNK - 1) // CHUNK
    wins = np.zeros(chunks, np.int64)
    losses = np.zeros(chunks, np.int64)
    for ch in prange(chunks):
        sq = np.empty(8, np.int64)
        out = np.empty((64, 3), np.int64)
        child_kinds = np.empty(8, np.int64)
        child_sq = np.empty(8, np.int64)
        for pos in range(ch * CHUNK, min(size, (ch + 1) * CHUNK)):
            if not decode(kinds, n, pos, sq, full_sq, half_sq, full_size, half_size):
                val[pos] = BROKEN_VALUE
                aux[pos] = 0
                cnt[pos] = 0
                continue
            count = _gen_moves(kinds, nm, n, sq, geo_steps, geo_jumps, geo_paths, water,
                               own_trap, enemy_trap, rank, flags, out)  # fmt: skip
            win = INF
            lossmax = 0
            draw = 0
            inside = 0
            for m in range(count):
                slot, to, captured = out[m, 0], out[m, 1], out[m, 2]
                if to == ENEMY_DEN or (captured >= 0 and n - nm == 1):
                    win = 1
                    continue
                if captured < 0:
                    inside += 1
                    continue
                c = 0
                for j in range(nm, n):
                    if j != captured:
                        child_kinds[c] = kinds[j]
                        child_sq[c] = 62 - sq[j]
                        c += 1
                for j in range(nm):
                    child_kinds[c] = kinds[j]
                    child_sq[c] = 62 - (to if j == slot else sq[j])
                    c += 1
                index = encode(child_kinds, c, child_sq, full_pos, half_pos, full_size,
                               half_size)  # fmt: skip
                v = ext_vals[ext_off[captured - nm] + index]
                if v < 0:
                    win = min(win, -v)
                elif v > 0:
                    lossmax = max(lossmax, v)
                else:
                    draw = 1
            val[pos] = -1 if count == 0 else 0
            cnt[pos] = inside
            losses[ch] = max(losses[ch], lossmax)
            if win < INF:
                aux[pos] = -win
                if count > 0:
                    wins[ch] = max(wins[ch], win)
            elif draw == 1:
                aux[pos] = -INF
            else:
                aux[pos] = lossmax
    horizon[0] = max(horizon[0], wins.max())
    horizon[1] = max(horizon[1], losses.max())


@njit(cache=True, nogil=True, parallel=True)
def spread_wins(
    level: int, val: np.ndarray, lo: int, size: int, kinds: np.ndarray, nm: int, n: int,
    parent_lo: int, parent_kinds: np.ndarray, geo_steps: np.ndarray, geo_jumps: np.ndarray,
    geo_paths: np.ndarray, full_pos: np.ndarray, half_pos: np.ndarray, full_sq: np.ndarray,
    half_sq: np.ndarray, full_size: np.ndarray, half_size: np.ndarray, flags: np.ndarray,
) -> None:  # fmt: skip
    """Odd ``level``: every unknown predecessor of an entry of the table at ``lo`` lost at
    the level before (``val == -level``) becomes a win in ``level``. Threads may write the
    same value to the same entry at once: harmless."""
    chunks = (size + CHUNK - 1) // CHUNK
    for ch in prange(chunks):
        sq = np.empty(8, np.int64)
        board = np.empty(8, np.int64)
        out = np.empty(MAX_PRED, np.int64)
        for c in range(ch * CHUNK, min(size, (ch + 1) * CHUNK)):
            if val[lo + c] != -level:
                continue
            k = predecessors(kinds, nm, n, c, parent_kinds, sq, board, out, geo_steps,
                             geo_jumps, geo_paths, full_pos, half_pos, full_sq, half_sq,
                             full_size, half_size, flags)  # fmt: skip
            for i in range(k):
                p = parent_lo + out[i]
                if val[p] == 0:
                    val[p] = level + 1


@njit(cache=True, nogil=True)
def spread_losses(
    level: int, val: np.ndarray, aux: np.ndarray, cnt: np.ndarray, lo: int, size: int,
    kinds: np.ndarray, nm: int, n: int, parent_lo: int, parent_kinds: np.ndarray,
    geo_steps: np.ndarray, geo_jumps: np.ndarray, geo_paths: np.ndarray,
    full_pos: np.ndarray, half_pos: np.ndarray, full_sq: np.ndarray, half_sq: np.ndarray,
    full_size: np.ndarray, half_size: np.ndarray, flags: np.ndarray,
) -> None:  # fmt: skip
    """Even ``level``: each entry won at the level before (``val == level``) lowers the
    counter of each predecessor that can still lose and raises its ``aux`` to ``level``.
    One thread: two winners may share a predecessor, and a counter is not a single write."""
    sq = np.empty(8, np.int64)
    board = np.empty(8, np.int64)
    out = np.empty(MAX_PRED, np.int64)
    for c in range(size):
        if val[lo + c] != level:
            continue
        k = predecessors(kinds, nm, n, c, parent_kinds, sq, board, out, geo_steps, geo_jumps,
                         geo_paths, full_pos, half_pos, full_sq, half_sq, full_size, half_size,
                         flags)  # fmt: skip
        for i in range(k):
            p = parent_lo + out[i]
            if val[p] == 0 and aux[p] >= 0:
                cnt[p] -= 1
                if aux[p] < level:
                    aux[p] = level


@njit(cache=True, nogil=True, parallel=True)
def settle(level: int, val: np.ndarray, aux: np.ndarray, cnt: np.ndarray) -> int:
    """Close ``level``: odd, the wins through ``aux``; even, the losses (counter 0, longest
    defence ``level``). Returns the entries decided at this level."""
    changed = 0
    odd = level % 2 == 1
    for p in prange(val.shape[0]):
        v = val[p]
        if v == 0:
            a = aux[p]
            if odd:
                if a == -level:
                    val[p] = level + 1
                    changed += 1
            elif a == level and cnt[p] == 0:
                val[p] = -(level + 1)
                changed += 1
        elif odd and v == level + 1:
            changed += 1
    return changed

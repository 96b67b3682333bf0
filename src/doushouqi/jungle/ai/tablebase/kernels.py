"""Compiled parts of the generator: the index, move generation and the level-by-level solve.

Values (``int16``, one per entry, for the side to move): ``0`` unknown / draw, ``d + 1`` a win
in ``d`` plies, ``-(d + 1)`` a loss in ``d`` plies, :data:`BROKEN_VALUE` for an entry whose
animals share a square. The geometry arrays come as arguments (:mod:`.geometry`).

The solve works on one *job*: the table of ``(A, B)`` (A to move against B) and that of
``(B, A)``, which are each other's successors after a move that captures nothing (one table
when A == B). A capture leads into a smaller, already solved table; entering the den, or
capturing the last animal, wins at once. :func:`build` records for every entry its successors
in the job (a list of entry numbers) and a summary of the others; :func:`solve_levels` then
fixes the values level by level: at level ``n`` an entry is a win in ``n`` when some successor
is a loss in ``n - 1``, and a loss in ``n`` when every successor is a win and the longest of
them is ``n - 1``. Entries still unknown when no level changes anything are draws.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

__all__ = ["BROKEN_VALUE", "INF", "build", "decode", "encode", "solve_levels"]

BROKEN_VALUE = -32768
INF = 32767
OWN_DEN = 3
ENEMY_DEN = 59
RAT = 1
TIGER = 6
LION = 7
ELEPHANT = 8


@njit(cache=True, nogil=True)
def encode(
    kinds: np.ndarray, n: int, sq: np.ndarray, full_pos: np.ndarray, half_pos: np.ndarray,
    full_size: np.ndarray, half_size: np.ndarray,
) -> int:  # fmt: skip
    """The entry of squares ``sq`` (mover's frame, slot order); mirrors when the first animal
    stands on files e-g."""
    mirror = sq[0] % 7 > 3
    index = 0
    for i in range(n):
        s = sq[i]
        if mirror:
            s = s - 2 * (s % 7) + 6
        rat = 1 if kinds[i] == RAT else 0
        if i == 0:
            index = index * half_size[rat] + half_pos[rat, s]
        else:
            index = index * full_size[rat] + full_pos[rat, s]
    return index


@njit(cache=True, nogil=True)
def decode(
    kinds: np.ndarray, n: int, index: int, sq: np.ndarray, full_sq: np.ndarray,
    half_sq: np.ndarray, full_size: np.ndarray, half_size: np.ndarray,
) -> bool:  # fmt: skip
    """Squares of entry ``index`` into ``sq``; False when two animals share a square."""
    for i in range(n - 1, -1, -1):
        rat = 1 if kinds[i] == RAT else 0
        radix = half_size[rat] if i == 0 else full_size[rat]
        digit = index % radix
        index //= radix
        sq[i] = half_sq[rat, digit] if i == 0 else full_sq[rat, digit]
    for i in range(n):
        for j in range(i + 1, n):
            if sq[i] == sq[j]:
                return False
    return True


@njit(cache=True, nogil=True)
def can_capture(
    attacker: int, frm: int, defender: int, to: int, water: np.ndarray, own_trap: np.ndarray,
    enemy_trap: np.ndarray, rank: np.ndarray, flags: np.ndarray,
) -> bool:  # fmt: skip
    """docs/rules.md 4.5 in the mover's frame (the attacker is the mover's)."""
    if flags[2] == 0 and enemy_trap[frm] == 1:
        return False
    if attacker == RAT:
        if defender == RAT:
            return bool(water[frm] == water[to] or flags[1] == 1)
        if water[frm] == 1:
            return False
        return defender == ELEPHANT or own_trap[to] == 1
    if own_trap[to] == 1:
        return True
    if attacker == ELEPHANT and defender == RAT:
        return False
    return bool(rank[attacker] >= rank[defender])


@njit(cache=True, nogil=True)
def gen_moves(
    kinds: np.ndarray, nm: int, n: int, sq: np.ndarray, geo_steps: np.ndarray,
    geo_jumps: np.ndarray, geo_paths: np.ndarray, water: np.ndarray, own_trap: np.ndarray,
    enemy_trap: np.ndarray, rank: np.ndarray, flags: np.ndarray, out: np.ndarray,
) -> int:  # fmt: skip
    """The mover's legal moves into ``out`` rows (slot, to, captured slot or -1); the count."""
    count = 0
    for slot in range(nm):
        frm = sq[slot]
        animal = kinds[slot]
        for k in range(8):
            if k < 4:
                to = geo_steps[frm, k]
                if to < 0:
                    continue
                if animal != RAT and water[to] == 1:
                    continue
            else:
                if animal != LION and animal != TIGER:
                    break
                to = geo_jumps[frm, k - 4]
                if to < 0:
                    continue
                path = geo_paths[frm, k - 4]
                blocked = False
                for j in range(n):
                    if kinds[j] == RAT and (j >= nm or flags[0] == 1) and (path >> sq[j]) & 1:
                        blocked = True
                if blocked:
                    continue
            if to == OWN_DEN:
                continue
            occupant = -1
            for j in range(n):
                if sq[j] == to:
                    occupant = j
            if 0 <= occupant < nm:
                continue
            if occupant >= nm and not can_capture(
                animal, frm, kinds[occupant], to, water, own_trap, enemy_trap, rank, flags
            ):
                continue
            out[count, 0] = slot
            out[count, 1] = to
            out[count, 2] = occupant
            count += 1
    return count


@njit(cache=True, nogil=True)
def _child(
    kinds: np.ndarray, nm: int, n: int, sq: np.ndarray, slot: int, to: int, captured: int,
    child_kinds: np.ndarray, child_sq: np.ndarray,
) -> int:  # fmt: skip
    """The position after the move, in the opponent's frame; returns its animal count."""
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
    return c


@njit(cache=True, nogil=True)
def build(
    kinds: np.ndarray, nm: int, n: int, size: int, partner_offset: int, ext_vals: np.ndarray,
    ext_off: np.ndarray, fill: bool, child_start: np.ndarray, children: np.ndarray,
    val: np.ndarray, ext_win: np.ndarray, ext_lossmax: np.ndarray, ext_draw: np.ndarray,
    degree: np.ndarray, geo_steps: np.ndarray, geo_jumps: np.ndarray, geo_paths: np.ndarray,
    water: np.ndarray, own_trap: np.ndarray, enemy_trap: np.ndarray, full_pos: np.ndarray,
    half_pos: np.ndarray, full_sq: np.ndarray, half_sq: np.ndarray, full_size: np.ndarray,
    half_size: np.ndarray, rank: np.ndarray, flags: np.ndarray,
) -> None:  # fmt: skip
    """First pass (``fill`` False): the values known from the moves alone and the number of
    successors in the job; second pass: the successor lists (CSR from ``child_start``).
    All output arrays are this table's slices."""
    sq = np.empty(8, np.int64)
    out = np.empty((64, 3), np.int64)
    child_kinds = np.empty(8, np.int64)
    child_sq = np.empty(8, np.int64)
    for pos in range(size):
        if not decode(kinds, n, pos, sq, full_sq, half_sq, full_size, half_size):
            if not fill:
                val[pos] = BROKEN_VALUE
                degree[pos] = 0
            continue
        count = gen_moves(kinds, nm, n, sq, geo_steps, geo_jumps, geo_paths, water, own_trap,
                          enemy_trap, rank, flags, out)  # fmt: skip
        win = INF
        lossmax = 0
        draw = 0
        inside = 0
        at = child_start[pos] if fill else 0
        for m in range(count):
            slot, to, captured = out[m, 0], out[m, 1], out[m, 2]
            if to == ENEMY_DEN or (captured >= 0 and n - nm == 1):
                win = 1
                continue
            c = _child(kinds, nm, n, sq, slot, to, captured, child_kinds, child_sq)
            index = encode(child_kinds, c, child_sq, full_pos, half_pos, full_size, half_size)
            if captured < 0:
                if fill:
                    children[at] = partner_offset + index
                    at += 1
                inside += 1
                continue
            v = ext_vals[ext_off[captured - nm] + index]
            if v < 0:
                win = min(win, -v)  # child loses in -v - 1 plies: a win in -v
            elif v > 0:
                lossmax = max(lossmax, v)  # child wins in v - 1: this loses in v
            else:
                draw = 1
        if not fill:
            degree[pos] = inside
            ext_win[pos] = win
            ext_lossmax[pos] = lossmax
            ext_draw[pos] = draw
            val[pos] = -1 if count == 0 else 0  # no legal move: lost now


@njit(cache=True, nogil=True, parallel=True)
def _level(
    n: int, val: np.ndarray, ext_win: np.ndarray, ext_lossmax: np.ndarray,
    ext_draw: np.ndarray, child_start: np.ndarray, children: np.ndarray,
) -> int:  # fmt: skip
    changed = 0
    for p in prange(val.shape[0]):
        if val[p] != 0:
            continue
        lo = child_start[p]
        hi = child_start[p + 1]
        if n % 2 == 1:
            won = ext_win[p] == n
            if not won:
                for c in range(lo, hi):
                    if val[children[c]] == -n:  # a successor lost in n - 1 plies
                        won = True
                        break
            if won:
                val[p] = n + 1
                changed += 1
        else:
            if ext_draw[p] == 1 or ext_win[p] != INF:
                continue
            longest = ext_lossmax[p]
            lost = True
            for c in range(lo, hi):
                v = val[children[c]]
                if v <= 0 or v > n:  # unknown, draw, loss, or a win not yet shorter
                    lost = False
                    break
                longest = max(longest, v)  # the successor wins in v - 1: this loses in v
            if lost and longest == n:
                val[p] = -(n + 1)
                changed += 1
    return changed


def solve_levels(
    val: np.ndarray, ext_win: np.ndarray, ext_lossmax: np.ndarray, ext_draw: np.ndarray,
    child_start: np.ndarray, children: np.ndarray,
    progress: Callable[[int, int], None] | None = None,
) -> int:  # fmt: skip
    """Fix every value level by level (see the module docstring); returns the last level."""
    finite = ext_win[(ext_win < INF) & (val == 0)]
    horizon = max(int(finite.max()) if finite.size else 0, int(ext_lossmax.max(initial=0)))
    n = 1
    while True:
        changed = _level(n, val, ext_win, ext_lossmax, ext_draw, child_start, children)
        if progress is not None:
            progress(n, int(changed))
        if changed == 0 and n >= horizon:
            return n
        n += 1

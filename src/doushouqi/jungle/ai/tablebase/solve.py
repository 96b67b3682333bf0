"""Solve one job (:mod:`.jobs`): fix the values of its tables, from the successor lists
(:mod:`.kernels`) or, for large jobs, by un-moves in a few bytes an entry (:mod:`.retro`)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from doushouqi.jungle.ai.tablebase import kernels, retro
from doushouqi.jungle.ai.tablebase.geometry import geometry, kinds_array, rule_arrays
from doushouqi.jungle.ai.tablebase.jobs import Job
from doushouqi.jungle.tablebase.file_format import signature_name, table_size

__all__ = [
    "LOW_MEMORY_ENTRIES",
    "SolvedTable",
    "job_entries",
    "solve_job",
    "solve_job_lists",
    "solve_job_low_memory",
]


@dataclasses.dataclass
class SolvedTable:
    signature: str
    values: np.ndarray  # int16, :mod:`.kernels` encoding
    levels: int
    seconds: float


#: Values of a solved table by signature (the job's dependencies).
Lookup = Callable[[str], np.ndarray]


#: Jobs with more entries than this are solved by :func:`solve_job_low_memory` unless told
#: otherwise: the list solve needs about 80 bytes an entry (a 4 + 4 job of 13 M entries
#: about 1 GB), the low-memory one 5.
LOW_MEMORY_ENTRIES = 20_000_000


def job_entries(job: Job) -> int:
    return sum(table_size(list(m) + list(o)) for m, o in job.tables())


def solve_job(
    job: Job,
    rules: Mapping[str, Any],
    lookup: Lookup,
    progress: Callable[[int, int], None] | None = None,
    low_memory: bool | None = None,
) -> list[SolvedTable]:
    """The tables of ``job`` under the rule options ``rules``
    (:func:`doushouqi.jungle.tablebase.file_format.rules_key`); ``lookup`` gives smaller tables.
    ``low_memory``: un-move retrograde (:func:`solve_job_low_memory`, the same values);
    None chooses it for jobs of more than :data:`LOW_MEMORY_ENTRIES` entries."""
    if low_memory is None:
        low_memory = job_entries(job) > LOW_MEMORY_ENTRIES
    if low_memory:
        return solve_job_low_memory(job, rules, lookup, progress)
    return solve_job_lists(job, rules, lookup, progress)


def _dependencies(
    tables: list[tuple[tuple[int, ...], tuple[int, ...]]], lookup: Lookup
) -> tuple[np.ndarray, list[np.ndarray]]:
    """One value array for all the smaller tables, and each table's offset per captured slot."""
    parts: list[np.ndarray] = []
    ext_offsets: list[np.ndarray] = []
    at = 0
    for mover, opponent in tables:
        slots = np.full(max(len(opponent), 1), -1, np.int64)
        if len(opponent) > 1:
            for i, captured in enumerate(opponent):
                rest = tuple(a for a in opponent if a != captured)
                part = lookup(signature_name(rest, mover))
                expected = table_size(list(rest) + list(mover))
                if part.shape[0] != expected:
                    raise ValueError(f"table {signature_name(rest, mover)} has the wrong size")
                parts.append(part)
                slots[i] = at
                at += part.shape[0]
        ext_offsets.append(slots)
    ext_vals = np.concatenate(parts) if parts else np.zeros(1, np.int16)
    return ext_vals, ext_offsets


def solve_job_lists(
    job: Job,
    rules: Mapping[str, Any],
    lookup: Lookup,
    progress: Callable[[int, int], None] | None = None,
) -> list[SolvedTable]:
    """:func:`solve_job` with every entry's successor list (:mod:`.kernels`)."""
    started = time.perf_counter()
    geo = geometry()
    ra = rule_arrays(rules)
    tables = job.tables()
    sizes = [table_size(list(m) + list(o)) for m, o in tables]
    offsets = [0, *np.cumsum(sizes).tolist()]
    total = offsets[-1]
    val = np.zeros(total, np.int16)
    ext_win = np.zeros(total, np.int16)
    ext_lossmax = np.zeros(total, np.int16)
    ext_draw = np.zeros(total, np.uint8)
    degree = np.zeros(total, np.int64)
    ext_vals, ext_offsets = _dependencies(tables, lookup)

    args = (geo.steps, geo.jumps, geo.paths, geo.water, geo.own_trap, geo.enemy_trap,
            geo.full_pos, geo.half_pos, geo.full_sq, geo.half_sq, geo.full_size,
            geo.half_size, ra.rank, ra.flags)  # fmt: skip
    child_start = np.zeros(total + 1, np.int64)
    dummy = np.zeros(1, np.int32)
    for t, (mover, opponent) in enumerate(tables):
        lo, hi = offsets[t], offsets[t + 1]
        partner = offsets[1 - t] if len(tables) == 2 else offsets[0]
        kinds = kinds_array(list(mover) + list(opponent))
        kernels.build(kinds, len(mover), len(kinds), sizes[t], partner, ext_vals,
                      ext_offsets[t], False, child_start[lo:hi], dummy, val[lo:hi],
                      ext_win[lo:hi], ext_lossmax[lo:hi], ext_draw[lo:hi], degree[lo:hi],
                      *args)  # fmt: skip
    child_start[1:] = np.cumsum(degree)
    children = np.zeros(int(child_start[-1]), np.int32)
    for t, (mover, opponent) in enumerate(tables):
        lo, hi = offsets[t], offsets[t + 1]
        partner = offsets[1 - t] if len(tables) == 2 else offsets[0]
        kinds = kinds_array(list(mover) + list(opponent))
        kernels.build(kinds, len(mover), len(kinds), sizes[t], partner, ext_vals,
                      ext_offsets[t], True, child_start[lo:hi], children, val[lo:hi],
                      ext_win[lo:hi], ext_lossmax[lo:hi], ext_draw[lo:hi], degree[lo:hi],
                      *args)  # fmt: skip
    levels = kernels.solve_levels(
        val, ext_win, ext_lossmax, ext_draw, child_start, children, progress
    )
    seconds = time.perf_counter() - started
    return [
        SolvedTable(signature_name(m, o), val[offsets[t] : offsets[t + 1]].copy(), levels, seconds)
        for t, (m, o) in enumerate(tables)
    ]


def solve_job_low_memory(
    job: Job,
    rules: Mapping[str, Any],
    lookup: Lookup,
    progress: Callable[[int, int], None] | None = None,
) -> list[SolvedTable]:
    """:func:`solve_job` by un-move retrograde analysis (:mod:`.retro`): 5 bytes an entry
    and the smaller tables; the values are those of :func:`solve_job_lists`."""
    started = time.perf_counter()
    geo = geometry()
    ra = rule_arrays(rules)
    tables = job.tables()
    sizes = [table_size(list(m) + list(o)) for m, o in tables]
    offsets = [0, *np.cumsum(sizes).tolist()]
    total = offsets[-1]
    val = np.zeros(total, np.int16)
    aux = np.zeros(total, np.int16)
    cnt = np.zeros(total, np.uint8)
    ext_vals, ext_offsets = _dependencies(tables, lookup)
    horizon = np.zeros(2, np.int64)
    kinds = [kinds_array(list(m) + list(o)) for m, o in tables]
    for t, (mover, _) in enumerate(tables):
        lo, hi = offsets[t], offsets[t + 1]
        retro.first_pass(kinds[t], len(mover), len(kinds[t]), sizes[t], ext_vals,
                         ext_offsets[t], val[lo:hi], aux[lo:hi], cnt[lo:hi], horizon,
                         geo.steps, geo.jumps, geo.paths, geo.water, geo.own_trap,
                         geo.enemy_trap, geo.full_pos, geo.half_pos, geo.full_sq, geo.half_sq,
                         geo.full_size, geo.half_size, ra.rank, ra.flags)  # fmt: skip
    del ext_vals
    index_args = (geo.steps, geo.jumps, geo.paths, geo.full_pos, geo.half_pos, geo.full_sq,
                  geo.half_sq, geo.full_size, geo.half_size, ra.flags)  # fmt: skip
    # Each table's entries and where their predecessors are (the other table, or itself).
    sides = [
        (offsets[t], sizes[t], kinds[t], len(mover), offsets[1 - t] if len(tables) == 2
         else offsets[0], kinds[1 - t] if len(tables) == 2 else kinds[0])
        for t, (mover, _) in enumerate(tables)
    ]  # fmt: skip
    limit = int(horizon.max())
    n = 1
    while True:
        for lo, size, k, nm, parent_lo, parent_kinds in sides:
            if n % 2 == 1:
                retro.spread_wins(n, val, lo, size, k, nm, len(k), parent_lo, parent_kinds,
                                  *index_args)  # fmt: skip
            else:
                retro.spread_losses(n, val, aux, cnt, lo, size, k, nm, len(k), parent_lo,
                                    parent_kinds, *index_args)  # fmt: skip
        changed = retro.settle(n, val, aux, cnt)
        if progress is not None:
            progress(n, int(changed))
        if changed == 0 and n >= limit:
            break
        n += 1
    del aux, cnt
    seconds = time.perf_counter() - started
    return [  # views: no copy of the values
        SolvedTable(signature_name(m, o), val[offsets[t] : offsets[t + 1]], n, seconds)
        for t, (m, o) in enumerate(tables)
    ]

"""Solve one job (:mod:`.jobs`): build the successor graph of its tables, fix the values."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from doushouqi.tablebase_format import signature_name, table_size

from . import kernels
from .geometry import geometry, kinds_array, rule_arrays
from .jobs import Job

__all__ = ["SolvedTable", "solve_job"]


@dataclasses.dataclass
class SolvedTable:
    signature: str
    values: np.ndarray  # int16, :mod:`.kernels` encoding
    levels: int
    seconds: float


#: Values of a solved table by signature (the job's dependencies).
Lookup = Callable[[str], np.ndarray]


def solve_job(
    job: Job,
    rules: Mapping[str, Any],
    lookup: Lookup,
    progress: Callable[[int, int], None] | None = None,
) -> list[SolvedTable]:
    """The tables of ``job`` under the rule options ``rules``
    (:func:`doushouqi.tablebase_format.rules_key`); ``lookup`` gives smaller tables."""
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

    # Dependencies: one value array for all, with an offset for each captured slot.
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

"""The low-memory solve (doushouqi.jungle.ai.tablebase.retro: un-move retrograde analysis) against
the successor-list solve: the same values entry for entry, the same files byte for byte, and
its predecessors exactly the inverse of the list solve's successor lists."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from doushouqi.jungle.ai.tablebase import kernels, retro
from doushouqi.jungle.ai.tablebase.generate import generate
from doushouqi.jungle.ai.tablebase.geometry import geometry, kinds_array, rule_arrays
from doushouqi.jungle.ai.tablebase.jobs import Job, parse_job
from doushouqi.jungle.ai.tablebase.solve import (
    _dependencies,
    solve_job_lists,
    solve_job_low_memory,
)
from doushouqi.jungle.ai.tablebase.store import values_of
from doushouqi.jungle.rules import find_rules
from doushouqi.jungle.squares import JUMPS
from doushouqi.jungle.tablebase.file_format import rules_key, table_size
from doushouqi.jungle.tablebase.probe import load_table

WANGO = rules_key(find_rules("wango"))


def _lookup(signature: str) -> np.ndarray:
    table = load_table("wango", signature)  # the shipped tables (up to three animals)
    assert table is not None
    return values_of(table)


# LRvT: a lion's lake jumps, blocked by the enemy rat and (own_rat_blocks_jump) its own; the
# rat in and out of the water; TvR, RvE: the rat against jumps and the elephant; RvR and EvE
# are one table each (A == B), ERvL has captures into smaller tables of two animals.
JOBS = ["LRvT", "TvR", "RvE", "RvR", "EvE", "ERvL", "LvR"]


@pytest.mark.parametrize("name", JOBS)
def test_low_memory_solve_gives_the_list_solve_values(name: str) -> None:
    job = parse_job(name)
    lists = solve_job_lists(job, WANGO, _lookup)
    low = solve_job_low_memory(job, WANGO, _lookup)
    for a, b in zip(lists, low, strict=True):
        assert a.signature == b.signature
        assert np.array_equal(a.values, b.values), a.signature
        assert a.levels == b.levels
    values = np.concatenate([t.values for t in low])
    assert (values > 0).any() and ((values < 0) & (values != kernels.BROKEN_VALUE)).any()


@pytest.mark.parametrize(
    "flip", ["own_rat_blocks_jump", "rat_captures_across_water", "trapped_can_capture"]
)
def test_the_same_values_under_each_move_rule_flag(flip: str) -> None:
    """Each flag the move generator reads, flipped: the un-moves follow it (the jump
    blocking) or need not (captures leave the job); both solves read the same smaller
    tables, so the values must still be equal entry for entry."""
    options = dict(WANGO)
    options[flip] = not options[flip]
    job = parse_job("LRvT")
    for a, b in zip(
        solve_job_lists(job, options, _lookup),
        solve_job_low_memory(job, options, _lookup),
        strict=True,
    ):
        assert np.array_equal(a.values, b.values), (flip, a.signature)


def _successor_lists(job: Job, options: dict) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The list solve's CSR successor lists of the whole job (entry numbers of the job)."""
    geo = geometry()
    ra = rule_arrays(options)
    tables = job.tables()
    sizes = [table_size(list(m) + list(o)) for m, o in tables]
    offsets = [0, *np.cumsum(sizes).tolist()]
    total = offsets[-1]
    ext_vals, ext_offsets = _dependencies(tables, _lookup)
    scratch = [np.zeros(total, t) for t in (np.int16, np.int16, np.int16, np.uint8)]
    degree = np.zeros(total, np.int64)
    child_start = np.zeros(total + 1, np.int64)
    children = np.zeros(1, np.int32)
    args = (geo.steps, geo.jumps, geo.paths, geo.water, geo.own_trap, geo.enemy_trap,
            geo.full_pos, geo.half_pos, geo.full_sq, geo.half_sq, geo.full_size,
            geo.half_size, ra.rank, ra.flags)  # fmt: skip
    for fill in (False, True):
        if fill:
            child_start[1:] = np.cumsum(degree)
            children = np.zeros(int(child_start[-1]), np.int32)
        for t, (mover, opponent) in enumerate(tables):
            lo, hi = offsets[t], offsets[t + 1]
            partner = offsets[1 - t] if len(tables) == 2 else offsets[0]
            kinds = kinds_array(list(mover) + list(opponent))
            kernels.build(kinds, len(mover), len(kinds), sizes[t], partner, ext_vals,
                          ext_offsets[t], fill, child_start[lo:hi], children,
                          *(a[lo:hi] for a in scratch), degree[lo:hi], *args)  # fmt: skip
    return child_start, children, offsets


@pytest.mark.parametrize(
    ("name", "own_rat_blocks"), [("LRvT", True), ("LRvT", False), ("TvR", True), ("RvR", True)]
)
def test_predecessors_are_the_inverse_of_the_successor_lists(
    name: str, own_rat_blocks: bool
) -> None:
    """Every (predecessor, move) pair exactly once: the un-moves of an entry are, as a
    multiset, the entries whose successor lists name it (a wrong rule of the rat's water,
    the jumps or their blocking, the dens, or the mirror, shows here entry by entry)."""
    options = dict(WANGO, own_rat_blocks_jump=own_rat_blocks)
    job = parse_job(name)
    child_start, children, offsets = _successor_lists(job, options)
    parents = np.repeat(np.arange(child_start.shape[0] - 1), np.diff(child_start))
    order = np.argsort(children, kind="stable")
    by_child = children[order]
    sorted_parents = parents[order]
    geo = geometry()
    flags = rule_arrays(options).flags
    tables = job.tables()
    kinds = [kinds_array(list(m) + list(o)) for m, o in tables]
    sq = np.empty(8, np.int64)
    board = np.empty(8, np.int64)
    out = np.empty(retro.MAX_PRED, np.int64)
    rng = random.Random(3)
    checked = 0
    for t in range(len(tables)):
        other = 1 - t if len(tables) == 2 else 0
        size = offsets[t + 1] - offsets[t]
        picks = range(size) if size < 4_000 else rng.sample(range(size), 4_000)
        for c in picks:
            k = retro.predecessors(kinds[t], len(tables[t][0]), len(kinds[t]), c, kinds[other],
                                   sq, board, out, geo.steps, geo.jumps, geo.paths,
                                   geo.full_pos, geo.half_pos, geo.full_sq, geo.half_sq,
                                   geo.full_size, geo.half_size, flags)  # fmt: skip
            found = Counter((offsets[other] + out[:k]).tolist())
            at = offsets[t] + c
            lo, hi = np.searchsorted(by_child, [at, at + 1])
            assert found == Counter(sorted_parents[lo:hi].tolist()), (tables[t], c)
            checked += k
    assert checked > 1000


def test_jumps_are_symmetric() -> None:
    """Un-moves take a jump back along the same water: landing and path both ways."""
    for square in range(63):
        for landing, path in JUMPS[square]:
            assert (square, path) in JUMPS[landing]


def test_generate_low_memory_writes_the_same_files(tmp_path: Path) -> None:
    lists, low = tmp_path / "lists", tmp_path / "low"
    generate("wango", 3, lists, only=["TvLR"], reuse=False, low_memory=False)
    levels: list[tuple[str, int, int]] = []
    generate(
        "wango", 3, low, only=["TvLR"], reuse=False, low_memory=True,
        on_level=lambda job, n, changed: levels.append((job, n, changed)),
    )  # fmt: skip
    names = sorted(p.name for p in (lists / "wango").iterdir())
    assert names == sorted(p.name for p in (low / "wango").iterdir())
    assert len(names) == 6  # LRvT, TvLR and the four tables of two animals
    for name in names:
        assert (lists / "wango" / name).read_bytes() == (low / "wango" / name).read_bytes()
    assert {job for job, _, _ in levels} >= {"LRvT"}
    assert sum(changed for job, _, changed in levels if job == "LRvT") > 100_000

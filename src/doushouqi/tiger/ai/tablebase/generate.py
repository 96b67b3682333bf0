"""Generate the Tiger's endgame tables: solve one material (:mod:`.kernels`) and write its file.

The solve needs three bytes an entry (the value as ``int16``, a move counter), in numpy
arrays: 0.6 GB for four men (208 M entries), 10 GB for five. A table whose file exists and
reads back with a good checksum for the same rules is kept (``resumed``), so a run that
stops can be started again.
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from doushouqi.tiger.ai.tablebase import kernels
from doushouqi.tiger.ai.tables import DIAGONAL_OPTIONS, JUMP_LAND, JUMP_OVER, RANK, STEP
from doushouqi.tiger.points import NUM_POINTS
from doushouqi.tiger.rules import RuleSet
from doushouqi.tiger.tablebase.file_format import (
    MAGIC,
    MIRROR,
    SUFFIX,
    TIGER_DOMAIN,
    TablebaseError,
    family_name,
    half_size,
    out_of_scope_reason,
    read_table,
    table_header,
    table_name,
)

__all__ = ["Solved", "TableReport", "generate_table", "solve", "table_path", "write_table"]

#: Bytes of working memory an entry: the value (int16) and the move counter (uint8).
BYTES_PER_ENTRY = 3


@dataclasses.dataclass
class Solved:
    """A solved table: the values of each side to move (:mod:`.kernels` encoding), the last
    level (the longest distance, plus one) and the seconds the solve took."""

    men: int
    tiger_to_move: np.ndarray
    men_to_move: np.ndarray
    levels: int
    seconds: float


@dataclasses.dataclass
class TableReport:
    """What :func:`generate_table` did: the file, its entries and bytes, the counts of each
    result for each side to move, the longest distance, and the seconds (0 when kept)."""

    path: Path
    positions: int
    bytes: int
    seconds: float
    resumed: bool
    header: dict[str, Any]


def _geometry(rules: RuleSet) -> dict[str, np.ndarray]:
    option = DIAGONAL_OPTIONS.index(rules.diagonals)
    half = np.array(TIGER_DOMAIN, np.int64)
    half_digit = np.full(NUM_POINTS, -1, np.int64)
    half_digit[half] = np.arange(len(half))
    binom = np.zeros((NUM_POINTS + 1, 9), np.int64)
    for n in range(NUM_POINTS + 1):
        for r in range(9):
            binom[n, r] = math.comb(n, r)
    return {
        "step": np.ascontiguousarray(STEP[option]),
        "jump_over": np.ascontiguousarray(JUMP_OVER[option]),
        "jump_land": np.ascontiguousarray(JUMP_LAND[option]),
        "rank": RANK,
        "half": half,
        "half_digit": half_digit,
        "mirror": np.array(MIRROR, np.int64),
        "binom": binom,
    }


def solve(rules: RuleSet, men: int, progress: Callable[[int, int], None] | None = None) -> Solved:
    """Solve the tiger against ``men`` men under ``rules`` (its ``tiger_wins_below`` must be
    ``men``: ValueError otherwise). ``progress(level, decided)`` after each level."""
    reason = out_of_scope_reason(rules, men)
    if reason is not None:
        raise ValueError(f"no table for {men} men under {rules.name!r}: {reason}")
    started = time.perf_counter()
    geo = _geometry(rules)
    size = half_size(men)
    vt = np.zeros(size, np.int16)
    vm = np.zeros(size, np.int16)
    ct = np.zeros(size, np.uint8)
    cm = np.zeros(size, np.uint8)
    kernels.first_pass(men, vt, vm, ct, cm, geo["step"], geo["jump_over"], geo["jump_land"],
                       geo["rank"], rules.men_retreat, geo["half"], geo["binom"])  # fmt: skip
    level = 1
    while True:
        changed = kernels.spread(men, level, vt, vm, ct, cm, geo["step"], geo["rank"],
                                 rules.men_retreat, geo["half"], geo["half_digit"],
                                 geo["mirror"], geo["binom"])  # fmt: skip
        if progress is not None:
            progress(level, int(changed))
        # Level 2 spreads the first pass's wins in 1, whatever level 1 found.
        if changed == 0 and level >= 2:
            break
        level += 1
    return Solved(men, vt, vm, level, time.perf_counter() - started)


def counts(values: np.ndarray) -> dict[str, int]:
    """Wins, draws and losses for the side to move among ``values``."""
    wins = int(np.count_nonzero(values > 0))
    losses = int(np.count_nonzero(values < 0))
    return {"wins": wins, "draws": int(values.size) - wins - losses, "losses": losses}


def encode_values(solved: Solved, rules: RuleSet, compression: str = "lzma") -> bytes:
    """The file's bytes for a solved table: each entry's value as one byte (the solve's
    ``|value|``: 0 a draw, ``d + 1`` decided in ``d`` plies, as the file keeps it)."""
    from doushouqi.core.tablebase_file import NO_POSITION, encode_file

    halves = (solved.tiger_to_move, solved.men_to_move)
    longest = max(int(np.abs(half).max(initial=0)) for half in halves) - 1
    if longest + 1 >= NO_POSITION:  # no Tiger table comes near
        raise ValueError(f"a distance of {longest} plies does not fit the file's byte")
    values = np.concatenate([np.abs(half).astype(np.uint8) for half in halves])
    header = {
        **table_header(rules, solved.men),
        "max_dtm": max(0, longest),
        "tiger_to_move": counts(solved.tiger_to_move),
        "men_to_move": counts(solved.men_to_move),
        "solve_seconds": round(solved.seconds, 1),
    }
    return encode_file(MAGIC, header, values.tobytes(), compression=compression)


def table_path(out: Path, rules: RuleSet, men: int) -> Path:
    """Where the table of ``men`` men for ``rules`` goes under ``out``."""
    return Path(out) / family_name(rules) / f"{table_name(men)}{SUFFIX}"


def write_table(path: Path, data: bytes) -> None:
    """Write atomically: a run stopped halfway leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + f".{os.getpid()}.part")
    part.write_bytes(data)
    part.replace(path)


def _kept(path: Path, rules: RuleSet, men: int) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        header = read_table(path).header
    except TablebaseError:
        return None
    wanted = table_header(rules, men)
    return header if all(header.get(k) == v for k, v in wanted.items()) else None


def generate_table(
    rules: RuleSet,
    men: int,
    out: Path,
    *,
    compression: str = "lzma",
    progress: Callable[[int, int], None] | None = None,
) -> TableReport:
    """Solve and write the table of ``men`` men for ``rules`` under ``out`` (the folder of
    its family), or keep the one there."""
    path = table_path(out, rules, men)
    kept = _kept(path, rules, men)
    if kept is not None:
        return TableReport(path, int(kept["positions"]), path.stat().st_size, 0.0, True, kept)
    solved = solve(rules, men, progress)
    data = encode_values(solved, rules, compression)
    write_table(path, data)
    header = read_table(path).header
    seconds = solved.seconds
    return TableReport(path, int(header["positions"]), len(data), seconds, False, header)

"""Tablebase generation (doushouqi.jungle.ai.tablebase) against independent checks on the rules
library, and the probe API (doushouqi.jungle.tablebase.probe) on tiny generated tables."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from doushouqi.jungle.ai.tablebase import kernels
from doushouqi.jungle.ai.tablebase.generate import generate
from doushouqi.jungle.ai.tablebase.geometry import geometry, kinds_array
from doushouqi.jungle.ai.tablebase.jobs import Job, all_jobs, dependencies
from doushouqi.jungle.ai.tablebase.store import encode_values, load_values, table_path, write_values
from doushouqi.jungle.ai.tablebase.verify import (
    check_positions,
    consistency,
    exhaustive_values,
    random_board,
)
from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import ELEPHANT, LION, RAT, TIGER
from doushouqi.jungle.tablebase.file_format import (
    index_of,
    mirror_square,
    parse_signature,
    squares_of,
    table_size,
)
from doushouqi.jungle.tablebase.probe import ENV_VAR, probe, probe_dtm, probe_moves, probe_wdl

#: Jobs generated for the tests (with what they need): all two-animal ones under wango, one
#: three-animal one (a rat that blocks lake jumps); trap captures under international.
WANGO_ONLY = ["LRvT"]
INTERNATIONAL_ONLY = ["CvL", "LvD"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tablebases")
    generate("wango", 2, out, reuse=False)
    generate("wango", 3, out, only=WANGO_ONLY, reuse=False)
    return out


@pytest.fixture(scope="module")
def international(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tables generated under international's move rules, apart."""
    out = tmp_path_factory.mktemp("international")
    generate("international", 2, out, only=INTERNATIONAL_ONLY, reuse=False)
    return out


@pytest.fixture(autouse=True)
def _search_path(tables: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(ENV_VAR, str(tables))
    yield


def _value(board: Board) -> tuple[int, int] | str | None:
    entry = probe(board)
    if entry is None:
        return "missing"
    return None if entry.wdl == 0 else (entry.wdl, entry.dtm or 0)


@pytest.mark.parametrize(("rules", "signature"), [("wango", "LvR"), ("international", "CvL")])
def test_tables_equal_an_exhaustive_plain_python_solve(rules: str, signature: str) -> None:
    expected = exhaustive_values(signature, rules)
    assert len(expected) > 4000
    wrong = [
        (fen, value, _value(Board(fen, rules=rules)))
        for fen, value in expected.items()
        if _value(Board(fen, rules=rules)) != value
    ]
    assert wrong == []


def test_random_positions_agree_with_search_consistency_and_symmetry(tables: Path) -> None:
    rng = random.Random(7)
    signatures = ["LRvT", "TvLR", "EvR", "RvE", "RvR", "LvT", "CvW", "EvE"]
    boards = [random_board(rng, rng.choice(signatures), "wango") for _ in range(250)]
    report = check_positions(boards, 4)
    assert report.disagreements == []
    assert report.positions == 250
    assert report.wins and report.losses and report.draws
    assert report.search_decided > 50


def test_trapped_captures_change_moves_but_no_value(tables: Path, international: Path) -> None:
    """Under international an animal in an enemy trap may capture (docs/rules.md 4.3); but
    it could enter the den next to it instead, so no value changes, only the move lists."""
    for signature in INTERNATIONAL_ONLY:
        for name in (signature, "v".join(signature.split("v")[::-1])):
            wango = load_values(table_path(tables, "wango", name))
            other = load_values(table_path(international, "wango", name))
            assert np.array_equal(wango, other)
    fen = "7/3L3/3d3/7/7/7/7/7/7 w"  # Red's lion in Blue's trap d8, Blue's dog on d7
    moves = {str(mv.move): mv.value for mv in probe_moves(Board(fen, rules="international")) or []}
    assert moves["d8d7"].dtm == 1 and moves["d8d9"].dtm == 1
    assert "d8d7" not in {str(mv.move) for mv in probe_moves(Board(fen, rules="wango")) or []}


def test_a_damaged_table_is_caught_by_the_checks(tables: Path, tmp_path: Path) -> None:
    """The checks can fail: flip one entry of a table (the file itself stays well formed)."""
    values = load_values(table_path(tables, "wango", "LvT")).copy()
    rng = random.Random(1)
    kinds = [LION, TIGER]
    while True:
        index = rng.randrange(values.shape[0])
        squares = squares_of(kinds, index)
        if values[index] > 1 and len(set(squares)) == 2 and squares[0] % 7 < 3:
            break
    values[index] = -values[index]
    write_values(table_path(tmp_path, "wango", "LvT"), encode_values(values, {"rules": {}}))
    board = Board(_fen({squares[0]: "L", squares[1]: "t"}, "w"), rules="wango")
    assert consistency(board) is None  # the good tables
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_VAR, f"{tmp_path}{os.pathsep}{tables}")
        problem = consistency(board)
    assert problem is not None and problem.startswith("table (-1")


def _fen(pieces: dict[int, str], turn: str) -> str:
    rows = []
    for row in range(8, -1, -1):
        text, empty = "", 0
        for col in range(7):
            letter = pieces.get(row * 7 + col)
            if letter is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + f" {turn}"


def test_mirrored_entries_are_equal(tables: Path) -> None:
    """Entries with the first animal on file d are stored with their mirror images."""
    kinds = [LION, RAT, TIGER]
    values = load_values(table_path(tables, "wango", "LRvT"))
    rng = random.Random(5)
    checked = 0
    for _ in range(4000):
        index = rng.randrange(values.shape[0])
        squares = squares_of(kinds, index)
        if squares[0] % 7 != 3 or len(set(squares)) != 3:
            continue
        twin = index_of(kinds, [mirror_square(s) for s in squares])
        assert twin is not None and values[twin] == values[index]
        checked += 1
    assert checked > 100


def test_compiled_index_equals_the_core_index() -> None:
    geo = geometry()
    rng = random.Random(2)
    for kinds in ([ELEPHANT, LION, RAT, TIGER], [RAT, ELEPHANT], [TIGER, RAT, LION]):
        array = kinds_array(kinds)
        sq = np.zeros(8, np.int64)
        for _ in range(300):
            index = rng.randrange(table_size(kinds))
            kernels.decode(
                array, len(kinds), index, sq, geo.full_sq, geo.half_sq, geo.full_size,
                geo.half_size,
            )  # fmt: skip
            squares = [int(s) for s in sq[: len(kinds)]]
            assert squares == squares_of(kinds, index)
            flipped = np.array([mirror_square(s) for s in squares] + [0] * 4, np.int64)
            got = kernels.encode(
                array, len(kinds), flipped, geo.full_pos, geo.half_pos, geo.full_size,
                geo.half_size,
            )  # fmt: skip
            assert got == index_of(kinds, [mirror_square(s) for s in squares])


def test_probe_api_on_known_positions(tables: Path) -> None:
    board = Board("7/3L3/7/7/7/7/7/7/r6 w", rules="wango")  # Red lion d8, Blue rat a1
    assert (probe_wdl(board), probe_dtm(board)) == (1, 1)
    board = Board("7/3L3/7/7/7/7/7/7/r6 b", rules="wango")
    assert (probe_wdl(board), probe_dtm(board)) == (-1, -2)
    entry = probe(board)
    assert entry is not None and entry.describe(board.turn) == "Red wins in 2"
    moves = probe_moves(board)
    assert moves is not None and all(mv.value.wdl == -1 for mv in moves)
    assert moves[0].value.dtm == 2  # every defence loses at once; the longest first


def test_out_of_scope_rules_and_positions_are_not_covered(tables: Path) -> None:
    for rules in ("classic", "classic-dog"):
        assert probe(Board("7/3L3/7/7/7/7/7/7/r6 w", rules=rules)) is None
    with pytest.raises(ValueError, match="history"):
        generate("classic", 2, tables)
    assert probe(Board("7/3L3/7/7/7/7/7/7/r4RE w", rules="wango")) is None  # no such table
    assert probe(Board("3L3/7/7/7/7/7/7/7/r6 b", rules="wango")) is None  # den entered


def test_the_no_capture_limit_bounds_what_international_tables_answer(tables: Path) -> None:
    board = Board("7/7/7/7/7/7/7/7/1C2l2 w 0 1", rules="international")
    entry = probe(board)
    assert entry is not None and entry.dtm is not None and entry.wdl != 0
    limit = 200 - entry.dtm
    assert probe(Board(f"7/7/7/7/7/7/7/7/1C2l2 w {limit - 1} 1", rules="international"))
    assert probe(Board(f"7/7/7/7/7/7/7/7/1C2l2 w {limit} 1", rules="international")) is None
    # Under wango (no limit) the clock does not matter.
    assert probe(Board(f"7/7/7/7/7/7/7/7/1C2l2 w {limit} 1", rules="wango")) is not None


def test_generation_resumes_and_redoes_damaged_tables(tables: Path) -> None:
    reports = generate("wango", 2, tables, reuse=False)
    assert all(r.resumed for r in reports)
    path = table_path(tables, "wango", "EvR")
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    reports = generate("wango", 2, tables, reuse=False)
    assert [r.name for r in reports if not r.resumed] == ["EvR"]
    assert load_values(path).shape[0] == table_size([ELEPHANT, RAT])


def test_generation_reuses_the_installed_tables(tmp_path: Path) -> None:
    """The shipped tables are found and not made again; a larger job reads them."""
    reports = generate("wango", 3, tmp_path, only=["LRvT"])
    assert reports and all(r.resumed for r in reports)
    assert not (tmp_path / "wango").exists()


def test_the_job_graph_only_points_to_smaller_jobs() -> None:
    jobs = all_jobs(4)
    assert len([j for j in jobs if j.animals == 2]) == 36
    assert len([j for j in jobs if j.animals == 3]) == 224
    assert len([j for j in jobs if j.animals == 4]) == 448 + 406
    job = Job.of(parse_signature("ELvR")[0], parse_signature("ELvR")[1])
    assert {d.name for d in dependencies(job)} == {"EvR", "LvR"}
    assert all(d.animals < j.animals for j in jobs for d in dependencies(j))

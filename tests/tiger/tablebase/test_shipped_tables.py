"""The tables that come with the package agree with the rules library, position by position
(random ones, every win of the men, and won or lost ones of every distance), and say what the
docs say of them."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pytest

from doushouqi.core.tablebase_file import (
    BLOCK_ENTRIES,
    CACHE_BLOCKS,
    DRAW,
    LOSS,
    WIN,
    TablebaseError,
)
from doushouqi.tiger.board import Board
from doushouqi.tiger.points import Diagonals
from doushouqi.tiger.rules import RuleSet
from doushouqi.tiger.tablebase.file_format import MAGIC, read_table, table_size
from doushouqi.tiger.tablebase.probe import Probe, probe, probe_moves, shipped_directory
from doushouqi.tiger.tablebase.verify import (
    CheckReport,
    check_positions,
    decided_boards,
    random_board,
)

FAMILIES = [d.value for d in Diagonals]


@pytest.mark.parametrize("family", FAMILIES)
def test_each_diagonals_option_has_its_four_men_table(family: str) -> None:
    path = shipped_directory() / family / "TvM4.tigertb"
    header = read_table(path).header
    assert header["positions"] == table_size(4) and header["diagonals"] == family
    assert path.stat().st_size < 2_000_000  # what the package can carry (3.1 MB for all three)


def test_what_the_docs_say_of_the_four_men() -> None:
    header = read_table(shipped_directory() / "none" / "TvM4.tigertb").header
    # The men win only where they close a trap at once; the tiger to move loses only when
    # already hemmed in; the tiger's longest win takes 15 plies.
    assert header["men_to_move"]["wins"] == 25
    assert header["tiger_to_move"]["losses"] == 4
    assert header["max_dtm"] == 15


def test_the_shipped_table_agrees_with_the_rules_library() -> None:
    rules = RuleSet()
    rng = random.Random(2024)
    boards = [random_board(rng, rules, 4) for _ in range(200)]
    boards += decided_boards(rng, rules, 4, 150, shortest=4)
    report = check_positions(boards, 3, CheckReport())
    assert report.disagreements == []
    assert report.positions == len(boards) >= 375  # 25 wins of the men among them
    assert report.wins and report.draws and report.losses and report.search_decided


def test_where_the_tables_do_not_answer() -> None:
    assert probe(Board()) is None  # twelve men
    assert probe(Board("3/1T1/9/9/9/9/9/9/9/9/MMMM5 t", rules="laohuqi-strict")) is None
    won = Board("3/3/9/9/9/9/9/9/M8/1M7/TMM6 m")
    won.push(won.parse_move("b2a2"))  # the tiger hemmed in: lost, as the table says
    assert probe(won) == Probe(-1, 0) and probe_moves(won) == []


def test_max_rounds_keeps_only_what_ends_in_time() -> None:
    text = "3/3/9/9/9/9/9/4M4/1M1M5/9/T1M6 t 0 {}"  # the tiger wins in 15 plies
    rules = RuleSet(name="short", max_rounds=20)
    assert probe(Board(text.format(1), rules)) == Probe(1, 15)
    assert probe(Board(text.format(15), rules)) is None  # the limit may end it first


def test_a_damaged_file_says_so(tmp_path: Path) -> None:
    data = (shipped_directory() / "none" / "TvM4.tigertb").read_bytes()
    damaged = tmp_path / "TvM4.tigertb"
    damaged.write_bytes(data[:-10])
    with pytest.raises(TablebaseError, match="damaged"):
        read_table(damaged)


def test_a_file_of_the_first_version_asks_to_be_generated_again(tmp_path: Path) -> None:
    # Version 1 was one compressed blob (WDL, then halved distances): its header is refused.
    old = tmp_path / "TvM4.tigertb"
    old.write_bytes(MAGIC + b'{"format":1,"positions":208108390,"dtm_bytes":1}\n' + bytes(9))
    with pytest.raises(TablebaseError, match="format version 1, this library reads version 2"):
        read_table(old)


def test_reading_and_probing_keeps_little_in_memory() -> None:
    # The values are 200 MB; the reader holds the compressed blocks and a few decompressed.
    tracemalloc.start()
    try:
        table = read_table(shipped_directory() / "all" / "TvM4.tigertb")
        rng = random.Random(7)
        results = {table.wdl_at(rng.randrange(table.size)) for _ in range(2_000)}
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert results == {WIN, DRAW, LOSS}
    assert held < (CACHE_BLOCKS * BLOCK_ENTRIES + 3_000_000), held  # 1.7 MB file, 4 MB cache
    assert table.cache_info().currsize == CACHE_BLOCKS

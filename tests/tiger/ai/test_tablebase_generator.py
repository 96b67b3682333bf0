"""The Tiger's table generator (numba) against the rules library: its index is the reader's,
and a table it solves agrees with the library's moves and a forward search, position by
position; a wrong value is caught by the same check."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from doushouqi.tiger.ai.tablebase import kernels
from doushouqi.tiger.ai.tablebase.generate import (
    _geometry,
    encode_values,
    generate_table,
    solve,
    table_path,
    write_table,
)
from doushouqi.tiger.points import NUM_POINTS, Diagonals
from doushouqi.tiger.rules import RuleSet
from doushouqi.tiger.tablebase.file_format import (
    MEN_TO_MOVE,
    TIGER_DOMAIN,
    TIGER_TO_MOVE,
    half_size,
    index_of,
)
from doushouqi.tiger.tablebase.probe import tablebase_directories
from doushouqi.tiger.tablebase.verify import (
    CheckReport,
    check_position,
    check_positions,
    decided_boards,
    random_board,
)

THREE = RuleSet(name="three", tiger_wins_below=3)


def test_compiled_index_is_the_readers() -> None:
    binom = _geometry(THREE)["binom"]
    rng = random.Random(3)
    men = np.empty(8, np.int64)
    for _ in range(300):
        # The kernels see the tiger on files a-e only (the reader mirrors the others first).
        tiger = rng.choice(TIGER_DOMAIN)
        points = [tiger, *rng.sample([p for p in range(NUM_POINTS) if p != tiger], 4)]
        rank = kernels.rank_of(np.array(points[1:], np.int64), 4, tiger, binom)
        assert rank == index_of(TIGER_TO_MOVE, tiger, points[1:]) % binom[86, 4]
        kernels.unrank(rank, 4, tiger, binom, men)
        assert list(men[:4]) == sorted(points[1:])


@pytest.fixture(scope="module")
def three_men(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiger against three men, solved into a folder of its own (a few seconds)."""
    out = tmp_path_factory.mktemp("tiger-tables")
    report = generate_table(THREE, 3, out)
    assert not report.resumed and report.positions == 2 * half_size(3)
    return out


def test_three_men_never_hem_the_tiger_in(three_men: Path) -> None:
    # TIGER_RULES.md 4: "on this board no three men can hem a tiger in anywhere".
    header = generate_table(THREE, 3, three_men).header  # kept: read back
    assert header["tiger_to_move"]["losses"] == 0
    assert header["men_to_move"]["wins"] == 0
    assert header["tiger_to_move"]["wins"] > 0 and header["max_dtm"] == 9


def test_three_men_table_agrees_with_the_rules_library(three_men: Path) -> None:
    rng = random.Random(11)
    where = tablebase_directories([three_men])
    boards = [random_board(rng, THREE, 3) for _ in range(150)]
    boards += decided_boards(rng, THREE, 3, 100, shortest=4, directories=where)
    report = check_positions(boards, 3, CheckReport(), where)
    assert report.disagreements == []
    assert report.positions == 250 and report.wins and report.losses and report.draws


def test_a_wrong_value_is_caught(three_men: Path, tmp_path: Path) -> None:
    solved = solve(THREE, 3)
    values = solved.men_to_move
    lost = int(np.flatnonzero(values == -5)[0])  # the men to move lose in 4 plies
    values[lost] = 0  # a draw, wrongly
    write_table(table_path(tmp_path, THREE, 3), encode_values(solved, THREE))
    from doushouqi.tiger.tablebase.file_format import position_of
    from doushouqi.tiger.tablebase.verify import board_at

    board = board_at(THREE, *position_of(3, half_size(3) + lost))
    assert board.turn == MEN_TO_MOVE
    report = CheckReport()
    check_position(board, 5, report, tablebase_directories([tmp_path]))
    assert len(report.disagreements) == 2  # its moves say otherwise, and so does the search
    # The same position in the right table passes.
    right = CheckReport()
    check_position(board, 5, right, tablebase_directories([three_men]))
    assert right.disagreements == []


def test_nest_diagonals_and_forward_men_agree_with_the_rules_library(tmp_path: Path) -> None:
    # The other un-moves: diagonal lines, and men who never step back (a man's un-move then
    # never comes from a higher rank).
    rules = RuleSet(name="three", diagonals=Diagonals.NEST, tiger_wins_below=3, men_retreat=False)
    header = generate_table(rules, 3, tmp_path).header
    assert header["family"] == "nest-forward" and header["max_dtm"] > 9
    where = tablebase_directories([tmp_path])
    rng = random.Random(5)
    boards = [random_board(rng, rules, 3) for _ in range(40)]
    boards += decided_boards(rng, rules, 3, 40, shortest=6, directories=where)
    assert check_positions(boards, 3, CheckReport(), where).disagreements == []


def test_other_material_is_refused() -> None:
    with pytest.raises(ValueError, match="tiger_wins_below 4"):
        solve(RuleSet(), 3)

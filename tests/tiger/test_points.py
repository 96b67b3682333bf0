"""The board of 老虎棋: its 87 points, the lines per ``diagonals`` option, the jump tables."""

from __future__ import annotations

import itertools

import pytest

from doushouqi.tiger.points import (
    BETWEEN,
    JUMPS,
    LINES,
    NEIGHBOURS,
    NEST,
    NUM_POINTS,
    POINTS,
    Diagonals,
    is_line,
    parse_point,
    point_at,
    point_file,
    point_name,
    point_rank,
)


def _names(points: object) -> set[str]:
    return {point_name(p) for p in points}  # type: ignore[attr-defined]


def test_87_points_named_like_squares() -> None:
    names = [point_name(p) for p in POINTS]
    assert NUM_POINTS == len(set(names)) == 87
    board = {f"{f}{r}" for f in "abcdefghi" for r in range(1, 10)}
    nest = {"d10", "e10", "f10", "d11", "e11", "f11"}
    assert set(names) == board | nest
    for point in POINTS:
        assert parse_point(point_name(point)) == point
        assert point_at(point_file(point), point_rank(point)) == point


@pytest.mark.parametrize("name", ["", "a0", "j1", "a10", "g11", "e12", "E10", "e1 ", "e01"])
def test_names_that_are_no_point(name: str) -> None:
    with pytest.raises(ValueError, match="no point"):
        parse_point(name)


def test_the_nest_is_nine_points() -> None:
    assert _names(p for p in POINTS if NEST >> p & 1) == {
        f"{f}{r}" for f in "def" for r in (9, 10, 11)
    }


def test_154_orthogonal_lines() -> None:
    lines = LINES[Diagonals.NONE]
    assert len(lines) == 154
    for a, b in lines:
        df, dr = abs(point_file(a) - point_file(b)), abs(point_rank(a) - point_rank(b))
        assert df + dr == 1
    # 8 x 9 twice on the 9 x 9 grid, 4 across and 6 up in the nest.
    nest_lines = [(a, b) for a, b in lines if max(point_rank(a), point_rank(b)) >= 10]
    assert len(nest_lines) == 10


def test_diagonal_counts_per_option() -> None:
    orthogonal = set(LINES[Diagonals.NONE])
    nest_diagonals = set(LINES[Diagonals.NEST]) - orthogonal
    all_diagonals = set(LINES[Diagonals.ALL]) - orthogonal
    assert len(nest_diagonals) == 8  # both diagonals of the nest's four squares
    assert len(all_diagonals) == 136  # both diagonals of 64 + 4 squares
    assert orthogonal < set(LINES[Diagonals.NEST]) < set(LINES[Diagonals.ALL])
    assert all(NEST >> a & 1 and NEST >> b & 1 for a, b in nest_diagonals)
    assert is_line(parse_point("e10"), parse_point("d11"), Diagonals.NEST)
    assert not is_line(parse_point("e10"), parse_point("d11"), Diagonals.NONE)


def test_the_nest_diagonals_make_a_米() -> None:
    centre = parse_point("e10")
    assert _names(NEIGHBOURS[Diagonals.NONE][centre]) == {"e9", "d10", "f10", "e11"}
    assert _names(NEIGHBOURS[Diagonals.NEST][centre]) == {
        "e9", "d10", "f10", "e11", "d9", "f9", "d11", "f11"
    }  # fmt: skip
    # d9 is a corner of one nest square only: one diagonal, to e10.
    assert _names(NEIGHBOURS[Diagonals.NEST][parse_point("d9")]) == {"d8", "c9", "e9", "d10", "e10"}


def test_no_diagonal_leaves_the_squares() -> None:
    # c9 and d10 are diagonal neighbours, but no square has both as corners.
    c9, d10 = parse_point("c9"), parse_point("d10")
    assert not is_line(c9, d10, Diagonals.ALL)
    assert not is_line(parse_point("f10"), parse_point("g9"), Diagonals.ALL)
    assert is_line(parse_point("c8"), parse_point("d9"), Diagonals.ALL)
    assert not is_line(parse_point("c8"), parse_point("d9"), Diagonals.NEST)


def test_corner_and_edge_neighbours() -> None:
    assert _names(NEIGHBOURS[Diagonals.NONE][parse_point("a1")]) == {"a2", "b1"}
    assert _names(NEIGHBOURS[Diagonals.ALL][parse_point("a1")]) == {"a2", "b1", "b2"}
    assert _names(NEIGHBOURS[Diagonals.ALL][parse_point("e5")]) == {
        "d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"
    }  # fmt: skip
    assert _names(NEIGHBOURS[Diagonals.NONE][parse_point("f11")]) == {"e11", "f10"}


@pytest.mark.parametrize("diagonals", list(Diagonals))
def test_neighbours_are_the_lines(diagonals: Diagonals) -> None:
    from_lines = {(a, b) for a, b in LINES[diagonals]} | {(b, a) for a, b in LINES[diagonals]}
    from_table = {(a, b) for a in POINTS for b in NEIGHBOURS[diagonals][a]}
    assert from_lines == from_table


@pytest.mark.parametrize("diagonals", list(Diagonals))
def test_jumps_run_straight_along_two_lines(diagonals: Diagonals) -> None:
    count = 0
    for point in POINTS:
        for over, land in JUMPS[diagonals][point]:
            count += 1
            assert is_line(point, over, diagonals) and is_line(over, land, diagonals)
            assert point_file(land) - point_file(over) == point_file(over) - point_file(point)
            assert point_rank(land) - point_rank(over) == point_rank(over) - point_rank(point)
            assert BETWEEN[point, land] == over
    # Every straight pair of lines is a jump.
    expected = sum(
        1
        for a, b, c in itertools.permutations(POINTS, 3)
        if is_line(a, b, diagonals)
        and is_line(b, c, diagonals)
        and point_file(c) - point_file(b) == point_file(b) - point_file(a)
        and point_rank(c) - point_rank(b) == point_rank(b) - point_rank(a)
    )
    assert count == expected


def test_jumps_along_the_nest_need_lines() -> None:
    c8, e10 = parse_point("c8"), parse_point("e10")
    jumps_none = {land for _, land in JUMPS[Diagonals.NEST][c8]}
    assert e10 not in jumps_none  # c8-d9 is no line under "nest"
    assert e10 in {land for _, land in JUMPS[Diagonals.ALL][c8]}
    d11 = parse_point("d11")
    assert (parse_point("e10"), parse_point("f9")) in JUMPS[Diagonals.NEST][d11]
    assert (parse_point("e10"), parse_point("f9")) not in JUMPS[Diagonals.NONE][d11]
    # e9 up over e10 to e11, and from e11 down to e9: through the nest, orthogonally.
    assert (e10, parse_point("e11")) in JUMPS[Diagonals.NONE][parse_point("e9")]

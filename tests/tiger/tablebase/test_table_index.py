"""The Tiger's table index: every position has one entry, mirror images share theirs, and
the entry gives the position back (doushouqi.tiger.tablebase.file_format)."""

from __future__ import annotations

import math
import random

import pytest

from doushouqi.tiger.points import NUM_POINTS, point_file
from doushouqi.tiger.tablebase.file_format import (
    MEN_TO_MOVE,
    MIRROR,
    TIGER_DOMAIN,
    TIGER_TO_MOVE,
    half_size,
    index_of,
    parse_table_name,
    position_of,
    table_name,
    table_size,
)


def test_one_man_table_is_numbered_without_gaps() -> None:
    # Every position with the tiger on files a-e, one man elsewhere, either side to move.
    seen = {
        index_of(side, tiger, [man])
        for side in (TIGER_TO_MOVE, MEN_TO_MOVE)
        for tiger in TIGER_DOMAIN
        for man in range(NUM_POINTS)
        if man != tiger
    }
    assert seen == set(range(table_size(1)))


@pytest.mark.parametrize("men", [3, 4, 5])
def test_an_entry_gives_its_position_back(men: int) -> None:
    rng = random.Random(men)
    for _ in range(500):
        points = rng.sample(range(NUM_POINTS), men + 1)
        side = rng.randrange(2)
        index = index_of(side, points[0], points[1:])
        assert 0 <= index < table_size(men)
        found_side, tiger, found = position_of(men, index)
        assert point_file(tiger) <= 4
        if point_file(points[0]) > 4:  # stored as its mirror image
            points = [MIRROR[p] for p in points]
        assert (found_side, tiger, found) == (side, points[0], sorted(points[1:]))


def test_mirror_images_share_an_entry_off_the_middle_file() -> None:
    rng = random.Random(7)
    for _ in range(200):
        points = rng.sample(range(NUM_POINTS), 5)
        mirrored = [MIRROR[p] for p in points]
        same = index_of(TIGER_TO_MOVE, points[0], points[1:]) == index_of(
            TIGER_TO_MOVE, mirrored[0], mirrored[1:]
        )
        # On file e the mirror image is another entry unless the men are symmetric too.
        assert same == (point_file(points[0]) != 4 or sorted(points) == sorted(mirrored))


def test_sizes_and_names() -> None:
    assert half_size(4) == 49 * math.comb(86, 4)
    assert table_size(5) == 2 * 49 * math.comb(86, 5) == 3_412_977_596
    assert parse_table_name(table_name(4)) == 4
    with pytest.raises(ValueError, match="TvM followed by the men's count"):
        parse_table_name("TvMx")


def test_pieces_sharing_a_point_have_no_entry() -> None:
    with pytest.raises(ValueError, match="two pieces on one point"):
        index_of(TIGER_TO_MOVE, 3, [3, 4, 5, 6])

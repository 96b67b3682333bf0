"""Rank titles (级别) by score band: server/ranks.py and GET /api/ranks."""

from __future__ import annotations

import itertools

import pytest
from tests.support.live import LiveServer

from doushouqi.core import scoring
from doushouqi.server.accounts.ranks import RANKS, progress, rank_for_score


def test_the_bands_cover_every_score_without_gaps_or_overlaps() -> None:
    assert RANKS[0].min_score == 0 and RANKS[-1].max_score is None
    for lower, upper in itertools.pairwise(RANKS):
        assert lower.max_score == upper.min_score - 1
    assert [r.number for r in RANKS] == list(range(1, len(RANKS) + 1))


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (-500, "新手"),
        (0, "新手"),
        (49, "新手"),
        (50, "入门"),
        (119, "入门"),
        (120, "初级"),
        (1049, "专家"),
        (1050, "大师"),
        (1999, "宗师"),
        (2000, "棋王"),
        (10**7, "棋王"),
    ],
)
def test_a_score_gets_the_title_of_its_band(score: int, title: str) -> None:
    assert rank_for_score(score).zh == title


def test_the_titles_are_the_ladders_levels() -> None:
    for score in range(-20, 2200, 7):
        level = scoring.level_for_score(score)
        assert (rank_for_score(score).number, rank_for_score(score).en) == (level.number, level.en)


def test_progress_to_the_next_title() -> None:
    assert progress(45)["to_next"] == 5 and progress(45)["next"]["zh"] == "入门"
    top = progress(2500)
    assert top["next"] is None and top["to_next"] is None


def test_the_ranks_endpoint(server: LiveServer) -> None:
    page = server.player().get("/api/ranks?score=130").json()
    assert [r["zh"] for r in page["ranks"]][:3] == ["新手", "入门", "初级"]
    assert page["you"]["rank"]["label"] == "3级 初级" and page["you"]["to_next"] == 90
    assert page["rating"]["start"] == 1500 and page["scoring"]["loss_points"] == 2
    assert server.player().get("/api/ranks?score=x").status_code == 422

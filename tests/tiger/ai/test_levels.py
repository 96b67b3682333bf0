"""The Tiger engine's levels: each a step down in effort and up in noise, every level plays
legal moves for either side, the weak ones vary and still take what wins."""

from __future__ import annotations

import itertools
import random

import pytest
from tests.tiger.helpers import place

from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.ai.levels import LEVELS, MAX_LEVEL, choose_root_move, settings_for
from doushouqi.tiger.analysis import WIN_SCORE, Limit, Score
from doushouqi.tiger.board import Board


def test_each_level_searches_more_and_guesses_less() -> None:
    levels = [LEVELS[level] for level in range(1, MAX_LEVEL + 1)]
    for lower, upper in itertools.pairwise(levels):
        assert upper.noise <= lower.noise
        assert upper.awareness >= lower.awareness
        assert upper.time_share >= lower.time_share
        if lower.max_depth is not None and upper.max_depth is not None:
            assert upper.max_depth >= lower.max_depth
    budgets = [s.max_nodes for s in levels[5:9]]
    assert all(b is not None for b in budgets) and budgets == sorted(budgets)
    assert levels[-1].max_nodes is None and levels[-1].noise == 0
    assert levels[-1].awareness == 1.0
    assert settings_for(0) == LEVELS[1] and settings_for(99) == LEVELS[10]


def test_choosing_among_near_best_moves() -> None:
    settings = settings_for(2)
    rng = random.Random(3)
    picks = {choose_root_move([100, 95, -400], settings, rng) for _ in range(200)}
    assert picks == {0, 1}  # never the move far below
    win = [WIN_SCORE - 3, WIN_SCORE - 5, 100]
    assert {choose_root_move(win, settings, rng) for _ in range(50)} == {0}  # the fastest win
    assert choose_root_move([5, 9], settings_for(10)) == 1
    with pytest.raises(ValueError, match="no moves"):
        choose_root_move([], settings)


@pytest.mark.parametrize("level", range(1, MAX_LEVEL + 1))
def test_every_level_plays_legal_moves_for_both_sides(level: int) -> None:
    searcher = Searcher("laohuqi", hash_mb=8, seed=level)
    position = Board()
    for _ in range(8):
        result = searcher.search(position, Limit(nodes=20_000), level=level)
        assert result.move is not None and result.move in position.legal_moves
        position.push(result.move)


def test_the_weak_levels_vary_and_the_strongest_does_not() -> None:
    def first_moves(level: int) -> set[str]:
        moves = set()
        for seed in range(8):
            searcher = Searcher("laohuqi", hash_mb=8, seed=seed)
            position = Board()
            position.push_move("e10e9")
            result = searcher.search(position, Limit(depth=3), level=level)
            moves.add(str(result.move))
        return moves

    assert len(first_moves(1)) > 1
    assert len(first_moves(10)) == 1


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_beginner_still_takes_the_winning_man(level: int) -> None:
    searcher = Searcher("laohuqi", hash_mb=8, seed=5)
    position = Board(place("e5", "e6 a1 b1 i1"))
    for _ in range(5):
        result = searcher.search(position, Limit(movetime=1.0), level=level)
        assert str(result.move) == "e5e7"
        assert result.info["score"] == Score(mate=1)

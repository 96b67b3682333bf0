"""Time management: deadlines from limits, and a real search that keeps to its move time."""

from __future__ import annotations

import time

import pytest

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.timeman import MAX_CLOCK_SHARE, MOVE_OVERHEAD, TimePlan, plan_time
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board


def test_movetime_keeps_a_margin_for_answering() -> None:
    plan = plan_time(Limit(movetime=1.0), turn=0)
    assert plan.hard == plan.soft == pytest.approx(1.0 - MOVE_OVERHEAD)
    tiny = plan_time(Limit(movetime=0.01), turn=0)
    assert tiny.hard is not None and 0 < tiny.hard < 0.01


def test_clock_is_spread_over_the_moves_to_go() -> None:
    plan = plan_time(Limit(red_clock=60.0, blue_clock=1.0), turn=0)
    assert plan.soft is not None and plan.hard is not None
    assert 1.0 < plan.soft <= plan.hard <= 60.0 * MAX_CLOCK_SHARE
    blue = plan_time(Limit(red_clock=60.0, blue_clock=1.0), turn=1)
    assert blue.hard is not None and blue.hard < 0.35
    with_increment = plan_time(Limit(red_clock=60.0, red_inc=2.0), turn=0)
    assert with_increment.soft is not None and with_increment.soft > plan.soft + 1.0
    fewer_moves = plan_time(Limit(red_clock=60.0), turn=0, moves_to_go=5)
    assert fewer_moves.soft is not None and fewer_moves.soft > plan.soft


def test_an_almost_empty_clock_still_leaves_time() -> None:
    plan = plan_time(Limit(red_clock=0.05), turn=0)
    assert plan.hard is not None and 0 < plan.hard < 0.05
    flagged = plan_time(Limit(red_clock=0.0), turn=0)
    assert flagged.hard is not None and flagged.hard > 0


def test_per_move_limit_caps_everything() -> None:
    plan = plan_time(Limit(movetime=10.0, per_move=2.0), turn=0)
    assert plan.hard is not None and plan.hard <= 1.9
    alone = plan_time(Limit(per_move=30.0), turn=1)
    assert alone.hard == alone.soft == pytest.approx(28.5)


def test_untimed_limits() -> None:
    assert plan_time(Limit(infinite=True), turn=0) == TimePlan()
    assert plan_time(Limit(), turn=0) == TimePlan()
    plan = plan_time(Limit(depth=7, nodes=1000), turn=0)
    assert (plan.hard, plan.depth, plan.nodes) == (None, 7, 1000)
    assert not plan.timed


def test_scaled_plans_are_shorter() -> None:
    plan = plan_time(Limit(movetime=1.0), turn=0)
    half = plan.scaled(0.5)
    assert half.hard == pytest.approx(plan.hard * 0.5)  # type: ignore[operator]
    assert plan.scaled(1.0) is plan


@pytest.fixture(scope="module")
def engine() -> Searcher:
    engine = Searcher(hash_mb=8)
    engine.warm_up()
    return engine


@pytest.mark.parametrize("movetime", [0.05, 0.3])
def test_search_keeps_to_its_movetime(engine: Searcher, movetime: float) -> None:
    board = Board()
    board.replay(["g3g4", "a7a6"])
    times = []
    for _ in range(5):
        started = time.perf_counter()
        result = engine.search(board, Limit(movetime=movetime))
        times.append(time.perf_counter() - started)
        assert result.move in board.legal_moves
    # Within 50 ms as a rule; an overloaded test machine may delay a thread now and then.
    assert sorted(times)[2] <= movetime + 0.05, times
    assert max(times) <= movetime + 0.25, times


def test_search_uses_a_fair_share_of_its_clock(engine: Searcher) -> None:
    started = time.perf_counter()
    engine.search(Board(), Limit(red_clock=3.0, blue_clock=3.0))
    elapsed = time.perf_counter() - started
    assert 0.01 < elapsed < 3.0 * MAX_CLOCK_SHARE

"""Time management: deadlines from limits, and a real search that keeps to its move time."""

from __future__ import annotations

import time

import pytest

from doushouqi.core.time_plan import (
    MAX_OVERHEAD,
    MIN_OVERHEAD,
    OVERHEAD_SAFETY,
    OVERHEAD_WINDOW,
)
from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.timeman import (
    MAX_CLOCK_SHARE,
    MOVE_OVERHEAD,
    Overhead,
    StopTimer,
    TimePlan,
    plan_time,
)
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
        # The search runs in this thread: its processor time is the work it did, which a busy
        # machine does not inflate (the wall clock's median read 0.108 s for 0.05 s at load 11,
        # the search waiting its turn for a processor).
        started = time.thread_time()
        result = engine.search(board, Limit(movetime=movetime))
        times.append(time.thread_time() - started)
        assert result.move in board.legal_moves
    # Within 50 ms as a rule; a search's last nodes may run on past a late timer thread.
    assert sorted(times)[2] <= movetime + 0.05, times
    assert max(times) <= movetime + 0.25, times


def test_search_uses_a_fair_share_of_its_clock(engine: Searcher) -> None:
    started = time.perf_counter()
    engine.search(Board(), Limit(red_clock=3.0, blue_clock=3.0))
    elapsed = time.perf_counter() - started
    assert 0.01 < elapsed < 3.0 * MAX_CLOCK_SHARE


def test_an_overhead_is_learnt_from_the_searches_own_lateness() -> None:
    overhead = Overhead()
    assert overhead.seconds == MOVE_OVERHEAD  # nothing measured yet
    overhead.record(0.001)
    assert overhead.seconds == pytest.approx(MIN_OVERHEAD)
    overhead.record(0.040)
    assert overhead.seconds == pytest.approx(0.040 + OVERHEAD_SAFETY)
    for _ in range(OVERHEAD_WINDOW):
        overhead.record(0.002)  # a late search is forgotten once enough punctual ones follow
    assert overhead.seconds == pytest.approx(0.002 + OVERHEAD_SAFETY)
    overhead.record(10.0)
    assert overhead.seconds == MAX_OVERHEAD
    overhead.fixed = 0.0
    assert overhead.seconds == 0.0


def test_a_movetime_keeps_back_the_overhead_it_is_given() -> None:
    plan = plan_time(Limit(movetime=0.5), turn=0, overhead=0.004)
    assert plan.hard == pytest.approx(0.496)
    capped = plan_time(Limit(movetime=0.1), turn=0, overhead=0.2)
    assert capped.hard == pytest.approx(0.08)  # never more than a fifth of the time


def test_a_search_stopped_by_its_deadline_records_how_late_it_ended() -> None:
    engine = Searcher(hash_mb=8)
    engine.tuning["easy_stop"] = 0  # stopped by its deadline, not once its move stood
    board = Board()
    board.replay(["g3g4", "a7a6"])
    engine.search(board, Limit(depth=3))
    assert engine.overhead.seconds == MOVE_OVERHEAD  # ended by itself: nothing learnt
    engine.search(board, Limit(movetime=0.2))
    assert engine.overhead.seconds != MOVE_OVERHEAD
    assert MIN_OVERHEAD <= engine.overhead.seconds <= MAX_OVERHEAD


def test_the_deadline_counts_from_when_the_moves_time_began(engine: Searcher) -> None:
    board = Board()
    board.replay(["g3g4", "a7a6"])
    started = time.perf_counter()
    # The move's time began a minute ago (a `go` read long before): it is over already.
    result = engine.search(board, Limit(movetime=5.0), since=started - 60.0)
    assert time.perf_counter() - started < 2.5
    assert result.move in board.legal_moves


def test_a_search_that_ends_past_its_deadline_before_the_timer_fires_is_learnt_from() -> None:
    # A loaded machine wakes the timer thread late: the search may stop by its own check first
    # (its depth ended past the deadline); that lateness counts all the same.
    overhead = Overhead()
    with StopTimer(0.02, time.perf_counter(), lambda: None, overhead) as timer:
        timer._timer.cancel()  # type: ignore[union-attr]  # the timer never fires
        time.sleep(0.05)
    assert not timer.fired
    assert overhead.seconds >= 0.03 + OVERHEAD_SAFETY - 1e-9
    punctual = Overhead()
    with StopTimer(5.0, time.perf_counter(), lambda: None, punctual):
        pass  # ended by itself, long before its deadline
    assert punctual.seconds == MOVE_OVERHEAD

"""Tests for doushouqi.core.clock: time controls, flag fall, increment, timeouts and pauses."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi.core.clock import (
    BLUE,
    MAX_TIMEOUTS,
    RED,
    ClockError,
    ClockEvent,
    ClockEventKind,
    GameClock,
    TimeControl,
    TimeControlError,
    TimeControlSyntaxError,
)


def started(spec: str, at: float = 0.0, to_move: int = RED) -> GameClock:
    return GameClock.new(TimeControl.parse(spec), to_move).start(at)


# --- TimeControl -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10+5", TimeControl(600.0, 5.0)),
        ("10", TimeControl(600.0)),
        ("10+5/30s", TimeControl(600.0, 5.0, 30.0)),
        ("10+5/30", TimeControl(600.0, 5.0, 30.0)),
        ("/30s", TimeControl(0.0, 0.0, 30.0)),
        ("0.5+0", TimeControl(30.0)),
        ("90s+2s", TimeControl(90.0, 2.0)),
        ("  3+2  ", TimeControl(180.0, 2.0)),
        ("1.5+0.5/7.5s", TimeControl(90.0, 0.5, 7.5)),
    ],
)
def test_parse(text: str, expected: TimeControl) -> None:
    assert TimeControl.parse(text) == expected


@pytest.mark.parametrize(
    ("control", "text"),
    [
        (TimeControl(600.0, 5.0), "10+5"),
        (TimeControl(600.0), "10+0"),
        (TimeControl(600.0, 5.0, 30.0), "10+5/30s"),
        (TimeControl(0.0, per_move=30.0), "/30s"),
        (TimeControl(30.0), "0.5+0"),
        (TimeControl(100.0, 1.5), "100s+1.5"),
    ],
)
def test_format(control: TimeControl, text: str) -> None:
    assert str(control) == text
    assert TimeControl.parse(text) == control


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  ",
        "abc",
        "10+",
        "+5",
        "10+5/",
        "/",
        "10-5",
        "-10+5",
        "10+5/30m",
        "10 + 5",
        "10+5/30s/2",
        "/0s",
        "0+0",
        "0+5/30s",
        "1e999+0",
        "١٠+5",
        "10++5",
        "10+5s30",
    ],
)
def test_parse_rejects_bad_strings(text: str) -> None:
    with pytest.raises(TimeControlSyntaxError):
        TimeControl.parse(text)


@pytest.mark.parametrize(
    ("base", "increment", "per_move"),
    [
        (-1.0, 0.0, None),
        (60.0, -1.0, None),
        (60.0, 0.0, 0.0),
        (60.0, 0.0, -5.0),
        (0.0, 0.0, None),
        (0.0, 2.0, 30.0),
        (math.inf, 0.0, None),
        (60.0, math.nan, None),
    ],
)
def test_invalid_values(base: float, increment: float, per_move: float | None) -> None:
    with pytest.raises(TimeControlError) as info:
        TimeControl(base, increment, per_move)
    assert isinstance(info.value, ValueError)


def test_ints_are_stored_as_floats() -> None:
    control = TimeControl(600, 5)  # ints are valid floats for the type checker too
    assert control == TimeControl(600.0, 5.0)
    assert str(control) == "10+5"


_seconds = st.floats(min_value=0, max_value=1e7, allow_nan=False, allow_infinity=False)


@given(base=_seconds, increment=_seconds, per_move=st.none() | _seconds.filter(lambda x: x > 0))
def test_string_round_trip(base: float, increment: float, per_move: float | None) -> None:
    try:
        control = TimeControl(base, increment, per_move)
    except TimeControlError:
        return  # invalid combinations are covered above
    assert TimeControl.parse(str(control)) == control


# --- main time and increment -----------------------------------------------------------------


def test_new_clock_is_not_running() -> None:
    clock = GameClock.new(TimeControl.parse("5+0"))
    assert not clock.started and not clock.running
    assert clock.remaining(RED, 100.0) == 300.0  # nothing is charged before start
    assert clock.check(1000.0) is None
    assert clock.next_deadline(0.0) is None
    with pytest.raises(ClockError):
        clock.press(1.0)


def test_press_charges_the_mover_and_adds_increment() -> None:
    clock = started("1+3", at=100.0)
    assert clock.remaining(RED, 110.0) == 50.0
    assert clock.remaining(BLUE, 110.0) == 60.0  # the waiting side is not charged
    clock = clock.press(110.0)
    assert clock.to_move == BLUE
    assert clock.remaining(RED, 110.0) == 53.0
    assert clock.remaining(RED, 500.0) == 53.0  # Red's clock stands still on Blue's turn
    clock = clock.press(125.0)
    assert clock.remaining(BLUE, 125.0) == 48.0
    assert clock.to_move == RED


def test_blue_may_move_first() -> None:
    clock = started("1+0", to_move=BLUE)
    assert clock.remaining(BLUE, 10.0) == 50.0
    assert clock.remaining(RED, 10.0) == 60.0


def test_flag_fall() -> None:
    clock = started("1+0").press(20.0)  # Blue's turn from 20 s with 60 s left
    assert clock.next_deadline(20.0) == 80.0
    assert clock.check(79.999) is None
    event = clock.check(80.0)
    assert event == ClockEvent(ClockEventKind.FLAG, BLUE, 80.0, 0)
    assert event.loser == BLUE
    assert clock.check(1000.0) == event  # a late check reports the same event
    assert clock.remaining(BLUE, 1000.0) == 0.0
    with pytest.raises(ClockError):
        clock.press(85.0)  # a move after the flag fell is refused
    with pytest.raises(ClockError):
        clock.apply_timeout(85.0)  # a flag is not a per-move timeout


def test_per_move_only_never_flags() -> None:
    clock = started("/30s")
    assert math.isinf(clock.remaining(RED, 10_000.0))
    assert clock.next_deadline(0.0) == 30.0
    event = clock.check(30.0)
    assert event is not None and event.kind is ClockEventKind.TIMEOUT_PASS


# --- per-move timer and timeouts -------------------------------------------------------------


def test_per_move_timer_restarts_each_turn() -> None:
    clock = started("10+0/30s")
    assert clock.time_left_in_move(25.0) == 5.0
    clock = clock.press(25.0)
    assert clock.time_left_in_move(25.0) == 30.0
    assert clock.time_left_in_move(50.0) == 5.0
    clock = clock.press(54.0)  # Blue used 29 s: within the limit
    assert clock.check(54.0) is None
    assert clock.time_left_in_move(54.0) == 30.0
    assert clock.next_deadline(54.0) == 84.0
    assert started("10+0").time_left_in_move(5.0) is None


def test_timeout_passes_turn_without_increment_and_consumes_main_time() -> None:
    clock = started("1+5/10s")
    event = clock.check(12.0)
    assert event == ClockEvent(ClockEventKind.TIMEOUT_PASS, RED, 10.0, 1)
    assert event.loser is None
    clock = clock.apply_timeout(12.0)
    assert clock.to_move == BLUE
    assert clock.timeouts == (1, 0)
    assert clock.remaining(RED, 12.0) == 50.0  # 10 s charged, no 5 s increment
    assert clock.turn_started == 10.0  # Blue's turn began at the deadline, not when noticed
    assert clock.time_left_in_move(12.0) == 8.0


def test_three_timeouts_pass_and_the_fourth_loses() -> None:
    clock = started("/10s")
    now = 0.0
    for n in range(1, MAX_TIMEOUTS + 1):
        now += 10.0
        event = clock.check(now)
        assert event == ClockEvent(ClockEventKind.TIMEOUT_PASS, RED, now, n)
        clock = clock.apply_timeout(now)
        assert clock.timeouts == (n, 0)
        clock = clock.press(now + 1.0)  # Blue moves in time
        now += 1.0
    assert MAX_TIMEOUTS == 3
    event = clock.check(now + 10.0)
    assert event == ClockEvent(ClockEventKind.TIMEOUT_LOSS, RED, now + 10.0, 4)
    assert event.loser == RED
    clock = clock.apply_timeout(now + 10.0)
    assert clock.timeouts == (4, 0)
    assert not clock.running  # the game is over: the clock stops
    assert clock.next_deadline(now + 20.0) is None


def test_timeouts_are_counted_per_side() -> None:
    clock = started("/10s")
    for k in range(1, 7):  # nobody moves: the sides time out alternately
        event = clock.check(10.0 * k)
        assert event is not None and event.kind is ClockEventKind.TIMEOUT_PASS
        assert event.color == (k - 1) % 2
        clock = clock.apply_timeout(10.0 * k)
    assert clock.timeouts == (3, 3)
    event = clock.check(70.0)
    assert event is not None and event.kind is ClockEventKind.TIMEOUT_LOSS and event.loser == RED


def test_late_check_catches_up_event_by_event() -> None:
    clock = started("10+0/10s")
    clock = clock.apply_timeout(35.0)  # Red passed at 10; Blue's deadline is 20
    event = clock.check(35.0)
    assert event == ClockEvent(ClockEventKind.TIMEOUT_PASS, BLUE, 20.0, 1)
    clock = clock.apply_timeout(35.0)
    assert clock.check(35.0) == ClockEvent(ClockEventKind.TIMEOUT_PASS, RED, 30.0, 2)


def test_flag_beats_timeout_when_main_time_runs_out_first() -> None:
    clock = started("10s+0/30s")
    assert clock.next_deadline(0.0) == 10.0
    event = clock.check(40.0)
    assert event is not None and event.kind is ClockEventKind.FLAG and event.at == 10.0


def test_timeout_can_leave_too_little_main_time() -> None:
    clock = started("25s+0/10s")
    clock = clock.apply_timeout(10.0).press(11.0)  # Red has 15 s left, Blue moved
    clock = clock.apply_timeout(21.0).press(22.0)  # Red has 5 s left
    assert clock.remaining(RED, 22.0) == 5.0
    event = clock.check(27.0)
    assert event == ClockEvent(ClockEventKind.FLAG, RED, 27.0, 2)


def test_apply_timeout_requires_one() -> None:
    with pytest.raises(ClockError):
        started("1+0/10s").apply_timeout(5.0)
    with pytest.raises(ClockError):
        started("1+0").apply_timeout(5.0)


# --- pause / resume --------------------------------------------------------------------------


def test_pause_and_resume_over_downtime() -> None:
    clock = started("1+0/30s").press(10.0)  # Blue's turn from 10 s
    clock = clock.pause(20.0)  # the server goes down 10 s into Blue's move
    assert not clock.running
    assert clock.next_deadline(500.0) is None
    assert clock.check(3600.0) is None  # time stands still while paused
    assert clock.remaining(BLUE, 3600.0) == 50.0
    assert clock.time_left_in_move(3600.0) == 20.0
    with pytest.raises(ClockError):
        clock.press(3600.0)
    clock = clock.resume(3600.0)  # back after an hour
    assert clock.running
    assert clock.remaining(BLUE, 3600.0) == 50.0
    assert clock.time_left_in_move(3605.0) == 15.0  # the per-move timer continues
    assert clock.next_deadline(3600.0) == 3620.0
    clock = clock.press(3610.0)
    assert clock.remaining(BLUE, 3610.0) == 40.0  # 10 s before and 10 s after the downtime
    assert clock.remaining(RED, 3610.0) == 50.0


def test_pause_keeps_an_event_that_already_fired() -> None:
    clock = started("1+0/10s").pause(15.0)
    assert clock.check(100.0) == ClockEvent(ClockEventKind.TIMEOUT_PASS, RED, 10.0, 1)


def test_state_errors() -> None:
    clock = started("1+0", at=50.0)
    with pytest.raises(ClockError):
        clock.start(60.0)
    with pytest.raises(ClockError):
        clock.resume(60.0)
    with pytest.raises(ClockError):
        clock.press(49.0)  # time went backwards
    with pytest.raises(ClockError):
        clock.remaining(BLUE, 49.0)
    with pytest.raises(ClockError):
        clock.check(math.nan)
    with pytest.raises(ClockError):
        clock.remaining(2, 60.0)
    paused = clock.pause(60.0)
    with pytest.raises(ClockError):
        paused.pause(61.0)
    with pytest.raises(ClockError):
        paused.resume(59.0)
    with pytest.raises(ClockError):
        GameClock.new(TimeControl(60.0), to_move=2)
    assert isinstance(ClockError("x"), ValueError)


# --- properties ------------------------------------------------------------------------------

_gaps = st.lists(st.floats(min_value=0, max_value=50, allow_nan=False), min_size=1, max_size=30)


@given(gaps=_gaps)
def test_time_never_increases_without_increment(gaps: list[float]) -> None:
    clock = started("10+0")
    now = 0.0
    before = (clock.remaining(RED, now), clock.remaining(BLUE, now))
    for gap in gaps:
        now += gap
        if clock.check(now) is not None:
            break
        clock = clock.press(now)
        after = (clock.remaining(RED, now), clock.remaining(BLUE, now))
        assert after[0] <= before[0] and after[1] <= before[1]
        before = after


@given(gaps=_gaps, increment=st.integers(0, 10))
def test_total_time_is_conserved(gaps: list[float], increment: int) -> None:
    # Whatever the moves, time used plus time left equals base plus increments earned.
    clock = started(f"10+{increment}")
    now = 0.0
    for gap in gaps:
        now += gap
        if clock.check(now) is not None:
            return  # a flag fell: nothing more to compare
        clock = clock.press(now)
    total = clock.remaining(RED, now) + clock.remaining(BLUE, now)
    assert total == pytest.approx(1200.0 + increment * len(gaps) - now)


@given(
    start=st.floats(min_value=0, max_value=1e6),
    offset=st.floats(min_value=-100, max_value=100),
    spec=st.sampled_from(["1+0", "1+0/10s", "/10s", "10s+0/30s"]),
)
def test_check_fires_exactly_at_next_deadline(start: float, offset: float, spec: str) -> None:
    clock = started(spec, at=start)
    deadline = clock.next_deadline(start)
    assert deadline is not None
    now = max(start, deadline + offset)
    assert (clock.check(now) is not None) == (now >= deadline)

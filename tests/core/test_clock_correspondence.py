"""Correspondence time controls (``Nd``: N days a move, no main clock) in doushouqi.core.clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doushouqi.core.clock import (
    BLUE,
    DAY,
    RED,
    ClockEventKind,
    GameClock,
    TimeControl,
    TimeControlError,
    TimeControlSyntaxError,
)


@pytest.mark.parametrize("days", [1, 2, 3, 7])
def test_days_per_move_parse_and_print_back(days: int) -> None:
    control = TimeControl.parse(f"{days}d")
    assert control == TimeControl(0.0, days=float(days))
    assert control.is_correspondence and control.move_seconds == days * DAY
    assert str(control) == f"{days}d"


@given(st.floats(min_value=0.01, max_value=1e6, allow_nan=False, allow_infinity=False))
def test_any_positive_days_round_trip(days: float) -> None:
    control = TimeControl(0.0, days=days)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["0d", "d", "3d+5", "10+3d", "-1d", "3 d", "3dd", "３d"])
def test_bad_day_controls_are_refused(text: str) -> None:
    with pytest.raises(TimeControlSyntaxError):
        TimeControl.parse(text)


def test_days_exclude_the_other_limits() -> None:
    with pytest.raises(TimeControlError):
        TimeControl(600.0, days=1.0)
    with pytest.raises(TimeControlError):
        TimeControl(0.0, per_move=30.0, days=1.0)


def test_other_controls_keep_their_repr_and_syntax() -> None:
    assert repr(TimeControl.parse("10+5/30s")) == (
        "TimeControl(base=600.0, increment=5.0, per_move=30.0)"
    )
    assert not TimeControl.parse("10+5").is_correspondence
    assert TimeControl.parse("10+5").move_seconds is None


def test_running_out_of_days_is_a_flag_fall() -> None:
    clock = GameClock.new(TimeControl.parse("1d")).start(0.0)
    assert clock.remaining(RED, DAY / 2) == DAY / 2
    assert clock.check(DAY - 1) is None
    event = clock.check(DAY)
    assert event is not None and event.kind is ClockEventKind.FLAG
    assert (event.color, event.at, event.loser) == (RED, DAY, RED)


def test_each_move_gives_the_opponent_the_full_days_and_nothing_carries_over() -> None:
    clock = GameClock.new(TimeControl.parse("2d")).start(0.0)
    clock = clock.press(now=10.0)  # Red answered at once: no credit for the time saved
    assert clock.remaining(RED, 10.0) == 2 * DAY
    assert clock.remaining(BLUE, 10.0) == 2 * DAY
    assert clock.next_deadline(10.0) == 10.0 + 2 * DAY
    clock = clock.press(now=10.0 + 2 * DAY - 1)  # Blue used almost all of its time
    assert clock.remaining(BLUE, 10.0 + 2 * DAY) == 2 * DAY
    assert clock.next_deadline(10.0 + 2 * DAY) == 10.0 + 4 * DAY - 1

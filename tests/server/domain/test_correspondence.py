"""Correspondence games in the domain: days per move, running out loses, leaving does not,
and the days run on through a server's downtime without costing anyone a move."""

from __future__ import annotations

from tests.support.helpers import BLUE_ID, RED_ID, T0, ok, online_game

from doushouqi.core.clock import DAY
from doushouqi.core.outcome import PlatformEnding
from doushouqi.server.domain import (
    Disconnected,
    GameFinished,
    GameStatus,
    Move,
    Tick,
    apply,
    next_deadline,
)
from doushouqi.server.domain.recovery import (
    CORRESPONDENCE_RESTART_MARGIN,
    resume_after_downtime,
)


def test_a_move_within_the_days_is_fine_and_resets_them() -> None:
    game = online_game(time_control="1d")
    assert next_deadline(game, T0) == T0 + DAY
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + DAY - 60)
    assert game.status is GameStatus.STARTED
    assert next_deadline(game, T0 + DAY) == T0 + 2 * DAY - 60


def test_running_out_of_days_loses_on_time() -> None:
    game = online_game(time_control="2d")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 10)
    game, events = ok(game, Tick(), T0 + 10 + 2 * DAY + 5)  # a late tick
    (finished,) = events
    assert isinstance(finished, GameFinished)
    assert finished.termination is PlatformEnding.TIME_FORFEIT and finished.winner == 0
    assert finished.at == T0 + 10 + 2 * DAY  # at the deadline, not when noticed


def test_leaving_a_correspondence_game_never_loses() -> None:
    game = online_game(time_control="3d")
    game, events = ok(game, Disconnected(color=1), T0 + 5)
    assert events[0].deadline is None  # type: ignore[attr-defined]
    assert next_deadline(game, T0 + 5) == T0 + 3 * DAY  # only the days
    after, _ = apply(game, Tick(), T0 + DAY)
    assert after.status is GameStatus.STARTED
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + DAY)
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 2 * DAY)  # back next day
    assert game.status is GameStatus.STARTED


def test_the_days_run_on_through_a_short_downtime() -> None:
    game = online_game(time_control="3d")
    resumed, _ = resume_after_downtime(game, T0 + DAY, T0 + DAY + 3600)
    assert next_deadline(resumed, T0 + DAY + 3600) == T0 + 3 * DAY  # not extended


def test_a_deadline_that_fell_while_the_server_was_down_gives_back_the_time_left() -> None:
    game = online_game(time_control="1d")
    down_at = T0 + DAY - 600  # ten minutes left when the server went down
    now = T0 + DAY + 5 * 3600  # back five hours later, past the deadline
    resumed, events = resume_after_downtime(game, down_at, now)
    assert resumed.status is GameStatus.STARTED
    assert next_deadline(resumed, now) == now + 600
    assert [e.type for e in events] == ["game_resumed"]
    later, _ = apply(resumed, Tick(), now + 601)
    assert later.termination is PlatformEnding.TIME_FORFEIT


def test_what_is_given_back_after_downtime_is_at_most_the_margin() -> None:
    game = online_game(time_control="1d")
    down_at = T0 + 3600  # 23 hours left
    now = T0 + 2 * DAY  # back after the deadline
    resumed, _ = resume_after_downtime(game, down_at, now)
    assert next_deadline(resumed, now) == now + CORRESPONDENCE_RESTART_MARGIN


def test_a_deadline_before_the_server_went_down_is_settled_at_its_time() -> None:
    game = online_game(time_control="1d")
    resumed, events = resume_after_downtime(game, T0 + DAY + 10, T0 + 2 * DAY)
    assert resumed.termination is PlatformEnding.TIME_FORFEIT
    assert resumed.finished_at == T0 + DAY
    assert [e.type for e in events] == ["game_finished"]

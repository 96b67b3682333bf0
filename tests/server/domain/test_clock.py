"""Clocks with an injected ``now``: flag fall, per-move timeout passes, the fourth timeout,
increments, settling deadlines before a command, and next_deadline."""

from __future__ import annotations

from tests.support.helpers import BLUE_ID, HEMMED_FEN, RED_ID, T0, ok, online_game, refused, types

from doushouqi.core.outcome import PlatformEnding
from doushouqi.server.domain import (
    SERVER,
    Event,
    Game,
    GameFinished,
    GameStatus,
    Move,
    RejectCode,
    Tick,
    TimeoutPassed,
    apply,
    next_deadline,
)


def test_an_early_tick_changes_nothing() -> None:
    game = online_game(time_control="1+0")
    after, events = apply(game, Tick(), T0 + 59.9)
    assert after is game and events == []


def test_flag_fall_loses_at_the_deadline() -> None:
    game = online_game(time_control="1+0")
    assert next_deadline(game, T0) == T0 + 60
    game, events = ok(game, Tick(), T0 + 75)  # the server noticed late
    (finished,) = events
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.at) == (
        PlatformEnding.TIME_FORFEIT,
        1,
        T0 + 60,
    )
    assert game.status is GameStatus.TIME_FORFEIT and game.finished_at == T0 + 60
    assert finished.clocks is not None and finished.clocks.remaining == (0.0, 60.0)
    assert next_deadline(game, T0 + 75) is None


def test_main_time_running_out_before_the_move_limit_is_a_flag() -> None:
    game = online_game(time_control="10s+0/30s")
    game, _ = ok(game, Tick(), T0 + 10)
    assert game.status is GameStatus.TIME_FORFEIT


def test_the_increment_is_added_after_a_move() -> None:
    game = online_game(time_control="1+2")
    game, events = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 4)
    assert events[0].clocks.remaining == (58.0, 60.0)  # type: ignore[attr-defined]
    assert next_deadline(game, T0 + 4) == T0 + 64


def test_a_per_move_timeout_passes_the_turn() -> None:
    game = online_game(time_control="/10s")
    assert next_deadline(game, T0) == T0 + 10
    game, events = ok(game, Tick(), T0 + 10)
    (passed,) = events
    assert isinstance(passed, TimeoutPassed)
    assert (passed.color, passed.timeouts, passed.at, passed.ply, passed.to_move) == (
        0,
        1,
        T0 + 10,
        1,
        1,
    )
    assert game.moves == (("0000", T0 + 10),)
    assert game.turn == 1 and game.timeouts == (1, 0)
    assert game.fen.split()[1] == "b"
    assert next_deadline(game, T0 + 10) == T0 + 20
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 15)
    assert game.timeouts == (1, 0) and game.turn == 0


def test_a_late_tick_applies_every_pass_in_order() -> None:
    game = online_game(time_control="/10s")
    game, events = ok(game, Tick(), T0 + 35)
    assert types(events) == ["timeout_passed"] * 3
    assert [(e.color, e.at) for e in events] == [(0, T0 + 10), (1, T0 + 20), (0, T0 + 30)]  # type: ignore[attr-defined]
    assert {e.version for e in events} == {game.version}
    assert game.timeouts == (2, 1)


def _red_times_out(times: int) -> tuple[Game, list[Event]]:
    """Red lets its move time run out ``times`` times; Blue moves its rat down in between."""
    game = online_game(time_control="/10s")
    events: list[Event] = []
    blue_moves = iter(["a7a6", "a6a5", "a5a4"])
    now = T0
    for count in range(1, times + 1):
        now += 10  # Red's deadline
        game, new = ok(game, Tick(), now)
        events += new
        if count < 4:
            now += 2
            game, _ = ok(game, Move(actor=BLUE_ID, move=next(blue_moves)), now)
    return game, events


def test_three_timeouts_do_not_lose() -> None:
    game, events = _red_times_out(3)
    assert game.status is GameStatus.STARTED and game.timeouts == (3, 0)
    assert [e.timeouts for e in events] == [1, 2, 3]  # type: ignore[attr-defined]


def test_the_fourth_timeout_loses() -> None:
    game, events = _red_times_out(4)
    assert types(events[-1:]) == ["game_finished"]
    finished = events[-1]
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.at) == (
        PlatformEnding.TIMEOUTS,
        1,
        T0 + 46,
    )
    assert game.status is GameStatus.TIMEOUTS and game.timeouts == (4, 0)
    assert game.moves[-1].move == "a5a4"  # the fourth timeout makes no pass


def test_passes_that_bring_a_position_back_count_for_repetition() -> None:
    # Both players away: after four passes the start position stands for the third time.
    game = online_game(time_control="/10s")
    game, events = ok(game, Tick(), T0 + 1000)
    assert types(events) == ["timeout_passed"] * 4 + ["game_finished"]
    assert game.status is GameStatus.REPETITION and game.timeouts == (2, 2)


def test_a_pass_can_end_the_game_on_the_board() -> None:
    # Red times out; Blue, to move, is hemmed in and so loses (困毙).
    game = online_game(time_control="/10s", fen=HEMMED_FEN)
    game, events = ok(game, Tick(), T0 + 10)
    assert types(events) == ["timeout_passed", "game_finished"]
    assert game.status is GameStatus.NO_LEGAL_MOVES and game.winner == 0


def test_a_move_after_the_deadline_is_refused_and_the_tick_follows() -> None:
    game = online_game(time_control="/10s")
    rejected = refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 12)
    assert rejected.code is RejectCode.NOT_YOUR_TURN
    assert next_deadline(game, T0 + 12) == T0 + 10  # already past: tick at once
    game, _ = ok(game, Tick(), T0 + 12)
    assert game.turn == 1


def test_a_move_after_the_flag_is_refused() -> None:
    game = online_game(time_control="1+0")
    rejected = refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 61)
    assert rejected.code is RejectCode.GAME_OVER
    assert "time forfeit" in rejected.reason


def test_deadlines_are_settled_before_an_accepted_command() -> None:
    game = online_game(time_control="/10s")
    game, events = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 12)
    assert types(events) == ["timeout_passed", "move_made"]
    assert {e.version for e in events} == {game.version}
    assert [m.move for m in game.moves] == ["0000", "a7a6"]


def test_moving_at_the_deadline_is_too_late() -> None:
    game = online_game(time_control="/10s")
    assert refused(game, Move(actor=RED_ID, move="a3a4"), T0 + 10).code is RejectCode.NOT_YOUR_TURN
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 9.999)
    assert next_deadline(game, T0 + 9.999) == T0 + 19.999


def test_no_deadline_without_a_clock_or_before_the_start() -> None:
    # Untimed: only the wait for the first moves (a day in these tests), none once both moved.
    untimed = online_game()
    assert next_deadline(untimed, T0 + 5) == T0 + 86400
    untimed, _ = ok(untimed, Move(actor=RED_ID, move="a3a4"), T0 + 1)
    untimed, _ = ok(untimed, Move(actor=BLUE_ID, move="a7a6"), T0 + 2)
    assert next_deadline(untimed, T0 + 5) is None
    # Before the start, no clock runs: only the wait for the players to come.
    assert next_deadline(online_game(time_control="1+0", start=False), T0) == T0 + 86400


def test_only_the_server_ticks() -> None:
    game = online_game(time_control="/10s")
    rejected = refused(game, Tick(actor=RED_ID), T0 + 30)
    assert rejected.code is RejectCode.SERVER_ONLY
    assert apply(game, Tick(actor=SERVER), T0 + 30)[0].timeouts == (2, 1)


def test_time_may_not_go_backwards() -> None:
    game = online_game(time_control="1+0")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 5)
    assert refused(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 4).code is RejectCode.BAD_TIME
    assert refused(game, Tick(), float("nan")).code is RejectCode.BAD_TIME

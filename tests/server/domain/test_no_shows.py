"""A game with both seats filled (a quick pairing, an accepted challenge, a rematch) that its
players never play is aborted by the server: a player who does not come to the board within
``start_wait`` (``no_show``), or, once started, the player to move who does not make a first
move within it (``no_first_move``). Settled at the deadline's own time, never after both
sides have moved, never in correspondence or tournament games (domain/timing.py)."""

from __future__ import annotations

import pytest
from tests.support.helpers import BLUE_ID, RED_ID, T0, ok, online_game, types

from doushouqi.server.domain import (
    DEFAULT_START_WAIT,
    AbortReason,
    GameFinished,
    GameStatus,
    Join,
    Move,
    Tick,
    apply,
    next_deadline,
    start_deadline,
)
from doushouqi.server.domain.recovery import resume_after_downtime
from doushouqi.server.domain.storage import game_from_storage, game_to_storage

WAIT = 30.0


def _aborted(events: list, reason: AbortReason, at: float) -> None:
    assert types(events) == ["game_finished"]
    finished = events[0]
    assert isinstance(finished, GameFinished)
    assert finished.abort_reason is reason and finished.at == at
    assert finished.to_dict()["termination"] == "aborted"
    assert finished.score_change is None or not any(finished.score_change.deltas)
    assert finished.rating_change is None


def test_a_minute_is_the_default_wait() -> None:
    assert DEFAULT_START_WAIT == 60.0


@pytest.mark.parametrize("came", [(), (RED_ID,)])
def test_players_who_never_come_get_the_game_aborted(came: tuple) -> None:
    game = online_game(start=False, start_wait=WAIT, rated=True, time_control="10+0")
    for identity in came:
        game, _ = ok(game, Join(actor=identity), T0 + 1)
    assert start_deadline(game) == (T0 + WAIT, AbortReason.NO_SHOW)
    assert next_deadline(game, T0 + 2) == T0 + WAIT
    early, nothing = apply(game, Tick(), T0 + WAIT - 0.01)
    assert early is game and nothing == []
    after, events = ok(game, Tick(), T0 + WAIT + 500)  # a late tick: settled at the deadline
    _aborted(events, AbortReason.NO_SHOW, T0 + WAIT)
    assert after.status is GameStatus.ABORTED and after.finished_at == T0 + WAIT
    assert after.abort_reason is AbortReason.NO_SHOW


def test_the_first_player_who_does_not_move_gets_the_game_aborted() -> None:
    game = online_game(start_wait=WAIT, rated=True, time_control="10+0")  # both came at T0
    assert start_deadline(game) == (T0 + WAIT, AbortReason.NO_FIRST_MOVE)
    after, events = ok(game, Tick(), T0 + WAIT)
    _aborted(events, AbortReason.NO_FIRST_MOVE, T0 + WAIT)
    assert after.status is GameStatus.ABORTED


def test_the_second_player_has_the_wait_from_the_first_move() -> None:
    game = online_game(start_wait=WAIT)
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 20)
    assert next_deadline(game, T0 + 20) == T0 + 20 + WAIT
    assert apply(game, Tick(), T0 + 20 + WAIT - 0.01) == (game, [])
    _, events = ok(game, Tick(), T0 + 20 + WAIT)
    _aborted(events, AbortReason.NO_FIRST_MOVE, T0 + 20 + WAIT)


def test_once_both_sides_have_moved_there_is_no_wait() -> None:
    game = online_game(start_wait=WAIT)
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 1)
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 2)
    assert start_deadline(game) is None and next_deadline(game, T0 + 2) is None
    assert apply(game, Tick(), T0 + 10 * WAIT) == (game, [])


def test_the_abort_comes_before_a_clock_deadline_at_the_same_time() -> None:
    game = online_game(start_wait=WAIT, time_control="0.5+0")  # Red's 30 s run out at T0 + 30
    _, events = ok(game, Tick(), T0 + 100)
    _aborted(events, AbortReason.NO_FIRST_MOVE, T0 + WAIT)


def test_a_clock_falling_first_decides_as_before() -> None:
    game = online_game(start_wait=WAIT, time_control="0.25+0")  # 15 s
    after, events = ok(game, Tick(), T0 + 100)
    assert types(events) == ["game_finished"] and after.status is GameStatus.TIME_FORFEIT


def test_correspondence_and_tournament_games_have_no_such_wait() -> None:
    for game in (
        online_game(start_wait=WAIT, time_control="2d"),
        online_game(start_wait=WAIT, tournament=True),
        online_game(start_wait=WAIT, start=False, time_control="2d"),
    ):
        assert start_deadline(game) is None
        assert apply(game, Tick(), T0 + 10 * WAIT)[0].status is not GameStatus.ABORTED


def test_the_wait_is_stored_and_runs_again_after_the_site_was_away() -> None:
    game = online_game(start_wait=WAIT, time_control="5+0")
    stored = game_from_storage(game_to_storage(game))
    assert stored.start_wait == WAIT and start_deadline(stored) == start_deadline(game)
    # Down from T0 + 10 to T0 + 600: the clocks are shifted, the wait starts again.
    resumed, _ = resume_after_downtime(game, T0 + 10, T0 + 600)
    assert resumed.status is GameStatus.STARTED
    assert start_deadline(resumed) == (T0 + 600 + WAIT, AbortReason.NO_FIRST_MOVE)

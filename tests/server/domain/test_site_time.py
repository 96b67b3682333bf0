"""Site time: wall time less the site's outages (``domain/site_time.py``), and games carried
through the outages that came after their last activity (``recovery.resume_after_outages``)."""

from __future__ import annotations

import math

import pytest
from tests.support.helpers import BLUE_ID, RED_ID, T0, ok, online_game

from doushouqi.server.domain import GameStatus, Move, next_deadline
from doushouqi.server.domain.recovery import resume_after_outages
from doushouqi.server.domain.site_time import Outage, away, site_elapsed, spans
from doushouqi.server.domain.storage import game_from_storage, game_to_storage

# ---------------------------------------------------------------------- the arithmetic


def test_an_outage_inside_the_wait_is_taken_off() -> None:
    assert site_elapsed([Outage(10.0, 40.0)], 0.0, 100.0) == 70.0


def test_only_the_overlap_counts() -> None:
    outages = [Outage(-50.0, 10.0), Outage(90.0, 200.0)]
    assert away(outages, 0.0, 100.0) == 20.0  # 10 s at each end
    assert site_elapsed(outages, 0.0, 100.0) == 80.0
    assert away([Outage(100.0, 200.0)], 0.0, 100.0) == 0.0  # touching is not overlapping


def test_overlapping_and_nested_outages_count_once() -> None:
    outages = [Outage(10.0, 50.0), Outage(20.0, 30.0), Outage(40.0, 60.0), Outage(60.0, 70.0)]
    assert spans(outages, 100.0) == [(10.0, 70.0)]
    assert away(outages, 0.0, 100.0) == 60.0
    # Order does not matter.
    assert away(list(reversed(outages)), 0.0, 100.0) == 60.0


def test_an_outage_not_over_lasts_until_the_moment_measured() -> None:
    outages = [Outage(60.0)]  # Redis is still away
    assert site_elapsed(outages, 0.0, 100.0) == 60.0
    assert site_elapsed(outages, 0.0, 1000.0) == 60.0  # the wait does not move on meanwhile
    assert spans([Outage(60.0, math.inf)], 100.0) == [(60.0, 100.0)]
    assert spans([Outage(60.0, 500.0)], 100.0) == [(60.0, 100.0)]  # cut at the moment measured


def test_hostile_outages_are_left_out() -> None:
    hostile = [
        Outage(math.nan, 50.0),
        Outage(10.0, math.nan),
        Outage(math.inf, None),
        Outage(-math.inf, 50.0),
        Outage(50.0, 10.0),  # ends before it starts
        Outage(10.0, -math.inf),
        Outage(30.0, 30.0),  # empty
        Outage("10", 20.0),  # type: ignore[arg-type]
        Outage(10.0, "20"),  # type: ignore[arg-type]
        Outage(True, 20.0),  # type: ignore[arg-type]
        Outage(500.0, 600.0),  # after the moment measured
    ]
    assert spans(hostile, 100.0) == []
    assert site_elapsed(hostile, 0.0, 100.0) == 100.0
    assert site_elapsed([*hostile, Outage(20.0, 30.0)], 0.0, 100.0) == 90.0


def test_the_measured_interval_must_be_finite_and_a_backwards_one_is_empty() -> None:
    with pytest.raises(ValueError):
        site_elapsed([], math.nan, 10.0)
    with pytest.raises(ValueError):
        away([], 0.0, math.inf)
    with pytest.raises(ValueError):
        spans([], math.nan)
    assert site_elapsed([Outage(0.0, 5.0)], 10.0, 0.0) == 0.0
    assert away([Outage(0.0, 5.0)], 3.0, 3.0) == 0.0


def test_many_outages_add_up_exactly() -> None:
    outages = [Outage(float(i), i + 0.5) for i in range(0, 10_000, 2)]
    assert away(outages, 0.0, 10_000.0) == pytest.approx(2_500.0)
    assert site_elapsed(outages, 1.25, 3.25) == pytest.approx(1.5)


# ---------------------------------------------------------------------- games through outages


def test_a_game_gets_every_outage_after_its_last_move_once() -> None:
    game = online_game(time_control="5+0")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 10)  # Blue's turn from T0 + 10
    outages = [Outage(T0, T0 + 5), Outage(T0 + 20, T0 + 50), Outage(T0 + 80, T0 + 100)]
    resumed, events = resume_after_outages(game, outages, T0 + 120)
    # The first outage came before Blue's turn (Red was charged for it: Red could move then).
    assert [e.type for e in events] == ["game_resumed", "game_resumed"]
    assert [e.downtime for e in events] == [30.0, 20.0]  # type: ignore[attr-defined]
    assert resumed.clock is not None
    assert resumed.clock.remaining(1, T0 + 120) == 300.0 - (120 - 10 - 50)
    assert resumed.resumed_at == T0 + 100
    # Carried through once: the same outages again (another node loading it) give nothing.
    assert resume_after_outages(resumed, outages, T0 + 130) == (resumed, [])
    # The mark is stored with the game.
    assert game_from_storage(game_to_storage(resumed)).resumed_at == T0 + 100


def test_a_move_made_during_an_outage_stands_and_only_the_rest_is_given_back() -> None:
    game = online_game(time_control="5+0")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 10)
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 30)  # during the outage
    resumed, events = resume_after_outages(game, [Outage(T0 + 20, T0 + 60)], T0 + 60)
    assert [m.move for m in resumed.moves] == ["a3a4", "a7a6"]
    assert [e.downtime for e in events] == [30.0]  # type: ignore[attr-defined]
    assert resumed.clock is not None
    assert resumed.clock.remaining(0, T0 + 60) == 290.0  # Red: only its 10 s before the outage
    assert resumed.clock.remaining(1, T0 + 60) == 280.0  # Blue: its 20 s up to its move


def test_a_deadline_between_outages_falls_at_its_time() -> None:
    game = online_game(time_control="30s+0")
    outages = [Outage(T0 + 10, T0 + 20), Outage(T0 + 100, T0 + 200)]
    # Red had 30 s: 10 before the first outage, 20 after it: its flag fell at T0 + 40.
    ended, events = resume_after_outages(game, outages, T0 + 300)
    assert ended.status.is_over and ended.termination_key == "time_forfeit"
    assert ended.finished_at == T0 + 40
    assert events[-1].type == "game_finished"


def test_a_tournament_game_waiting_for_its_players_is_not_aborted_by_an_outage() -> None:
    """Its seats are filled: it has no lobby wait (the tournament director measures the
    players' time to come, in site time)."""
    game = online_game(time_control="3+2", tournament=True, start=False)
    after, events = resume_after_outages(game, [Outage(T0 + 5, T0 + 7 * 86400)], T0 + 7 * 86400)
    assert after.status is GameStatus.CREATED and events == []
    assert next_deadline(after, T0 + 7 * 86400) is None


def test_an_outage_still_going_on_is_given_up_to_now() -> None:
    game = online_game(time_control="5+0")
    resumed, events = resume_after_outages(game, [Outage(T0 + 100)], T0 + 160)
    assert [e.downtime for e in events] == [60.0]  # type: ignore[attr-defined]
    assert resumed.clock is not None and resumed.clock.remaining(0, T0 + 160) == 200.0
    # Later, once it is over, only the rest is given.
    again, events = resume_after_outages(resumed, [Outage(T0 + 100, T0 + 190)], T0 + 200)
    assert [e.downtime for e in events] == [30.0]  # type: ignore[attr-defined]
    # Red used 100 s before the outage and 10 s after it.
    assert again.clock is not None and again.clock.remaining(0, T0 + 200) == 190.0


def test_a_command_sent_before_an_outage_was_given_back_still_applies() -> None:
    game = online_game(time_control="5+0")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 10)
    seen = game.version
    resumed, _ = resume_after_outages(game, [Outage(T0 + 20, T0 + 50)], T0 + 50)
    assert resumed.version == seen + 1
    moved, events = ok(resumed, Move(actor=BLUE_ID, move="a7a6", expected_version=seen), T0 + 55)
    assert events[0].type == "move_made" and moved.fresh_since == moved.version

"""Takebacks per mode: at once against the AI (its reply goes too) and on one screen; online
only with the opponent's consent; none in tournaments."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from tests.support.helpers import (
    BLUE_ID,
    OWNER,
    RED_ID,
    SPECTATOR,
    T0,
    ai_game,
    ok,
    online_game,
    play,
    refused,
    same_screen_game,
    types,
)

from doushouqi.server.domain import (
    AcceptTakeback,
    AiPlayer,
    DeclineTakeback,
    Move,
    RejectCode,
    RequestTakeback,
    TakebackApplied,
    Tick,
)


def _applied(events: Sequence[object]) -> TakebackApplied:
    assert isinstance(events[0], TakebackApplied)
    return events[0]


# ---------------------------------------------------------------------- against the AI


def test_vs_ai_takes_back_the_ais_reply_and_the_players_move() -> None:
    game, _ = play(ai_game(human=0), ["a3a4", "a7a6"])
    game, events = ok(game, RequestTakeback(actor=RED_ID), T0 + 10)
    applied = _applied(events)
    assert (applied.color, applied.removed, applied.ply, applied.to_move) == (
        0,
        ("a3a4", "a7a6"),
        0,
        0,
    )
    assert game.moves == () and game.turn == 0
    assert applied.fen == game.fen and "a3" in applied.dests


def test_vs_ai_takes_back_only_the_players_move_while_the_ai_thinks() -> None:
    game, _ = play(ai_game(human=0), ["a3a4"])
    game, events = ok(game, RequestTakeback(actor=RED_ID), T0 + 10)
    assert _applied(events).removed == ("a3a4",)
    assert game.turn == 0
    # The AI's answer to the old position now comes out of turn.
    assert refused(game, Move(actor=AiPlayer(3), move="a7a6"), T0 + 11).code is (
        RejectCode.NOT_YOUR_TURN
    )


def test_vs_ai_as_blue() -> None:
    game = ai_game(human=1)
    game, _ = play(game, ["a3a4"])  # the AI opens
    assert refused(game, RequestTakeback(actor=RED_ID), T0 + 5).code is (
        RejectCode.NOTHING_TO_TAKE_BACK
    )
    game, _ = play(game, ["a7a6", "g3g4"])
    game, events = ok(game, RequestTakeback(actor=RED_ID), T0 + 10)
    assert _applied(events).removed == ("a7a6", "g3g4")
    assert [m.move for m in game.moves] == ["a3a4"] and game.turn == 1


def test_the_ai_takes_nothing_back() -> None:
    game, _ = play(ai_game(human=0), ["a3a4", "a7a6"])
    assert refused(game, RequestTakeback(actor=AiPlayer(3)), T0 + 10).code is (
        RejectCode.NOT_AVAILABLE
    )


# ---------------------------------------------------------------------- same screen


def test_same_screen_takes_back_the_last_move() -> None:
    game, _ = play(same_screen_game(), ["a3a4", "a7a6"])
    game, events = ok(game, RequestTakeback(actor=OWNER), T0 + 10)
    assert _applied(events).removed == ("a7a6",) and game.turn == 1
    game, events = ok(game, RequestTakeback(actor=OWNER), T0 + 11)
    assert _applied(events).removed == ("a3a4",) and game.turn == 0
    assert refused(game, RequestTakeback(actor=OWNER), T0 + 12).code is (
        RejectCode.NOTHING_TO_TAKE_BACK
    )


# ---------------------------------------------------------------------- online


def test_online_takeback_needs_the_opponents_consent() -> None:
    game, _ = play(online_game(), ["a3a4"])
    game, events = ok(game, RequestTakeback(actor=RED_ID), T0 + 5)
    assert types(events) == ["takeback_requested"]
    assert game.takeback_request == 0 and len(game.moves) == 1
    assert refused(game, AcceptTakeback(actor=RED_ID), T0 + 6).code is (
        RejectCode.NO_TAKEBACK_REQUEST
    )
    assert refused(game, AcceptTakeback(actor=SPECTATOR), T0 + 6).code is RejectCode.NOT_A_PLAYER
    game, events = ok(game, AcceptTakeback(actor=BLUE_ID), T0 + 6)
    assert _applied(events).removed == ("a3a4",)
    assert game.moves == () and game.turn == 0 and game.takeback_request is None


def test_online_takeback_after_the_reply_removes_both_moves() -> None:
    game, _ = play(online_game(), ["a3a4", "a7a6"])
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 5)
    game, events = ok(game, AcceptTakeback(actor=BLUE_ID), T0 + 6)
    assert _applied(events).removed == ("a3a4", "a7a6") and game.turn == 0


def test_online_takeback_declined() -> None:
    game, _ = play(online_game(), ["a3a4"])
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 5)
    game, events = ok(game, DeclineTakeback(actor=BLUE_ID), T0 + 6)
    assert types(events) == ["takeback_declined"]
    assert game.takeback_request is None and len(game.moves) == 1
    assert refused(game, DeclineTakeback(actor=BLUE_ID), T0 + 7).code is (
        RejectCode.NO_TAKEBACK_REQUEST
    )


def test_playing_on_lapses_a_takeback_request() -> None:
    game, _ = play(online_game(), ["a3a4"])
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 5)
    game, events = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 6)
    assert types(events) == ["move_made", "takeback_declined"]
    assert game.takeback_request is None


def test_one_takeback_request_at_a_time() -> None:
    game, _ = play(online_game(), ["a3a4", "a7a6"])
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 5)
    assert refused(game, RequestTakeback(actor=RED_ID), T0 + 6).code is RejectCode.TAKEBACK_PENDING
    assert refused(game, RequestTakeback(actor=BLUE_ID), T0 + 6).code is (
        RejectCode.TAKEBACK_PENDING
    )


def test_nothing_to_take_back_online() -> None:
    game = online_game()
    assert refused(game, RequestTakeback(actor=RED_ID), T0 + 1).code is (
        RejectCode.NOTHING_TO_TAKE_BACK
    )


def test_no_takebacks_in_tournament_games() -> None:
    game, _ = play(online_game(tournament=True), ["a3a4"])
    assert refused(game, RequestTakeback(actor=RED_ID), T0 + 5).code is RejectCode.NOT_AVAILABLE


def test_a_takeback_charges_the_running_turn_and_restarts_it() -> None:
    game = online_game(time_control="1+0")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 10)
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 15)
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 16)
    game, events = ok(game, AcceptTakeback(actor=BLUE_ID), T0 + 20)
    clocks = _applied(events).clocks
    assert clocks is not None
    assert clocks.remaining == (45.0, 55.0) and clocks.to_move == 0
    assert game.clock is not None and game.clock.turn_started == T0 + 20


def test_a_takeback_removes_timeout_passes_after_the_move_but_keeps_the_count() -> None:
    game = online_game(time_control="/10s")
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 1)
    game, _ = ok(game, Tick(), T0 + 11)  # Blue times out
    game, _ = ok(game, RequestTakeback(actor=RED_ID), T0 + 12)
    game, events = ok(game, AcceptTakeback(actor=BLUE_ID), T0 + 13)
    assert _applied(events).removed == ("a3a4", "0000")
    assert game.timeouts == (0, 1) and game.turn == 0


@pytest.mark.parametrize("command", [AcceptTakeback, DeclineTakeback])
def test_answering_with_nothing_asked(command: type[AcceptTakeback]) -> None:
    game, _ = play(online_game(), ["a3a4"])
    assert refused(game, command(actor=BLUE_ID), T0 + 5).code is RejectCode.NO_TAKEBACK_REQUEST

"""Resignation, draws by agreement and aborting."""

from __future__ import annotations

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

from doushouqi.core.outcome import PlatformEnding
from doushouqi.server.domain import (
    SERVER,
    Abort,
    AcceptDraw,
    DeclineDraw,
    DrawDeclined,
    GameFinished,
    GameStatus,
    Move,
    OfferDraw,
    RejectCode,
    Resign,
    Tick,
)

# ---------------------------------------------------------------------- resignation


def test_resignation_loses_at_any_turn() -> None:
    game = online_game(time_control="5+0")
    game, events = ok(game, Resign(actor=BLUE_ID), T0 + 7)  # not Blue's turn: still allowed
    (finished,) = events
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.result) == (
        PlatformEnding.RESIGNATION,
        0,
        "1-0",
    )
    assert game.status is GameStatus.RESIGNATION and game.finished_at == T0 + 7
    assert game.clock is not None and not game.clock.running
    assert refused(game, Resign(actor=RED_ID), T0 + 8).code is RejectCode.GAME_OVER


def test_same_screen_resignation_is_for_the_side_to_move_unless_named() -> None:
    game = same_screen_game()
    resigned, _ = ok(game, Resign(actor=OWNER), T0 + 1)
    assert resigned.winner == 1
    resigned, _ = ok(game, Resign(actor=OWNER, color=1), T0 + 1)
    assert resigned.winner == 0


def test_spectators_cannot_resign_and_nobody_resigns_before_the_start() -> None:
    assert refused(online_game(), Resign(actor=SPECTATOR), T0 + 1).code is RejectCode.NOT_A_PLAYER
    assert refused(online_game(start=False), Resign(actor=RED_ID), T0 + 1).code is (
        RejectCode.NOT_STARTED
    )


def test_against_the_ai_the_human_may_resign() -> None:
    game, _ = ok(ai_game(), Resign(actor=RED_ID), T0 + 1)
    assert game.status is GameStatus.RESIGNATION and game.winner == 1


# ---------------------------------------------------------------------- draws


def test_a_draw_offered_and_accepted_ends_the_game() -> None:
    game = online_game()
    game, events = ok(game, OfferDraw(actor=RED_ID), T0 + 1)
    assert types(events) == ["draw_offered"] and game.draw_offer == 0
    assert refused(game, OfferDraw(actor=RED_ID), T0 + 2).code is RejectCode.DRAW_ALREADY_OFFERED
    assert refused(game, AcceptDraw(actor=RED_ID), T0 + 2).code is RejectCode.NO_DRAW_OFFER
    game, events = ok(game, AcceptDraw(actor=BLUE_ID), T0 + 3)
    assert types(events) == ["game_finished"]
    assert game.status is GameStatus.DRAW_AGREED
    assert (game.winner, game.result, game.draw_offer) == (None, "1/2-1/2", None)


def test_offering_while_the_opponent_offers_is_agreement() -> None:
    game, _ = ok(online_game(), OfferDraw(actor=RED_ID), T0 + 1)
    game, _ = ok(game, OfferDraw(actor=BLUE_ID), T0 + 2)
    assert game.status is GameStatus.DRAW_AGREED


def test_a_declined_offer_is_gone() -> None:
    game, _ = ok(online_game(), OfferDraw(actor=BLUE_ID), T0 + 1)
    game, events = ok(game, DeclineDraw(actor=RED_ID), T0 + 2)
    assert events[0] == DrawDeclined(color=0, game_id=game.id, version=game.version)
    assert game.draw_offer is None
    assert refused(game, AcceptDraw(actor=RED_ID), T0 + 3).code is RejectCode.NO_DRAW_OFFER
    assert refused(game, DeclineDraw(actor=RED_ID), T0 + 3).code is RejectCode.NO_DRAW_OFFER


def test_playing_on_declines_the_opponents_offer_but_not_ones_own() -> None:
    game, _ = ok(online_game(), OfferDraw(actor=RED_ID), T0 + 1)
    game, events = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 2)
    assert types(events) == ["move_made"] and game.draw_offer == 0  # own offer stands
    game, events = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 3)
    assert types(events) == ["move_made", "draw_declined"]
    assert events[1].implicit is True  # type: ignore[attr-defined]
    assert game.draw_offer is None


def test_a_timeout_pass_declines_the_opponents_offer() -> None:
    game, _ = ok(online_game(time_control="/10s"), OfferDraw(actor=BLUE_ID), T0 + 1)
    game, events = ok(game, Tick(), T0 + 10)
    assert types(events) == ["timeout_passed", "draw_declined"]


def test_same_screen_draw_offer_and_acceptance() -> None:
    game, _ = ok(same_screen_game(), OfferDraw(actor=OWNER), T0 + 1)
    assert game.draw_offer == 0  # the side to move offered
    game, _ = ok(game, AcceptDraw(actor=OWNER), T0 + 2)  # answered for the other side
    assert game.status is GameStatus.DRAW_AGREED


def test_spectators_cannot_offer_or_accept_draws() -> None:
    game, _ = ok(online_game(), OfferDraw(actor=RED_ID), T0 + 1)
    assert refused(game, AcceptDraw(actor=SPECTATOR), T0 + 2).code is RejectCode.NOT_A_PLAYER
    assert refused(game, OfferDraw(actor=SERVER), T0 + 2).code is RejectCode.NOT_A_PLAYER


# ---------------------------------------------------------------------- abort


def test_abort_before_any_move() -> None:
    game, events = ok(online_game(time_control="5+0"), Abort(actor=BLUE_ID), T0 + 5)
    (finished,) = events
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.result) == (
        PlatformEnding.ABORTED,
        None,
        "*",
    )
    assert finished.score_change is None and finished.rating_change is None
    assert game.status is GameStatus.ABORTED and game.status.is_over
    assert not game.status.is_decided


def test_abort_while_only_one_side_has_moved() -> None:
    game, _ = play(online_game(), ["a3a4"])
    game, _ = ok(game, Abort(actor=RED_ID), T0 + 5)
    assert game.status is GameStatus.ABORTED


def test_no_abort_once_both_sides_have_moved() -> None:
    game, _ = play(online_game(), ["a3a4", "a7a6"])
    rejected = refused(game, Abort(actor=RED_ID), T0 + 5)
    assert rejected.code is RejectCode.NOT_ABORTABLE
    assert refused(game, Abort(actor=SERVER), T0 + 5).code is RejectCode.NOT_ABORTABLE


def test_timeout_passes_are_not_moves_for_abort() -> None:
    game = online_game(time_control="/10s")
    game, _ = ok(game, Tick(), T0 + 10)  # Red passes
    game, _ = ok(game, Move(actor=BLUE_ID, move="a7a6"), T0 + 12)
    game, _ = ok(game, Abort(actor=BLUE_ID), T0 + 13)
    assert game.status is GameStatus.ABORTED


def test_the_server_may_abort_a_game_nobody_joined() -> None:
    game = online_game(start=False)
    assert refused(game, Abort(actor=SPECTATOR), T0 + 1).code is RejectCode.NOT_A_PLAYER
    game, _ = ok(game, Abort(actor=SERVER), T0 + 100)
    assert game.status is GameStatus.ABORTED
    assert refused(game, Abort(actor=SERVER), T0 + 101).code is RejectCode.GAME_OVER

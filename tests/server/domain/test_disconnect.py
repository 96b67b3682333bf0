"""Disconnects, reconnects, the grace period, abandonment (逃跑) and claiming victory."""

from __future__ import annotations

from tests.support.helpers import (
    BLUE_ID,
    OWNER,
    RED_ID,
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
    ClaimVictory,
    Disconnected,
    GameFinished,
    GameStatus,
    Join,
    Move,
    PlayerDisconnected,
    PlayerReconnected,
    Reconnected,
    RejectCode,
    Tick,
    apply,
    next_deadline,
)


def test_a_disconnect_is_reported_with_its_deadline() -> None:
    game, events = ok(online_game(), Disconnected(color=1), T0 + 5)
    assert events[0] == PlayerDisconnected(
        color=1, at=T0 + 5, deadline=T0 + 65, game_id=game.id, version=game.version
    )
    assert game.disconnected_since == (None, T0 + 5)
    assert next_deadline(game, T0 + 5) == T0 + 65


def test_coming_back_in_time_cancels_the_deadline() -> None:
    game, _ = ok(online_game(), Disconnected(color=1), T0 + 5)
    game, events = ok(game, Reconnected(color=1), T0 + 50)
    assert events[0] == PlayerReconnected(
        color=1, at=T0 + 50, away=45.0, game_id=game.id, version=game.version
    )
    assert next_deadline(game, T0 + 50) == T0 + 86400  # the wait for a first move, no other
    assert apply(game, Tick(), T0 + 500) == (game, [])


def test_leaving_beyond_the_grace_period_loses() -> None:
    game, _ = play(online_game(), ["a3a4"])
    game, _ = ok(game, Disconnected(color=1), T0 + 5)
    game, events = ok(game, Tick(), T0 + 70)
    (finished,) = events
    assert isinstance(finished, GameFinished)
    assert (finished.termination, finished.winner, finished.leaver, finished.at) == (
        PlatformEnding.ABANDONMENT,
        0,
        1,
        T0 + 65,
    )
    assert game.status is GameStatus.ABANDONMENT and game.leaver == 1


def test_the_grace_period_is_configurable() -> None:
    game, events = ok(online_game(grace=10), Disconnected(color=0), T0 + 5)
    assert events[0].deadline == T0 + 15  # type: ignore[attr-defined]
    game, _ = ok(game, Tick(), T0 + 15)
    assert game.status is GameStatus.ABANDONMENT and game.winner == 1


def test_claiming_victory_before_the_grace_period_ends_is_refused() -> None:
    game = online_game()
    assert refused(game, ClaimVictory(actor=RED_ID), T0 + 1).code is RejectCode.OPPONENT_CONNECTED
    game, _ = ok(game, Disconnected(color=1), T0 + 5)
    rejected = refused(game, ClaimVictory(actor=RED_ID), T0 + 25)
    assert rejected.code is RejectCode.GRACE_NOT_OVER
    assert "40 s left" in rejected.reason


def test_claiming_victory_after_the_grace_period_wins() -> None:
    game, _ = ok(online_game(), Disconnected(color=1), T0 + 5)
    before = game.version
    game, events = ok(game, ClaimVictory(actor=RED_ID), T0 + 66)
    assert types(events) == ["game_finished"]
    assert game.status is GameStatus.ABANDONMENT and game.winner == 0 and game.leaver == 1
    assert game.version == before + 1 and game.finished_at == T0 + 65
    # The leaver cannot claim; the claim cannot be repeated.
    assert refused(game, ClaimVictory(actor=RED_ID), T0 + 67).code is RejectCode.GAME_OVER


def test_the_leaver_cannot_claim_victory() -> None:
    game, _ = ok(online_game(), Disconnected(color=1), T0 + 5)
    rejected = refused(game, ClaimVictory(actor=BLUE_ID), T0 + 66)
    assert rejected.code is RejectCode.GAME_OVER  # settling first: Blue has already lost


def test_the_first_to_leave_loses_when_both_leave() -> None:
    game, _ = ok(online_game(), Disconnected(color=0), T0 + 5)
    game, _ = ok(game, Disconnected(color=1), T0 + 6)
    game, _ = ok(game, Tick(), T0 + 1000)
    assert game.leaver == 0 and game.winner == 1


def test_a_flag_falling_first_decides() -> None:
    game, _ = ok(online_game(time_control="1+0"), Disconnected(color=0), T0 + 30)
    assert next_deadline(game, T0 + 30) == T0 + 60
    game, _ = ok(game, Tick(), T0 + 200)
    assert game.status is GameStatus.TIME_FORFEIT and game.leaver is None


def test_a_late_report_keeps_the_real_disconnect_time() -> None:
    game, _ = play(online_game(), ["a3a4"])  # last activity at T0 + 1
    game, events = ok(game, Disconnected(color=1, at=T0 + 2), T0 + 30)
    assert events[0].deadline == T0 + 62  # type: ignore[attr-defined]
    # It cannot predate what has already happened, nor lie in the future.
    early, events = ok(game, Reconnected(color=1), T0 + 31)
    early, events = ok(early, Disconnected(color=1, at=T0 - 50), T0 + 32)
    assert events[0].at == T0 + 1  # type: ignore[attr-defined]
    assert refused(game, Disconnected(color=0, at=T0 + 99), T0 + 40).code is RejectCode.BAD_TIME


def test_only_the_server_reports_connections() -> None:
    game = online_game()
    assert refused(game, Disconnected(actor=RED_ID, color=1), T0 + 1).code is (
        RejectCode.SERVER_ONLY
    )
    assert refused(game, Reconnected(actor=BLUE_ID, color=1), T0 + 1).code is (
        RejectCode.SERVER_ONLY
    )
    assert refused(game, Disconnected(), T0 + 1).code is RejectCode.BAD_COMMAND
    assert refused(game, Reconnected(color=0), T0 + 1).code is RejectCode.NO_CHANGE
    game, _ = ok(game, Disconnected(color=0), T0 + 1)
    assert refused(game, Disconnected(color=0), T0 + 2).code is RejectCode.NO_CHANGE


def test_the_ai_never_disconnects() -> None:
    assert refused(ai_game(human=0), Disconnected(color=1), T0 + 1).code is RejectCode.BAD_COMMAND


def test_leaving_does_not_lose_against_the_ai_or_on_one_screen() -> None:
    for game in (ai_game(human=0), same_screen_game()):
        game, events = ok(game, Disconnected(color=0), T0 + 1)
        assert events[0].deadline is None  # type: ignore[attr-defined]
        assert next_deadline(game, T0 + 1) is None
        assert apply(game, Tick(), T0 + 10_000) == (game, [])
        actor = OWNER if game.players[0] and game.players[0].identity == OWNER else RED_ID
        assert refused(game, ClaimVictory(actor=actor), T0 + 10_000).code is (
            RejectCode.NOT_AVAILABLE
        )


def test_a_disconnect_before_the_start_counts_from_the_start() -> None:
    game = online_game(start=False)
    game, _ = ok(game, Join(actor=RED_ID), T0 + 1)
    game, _ = ok(game, Disconnected(color=0), T0 + 2)
    game, _ = ok(game, Join(actor=BLUE_ID), T0 + 100)
    assert game.status is GameStatus.STARTED
    assert next_deadline(game, T0 + 100) == T0 + 160


def test_a_disconnected_player_may_still_move() -> None:
    game, _ = ok(online_game(), Disconnected(color=0), T0 + 1)
    game, _ = ok(game, Move(actor=RED_ID, move="a3a4"), T0 + 2)
    assert game.disconnected_since == (T0 + 1, None)

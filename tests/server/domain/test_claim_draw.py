"""Calling it a draw while the opponent is away (``claim_draw``), instead of waiting out
their grace period for the win."""

from __future__ import annotations

from tests.support.helpers import (
    BLUE_ID,
    RAPID,
    RED_ID,
    SPECTATOR,
    T0,
    ai_game,
    ok,
    online_game,
    refused,
    types,
)

from doushouqi.core.outcome import PlatformEnding
from doushouqi.server.domain import (
    ClaimDraw,
    Disconnected,
    GameStatus,
    RejectCode,
)


def test_the_player_who_stayed_may_call_it_a_draw() -> None:
    game, _ = ok(online_game(rated=True, time_control=RAPID), Disconnected(color=1), T0 + 5)
    game, events = ok(game, ClaimDraw(actor=RED_ID), T0 + 20)
    assert types(events) == ["game_finished"]
    assert game.termination is PlatformEnding.DRAW_AGREED and game.winner is None
    assert game.leaver is None and game.status is GameStatus.DRAW_AGREED
    assert game.score_change is not None and game.score_change.deltas == (0, 0)


def test_no_draw_claim_while_the_opponent_is_connected() -> None:
    rejected = refused(online_game(), ClaimDraw(actor=RED_ID), T0 + 1)
    assert rejected.code is RejectCode.OPPONENT_CONNECTED


def test_the_leaver_cannot_call_it_a_draw() -> None:
    game, _ = ok(online_game(), Disconnected(color=1), T0 + 5)
    assert refused(game, ClaimDraw(actor=BLUE_ID), T0 + 6).code is RejectCode.OPPONENT_CONNECTED
    assert refused(game, ClaimDraw(actor=SPECTATOR), T0 + 6).code is RejectCode.NOT_A_PLAYER


def test_after_the_grace_period_the_game_is_already_won() -> None:
    game, _ = ok(online_game(), Disconnected(color=1), T0 + 5)
    assert refused(game, ClaimDraw(actor=RED_ID), T0 + 70).code is RejectCode.GAME_OVER


def test_no_draw_claim_against_the_ai() -> None:
    assert refused(ai_game(), ClaimDraw(actor=RED_ID), T0 + 1).code is RejectCode.NOT_AVAILABLE

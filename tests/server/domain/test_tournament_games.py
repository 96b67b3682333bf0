"""Tournament games in the domain: players cannot abort them (the director ends a game nobody
came to), and they score within ten rounds (docs/rules.md 5.4's tournament exception)."""

from __future__ import annotations

from tests.support.helpers import BLUE_ID, RED_ID, T0, ok, online_game, refused

from doushouqi.server.domain import SERVER, Abort, GameStatus, RejectCode, Resign


def test_a_player_cannot_abort_a_tournament_game() -> None:
    game = online_game(tournament=True)
    assert refused(game, Abort(actor=RED_ID), T0 + 1).code is RejectCode.NOT_AVAILABLE
    waiting = online_game(tournament=True, start=False)
    assert refused(waiting, Abort(actor=BLUE_ID), T0 + 1).code is RejectCode.NOT_AVAILABLE


def test_the_server_aborts_a_tournament_game_nobody_came_to() -> None:
    waiting = online_game(tournament=True, start=False)
    after, _ = ok(waiting, Abort(actor=SERVER), T0 + 61)
    assert after.status is GameStatus.ABORTED


def test_a_short_tournament_game_scores_while_a_casual_one_is_void() -> None:
    tournament, _ = ok(online_game(tournament=True), Resign(actor=BLUE_ID), T0 + 5)
    casual, _ = ok(online_game(), Resign(actor=BLUE_ID), T0 + 5)
    assert tournament.score_change is not None and casual.score_change is not None
    assert not tournament.score_change.voided and tournament.score_change.deltas[0] > 0
    assert casual.score_change.voided and casual.score_change.deltas == (0, 0)

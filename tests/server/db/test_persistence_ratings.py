"""Stored ratings: each finished rated game updates the ratings stored at that moment, so two
games of one account that finish close together both count (no lost update)."""

from __future__ import annotations

from pathlib import Path

from tests.support.helpers import BLUE_ID, ok, online_game, play, quiet_moves

from doushouqi.core.rating import Rating, rate_game
from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AccountRow
from doushouqi.server.db.repo import create_account, record_result
from doushouqi.server.domain import Resign


def test_two_rated_games_finishing_together_both_update_the_rating(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'ratings.sqlite3'}")
    db.migrate()
    for name in ("li", "wang"):  # account ids 1 and 2, as in the games' player slots
        db.run_sync(
            lambda s, name=name: create_account(
                s, username=name, display_name=name, password_hash="x", avatar="tiger", now=0.0
            )
        )
    # Both games were set up while both players stood at the default rating.
    first, now = play(online_game(rated=True), quiet_moves(21))
    first, _ = ok(first, Resign(actor=BLUE_ID), now + 1)
    second, now = play(online_game(rated=True), quiet_moves(21))
    second, _ = ok(second, Resign(actor=BLUE_ID), now + 1)
    assert first.rating_change == second.rating_change  # computed from the same set-up

    db.run_sync(lambda s: record_result(s, first))
    db.run_sync(lambda s: record_result(s, second))

    once = rate_game(Rating(), Rating(), 1.0)
    twice = rate_game(once[0], once[1], 1.0)
    red = db.run_sync(lambda s: s.get(AccountRow, 1))
    blue = db.run_sync(lambda s: s.get(AccountRow, 2))
    assert red is not None and blue is not None
    assert (red.wins, blue.losses) == (2, 2)
    assert abs(red.rating - twice[0].rating) < 1e-6
    assert abs(blue.rating - twice[1].rating) < 1e-6
    assert red.rating > once[0].rating  # the second win counted on top of the first

"""Stored ratings: each finished rated game updates the ratings stored at that moment, so two
games of one account that finish close together both count (no lost update); each game
(Jungle, the next one) has its own standing, and each speed its own rating. Banned and closed
accounts leave the boards (their ratings stay)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session
from tests.support.helpers import BLUE_ID, RAPID, ok, online_game, play, quiet_moves

from doushouqi.core.rating import Rating, rate_game
from doushouqi.core.speed import Speed
from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AccountRow, RatingRow, SpeedRatingRow
from doushouqi.server.db.repo import create_account, record_result, score_board, standing
from doushouqi.server.db.speed_ratings import rating_board, speed_rating, speed_ratings_of
from doushouqi.server.domain import Resign


def two_accounts(path: Path) -> Database:
    db = Database(f"sqlite:///{path}")
    db.migrate()
    for name in ("li", "wang"):  # account ids 1 and 2, as in the games' player slots
        db.run_sync(
            lambda s, name=name: create_account(
                s, username=name, display_name=name, password_hash="x", avatar="tiger", now=0.0
            )
        )
    return db


def test_two_rated_games_finishing_together_both_update_the_rating(tmp_path: Path) -> None:
    db = two_accounts(tmp_path / "ratings.sqlite3")
    # Both games were set up while both players stood at the default rating.
    first, now = play(online_game(rated=True, time_control=RAPID), quiet_moves(21))
    first, _ = ok(first, Resign(actor=BLUE_ID), now + 1)
    second, now = play(online_game(rated=True, time_control=RAPID), quiet_moves(21))
    second, _ = ok(second, Resign(actor=BLUE_ID), now + 1)
    assert first.rating_change == second.rating_change  # computed from the same set-up

    db.run_sync(lambda s: record_result(s, first))
    db.run_sync(lambda s: record_result(s, second))

    once = rate_game(Rating(), Rating(), 1.0)
    twice = rate_game(once[0], once[1], 1.0)
    red = db.run_sync(lambda s: s.get(RatingRow, (1, "jungle")))
    blue = db.run_sync(lambda s: s.get(RatingRow, (2, "jungle")))
    assert red is not None and blue is not None
    assert (red.wins, blue.losses) == (2, 2)
    red_rapid = db.run_sync(lambda s: speed_rating(s, 1, "jungle", Speed.RAPID))
    blue_rapid = db.run_sync(lambda s: speed_rating(s, 2, "jungle", Speed.RAPID))
    assert abs(red_rapid.rating - twice[0].rating) < 1e-6
    assert abs(blue_rapid.rating - twice[1].rating) < 1e-6
    assert red_rapid.rating > once[0].rating  # the second win counted on top of the first
    assert (red_rapid.games, blue_rapid.games) == (2, 2)


def test_each_game_has_its_own_rating_score_and_results(tmp_path: Path) -> None:
    """A game of another game counts there only; leaving and timeouts count for the account."""
    db = two_accounts(tmp_path / "games.sqlite3")
    jungle, now = play(online_game(rated=True, time_control=RAPID), quiet_moves(21))
    jungle, _ = ok(jungle, Resign(actor=BLUE_ID), now + 1)
    db.run_sync(lambda s: record_result(s, jungle))
    other = dataclasses.replace(jungle, id="g-other", game_key="other", leaver=1)
    db.run_sync(lambda s: record_result(s, other))
    db.run_sync(lambda s: record_result(s, other))

    for key, games in (("jungle", 1), ("other", 2)):
        first = db.run_sync(lambda s, key=key: standing(s, 1, key))
        second = db.run_sync(lambda s, key=key: standing(s, 2, key))
        assert (first.games, first.wins, second.losses) == (games, games, games)
        assert first.score > 0 > second.score
    once = rate_game(Rating(), Rating(), 1.0)
    rapid = Speed.RAPID
    assert db.run_sync(lambda s: speed_rating(s, 1, "jungle", rapid)).rating == once[0].rating
    twice = db.run_sync(lambda s: speed_rating(s, 1, "other", rapid)).rating
    assert twice != once[0].rating
    never = db.run_sync(lambda s: standing(s, 1, "unplayed"))
    assert (never.games, never.score) == (0, 0)
    fresh = db.run_sync(lambda s: speed_rating(s, 1, "unplayed", rapid))
    assert (fresh.rating, fresh.rd, fresh.games) == (Rating().rating, Rating().rd, 0)
    leaver = db.run_sync(lambda s: s.get(AccountRow, 2))
    assert leaver is not None and leaver.disconnects == 2


def test_a_blitz_game_moves_the_blitz_rating_only(tmp_path: Path) -> None:
    db = two_accounts(tmp_path / "speeds.sqlite3")
    blitz, now = play(online_game(rated=True, time_control="3+2"), quiet_moves(21))
    blitz, _ = ok(blitz, Resign(actor=BLUE_ID), now + 1)
    assert blitz.speed is Speed.BLITZ
    db.run_sync(lambda s: record_result(s, blitz))

    ratings = db.run_sync(lambda s: speed_ratings_of(s, 1, "jungle"))
    won = rate_game(Rating(), Rating(), 1.0)[0]
    assert ratings[Speed.BLITZ].rating == won.rating and ratings[Speed.BLITZ].games == 1
    assert ratings[Speed.BLITZ].rd < Rating().rd
    for speed in (Speed.BULLET, Speed.RAPID, Speed.CLASSICAL, Speed.CORRESPONDENCE):
        assert (ratings[speed].rating, ratings[speed].rd, ratings[speed].games) == (
            Rating().rating,
            Rating().rd,
            0,
        )
    stored = db.run_sync(lambda s: s.scalars(select(SpeedRatingRow.speed)).all())
    assert sorted(stored) == ["blitz", "blitz"]  # one row per player, none for other speeds


def test_a_casual_game_moves_no_rating_but_counts_for_the_score(tmp_path: Path) -> None:
    db = two_accounts(tmp_path / "casual.sqlite3")
    casual, now = play(online_game(time_control="3+2"), quiet_moves(21))
    casual, _ = ok(casual, Resign(actor=BLUE_ID), now + 1)
    assert casual.rating_change is None
    db.run_sync(lambda s: record_result(s, casual))
    assert db.run_sync(lambda s: s.scalars(select(SpeedRatingRow)).all()) == []
    assert db.run_sync(lambda s: standing(s, 1, "jungle")).score > 0


def test_banned_and_closed_accounts_leave_the_rating_and_score_boards(tmp_path: Path) -> None:
    db = two_accounts(tmp_path / "boards.sqlite3")
    rated, now = play(online_game(rated=True, time_control=RAPID), quiet_moves(21))
    rated, _ = ok(rated, Resign(actor=BLUE_ID), now + 1)
    db.run_sync(lambda s: record_result(s, rated))

    def boards() -> tuple[list[str], list[str]]:
        def read(session: Session) -> tuple[list[str], list[str]]:
            by_rating = rating_board(session, "jungle", Speed.RAPID, 10)
            by_score = score_board(session, 10, "jungle")
            return [a.username for a, _, _ in by_rating], [a.username for a, _ in by_score]

        return db.run_sync(read)

    assert boards() == (["li", "wang"], ["li", "wang"])

    def leave(session: Session, username: str, column: str) -> None:
        account = session.scalars(select(AccountRow).where(AccountRow.username == username)).one()
        setattr(account, column, 5.0)

    db.run_sync(lambda s: leave(s, "li", "banned_at"))
    assert boards() == (["wang"], ["wang"])
    db.run_sync(lambda s: leave(s, "wang", "closed_at"))
    assert boards() == ([], [])
    kept = db.run_sync(lambda s: speed_rating(s, 1, "jungle", Speed.RAPID))
    assert kept.games == 1  # off the boards, not forgotten

"""Ratings per speed: reading an account's Glicko-2 rating in one game at one speed, rating a
finished game there, and the rating boards. Plain functions of a session, as in :mod:`.repo`
(no commit here: the caller's transaction does).

A missing row reads as a new player's (1500, RD 350); the first rated game at that speed
writes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import and_, case, desc, select
from sqlalchemy.orm import Session

from doushouqi.core.rating import PROVISIONAL_RD, Rating, rate_game
from doushouqi.core.speed import Speed
from doushouqi.server.db.models import AccountRow, RatingRow, SpeedRatingRow

__all__ = [
    "as_rating",
    "fresh_speed_rating",
    "rate_rated_game",
    "rating_board",
    "speed_rating",
    "speed_ratings_for",
    "speed_ratings_of",
]


def fresh_speed_rating(account_id: int, game: str, speed: Speed) -> SpeedRatingRow:
    """A new player's rating at ``speed`` (not added to the session)."""
    fresh = Rating()
    return SpeedRatingRow(
        account_id=account_id,
        game=game,
        speed=speed.value,
        rating=fresh.rating,
        rd=fresh.rd,
        volatility=fresh.volatility,
        games=0,
    )


def as_rating(row: SpeedRatingRow) -> Rating:
    return Rating(row.rating, row.rd, row.volatility)


def speed_rating(session: Session, account_id: int, game: str, speed: Speed) -> SpeedRatingRow:
    """The account's rating in ``game`` at ``speed`` (a new player's when it has none: then not
    added to the session)."""
    row = session.get(SpeedRatingRow, (account_id, game, speed.value))
    return fresh_speed_rating(account_id, game, speed) if row is None else row


def speed_ratings_of(session: Session, account_id: int, game: str) -> dict[Speed, SpeedRatingRow]:
    """The account's rating at every speed of ``game``, fastest first."""
    found = {
        row.speed: row
        for row in session.scalars(
            select(SpeedRatingRow).where(
                SpeedRatingRow.account_id == account_id, SpeedRatingRow.game == game
            )
        )
    }
    return {s: found.get(s.value) or fresh_speed_rating(account_id, game, s) for s in Speed}


def speed_ratings_for(
    session: Session, account_ids: Iterable[int], game: str, speed: Speed
) -> dict[int, SpeedRatingRow]:
    """The rating at ``speed`` of each of ``account_ids`` (those without a row: a new player's),
    in one query."""
    ids = sorted(set(account_ids))
    found = {
        row.account_id: row
        for row in session.scalars(
            select(SpeedRatingRow).where(
                SpeedRatingRow.account_id.in_(ids),
                SpeedRatingRow.game == game,
                SpeedRatingRow.speed == speed.value,
            )
        )
    }
    return {i: found.get(i) or fresh_speed_rating(i, game, speed) for i in ids}


def _stored(session: Session, account_id: int, game: str, speed: Speed) -> SpeedRatingRow:
    row = session.get(SpeedRatingRow, (account_id, game, speed.value))
    if row is None:  # the account's first rated game at this speed
        row = fresh_speed_rating(account_id, game, speed)
        session.add(row)
    return row


def rate_rated_game(
    session: Session, accounts: tuple[int, int], game: str, speed: Speed, score_first: float
) -> None:
    """Rate one finished game between ``accounts`` (seat 0, seat 1) at ``speed``: ``score_first``
    is seat 0's score (1, 0.5 or 0). Rated from the ratings stored now, not those of the game's
    set-up: another rated game of the same account may have finished in between, and its update
    must stay (writes are serialised, so reading then writing cannot race)."""
    first, second = (_stored(session, a, game, speed) for a in accounts)
    after = rate_game(as_rating(first), as_rating(second), score_first)
    for row, new in zip((first, second), after, strict=True):
        row.rating, row.rd, row.volatility = new.rating, new.rd, new.volatility
        row.games += 1


def rating_board(
    session: Session, game: str, speed: Speed, limit: int
) -> list[tuple[AccountRow, SpeedRatingRow, RatingRow | None]]:
    """The best players of ``game`` at ``speed`` by rating, among those with a rated game there:
    settled ratings first, then the provisional ones (RD above ``PROVISIONAL_RD``), each by
    rating; with each player's standing in the game (its ladder score) where it has one. Banned
    and closed accounts are left off, as on the score board."""
    provisional = case((SpeedRatingRow.rd > PROVISIONAL_RD, 1), else_=0)
    query = (
        select(AccountRow, SpeedRatingRow, RatingRow)
        .join(SpeedRatingRow, SpeedRatingRow.account_id == AccountRow.id)
        .outerjoin(
            RatingRow,
            and_(RatingRow.account_id == AccountRow.id, RatingRow.game == SpeedRatingRow.game),
        )
        .where(
            SpeedRatingRow.game == game,
            SpeedRatingRow.speed == speed.value,
            SpeedRatingRow.games > 0,
        )
        # Banned and closed accounts leave the leaderboard (their games stay).
        .where(AccountRow.banned_at.is_(None), AccountRow.closed_at.is_(None))
        .order_by(provisional, desc(SpeedRatingRow.rating), AccountRow.id)
        .limit(limit)
    )
    return [(account, row, standing) for account, row, standing in session.execute(query)]

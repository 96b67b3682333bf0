"""Tournaments' tables (arena and Swiss): the tournament, its players and its pairings.

Everything a tournament's director decides is a row here before it acts on it, so a restart or
another node taking over (the ``director_node`` / ``director_until`` lease) carries on where it
stopped: a pairing gets its game's id when it is made, and the game is created from it only if
no game of that id exists yet. Scores are not stored: the standings are computed from the
pairings' results whenever asked (:mod:`doushouqi.server.tournaments.standings`).
Times are Unix seconds as floats.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["TournamentPairingRow", "TournamentPlayerRow", "TournamentRow"]


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: ``arena`` or ``swiss``.
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(60))
    creator_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    #: The game it plays (its key).
    game: Mapped[str] = mapped_column(String(16))
    #: The rule set's options as ``/api/rules`` writes them (JSON).
    rules: Mapped[str] = mapped_column(Text)
    time_control: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    starts_at: Mapped[float] = mapped_column(Float)
    #: Arena: how long it lasts (seconds); Swiss: None.
    duration: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Swiss: how many rounds; arena: None.
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_players: Mapped[int] = mapped_column(Integer)
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: ``created``, ``started`` or ``finished``.
    status: Mapped[str] = mapped_column(String(12))
    #: Swiss: the round being played (0 before the first).
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The node directing it now, until when (a lease in the database: one director at a time).
    director_node: Mapped[str | None] = mapped_column(String(64), nullable=True)
    director_until: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_tournaments_status", "status"),)


class TournamentPlayerRow(Base):
    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    #: ``joined``, ``withdrawn`` or ``absent`` (arena: two no-shows; back with "rejoin").
    state: Mapped[str] = mapped_column(String(12))
    name: Mapped[str] = mapped_column(String(40))
    username: Mapped[str] = mapped_column(String(32))
    #: The rating when they joined (pairing order and tie-breaks' last resort).
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    #: Arena: since when they wait for a game (their last game's end, or their joining).
    idle_since: Mapped[float] = mapped_column(Float)
    #: Games lost by not coming (arena: two mark the player absent).
    no_shows: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (Index("ix_tournament_players_account_id", "account_id"),)


class TournamentPairingRow(Base):
    __tablename__ = "tournament_pairings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    #: Swiss: the round; arena: 0.
    round: Mapped[int] = mapped_column(Integer)
    red_id: Mapped[int] = mapped_column(Integer)
    #: None: a bye for Red (Swiss).
    blue_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Chosen with the pairing; the game is created under it (None for a bye).
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True, unique=True)
    #: None while the game is on; else one of ``standings.RESULTS``.
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        Index("ix_tournament_pairings_tournament_id", "tournament_id"),
        Index("ix_tournament_pairings_red_id", "red_id"),
        Index("ix_tournament_pairings_blue_id", "blue_id"),
    )

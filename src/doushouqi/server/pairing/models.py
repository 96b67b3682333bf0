"""Tables of finding a game: quick-pairing seeks and challenges.

Each row is the truth for every node of a cluster: a seek is claimed by deleting it (one
transaction deletes both seeks of a pair, or neither), a challenge moves on by an update
that names the status it expects, so two nodes never act on the same row twice.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["ChallengeRow", "SeekRow"]


class SeekRow(Base):
    """A player waiting in the quick-pairing pool for an opponent with the same wishes."""

    __tablename__ = "seeks"
    __table_args__ = (Index("ix_seeks_player_key", "player_key"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_key: Mapped[str] = mapped_column(String(80))
    #: Who is seeking, as ``Principal.to_dict`` wrote it when the seek was posted (JSON).
    player: Mapped[str] = mapped_column(Text)
    #: The game it waits for (its key): a seek pairs only with a seek of the same game.
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(64))
    time_control: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean)
    #: The seeker's rating in that game when posting, and the opponents' ratings it accepts
    #: (None: any).
    rating: Mapped[float] = mapped_column(Float)
    rating_min: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_max: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    #: The seek lapses after this unless a node with the seeker's site socket renews it (a
    #: paired seek: the row is forgotten then).
    alive_until: Mapped[float] = mapped_column(Float)
    #: The game it was paired into (None: still waiting). A paired seek stays readable for a
    #: minute, so a tab that missed the ``paired`` push (reconnecting) still finds its game.
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True)


class ChallengeRow(Base):
    """One player inviting an account to a game; ``status`` moves on exactly once."""

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_to_account", "to_account"),
        Index("ix_challenges_from_key", "from_key"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_key: Mapped[str] = mapped_column(String(80))
    #: The challenger, as ``Principal.to_dict`` wrote it (JSON).
    from_player: Mapped[str] = mapped_column(Text)
    to_account: Mapped[int] = mapped_column(Integer)
    #: The game it invites to (its key).
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(String(64))
    time_control: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: The challenger's seat: ``red`` (seat 0), ``blue`` (seat 1) or ``random`` (the names are
    #: Jungle's colours, kept as stored; in the Tiger seat 0 is the tiger's side).
    color: Mapped[str] = mapped_column(String(8))
    rated: Mapped[bool] = mapped_column(Boolean)
    #: The challenger chose to keep the game off Watch and TV.
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    #: ``pending``, then ``accepted``, ``declined``, ``cancelled`` or ``expired``.
    status: Mapped[str] = mapped_column(String(16))
    decline_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)

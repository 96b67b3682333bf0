"""Puzzles: the shipped puzzles (loaded from server/data/puzzles.jsonl, their ratings rated by
solvers), the solvers' puzzle ratings and streaks, and every finished attempt (the history).

Players are keyed like games key them (``account:7``, ``guest:ID``): a guest's rating is tied
to its guest id, an account's follows it everywhere. Everything lives here, not in a node's
memory, so any node answers any request.

A player's first try at a puzzle is its only rated one: a unique index on the rated tries
(``ux_puzzle_attempts_rated_once``) makes the database refuse a second, where two nodes judge
the same first try at the same moment. And a puzzle whose solution a browser has seen, under
any of the names it goes by (``puzzle_seen``), is no first try for whoever it signs in as.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["PuzzleAttemptRow", "PuzzlePlayerRow", "PuzzleRow", "PuzzleSeenRow"]


class PuzzleRow(Base):
    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_rating", "rating"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    #: The position (placement and side to move; no history).
    fen: Mapped[str] = mapped_column(String(100))
    #: The rule set the puzzle was made for (and proved under).
    rules: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(8))  # "win" or "defence"
    depth: Mapped[int] = mapped_column(Integer)
    #: The solution: the player's and the opponent's moves, JSON list.
    line: Mapped[str] = mapped_column(Text)
    #: ",den_attack,traps," — commas on both sides, so a theme is found with LIKE '%,x,%'.
    themes: Mapped[str] = mapped_column(String(200))
    rating: Mapped[float] = mapped_column(Float)
    rating_rd: Mapped[float] = mapped_column(Float, default=350.0)
    rating_volatility: Mapped[float] = mapped_column(Float, default=0.06)
    plays: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    source: Mapped[str] = mapped_column(String(120), default="")


class PuzzlePlayerRow(Base):
    __tablename__ = "puzzle_players"

    player_key: Mapped[str] = mapped_column(String(80), primary_key=True)
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    rating_rd: Mapped[float] = mapped_column(Float, default=350.0)
    rating_volatility: Mapped[float] = mapped_column(Float, default=0.06)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    #: Streak mode: puzzles solved in a row now, the last one's rating, the best run.
    streak: Mapped[int] = mapped_column(Integer, default=0)
    streak_rating: Mapped[float] = mapped_column(Float, default=0.0)
    streak_best: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float, default=0.0)


class PuzzleAttemptRow(Base):
    __tablename__ = "puzzle_attempts"
    __table_args__ = (
        Index("ix_puzzle_attempts_player_at", "player_key", "at"),
        Index("ix_puzzle_attempts_player_puzzle", "player_key", "puzzle_id"),
        # One rated try per player and puzzle: the first, however many nodes judge it at once.
        Index(
            "ux_puzzle_attempts_rated_once",
            "player_key",
            "puzzle_id",
            unique=True,
            sqlite_where=text("rated"),
            postgresql_where=text("rated"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_key: Mapped[str] = mapped_column(String(80))
    puzzle_id: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    solved: Mapped[bool] = mapped_column(Boolean)
    #: Only a player's first try at a puzzle is rated; hints and the solution count as a miss.
    rated: Mapped[bool] = mapped_column(Boolean)
    mode: Mapped[str] = mapped_column(String(8))  # "rated", "streak", "daily", "theme"
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)


class PuzzleSeenRow(Base):
    """Someone saw a puzzle's solution, or part of it, or had its rated try: a solve (which
    shows the line), a wrong move (which tells one move that fails), a hint, giving up.
    ``viewer`` is each name the browser went by: the player's key
    (``account:7``, ``guest:ID``), the guest it was before signing in (its guest cookie), and
    its device cookie (``device:HASH``, :func:`doushouqi.server.accounts.auth.browser_keys`).
    A try by anyone the browser signs in as later is not rated."""

    __tablename__ = "puzzle_seen"

    viewer: Mapped[str] = mapped_column(String(80), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[float] = mapped_column(Float)

"""Stored game reviews: one row per finished game and search budget (review/service.py fills
it; docs/server.md, "Game review").

A review is computed once, at a fixed budget (nodes), so that it is the same for every viewer
and every time; a deeper one is another row of the same game, and the deepest finished one is
shown. While a review runs, its row is the coordination point of every node: whoever inserted
it (or took it over) searches, the others join it and read its progress, and ``beat`` is the
lease (a review whose node died is taken over, from the positions it had stored).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["GameReviewRow"]


class GameReviewRow(Base):
    __tablename__ = "game_reviews"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: The search budget of every position, in nodes (review.service.BUDGETS).
    budget: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``running``, ``done`` or ``failed``.
    status: Mapped[str] = mapped_column(String(8))
    #: Positions searched so far, of ``total`` (the start and the position after each ply).
    done: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    #: Per position (JSON list): the engine's score (the side to move's view), the score from
    #: the first seat's view, the best move (in words too), its line and the depth reached.
    positions: Mapped[str] = mapped_column(Text)
    #: When done (JSON): each graded ply (loss of win%, accuracy, grade) and each side's
    #: accuracy and counts.
    plies: Mapped[str | None] = mapped_column(Text, nullable=True)
    players: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The node searching it, and when it last said so (the lease of a running review).
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    beat: Mapped[float] = mapped_column(Float)
    #: Why it failed (the last error), for the log and the client.
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)

"""The opening explorer's index: per rule set, position and move, how the games that played
it ended, rated or casual, by rating band (explorer/service.py fills it as games finish).

One row per (rule set, position, rated, rating band, move): a query for a position reads the
rows of its key prefix through the primary key and sums the bands at or above the reader's
minimum (and the rated or casual half, when asked), so its cost depends on the moves played
there, never on how many games are stored.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["OpeningMoveRow"]


class OpeningMoveRow(Base):
    __tablename__ = "opening_moves"

    #: A named rule set (``wango``, ``classic`` …; another game's as ``tiger:name``): custom
    #: rules are indexed only when they equal a named set.
    rules: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The position before the move: its string without the two counters ("placement turn").
    position: Mapped[str] = mapped_column(String(80), primary_key=True)
    #: Whether the games were rated (a rated filter reads one half, no filter both).
    rated: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    #: The lower bound of the players' average rating's band (service.RATING_BANDS).
    band: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The move string (老虎棋's multi-jumps name every landing point: longer than Jungle's).
    move: Mapped[str] = mapped_column(String(40), primary_key=True)
    red_wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    blue_wins: Mapped[int] = mapped_column(Integer, default=0)

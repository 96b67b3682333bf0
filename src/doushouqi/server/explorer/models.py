"""The opening explorer's index: per rule set, position and move, how the games that played
it ended, by rating band (server/explorer.py fills it as games finish).

One row per (rule set, position, rating band, move): a query for a position reads the rows
of its key prefix through the primary key and sums the bands at or above the reader's
minimum, so its cost depends on the moves played there, never on how many games are stored.
"""

from __future__ import annotations

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["OpeningMoveRow"]


class OpeningMoveRow(Base):
    __tablename__ = "opening_moves"

    #: A named rule set (``wango``, ``classic`` …): custom rules are indexed only when they
    #: equal a named set.
    rules: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The position before the move: its string without the two counters ("placement turn").
    position: Mapped[str] = mapped_column(String(80), primary_key=True)
    #: The lower bound of the players' average rating's band (explorer.RATING_BANDS).
    band: Mapped[int] = mapped_column(Integer, primary_key=True)
    move: Mapped[str] = mapped_column(String(8), primary_key=True)
    red_wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    blue_wins: Mapped[int] = mapped_column(Integer, default=0)

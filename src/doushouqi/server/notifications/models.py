"""The bell's table: one row per notification, the truth for every node of a cluster."""

from __future__ import annotations

from sqlalchemy import Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["NotificationRow"]


class NotificationRow(Base):
    """One entry of a player's bell: a kind and its parameters (the client words them)."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_player_key_id", "player_key", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: ``account:7`` or ``guest:<public id>`` (``repo.player_key``).
    player_key: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(40))
    #: JSON object: what the client needs to word the notification.
    params: Mapped[str] = mapped_column(Text)
    #: Where the notification leads in the web client (a ``#/...`` route), if anywhere.
    link: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    read_at: Mapped[float | None] = mapped_column(Float, nullable=True)

"""The moderation log's table: every moderator's (and the command line's) action, kept.

One row per action: who did it, what, to whom, why and when. Nothing here is ever updated or
deleted by the site: the log is how moderators answer for what they did.
"""

from __future__ import annotations

from sqlalchemy import Float, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["ModLogRow"]


class ModLogRow(Base):
    __tablename__ = "mod_log"
    __table_args__ = (Index("ix_mod_log_target_key", "target_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    #: The moderator's account (None: the ``doushouqi admin`` command line), and its username
    #: as it was then.
    moderator_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    moderator: Mapped[str] = mapped_column(String(32))
    #: ``dismiss``, ``remove_message``, ``mute``, ``ban``, ``unban``, ``close``, ``grant``,
    #: ``revoke``.
    action: Mapped[str] = mapped_column(String(24))
    #: Whom it was done to, as games key players (``account:7``, ``guest:ID``), and the name
    #: shown then.
    target_key: Mapped[str] = mapped_column(String(80))
    target_name: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(Text, default="")
    #: What else there is to know, as JSON: the removed message's text, a mute's end, a role.
    details: Mapped[str] = mapped_column(Text, default="{}")

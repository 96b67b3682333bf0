"""The tables of games' chat: the messages, each in one of a game's two rooms, and reports.

A game has two rooms: ``players`` (its two seated players) and ``spectators`` (everyone else).
A message is stored by the game's owner node before anyone hears of it, so a restart or a
takeover loses nothing, and a reader who connects later gets the recent ones from here. A
message holds either free ``text`` or a quick ``phrase`` code (``good_game``) that every
reader sees in their own language.
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from doushouqi.server.db.models import Base

__all__ = ["ChatMessageRow", "ChatMuteRow", "ChatReportRow"]


class ChatMessageRow(Base):
    __tablename__ = "chat_messages"

    #: Increasing: the order of the game's messages, and the id a report names.
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    #: ``players`` or ``spectators``.
    room: Mapped[str] = mapped_column(String(12))
    #: Who wrote it, as games key players (``account:7``, ``guest:ID``), and the name shown.
    author_key: Mapped[str] = mapped_column(String(80))
    author_name: Mapped[str] = mapped_column(String(40))
    #: Free text (1-140 code points), or None for a quick phrase.
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: A quick phrase's code (``hello``, ``good_game`` …), or None for free text.
    phrase: Mapped[str | None] = mapped_column(String(24), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    #: When a moderator removed it (None: shown). Kept for the moderation log's context, never
    #: shown to readers again.
    removed_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        Index("ix_chat_messages_game_id_id", "game_id", "id"),
        # The rate limit counts a sender's recent messages, in every game.
        Index("ix_chat_messages_author_key_at", "author_key", "at"),
    )


class ChatReportRow(Base):
    """A reader's report of a message (one per reader and message)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"))
    reporter_key: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    #: When a moderator dealt with it (dismissed, or removed the message); None: in the queue.
    resolved_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        UniqueConstraint("message_id", "reporter_key"),
        Index("ix_chat_reports_resolved_at", "resolved_at"),
    )


class ChatMuteRow(Base):
    """A sender a moderator has muted: no message of theirs is stored until ``until``."""

    __tablename__ = "chat_mutes"

    #: As messages key their authors (``account:7``, ``guest:ID``).
    author_key: Mapped[str] = mapped_column(String(80), primary_key=True)
    until: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)

"""Games' chat: messages in the players' and the spectators' rooms, and readers' reports.

Revision ID: 0006_chat
Revises: 0005_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_chat"
down_revision = "0005_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("room", sa.String(length=12), nullable=False),
        sa.Column("author_key", sa.String(length=80), nullable=False),
        sa.Column("author_name", sa.String(length=40), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("phrase", sa.String(length=24), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_chat_messages_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index("ix_chat_messages_game_id_id", "chat_messages", ["game_id", "id"])
    op.create_index("ix_chat_messages_author_key_at", "chat_messages", ["author_key", "at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("reporter_key", sa.String(length=80), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["chat_messages.id"],
            name=op.f("fk_chat_reports_message_id_chat_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
        sa.UniqueConstraint("message_id", "reporter_key", name=op.f("uq_chat_reports_message_id")),
    )


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_author_key_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_game_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")

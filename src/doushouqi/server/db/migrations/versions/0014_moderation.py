"""Moderation: accounts' roles, bans and closing; removed chat messages, dealt-with reports and
muted senders; the moderation log.

``accounts.role`` (``player`` for every existing account; ``doushouqi admin grant`` makes the
first admin), ``accounts.banned_at`` and ``accounts.closed_at``; ``chat_messages.removed_at``,
``chat_reports.resolved_at``, the table ``chat_mutes`` and the table ``mod_log``.

Revision ID: 0014_moderation
Revises: 0012_games_of_seeks_and_records
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_moderation"
down_revision = "0013_scoped_tokens_and_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch_op:
        batch_op.add_column(
            sa.Column("role", sa.String(length=16), nullable=False, server_default="player")
        )
        batch_op.add_column(sa.Column("banned_at", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("closed_at", sa.Float(), nullable=True))
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.add_column(sa.Column("removed_at", sa.Float(), nullable=True))
    with op.batch_alter_table("chat_reports") as batch_op:
        batch_op.add_column(sa.Column("resolved_at", sa.Float(), nullable=True))
    op.create_index("ix_chat_reports_resolved_at", "chat_reports", ["resolved_at"])
    op.create_table(
        "chat_mutes",
        sa.Column("author_key", sa.String(length=80), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("author_key", name=op.f("pk_chat_mutes")),
    )
    op.create_table(
        "mod_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("moderator_id", sa.Integer(), nullable=True),
        sa.Column("moderator", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=24), nullable=False),
        sa.Column("target_key", sa.String(length=80), nullable=False),
        sa.Column("target_name", sa.String(length=40), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mod_log")),
    )
    op.create_index("ix_mod_log_target_key", "mod_log", ["target_key"])


def downgrade() -> None:
    op.drop_index("ix_mod_log_target_key", table_name="mod_log")
    op.drop_table("mod_log")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_resolved_at", table_name="chat_reports")
    with op.batch_alter_table("chat_reports") as batch_op:
        batch_op.drop_column("resolved_at")
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.drop_column("removed_at")
    with op.batch_alter_table("accounts") as batch_op:
        batch_op.drop_column("closed_at")
        batch_op.drop_column("banned_at")
        batch_op.drop_column("role")

"""Finding a game: notifications (the bell), quick-pairing seeks, challenges.

Revision ID: 0004_notifications_and_pairing
Revises: 0003_record_quotas
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_notifications_and_pairing"
down_revision = "0003_record_quotas"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_key", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("link", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("read_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
    )
    op.create_index(
        "ix_notifications_player_key_id", "notifications", ["player_key", "id"], unique=False
    )
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("player_key", sa.String(length=80), nullable=False),
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("rules", sa.String(length=64), nullable=False),
        sa.Column("time_control", sa.String(length=40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rating_min", sa.Float(), nullable=True),
        sa.Column("rating_max", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("alive_until", sa.Float(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seeks")),
    )
    op.create_index("ix_seeks_player_key", "seeks", ["player_key"], unique=False)
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("from_key", sa.String(length=80), nullable=False),
        sa.Column("from_player", sa.Text(), nullable=False),
        sa.Column("to_account", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=64), nullable=False),
        sa.Column("time_control", sa.String(length=40), nullable=True),
        sa.Column("color", sa.String(length=8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("decline_reason", sa.String(length=32), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    op.create_index("ix_challenges_to_account", "challenges", ["to_account"], unique=False)
    op.create_index("ix_challenges_from_key", "challenges", ["from_key"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_challenges_from_key", table_name="challenges")
    op.drop_index("ix_challenges_to_account", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ix_seeks_player_key", table_name="seeks")
    op.drop_table("seeks")
    op.drop_index("ix_notifications_player_key_id", table_name="notifications")
    op.drop_table("notifications")

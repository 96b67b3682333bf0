"""Stored game reviews: game_reviews (one row per game and search budget).

Revision ID: 0016_game_reviews
Revises: 0014_moderation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_game_reviews"
down_revision = "0015_private_challenges"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("positions", sa.Text(), nullable=False),
        sa.Column("plies", sa.Text(), nullable=True),
        sa.Column("players", sa.Text(), nullable=True),
        sa.Column("owner", sa.String(length=64), nullable=True),
        sa.Column("beat", sa.Float(), nullable=False),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_reviews_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "budget", name=op.f("pk_game_reviews")),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")

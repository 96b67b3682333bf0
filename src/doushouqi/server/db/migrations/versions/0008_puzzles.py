"""Puzzles: puzzles, puzzle_players, puzzle_attempts.

Revision ID: 0008_puzzles
Revises: 0007_opening_explorer
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_puzzles"
down_revision = "0007_opening_explorer"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("fen", sa.String(length=100), nullable=False),
        sa.Column("rules", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("themes", sa.String(length=200), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rating_rd", sa.Float(), nullable=False),
        sa.Column("rating_volatility", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
    )
    op.create_index("ix_puzzles_rating", "puzzles", ["rating"])
    op.create_table(
        "puzzle_players",
        sa.Column("player_key", sa.String(length=80), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rating_rd", sa.Float(), nullable=False),
        sa.Column("rating_volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("streak_rating", sa.Float(), nullable=False),
        sa.Column("streak_best", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("player_key", name=op.f("pk_puzzle_players")),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_key", sa.String(length=80), nullable=False),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle_attempts")),
    )
    op.create_index("ix_puzzle_attempts_player_at", "puzzle_attempts", ["player_key", "at"])
    op.create_index(
        "ix_puzzle_attempts_player_puzzle", "puzzle_attempts", ["player_key", "puzzle_id"]
    )


def downgrade() -> None:
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_index("ix_puzzles_rating", table_name="puzzles")
    op.drop_table("puzzles")

"""Tournaments (arena and Swiss): tournaments, their players and pairings.

Revision ID: 0004_tournament
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_tournament"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("time_control", sa.String(length=40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("duration", sa.Float(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("min_rating", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("director_node", sa.String(length=64), nullable=True),
        sa.Column("director_until", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["creator_id"],
            ["accounts.id"],
            name=op.f("fk_tournaments_creator_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"], unique=False)
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("idle_since", sa.Float(), nullable=False),
        sa.Column("no_shows", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_tournament_players_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_players_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "account_id", name=op.f("pk_tournament_players")),
    )
    op.create_index(
        "ix_tournament_players_account_id", "tournament_players", ["account_id"], unique=False
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("red_id", sa.Integer(), nullable=False),
        sa.Column("blue_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_pairings_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_pairings")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_pairings_game_id")),
    )
    for column in ("tournament_id", "red_id", "blue_id"):
        op.create_index(
            f"ix_tournament_pairings_{column}", "tournament_pairings", [column], unique=False
        )


def downgrade() -> None:
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")

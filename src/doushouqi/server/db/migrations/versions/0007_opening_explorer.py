"""The opening explorer's index: opening_moves.

Revision ID: 0007_opening_explorer
Revises: 0006_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_opening_explorer"
down_revision = "0006_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "opening_moves",
        sa.Column("rules", sa.String(length=32), nullable=False),
        sa.Column("position", sa.String(length=80), nullable=False),
        sa.Column("band", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(length=8), nullable=False),
        sa.Column("red_wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("blue_wins", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("rules", "position", "band", "move", name=op.f("pk_opening_moves")),
    )


def downgrade() -> None:
    op.drop_table("opening_moves")

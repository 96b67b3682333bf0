"""Private challenges: ``challenges.private``.

A game between people is public (on Watch and TV) unless a player chose otherwise; a
challenge carries the challenger's choice to its game. Every challenge stored before this
revision was made when such games were never shown, so none of them is marked private: their
games, if accepted now, are shown like any other.

Revision ID: 0015_private_challenges
Revises: 0012_games_of_seeks_and_records
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_private_challenges"
down_revision = "0014_moderation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.add_column(
            sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # The models give the value; a server default left here would differ from them.
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.alter_column("private", server_default=None)


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch_op:
        batch_op.drop_column("private")

"""Puzzle first tries: ``ux_puzzle_attempts_rated_once``, a unique index on the rated tries
(one per player and puzzle, however many nodes judge a first try at once), and
``puzzle_seen`` (who has seen a puzzle's solution: such a browser's next tries are unrated).

A database that rated a first try twice before the index (two nodes at once) keeps the
earliest of those tries rated and the others unrated, so that the index can be made.

Revision ID: 0011_puzzle_first_tries
Revises: 0010_site_outages
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_puzzle_first_tries"
down_revision = "0010_site_outages"
branch_labels = None
depends_on = None

attempts = sa.table(
    "puzzle_attempts",
    sa.column("id", sa.Integer()),
    sa.column("player_key", sa.String()),
    sa.column("puzzle_id", sa.String()),
    sa.column("rated", sa.Boolean()),
)


def upgrade() -> None:
    first = (
        sa.select(sa.func.min(attempts.c.id))
        .where(attempts.c.rated.is_(True))
        .group_by(attempts.c.player_key, attempts.c.puzzle_id)
    )
    op.execute(
        attempts.update()
        .where(attempts.c.rated.is_(True), attempts.c.id.not_in(first))
        .values(rated=False)
    )
    op.create_index(
        "ux_puzzle_attempts_rated_once",
        "puzzle_attempts",
        ["player_key", "puzzle_id"],
        unique=True,
        sqlite_where=sa.text("rated"),
        postgresql_where=sa.text("rated"),
    )
    op.create_table(
        "puzzle_seen",
        sa.Column("viewer", sa.String(length=80), nullable=False),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("viewer", "puzzle_id", name=op.f("pk_puzzle_seen")),
    )


def downgrade() -> None:
    op.drop_table("puzzle_seen")
    op.drop_index("ux_puzzle_attempts_rated_once", table_name="puzzle_attempts")

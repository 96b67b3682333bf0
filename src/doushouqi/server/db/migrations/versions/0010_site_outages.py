"""Site outages: ``site_outages``, the times the site was away (down, or a node cut off from
Redis), which waiting periods are measured without (``server/domain/site_time.py``).

Revision ID: 0010_site_outages
Revises: 0009_game_keys_seats_and_ratings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_site_outages"
down_revision = "0009_game_keys_seats_and_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "site_outages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=False),
        sa.Column("cause", sa.String(length=8), nullable=False),
        sa.Column("node", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_outages")),
    )
    op.create_index("ix_site_outages_ended_at", "site_outages", ["ended_at"])


def downgrade() -> None:
    op.drop_index("ix_site_outages_ended_at", table_name="site_outages")
    op.drop_table("site_outages")

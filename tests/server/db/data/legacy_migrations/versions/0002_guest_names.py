"""Guest display names: a guest may choose the name its games show.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guest_names",
        sa.Column("guest_id", sa.String(length=20), nullable=False),
        sa.Column("display_name", sa.String(length=40), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("guest_id", name=op.f("pk_guest_names")),
    )


def downgrade() -> None:
    op.drop_table("guest_names")

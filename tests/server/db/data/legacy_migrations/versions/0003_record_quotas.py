"""Record storage quotas: who uploaded each record, and its size.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("records") as batch_op:
        batch_op.add_column(sa.Column("uploader", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("size", sa.Integer(), server_default="0", nullable=False))
        batch_op.create_index("ix_records_uploader", ["uploader"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("records") as batch_op:
        batch_op.drop_index("ix_records_uploader")
        batch_op.drop_column("size")
        batch_op.drop_column("uploader")

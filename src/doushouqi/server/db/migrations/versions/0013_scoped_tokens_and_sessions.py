"""API tokens have scopes; sessions and tokens say where and when they were used.

``auth_tokens.scopes`` (an API token's scopes, space-separated), ``last_used_at``, ``device``
(a session's browser and system) and ``address``. API tokens made before scopes existed were
made for the bot API, and keep working there: they get its scope, ``bot:play``, and nothing
more (a token no longer changes the account, mints tokens or plays on the board).

Revision ID: 0013_scoped_tokens_and_sessions
Revises: 0012_games_of_seeks_and_records
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_scoped_tokens_and_sessions"
down_revision = "0012_games_of_seeks_and_records"
branch_labels = None
depends_on = None

#: The scope every API token made before this revision gets: the bot API's.
EARLIER_TOKENS_SCOPE = "bot:play"


def upgrade() -> None:
    with op.batch_alter_table("auth_tokens") as batch_op:
        batch_op.add_column(
            sa.Column("scopes", sa.String(length=255), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("last_used_at", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("device", sa.String(length=64), nullable=False, server_default="")
        )
        batch_op.add_column(
            sa.Column("address", sa.String(length=64), nullable=False, server_default="")
        )
    op.execute(
        sa.text("UPDATE auth_tokens SET scopes = :scopes WHERE kind = 'api'").bindparams(
            scopes=EARLIER_TOKENS_SCOPE
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("auth_tokens") as batch_op:
        for column in ("address", "device", "last_used_at", "scopes"):
            batch_op.drop_column(column)

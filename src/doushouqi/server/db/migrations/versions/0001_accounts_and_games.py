"""Accounts and games: accounts, auth tokens, games, game events, records, server state.

Revision ID: 0001_accounts_and_games
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_accounts_and_games"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("display_name", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("avatar", sa.String(length=16), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rating_rd", sa.Float(), nullable=False),
        sa.Column("rating_volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("disconnects", sa.Integer(), nullable=False),
        sa.Column("timeouts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("username", name=op.f("uq_accounts_username")),
    )
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.create_index("ix_accounts_rating", ["rating"], unique=False)
        batch_op.create_index("ix_accounts_score", ["score"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("rules", sa.String(length=64), nullable=False),
        sa.Column("time_control", sa.String(length=40), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("open_seats", sa.Integer(), nullable=False),
        sa.Column("red_key", sa.String(length=64), nullable=True),
        sa.Column("blue_key", sa.String(length=64), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("termination", sa.String(length=24), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("rematch_id", sa.String(length=16), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_blue_key", ["blue_key"], unique=False)
        batch_op.create_index("ix_games_red_key", ["red_key"], unique=False)
        batch_op.create_index("ix_games_status", ["status"], unique=False)

    op.create_table(
        "server_state",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_server_state")),
    )
    op.create_table(
        "auth_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_auth_tokens_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_auth_tokens")),
    )
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.create_index("ix_auth_tokens_account_id", ["account_id"], unique=False)

    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "version", "seq", name=op.f("pk_game_events")),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_records_account_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_records")),
    )


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("game_events")
    with op.batch_alter_table("auth_tokens", schema=None) as batch_op:
        batch_op.drop_index("ix_auth_tokens_account_id")

    op.drop_table("auth_tokens")
    op.drop_table("server_state")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_status")
        batch_op.drop_index("ix_games_red_key")
        batch_op.drop_index("ix_games_blue_key")

    op.drop_table("games")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_index("ix_accounts_score")
        batch_op.drop_index("ix_accounts_rating")

    op.drop_table("accounts")

"""Games name their game and number their seats; ratings are per (account, game).

* ``games.game``: the game's key; every existing game is Jungle's.
* ``games.red_key`` / ``blue_key`` become ``seat0_key`` / ``seat1_key`` (with their indexes):
  colours are one game's words, seats are the platform's.
* ``ratings``: what an account earns by playing, per game (score, Glicko-2 rating, games, wins,
  losses, draws). Each account's values move from ``accounts`` into its ``jungle`` row, and those
  columns (and their indexes) leave ``accounts``; ``disconnects`` and ``timeouts`` stay there,
  being counted over every game a person plays.

The avatar's new default ("", no animal chosen) is the models' and the API's: the column never
had a server default, so there is nothing to change here, and existing avatars stay as they are.

Revision ID: 0009_game_keys_seats_and_ratings
Revises: 0008_puzzles
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009_game_keys_seats_and_ratings"
down_revision = "0008_puzzles"
branch_labels = None
depends_on = None

#: Every game stored before this revision is Jungle's (the only game the site had).
FIRST_GAME = "jungle"
#: The per-game columns, as ``accounts`` had them and ``ratings`` has them.
PER_GAME = (
    "score",
    "rating",
    "rating_rd",
    "rating_volatility",
    "games",
    "wins",
    "losses",
    "draws",
)
_TYPES: dict[str, sa.types.TypeEngine[Any]] = {
    "score": sa.Integer(),
    "rating": sa.Float(),
    "rating_rd": sa.Float(),
    "rating_volatility": sa.Float(),
    "games": sa.Integer(),
    "wins": sa.Integer(),
    "losses": sa.Integer(),
    "draws": sa.Integer(),
}


def _per_game_columns() -> list[sa.Column[Any]]:
    return [sa.Column(name, _TYPES[name], nullable=False) for name in PER_GAME]


def upgrade() -> None:
    # The server default fills the existing rows, then goes: new rows always name their game,
    # and a default would let a forgotten one pass as Jungle's.
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("game", sa.String(length=16), nullable=False, server_default=FIRST_GAME)
        )
    with op.batch_alter_table("games") as batch_op:
        batch_op.alter_column("game", server_default=None)
        batch_op.drop_index("ix_games_red_key")
        batch_op.drop_index("ix_games_blue_key")
        batch_op.alter_column("red_key", new_column_name="seat0_key")
        batch_op.alter_column("blue_key", new_column_name="seat1_key")
    with op.batch_alter_table("games") as batch_op:
        batch_op.create_index("ix_games_seat0_key", ["seat0_key"], unique=False)
        batch_op.create_index("ix_games_seat1_key", ["seat1_key"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        *_per_game_columns(),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_ratings_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_game_score", "ratings", ["game", "score"])
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    # Every account gets its row, even one with no game yet: one statement copies them all,
    # and the row says no more than the defaults a missing row reads as.
    columns = ", ".join(PER_GAME)
    op.execute(
        sa.text(
            f"INSERT INTO ratings (account_id, game, {columns}) "
            f"SELECT id, :game, {columns} FROM accounts"
        ).bindparams(game=FIRST_GAME)
    )

    with op.batch_alter_table("accounts") as batch_op:
        batch_op.drop_index("ix_accounts_score")
        batch_op.drop_index("ix_accounts_rating")
        for name in PER_GAME:
            batch_op.drop_column(name)


def downgrade() -> None:
    # Back to one standing per account: its Jungle row (the only game that schema knew); an
    # account without one gets a new player's values. Other games' rows are lost.
    defaults = {
        "score": "0",
        "rating": "1500.0",
        "rating_rd": "350.0",
        "rating_volatility": "0.06",
        "games": "0",
        "wins": "0",
        "losses": "0",
        "draws": "0",
    }
    with op.batch_alter_table("accounts") as batch_op:
        for name in PER_GAME:
            batch_op.add_column(
                sa.Column(name, _TYPES[name], nullable=False, server_default=defaults[name])
            )
    for name in PER_GAME:
        op.execute(
            sa.text(
                f"UPDATE accounts SET {name} = (SELECT ratings.{name} FROM ratings "
                "WHERE ratings.account_id = accounts.id AND ratings.game = :game) "
                "WHERE EXISTS (SELECT 1 FROM ratings "
                "WHERE ratings.account_id = accounts.id AND ratings.game = :game)"
            ).bindparams(game=FIRST_GAME)
        )
    with op.batch_alter_table("accounts") as batch_op:
        for name in PER_GAME:
            batch_op.alter_column(name, server_default=None)
        batch_op.create_index("ix_accounts_rating", ["rating"], unique=False)
        batch_op.create_index("ix_accounts_score", ["score"], unique=False)
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_index("ix_ratings_game_score", table_name="ratings")
    op.drop_table("ratings")

    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_seat0_key")
        batch_op.drop_index("ix_games_seat1_key")
        batch_op.alter_column("seat0_key", new_column_name="red_key")
        batch_op.alter_column("seat1_key", new_column_name="blue_key")
    with op.batch_alter_table("games") as batch_op:
        batch_op.create_index("ix_games_blue_key", ["blue_key"], unique=False)
        batch_op.create_index("ix_games_red_key", ["red_key"], unique=False)
        batch_op.drop_column("game")

"""Seeks, challenges, tournaments and uploaded records name their game.

``seeks.game``, ``challenges.game``, ``tournaments.game`` and ``records.game``: the key of the
game (its key in :data:`doushouqi.core.game.GAMES`) that a seek waits for, a challenge invites
to, a tournament plays, a record is written in. A seek pairs only with a seek of the same game;
a record is read in its game's format. Every row stored before this revision is Jungle's (the
only game the site had); the server default fills them and then goes, so that a new row that
forgot its game is refused rather than taken for Jungle's.

Puzzles keep no game column yet: every shipped puzzle is Jungle's, and the puzzle ratings
(``puzzle_players``) would need one too; both come with a second game's puzzles.

Revision ID: 0012_games_of_seeks_and_records
Revises: 0011_puzzle_first_tries
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_games_of_seeks_and_records"
down_revision = "0011_puzzle_first_tries"
branch_labels = None
depends_on = None

#: Every row stored before this revision is of the site's first game.
FIRST_GAME = "jungle"
TABLES = ("seeks", "challenges", "tournaments", "records")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(
                sa.Column("game", sa.String(length=16), nullable=False, server_default=FIRST_GAME)
            )
        with op.batch_alter_table(table) as batch_op:
            batch_op.alter_column("game", server_default=None)


def downgrade() -> None:
    # Back to Jungle's alone: the other games' seeks, challenges, tournaments and records would
    # be read as Jungle's, so they go.
    others = "SELECT id FROM tournaments WHERE game <> :game"
    for child in ("tournament_pairings", "tournament_players"):
        op.execute(
            sa.text(f"DELETE FROM {child} WHERE tournament_id IN ({others})").bindparams(
                game=FIRST_GAME
            )
        )
    for table in TABLES:
        op.execute(sa.text(f"DELETE FROM {table} WHERE game <> :game").bindparams(game=FIRST_GAME))
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("game")

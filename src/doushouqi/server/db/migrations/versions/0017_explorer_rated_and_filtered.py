"""The opening explorer's index keyed by rated or casual, and emptied for a rebuild.

``opening_moves`` gains ``rated`` in its primary key (after the position, so that a query
still reads one position's rows through the key's prefix), and ``move`` grows to 40
characters (a 老虎棋 multi-jump names every landing point). The index counted games it now
leaves out (games against the computer, games of fewer than ten plies) and knew no game as
rated, so its old counts cannot be carried over: the table is emptied and rekeyed, and
``doushouqi explorer rebuild`` counts every stored game into it again (docs/server.md).
The downgrade gives the old key back, the table empty too (a rebuild by the old code fills
it).

Revision ID: 0017_explorer_rated_and_filtered
Revises: 0016_game_reviews
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_explorer_rated_and_filtered"
down_revision = "0016_game_reviews"
branch_labels = None
depends_on = None


KEY = ["rules", "position", "band", "move"]
RATED_KEY = ["rules", "position", "rated", "band", "move"]


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM opening_moves"))
    with op.batch_alter_table("opening_moves", recreate="always") as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.alter_column("move", type_=sa.String(length=40), existing_nullable=False)
        batch_op.drop_constraint("pk_opening_moves", type_="primary")
        batch_op.create_primary_key("pk_opening_moves", RATED_KEY)
    with op.batch_alter_table("opening_moves") as batch_op:
        batch_op.alter_column("rated", server_default=None)


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM opening_moves"))
    with op.batch_alter_table("opening_moves", recreate="always") as batch_op:
        batch_op.drop_constraint("pk_opening_moves", type_="primary")
        batch_op.drop_column("rated")
        batch_op.alter_column("move", type_=sa.String(length=8), existing_nullable=False)
        batch_op.create_primary_key("pk_opening_moves", KEY)

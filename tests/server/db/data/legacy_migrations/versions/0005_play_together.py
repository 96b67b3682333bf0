"""One head again after the features that each added their tables beside the others: chat,
the opening explorer, pairing and notifications, puzzles, tournaments.

Revision ID: 0005
Revises: 0004_chat, 0004_explorer, 0004_pairing, 0004_puzzle, 0004_tournament
"""

from __future__ import annotations

revision = "0005"
down_revision = ("0004_chat", "0004_explorer", "0004_pairing", "0004_puzzle", "0004_tournament")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: this revision only joins the branches."""


def downgrade() -> None:
    """Nothing to change: this revision only joins the branches."""

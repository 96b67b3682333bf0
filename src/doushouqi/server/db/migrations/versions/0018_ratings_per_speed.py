"""Ratings per speed: one Glicko-2 rating per (account, game, speed), like lichess's.

* ``speed_ratings`` (account, game, speed → rating, rd, volatility, games): the speeds are
  bullet, blitz, rapid, classical and correspondence (``doushouqi.core.speed``).
* ``ratings`` keeps the ladder score and the results; its ``rating``, ``rating_rd`` and
  ``rating_volatility`` (and ``ix_ratings_game_rating``) go.

Where the old per-game rating goes (the choice, and why): it becomes **every speed's starting
point**, and only the speed most of the account's rated games were played at keeps its RD and
volatility (and its count of games); the other speeds start from the old rating with a new
player's RD (350), so they show as provisional ("1500?") and settle in a few games. Starting
them at 1500 instead would throw away what is known (someone rated 1900 at rapid is no beginner
at blitz: their first blitz opponents would gain points from a mismatch and the rating range of
a seek would pair them wrongly); carrying the RD over too would call a rating settled at a
speed never played. Where no rated game of the account is found (games deleted, or stored
before the games table kept them), the speed that keeps the RD is rapid: the site's usual
controls (10+0/30s, 10+5) are rapid. An account whose rating never moved (1500, RD 350: no rated
game) gets no rows: a missing row reads as a new player's.

The rated games are counted from ``games`` (finished, rated, with a ``rating_change`` in their
stored state: the 10-round rule voids some), each at its time control's speed; the speed rule is
copied here as it stands (estimated duration base + 40 × increment: < 3 min bullet, < 8 min
blitz, < 25 min rapid, else classical; days per move correspondence), so that this revision
keeps doing what it did if the rule changes later. Ties between speeds go to the faster one.

Downgrade: each (account, game) gets back the rating of its speed with the most games (ties:
the smaller RD, then the faster speed); other speeds' ratings are lost.

Revision ID: 0018_ratings_per_speed
Revises: 0017_explorer_rated_and_filtered
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0018_ratings_per_speed"
down_revision = "0017_explorer_rated_and_filtered"
branch_labels = None
depends_on = None

SPEEDS = ("bullet", "blitz", "rapid", "classical", "correspondence")
FRESH_RATING, FRESH_RD, FRESH_VOLATILITY = 1500.0, 350.0, 0.06
#: The speed that keeps the old RD when no rated game says which (the site's usual speed).
FALLBACK_SPEED = "rapid"
_NUMBER = r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_LIVE = re.compile(
    rf"(?:(?P<base>{_NUMBER})(?P<s>s)?(?:\+(?P<inc>{_NUMBER})s?)?)?(?:/(?P<per>{_NUMBER})s?)?"
)
_DAYS = re.compile(rf"{_NUMBER}d")


def speed_of(control: str | None) -> str | None:
    """A stored time control's speed, by the rule as it stood at this revision."""
    if not control:
        return None
    if _DAYS.fullmatch(control):
        return "correspondence"
    found = _LIVE.fullmatch(control)
    if found is None:
        return None
    base = float(found["base"] or 0) * (1 if found["s"] else 60)
    step = float(found["inc"] or 0)
    if base == 0 and found["per"] is not None:
        step += float(found["per"])
    seconds = base + 40 * step
    for speed, limit in (("bullet", 180), ("blitz", 480), ("rapid", 1500)):
        if seconds < limit:
            return speed
    return "classical"


def _rated_games(connection: sa.Connection) -> Counter[tuple[int, str, str]]:
    """How many rated games each (account, game, speed) has."""
    rows = connection.execute(
        sa.text(
            "SELECT game, seat0_key, seat1_key, time_control, state FROM games "
            "WHERE rated = :rated AND status > 25"
        ).bindparams(rated=True)
    )
    counts: Counter[tuple[int, str, str]] = Counter()
    for game, seat0, seat1, control, state in rows:
        speed = speed_of(control)
        if speed is None or json.loads(state).get("rating_change") is None:
            continue
        for key in (seat0, seat1):
            if key and key.startswith("account:"):
                counts[(int(key.split(":", 1)[1]), game, speed)] += 1
    return counts


def _main_speed(counts: Counter[tuple[int, str, str]], account: int, game: str) -> str:
    played = [(counts[(account, game, s)], -i, s) for i, s in enumerate(SPEEDS)]
    best = max(played)
    return best[2] if best[0] > 0 else FALLBACK_SPEED


def upgrade() -> None:
    table = op.create_table(
        "speed_ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("speed", sa.String(length=16), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_speed_ratings_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "game", "speed", name=op.f("pk_speed_ratings")),
    )
    op.create_index(
        "ix_speed_ratings_game_speed_rating", "speed_ratings", ["game", "speed", "rating"]
    )
    connection = op.get_bind()
    counts = _rated_games(connection)
    old = connection.execute(
        sa.text(
            "SELECT account_id, game, rating, rating_rd, rating_volatility FROM ratings "
            "WHERE rating <> :rating OR rating_rd <> :rd"
        ).bindparams(rating=FRESH_RATING, rd=FRESH_RD)
    ).all()
    rows: list[dict[str, Any]] = []
    for account, game, rating, rd, volatility in old:
        main = _main_speed(counts, account, game)
        for speed in SPEEDS:
            kept = speed == main
            rows.append(
                {
                    "account_id": account,
                    "game": game,
                    "speed": speed,
                    "rating": rating,
                    "rd": rd if kept else FRESH_RD,
                    "volatility": volatility if kept else FRESH_VOLATILITY,
                    "games": counts[(account, game, speed)],
                }
            )
    if rows:
        op.bulk_insert(table, rows)
    with op.batch_alter_table("ratings") as batch_op:
        batch_op.drop_index("ix_ratings_game_rating")
        batch_op.drop_column("rating")
        batch_op.drop_column("rating_rd")
        batch_op.drop_column("rating_volatility")


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch_op:
        batch_op.add_column(
            sa.Column("rating", sa.Float(), nullable=False, server_default=str(FRESH_RATING))
        )
        batch_op.add_column(
            sa.Column("rating_rd", sa.Float(), nullable=False, server_default=str(FRESH_RD))
        )
        batch_op.add_column(
            sa.Column(
                "rating_volatility",
                sa.Float(),
                nullable=False,
                server_default=str(FRESH_VOLATILITY),
            )
        )
    connection = op.get_bind()
    best: dict[tuple[int, str], tuple[Any, ...]] = {}
    found = connection.execute(
        sa.text("SELECT account_id, game, speed, rating, rd, volatility, games FROM speed_ratings")
    )
    for account, game, speed, rating, rd, volatility, games in found:
        rank = (games, -rd, -SPEEDS.index(speed))
        if (account, game) not in best or rank > best[(account, game)][0]:
            best[(account, game)] = (rank, rating, rd, volatility)
    for (account, game), (_, rating, rd, volatility) in best.items():
        params = {"a": account, "g": game, "r": rating, "rd": rd, "v": volatility}
        exists = connection.execute(
            sa.text("SELECT 1 FROM ratings WHERE account_id = :a AND game = :g"), params
        ).first()
        if exists is None:  # rated at a speed before any counted game wrote its standing
            connection.execute(
                sa.text(
                    "INSERT INTO ratings (account_id, game, score, games, wins, losses, draws, "
                    "rating, rating_rd, rating_volatility) "
                    "VALUES (:a, :g, 0, 0, 0, 0, 0, :r, :rd, :v)"
                ),
                params,
            )
            continue
        connection.execute(
            sa.text(
                "UPDATE ratings SET rating = :r, rating_rd = :rd, rating_volatility = :v "
                "WHERE account_id = :a AND game = :g"
            ),
            params,
        )
    with op.batch_alter_table("ratings") as batch_op:
        for name in ("rating", "rating_rd", "rating_volatility"):
            batch_op.alter_column(name, server_default=None)
        batch_op.create_index("ix_ratings_game_rating", ["game", "rating"], unique=False)
    op.drop_table("speed_ratings")

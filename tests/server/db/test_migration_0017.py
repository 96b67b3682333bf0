"""Revision 0017 on a database whose opening explorer was filled by the code before it: the
index is made anew with ``rated`` in its key and empty (its old counts included games it now
leaves out), a rebuild fills it from the stored games, and the schema is a fresh database's;
back down, the old table is there again, empty."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import MetaData, func, select
from tests.server.db.test_legacy_migrations import fresh_schema, schema

from doushouqi.server.db.database import Database, alembic_config

BEFORE = "0016_game_reviews"
OLD_ROW = {
    "rules": "wango",
    "position": "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w",
    "band": 1400,
    "move": "a3a4",
    "red_wins": 3,
    "draws": 0,
    "blue_wins": 1,
}


def _table(db: Database) -> tuple[list[str], int]:
    metadata = MetaData()
    metadata.reflect(db.engine, only=["opening_moves"])
    table = metadata.tables["opening_moves"]
    with db.engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(table)).scalar_one()
    return [c.name for c in table.primary_key.columns], int(count)


def test_the_index_is_keyed_by_rated_and_emptied(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, BEFORE)
            metadata = MetaData()
            metadata.reflect(connection, only=["opening_moves"])
            connection.execute(metadata.tables["opening_moves"].insert(), [OLD_ROW])
        assert _table(db) == (["rules", "position", "band", "move"], 1)
        db.migrate()
        assert _table(db) == (["rules", "position", "rated", "band", "move"], 0)
        assert schema(db.engine) == fresh_schema(f"sqlite:///{tmp_path / 'new.sqlite3'}")
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        assert _table(db) == (["rules", "position", "band", "move"], 0)
    finally:
        db.close()

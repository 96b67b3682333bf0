"""Revision 0011 on a database whose puzzle tries were rated twice by two nodes at once (the
race it closes): the earliest rated try of each player and puzzle stays rated, the others
become unrated, every row is kept, and the unique index then refuses a second rated try. On
SQLite and PostgreSQL; and back down."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.db.test_legacy_migrations import fresh_schema, revisions, schema
from tests.support.postgres import create_database, find_bindir

from doushouqi.server.db.database import Database, alembic_config

BEFORE = "0010_site_outages"


def attempt(id_: int, player: str, puzzle: str, rated: bool) -> dict[str, Any]:
    return {
        "id": id_,
        "player_key": player,
        "puzzle_id": puzzle,
        "at": 10.0 * id_,
        "solved": True,
        "rated": rated,
        "mode": "rated",
        "rating_before": 1500.0,
        "rating_after": 1510.0,
    }


# account:1 got p1 rated twice (ids 1 and 3) and p2 once; account:2 p1 once, then unrated.
ATTEMPTS = [
    attempt(1, "account:1", "p1", True),
    attempt(2, "account:2", "p1", True),
    attempt(3, "account:1", "p1", True),
    attempt(4, "account:1", "p2", True),
    attempt(5, "account:2", "p1", False),
    attempt(6, "account:1", "p1", True),
]


def _attempts(engine: sa.Engine) -> list[tuple[int, bool]]:
    with engine.connect() as connection:
        rows = connection.execute(sa.text("SELECT id, rated FROM puzzle_attempts ORDER BY id"))
        return [(row.id, bool(row.rated)) for row in rows]


def check_migrated(url: str, fresh_url: str) -> None:
    db = Database(url)
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, BEFORE)
        table = sa.Table("puzzle_attempts", sa.MetaData(), autoload_with=db.engine)
        with db.engine.begin() as connection:
            connection.execute(table.insert(), ATTEMPTS)
        db.migrate()
        assert revisions(db.engine) == {LATEST_REVISION}
        rated = [(1, True), (2, True), (3, False), (4, True), (5, False), (6, False)]
        assert _attempts(db.engine) == rated
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(table.insert(), [attempt(7, "account:1", "p2", True)])
        with db.engine.begin() as connection:  # unrated tries: as many as there are
            connection.execute(table.insert(), [attempt(8, "account:1", "p2", False)])
        migrated = schema(db.engine)
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        assert revisions(db.engine) == {BEFORE}
        assert [row[0] for row in _attempts(db.engine)] == [1, 2, 3, 4, 5, 6, 8]
    finally:
        db.close()
    assert migrated == fresh_schema(fresh_url)


def test_tries_rated_twice_are_rated_once(tmp_path: Path) -> None:
    check_migrated(f"sqlite:///{tmp_path / 'old.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_tries_rated_twice_are_rated_once_on_postgres(postgres: str, database: str) -> None:
    check_migrated(database, create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh"))

"""Revision 0012 on a database made by the code before it (the schema at
``0011_puzzle_first_tries``, with a seek, a challenge, a tournament with its players and pairings,
and an uploaded record): each of those rows names Jungle as its game, nothing else of them
changes, and the schema is a fresh database's; back down, Jungle's rows stay and other
games' go with their tournaments' players and pairings. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, MetaData, select
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.db.test_legacy_migrations import fresh_schema, revisions, schema
from tests.server.db.test_persistence_restart import schema_differences
from tests.support.postgres import create_database, find_bindir

from doushouqi.server.db.database import Database, alembic_config

BEFORE = "0011_puzzle_first_tries"
NEW = ("seeks", "challenges", "tournaments", "records")

ACCOUNT = {
    "id": 1,
    "username": "li",
    "display_name": "Li",
    "password_hash": "h",
    "avatar": "",
    "is_bot": False,
    "disconnects": 0,
    "timeouts": 0,
    "created_at": 1.0,
}
ROWS: dict[str, list[dict[str, Any]]] = {
    "seeks": [
        {
            "id": "s1",
            "player_key": "account:1",
            "player": "{}",
            "rules": "classic",
            "time_control": "5+3",
            "rated": True,
            "rating": 1612.5,
            "rating_min": None,
            "rating_max": 1800.0,
            "created_at": 10.0,
            "alive_until": 20.0,
            "game_id": None,
        }
    ],
    "challenges": [
        {
            "id": "c1",
            "from_key": "account:1",
            "from_player": "{}",
            "to_account": 1,
            "rules": "wango",
            "time_control": None,
            "color": "blue",
            "rated": False,
            "status": "pending",
            "decline_reason": None,
            "game_id": None,
            "created_at": 11.0,
            "expires_at": 99.0,
        }
    ],
    "tournaments": [
        {
            "id": "t1",
            "kind": "arena",
            "name": "Spring",
            "creator_id": 1,
            "rules": '{"name": "wango"}',
            "time_control": "3+2",
            "rated": True,
            "starts_at": 50.0,
            "duration": 600.0,
            "rounds": None,
            "max_players": 8,
            "min_rating": None,
            "status": "created",
            "current_round": 0,
            "created_at": 12.0,
            "started_at": None,
            "finished_at": None,
            "director_node": None,
            "director_until": None,
        }
    ],
    "records": [
        {
            "id": "r1",
            "text": "1. a1",
            "account_id": 1,
            "created_at": 5.0,
            "uploader": "account:1",
            "size": 5,
        }
    ],
}


def _tables(engine: Engine) -> dict[str, Any]:
    metadata = MetaData()
    metadata.reflect(engine)
    return dict(metadata.tables)


def _rows(engine: Engine, table: str) -> list[dict[str, Any]]:
    found = _tables(engine)[table]
    with engine.connect() as connection:
        query = select(found).order_by(*found.primary_key.columns)
        return [dict(row._mapping) for row in connection.execute(query)]


def _comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # SQLite reflects booleans as 0/1: compare them as booleans.
    return [{k: bool(v) if k == "rated" else v for k, v in row.items()} for row in rows]


def database_before(url: str) -> Database:
    db = Database(url)
    config = alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, BEFORE)
    tables = _tables(db.engine)
    with db.engine.begin() as connection:
        connection.execute(tables["accounts"].insert(), [ACCOUNT])
        for table, rows in ROWS.items():
            connection.execute(tables[table].insert(), rows)
    return db


def check(url: str, fresh_url: str) -> None:
    db = database_before(url)
    try:
        db.migrate()
        assert revisions(db.engine) == {LATEST_REVISION}
        for table in NEW:
            rows = _comparable(_rows(db.engine, table))
            # Columns later revisions add (0015: a challenge's ``private``) have their defaults.
            later = {"private": False} if table == "challenges" else {}
            expected = [{**row, "game": "jungle", **later} for row in _comparable(ROWS[table])]
            assert rows == expected
        migrated = schema(db.engine)
        # A Tiger tournament with a player and a pairing, then back down: it goes, all of it.
        tables = _tables(db.engine)
        with db.engine.begin() as connection:
            tiger = {**ROWS["tournaments"][0], "id": "t2", "game": "tiger"}
            connection.execute(tables["tournaments"].insert(), [tiger])
            player = {
                "tournament_id": "t2",
                "account_id": 1,
                "state": "joined",
                "name": "Li",
                "username": "li",
                "rating": 1500.0,
                "joined_at": 1.0,
                "idle_since": 1.0,
                "no_shows": 0,
            }
            connection.execute(tables["tournament_players"].insert(), [player])
            pairing = {"tournament_id": "t2", "round": 0, "red_id": 1, "created_at": 2.0}
            connection.execute(tables["tournament_pairings"].insert(), [pairing])
        config = alembic_config()
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        for table in NEW:
            assert _comparable(_rows(db.engine, table)) == _comparable(ROWS[table])
        assert _rows(db.engine, "tournament_players") == []
        assert _rows(db.engine, "tournament_pairings") == []
    finally:
        db.close()
    assert migrated == fresh_schema(fresh_url)


def test_rows_of_the_code_before_are_jungles(tmp_path: Path) -> None:
    check(f"sqlite:///{tmp_path / 'old.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    db = Database(f"sqlite:///{tmp_path / 'again.sqlite3'}")
    try:
        db.migrate()
    finally:
        db.close()
    assert schema_differences(f"sqlite:///{tmp_path / 'again.sqlite3'}") == []


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_rows_of_the_code_before_are_jungles_on_postgres(postgres: str, database: str) -> None:
    check(database, create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh"))

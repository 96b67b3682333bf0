"""Revision 0013 on a database made by the code before it (the schema at
``0012_games_of_seeks_and_records``, with an account's API token, session and device cookie):
the API token gets the bot API's scope and nothing more (it was made for the bot API), the
others none (a cookie's power is not a token's); nothing else of them changes, and the schema
is a fresh database's; back down, the rows stay as they were. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.db.test_legacy_migrations import fresh_schema, revisions, schema
from tests.server.db.test_migration_0012 import ACCOUNT, _rows, _tables
from tests.support.postgres import create_database, find_bindir

from doushouqi.server.db.database import Database, alembic_config

BEFORE = "0012_games_of_seeks_and_records"


def _token(token_hash: str, kind: str, expires_at: float | None) -> dict[str, Any]:
    return {
        "token_hash": token_hash,
        "account_id": 1,
        "kind": kind,
        "label": f"my {kind}",
        "created_at": 3.0,
        "expires_at": expires_at,
    }


TOKENS = [
    _token("a" * 64, "api", None),
    _token("d" * 64, "device", 9e9),
    _token("s" * 64, "session", 9e9),
]
NEW_COLUMNS = {"last_used_at": None, "device": "", "address": ""}


def check(url: str, fresh_url: str) -> None:
    db = Database(url)
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, BEFORE)
        tables = _tables(db.engine)
        with db.engine.begin() as connection:
            connection.execute(tables["accounts"].insert(), [ACCOUNT])
            connection.execute(tables["auth_tokens"].insert(), TOKENS)
        db.migrate()
        assert revisions(db.engine) == {LATEST_REVISION}
        scopes = {"api": "bot:play", "device": "", "session": ""}
        assert _rows(db.engine, "auth_tokens") == [
            {**row, **NEW_COLUMNS, "scopes": scopes[row["kind"]]} for row in TOKENS
        ]
        migrated = schema(db.engine)
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        assert _rows(db.engine, "auth_tokens") == TOKENS
    finally:
        db.close()
    assert migrated == fresh_schema(fresh_url)


def test_earlier_api_tokens_keep_the_bot_api_and_nothing_more(tmp_path: Path) -> None:
    check(f"sqlite:///{tmp_path / 'old.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_earlier_api_tokens_keep_the_bot_api_on_postgres(postgres: str, database: str) -> None:
    check(database, create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh"))

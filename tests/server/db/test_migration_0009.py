"""Revision 0009 on a database made by the code before it (the schema at ``0008_puzzles``, with
accounts that have played, finished games, their events and logins): games name their game and
number their seats, each account's score, rating and results move to its ``jungle`` row of
``ratings``, and nothing else changes; the schema is then a fresh database's. On SQLite and
PostgreSQL; and back down."""

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

from doushouqi.core.speed import Speed
from doushouqi.server.db import repo
from doushouqi.server.db.database import Database, alembic_config
from doushouqi.server.db.speed_ratings import speed_rating

BEFORE = "0008_puzzles"
#: The columns that move from ``accounts`` to ``ratings``, in the migration's order.
PER_GAME = ("score", "rating", "rating_rd", "rating_volatility", "games", "wins", "losses", "draws")

#: Accounts as the code before made them: one that has played, one that never has, one with a
#: negative score (the ladder allows it); values no default could produce.
ACCOUNTS: list[dict[str, Any]] = [
    {
        "id": 1,
        "username": "li",
        "display_name": "Li",
        "password_hash": "h1",
        "avatar": "lion",
        "is_bot": False,
        "score": 37,
        "rating": 1623.25,
        "rating_rd": 81.5,
        "rating_volatility": 0.0598,
        "games": 9,
        "wins": 5,
        "losses": 3,
        "draws": 1,
        "disconnects": 2,
        "timeouts": 4,
        "created_at": 100.5,
    },
    {
        "id": 2,
        "username": "wang",
        "display_name": "Wang",
        "password_hash": "h2",
        "avatar": "rat",
        "is_bot": False,
        "score": 0,
        "rating": 1500.0,
        "rating_rd": 350.0,
        "rating_volatility": 0.06,
        "games": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "disconnects": 0,
        "timeouts": 0,
        "created_at": 200.0,
    },
    {
        "id": 3,
        "username": "bot",
        "display_name": "Bot",
        "password_hash": "h3",
        "avatar": "elephant",
        "is_bot": True,
        "score": -8,
        "rating": 1412.75,
        "rating_rd": 120.0,
        "rating_volatility": 0.061,
        "games": 4,
        "wins": 0,
        "losses": 3,
        "draws": 1,
        "disconnects": 1,
        "timeouts": 0,
        "created_at": 300.0,
    },
]


def _game(game_id: str, red: str | None, blue: str | None, created_at: float) -> dict[str, Any]:
    return {
        "id": game_id,
        "mode": "online",
        "status": 32,
        "rules": "classic",
        "time_control": "5+3",
        "rated": True,
        "public": True,
        "open_seats": int(red is None) + int(blue is None),
        "red_key": red,
        "blue_key": blue,
        "result": "1-0",
        "termination": "den_entered",
        "version": 7,
        "created_at": created_at,
        "started_at": created_at + 1,
        "finished_at": created_at + 2,
        "rematch_id": None,
        "state": f'{{"id": "{game_id}"}}',
    }


GAMES = [
    _game("g1", "account:1", "account:3", 1000.0),
    _game("g2", "account:3", "ai:4", 2000.0),
    _game("g3", "guest:abc", None, 3000.0),
]


def database_before(url: str) -> None:
    """The database at ``url`` as the code before revision 0009 made and filled it."""
    db = Database(url)
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, BEFORE)
        tables = _tables(db.engine)
        with db.engine.begin() as connection:
            connection.execute(tables["accounts"].insert(), ACCOUNTS)
            connection.execute(tables["games"].insert(), GAMES)
            events = [
                {"game_id": g["id"], "version": v, "seq": 0, "type": "move", "payload": "{}"}
                for g in GAMES
                for v in (1, 2)
            ]
            connection.execute(tables["game_events"].insert(), events)
            tokens = [
                {
                    "token_hash": f"t{a['id']}",
                    "account_id": a["id"],
                    "kind": "session",
                    "label": "",
                    "created_at": 1.0,
                    "expires_at": None,
                }
                for a in ACCOUNTS
            ]
            connection.execute(tables["auth_tokens"].insert(), tokens)
            record = {"id": "r1", "text": "1. a1", "account_id": 1, "created_at": 5.0}
            connection.execute(tables["records"].insert(), [{**record, "size": 5}])
    finally:
        db.close()


def _tables(engine: Engine) -> dict[str, Any]:
    metadata = MetaData()
    metadata.reflect(engine)
    return dict(metadata.tables)


def _rows(engine: Engine, table: str) -> list[dict[str, Any]]:
    """Every row of ``table``, in primary-key order."""
    found = _tables(engine)[table]
    with engine.connect() as connection:
        query = select(found).order_by(*found.primary_key.columns)
        return [dict(row._mapping) for row in connection.execute(query)]


def check_migrated(url: str, fresh_url: str) -> None:
    database_before(url)
    db = Database(url)
    try:
        db.migrate()
        engine = db.engine
        assert revisions(engine) == {LATEST_REVISION}

        # The rating itself is per speed since 0017 (test_migration_0017.py): the rest stays.
        standing = [key for key in PER_GAME if not key.startswith("rating")]
        ratings = [
            {key: row[key] for key in ("account_id", "game", *standing)}
            for row in _rows(engine, "ratings")
        ]
        assert ratings == [
            {"account_id": a["id"], "game": "jungle", **{key: a[key] for key in standing}}
            for a in ACCOUNTS
        ]
        kept = [key for key in ACCOUNTS[0] if key not in PER_GAME]
        later = {"role": "player", "banned_at": None, "closed_at": None}  # 0014's columns
        accounts = _rows(engine, "accounts")
        assert [list(row) for row in accounts] == [kept + list(later)] * len(ACCOUNTS)
        # Booleans come back as 0/1 from SQLite's reflection: compare as the model reads them.
        assert [{**row, "is_bot": bool(row["is_bot"])} for row in accounts] == [
            {**{key: a[key] for key in kept}, **later} for a in ACCOUNTS
        ]

        games = _rows(engine, "games")
        assert [(g["game"], g["seat0_key"], g["seat1_key"]) for g in games] == [
            ("jungle", g["red_key"], g["blue_key"]) for g in GAMES
        ]
        others = [key for key in GAMES[0] if key not in ("red_key", "blue_key", "public", "rated")]
        assert [{key: g[key] for key in others} for g in games] == [
            {key: g[key] for key in others} for g in GAMES
        ]
        # What refers to accounts and games is all still there (SQLite copies tables to alter
        # them: dropping the old copy must not have cascaded).
        assert len(_rows(engine, "game_events")) == 2 * len(GAMES)
        assert [t["account_id"] for t in _rows(engine, "auth_tokens")] == [1, 2, 3]
        assert [r["account_id"] for r in _rows(engine, "records")] == [1]

        # Today's code reads them where they are.
        li = db.run_sync(lambda s: repo.standing(s, 1, "jungle"))
        assert (li.score, li.games, li.wins) == (37, 9, 5)
        rapid = db.run_sync(lambda s: speed_rating(s, 1, "jungle", Speed.RAPID))
        assert (rapid.rating, rapid.rd) == (1623.25, 81.5)  # no rated game found: rapid's
        board = db.run_sync(lambda s: repo.score_board(s, 10))
        assert [account.username for account, _ in board] == ["li", "bot"]  # wang: no games
        total, found = db.run_sync(lambda s: repo.history(s, "account:3", 10, 0))
        assert (total, [g.id for g in found]) == (2, ["g2", "g1"])
        migrated = schema(engine)
    finally:
        db.close()
    assert migrated == fresh_schema(fresh_url)
    assert schema_differences(url) == []


def test_a_database_of_the_code_before_is_migrated(tmp_path: Path) -> None:
    check_migrated(f"sqlite:///{tmp_path / 'old.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_a_database_of_the_code_before_is_migrated_on_postgres(
    postgres: str, database: str
) -> None:
    check_migrated(database, create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh"))


def check_downgrade(url: str) -> None:
    database_before(url)
    db = Database(url)
    try:
        kept = ("accounts", "games", "game_events", "auth_tokens")
        before = {t: _rows(db.engine, t) for t in kept}
        db.migrate()
        config = alembic_config()
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        assert revisions(db.engine) == {BEFORE}
        assert {t: _rows(db.engine, t) for t in kept} == before
        assert "ratings" not in _tables(db.engine)
    finally:
        db.close()


def test_the_revision_goes_back_down(tmp_path: Path) -> None:
    check_downgrade(f"sqlite:///{tmp_path / 'down.sqlite3'}")


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_the_revision_goes_back_down_on_postgres(database: str) -> None:
    check_downgrade(database)

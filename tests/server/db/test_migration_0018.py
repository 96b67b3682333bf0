"""Revision 0018 on a database made by the code before it (the schema at
``0017_explorer_rated_and_filtered``): each account's per-game rating becomes every speed's
starting point, the speed most of its rated games were played at keeping the RD (rapid when no
rated game is found), with each speed's count of rated games; accounts whose rating never moved
get no rows; the schema is a fresh database's. Back down, each (account, game) gets its main
speed's rating again. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
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
from doushouqi.server.db.database import Database, alembic_config
from doushouqi.server.db.speed_ratings import rating_board, speed_ratings_of

BEFORE = "0017_explorer_rated_and_filtered"
SPEEDS = [s.value for s in Speed]


def _account(account_id: int, username: str) -> dict[str, Any]:
    return {
        "id": account_id,
        "username": username,
        "display_name": username.title(),
        "password_hash": "h",
        "avatar": "",
        "is_bot": False,
        "disconnects": 0,
        "timeouts": 0,
        "created_at": 1.0,
    }


ACCOUNTS = [_account(1, "li"), _account(2, "wang"), _account(3, "zhao"), _account(4, "qian")]


def _standing(account_id: int, game: str, rating: float, rd: float, vol: float) -> dict[str, Any]:
    return {
        "account_id": account_id,
        "game": game,
        "score": 10 * account_id,
        "rating": rating,
        "rating_rd": rd,
        "rating_volatility": vol,
        "games": 5,
        "wins": 3,
        "losses": 1,
        "draws": 1,
    }


RATINGS = [
    # Li: two rated blitz games, one rated rapid; one voided (no rating change), one casual.
    _standing(1, "jungle", 1712.5, 95.25, 0.0601),
    # Li in the Tiger: one rated bullet game.
    _standing(1, "tiger", 1433.0, 280.0, 0.06),
    # Wang: a moved rating, but no rated game stored: rapid keeps the RD.
    _standing(2, "jungle", 1388.0, 140.0, 0.0599),
    # Zhao: never rated (a new player's values): no speed rows.
    _standing(3, "jungle", 1500.0, 350.0, 0.06),
]


def _game(
    game_id: str, game: str, control: str | None, rated: bool, changed: bool, seats: tuple[str, str]
) -> dict[str, Any]:
    state = {"id": game_id, "rating_change": {"before": [], "after": []} if changed else None}
    return {
        "id": game_id,
        "mode": "online",
        "status": 32,
        "rules": "wango",
        "time_control": control,
        "rated": rated,
        "public": True,
        "open_seats": 0,
        "game": game,
        "seat0_key": seats[0],
        "seat1_key": seats[1],
        "result": "1-0",
        "termination": "den_entered",
        "version": 30,
        "created_at": 10.0,
        "started_at": 11.0,
        "finished_at": 12.0,
        "rematch_id": None,
        "state": json.dumps(state),
    }


LI_ZHAO = ("account:1", "account:4")
GAMES = [
    _game("b1", "jungle", "3+2", True, True, LI_ZHAO),
    _game("b2", "jungle", "5+3", True, True, ("account:4", "account:1")),
    _game("r1", "jungle", "10+0/30s", True, True, LI_ZHAO),
    _game("v1", "jungle", "1+0", True, False, LI_ZHAO),  # voided by the 10-round rule
    _game("c1", "jungle", "1+0", False, False, LI_ZHAO),  # casual
    _game("t1", "tiger", "1+0", True, True, LI_ZHAO),
]


def _tables(engine: Engine) -> dict[str, Any]:
    metadata = MetaData()
    metadata.reflect(engine)
    return dict(metadata.tables)


def _rows(engine: Engine, table: str) -> list[dict[str, Any]]:
    found = _tables(engine)[table]
    with engine.connect() as connection:
        query = select(found).order_by(*found.primary_key.columns)
        return [dict(row._mapping) for row in connection.execute(query)]


def database_before(url: str) -> Database:
    db = Database(url)
    config = alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, BEFORE)
    tables = _tables(db.engine)
    with db.engine.begin() as connection:
        connection.execute(tables["accounts"].insert(), ACCOUNTS)
        connection.execute(tables["ratings"].insert(), RATINGS)
        connection.execute(tables["games"].insert(), GAMES)
    return db


def _speeds(rows: list[dict[str, Any]], account: int, game: str) -> dict[str, tuple[Any, ...]]:
    return {
        r["speed"]: (r["rating"], r["rd"], r["volatility"], r["games"])
        for r in rows
        if (r["account_id"], r["game"]) == (account, game)
    }


def check(url: str, fresh_url: str) -> None:
    db = database_before(url)
    try:
        db.migrate()
        assert revisions(db.engine) == {LATEST_REVISION}
        rows = _rows(db.engine, "speed_ratings")
        new = (350.0, 0.06)
        # Li's Jungle: every speed starts from 1712.5; blitz (two games) keeps the RD.
        assert _speeds(rows, 1, "jungle") == {
            "bullet": (1712.5, *new, 0),
            "blitz": (1712.5, 95.25, 0.0601, 2),
            "rapid": (1712.5, *new, 1),
            "classical": (1712.5, *new, 0),
            "correspondence": (1712.5, *new, 0),
        }
        tiger = _speeds(rows, 1, "tiger")
        assert tiger["bullet"] == (1433.0, 280.0, 0.06, 1) and tiger["blitz"] == (1433.0, *new, 0)
        wang = _speeds(rows, 2, "jungle")
        assert wang["rapid"] == (1388.0, 140.0, 0.0599, 0) and wang["blitz"] == (1388.0, *new, 0)
        assert _speeds(rows, 3, "jungle") == {}  # never rated: a new player's, no rows
        # The standings keep score and results, without a rating.
        standings = _rows(db.engine, "ratings")
        assert [(r["account_id"], r["game"], r["score"]) for r in standings] == [
            (1, "jungle", 10),
            (1, "tiger", 10),
            (2, "jungle", 20),
            (3, "jungle", 30),
        ]
        assert "rating" not in standings[0]
        # Today's code reads them: Li's blitz rating is settled, the others provisional.
        li = db.run_sync(lambda s: speed_ratings_of(s, 1, "jungle"))
        assert [round(li[s].rating) for s in Speed] == [1712] * 5
        assert not li[Speed.BLITZ].rd > 110 and li[Speed.RAPID].rd > 110
        board = db.run_sync(lambda s: rating_board(s, "jungle", Speed.RAPID, 10))
        assert [account.username for account, _, _ in board] == ["li"]  # Wang: no rapid game
        migrated = schema(db.engine)

        config = alembic_config()
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, BEFORE)
        back = {(r["account_id"], r["game"]): r for r in _rows(db.engine, "ratings")}
        assert back == {(r["account_id"], r["game"]): r for r in RATINGS}  # as they were
        assert "speed_ratings" not in _tables(db.engine)
    finally:
        db.close()
    assert migrated == fresh_schema(fresh_url)


def test_each_speed_starts_from_the_old_rating(tmp_path: Path) -> None:
    check(f"sqlite:///{tmp_path / 'old.sqlite3'}", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    db = Database(f"sqlite:///{tmp_path / 'again.sqlite3'}")
    try:
        db.migrate()
    finally:
        db.close()
    assert schema_differences(f"sqlite:///{tmp_path / 'again.sqlite3'}") == []


@pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL binaries not found")
def test_each_speed_starts_from_the_old_rating_on_postgres(postgres: str, database: str) -> None:
    check(database, create_database(postgres, database.rsplit("/", 1)[-1] + "_fresh"))

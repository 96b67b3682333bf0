"""Uploaded records: limited per address, capped per uploader, and those uploaded without an
account expire; the migration that adds the quota's columns keeps existing records."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.runtime.migration import MigrationContext
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.db.test_persistence_restart import schema_differences
from tests.support.live import LiveServer, ManualTime, Player, make_settings, running

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database, alembic_config
from doushouqi.server.infra.settings import RateLimit

RECORD = '[Rules "wango"]\n\n1. a3a4 1... a7a6 *\n'
SIZE = len(RECORD.encode())
DAY = 86400.0


def upload(player: Player) -> int:
    return player.post("/api/records", content=RECORD.encode()).status_code


def player_at(server: LiveServer, address: str) -> Player:
    player = server.player()
    player.http.headers["X-Forwarded-For"] = address
    return player


def test_uploads_are_limited_per_address(tmp_path: Path) -> None:
    settings = make_settings(
        tmp_path, record_rate=RateLimit(2, 3600.0), trusted_proxies=("127.0.0.1",)
    )
    with running(settings, ManualTime()) as server:
        someone = player_at(server, "127.0.0.2")
        assert [upload(someone) for _ in range(3)] == [201, 201, 429]
        assert upload(player_at(server, "127.0.0.3")) == 201


def test_each_uploader_may_keep_only_so_much(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, record_quota_bytes=2 * SIZE, trusted_proxies=("127.0.0.1",))
    with running(settings, ManualTime()) as server:
        anonymous = player_at(server, "127.0.0.2")
        assert [upload(anonymous) for _ in range(3)] == [201, 201, 413]
        refused = anonymous.post("/api/records", content=RECORD.encode())
        assert "the most records allowed" in refused.json()["detail"]
        # An account's uploads count against the account, wherever it is.
        member = player_at(server, "127.0.0.2").register("member")
        assert [upload(member) for _ in range(3)] == [201, 201, 413]
        assert upload(player_at(server, "127.0.0.4")) == 201


def test_uploads_without_an_account_expire(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path, record_days=30)
    now = clock.now()
    db = Database(settings.resolved_database_url)
    try:
        db.migrate()
        account = db.run_sync(
            lambda s: repo.create_account(
                s, username="keeper", display_name="K", password_hash="x", avatar="cat", now=now
            )
        )
        old = now - 31 * DAY
        db.run_sync(lambda s: repo.save_record(s, "old", RECORD, None, old, "address:x"))
        db.run_sync(lambda s: repo.save_record(s, "kept", RECORD, account.id, old, "account:1"))
        db.run_sync(lambda s: repo.save_record(s, "fresh", RECORD, None, now - DAY, "address:x"))
    finally:
        db.close()
    with running(settings, clock) as server:  # the clean-up runs at start
        reader = server.player()
        assert reader.get("/api/records/kept").status_code == 200
        assert reader.get("/api/records/fresh").status_code == 200
        assert reader.get("/api/records/old").status_code == 404


def test_migration_0003_record_quotas_keeps_existing_records(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    db = Database(url)
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0002_guest_names")
            connection.exec_driver_sql(
                "INSERT INTO records (id, text, account_id, created_at)"
                " VALUES ('early', ?, NULL, 1)",
                (RECORD,),
            )
        db.migrate()
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == LATEST_REVISION
        row = db.run_sync(lambda s: repo.get_record(s, "early"))
        assert row is not None and row.text == RECORD and row.size == 0 and row.uploader is None
        db.run_sync(lambda s: repo.save_record(s, "new", RECORD, None, 2.0, "address:y"))
        assert db.run_sync(lambda s: repo.stored_record_bytes(s, "address:y")) == SIZE
    finally:
        db.close()
    assert schema_differences(url) == []

"""``doushouqi backup`` and ``doushouqi restore`` on the embedded SQLite site (docs/deploy.md,
"Backups").

The main test runs the real thing: a server process, two accounts, a rated game finished and a
game in progress whose moves keep coming while ``doushouqi backup`` (the command, in a process
of its own) copies the database; then the server dies (SIGKILL, leaving its -wal behind),
``doushouqi restore`` puts the backup in its place, and a new server finds every account,
rating and game, the live one with exactly the moves it had when the backup was taken.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from tests.support.helpers import quiet_moves
from tests.support.live import DEN_GAME, PASSWORD, GameSocket, Player, move, start_online
from tests.support.ports import free_port
from tests.support.server_process import ServerProcess

from doushouqi.server.db.backup import (
    BackupError,
    backup_sqlite,
    known_revisions,
    postgres_commands,
    restore_sqlite,
)
from doushouqi.server.db.database import Database, alembic_config
from doushouqi.server.db.sqlite_lock import DatabaseInUseError, SqliteLock

ROOT = Path(__file__).resolve().parents[3]


def doushouqi(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``doushouqi`` command, with the site's data folder in its environment as an
    operator's shell would have it."""
    env = {**os.environ, "DOUSHOUQI_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT / "src")}
    env.pop("DOUSHOUQI_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "doushouqi", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def player(server: ServerProcess) -> Player:
    return Player(server)  # type: ignore[arg-type]  # a LiveServer's url and port suffice


def profile(server: ServerProcess, username: str) -> dict[str, Any]:
    found: dict[str, Any] = player(server).get(f"/api/players/{username}").json()
    return found


def game_moves(server: ServerProcess, game_id: str) -> tuple[str, list[str]]:
    game = player(server).get(f"/api/games/{game_id}").json()["game"]
    return game["status"], [text for text, _when in game["moves"]]


class Mover(threading.Thread):
    """Plays quiet moves in a game, both sides in turn, until stopped; ``sent`` counts the
    moves sent so far, ``acknowledged`` those the server has confirmed (stored). The last
    ``reserve`` moves wait for ``release``: however long the backup takes on a busy machine,
    moves are left to show that the game goes on after it."""

    def __init__(
        self, red: GameSocket, blue: GameSocket, moves: list[str], reserve: int = 8
    ) -> None:
        super().__init__(daemon=True)
        self.sockets, self.moves, self.reserve = (red, blue), moves, reserve
        self.sent = self.acknowledged = 0
        self.stop = threading.Event()
        self.release = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            for ply, text in enumerate(self.moves):
                if ply == len(self.moves) - self.reserve:
                    while not self.release.wait(0.01):
                        if self.stop.is_set():
                            return
                if self.stop.wait(0.01):
                    return
                self.sent = ply + 1
                move(self.sockets[ply % 2], text)
                self.acknowledged = ply + 1
        except BaseException as exc:  # reported by the test
            self.error = exc

    def wait_for(self, count: int) -> None:
        while self.acknowledged < count and self.is_alive():
            self.stop.wait(0.01)
        assert self.error is None and self.acknowledged >= count, self.error


def test_a_backup_taken_mid_game_restores_every_game_account_and_rating(
    tmp_path: Path,
) -> None:
    data, backup_file = tmp_path / "site", tmp_path / "backups" / "site.sqlite3"
    data.mkdir()
    first = ServerProcess(data, free_port()).start()
    try:
        red, blue = player(first).register("backup_red"), player(first).register("backup_blue")
        # A rated game, finished: both ratings move away from 1500.
        rated_id, red_ws, blue_ws = start_online(  # at rapid: ratings are per speed
            first,  # type: ignore[arg-type]
            red,
            blue,
            rated=True,
            time_control="10+0",
        )
        for ply, text in enumerate(DEN_GAME):
            move(red_ws if ply % 2 == 0 else blue_ws, text)
        blue_ws.wait_for("game_finished")
        red_ws.close()
        blue_ws.close()
        ratings = {
            name: profile(first, name)["ratings"]["rapid"] for name in ("backup_red", "backup_blue")
        }
        assert ratings["backup_red"]["rating"] > 1500 > ratings["backup_blue"]["rating"]

        # A game in progress, its moves coming every few milliseconds through the backup.
        live_id, red_ws, blue_ws = start_online(first, red, blue)  # type: ignore[arg-type]
        planned = quiet_moves(200)
        mover = Mover(red_ws, blue_ws, planned)
        mover.start()
        mover.wait_for(6)
        before = mover.acknowledged
        made = doushouqi(data, "backup", str(backup_file))
        after, sent = mover.acknowledged, mover.sent
        assert made.returncode == 0, made.stderr
        assert "2 accounts, 2 games" in made.stdout, made.stdout
        mover.release.set()
        mover.wait_for(after + 4)  # and the game goes on after it
        assert after > before, "no move was made while the backup ran"

        # Not while the server runs: refused, and the database left as it was.
        refused = doushouqi(data, "restore", str(backup_file))
        assert refused.returncode == 1 and "a server is using" in refused.stderr, refused.stderr
        mover.stop.set()
        mover.join(timeout=30)
        played = mover.acknowledged
        assert game_moves(first, live_id)[1] == planned[:played]
    finally:
        first.kill()  # SIGKILL: its -wal file is left beside the database

    restored = doushouqi(data, "restore", str(backup_file))
    assert restored.returncode == 0, restored.stderr
    kept = [p for p in data.iterdir() if ".before-restore-" in p.name]
    assert len(kept) == 1 and "kept as" in restored.stdout

    second = ServerProcess(data, free_port()).start()
    try:
        status, moves = game_moves(second, live_id)
        # Exactly the moves stored when the backup was taken: every one acknowledged before
        # it began, none sent after it ended (and the game still in progress).
        assert status == "started" and moves == planned[: len(moves)]
        assert before <= len(moves) <= sent < played
        assert game_moves(second, rated_id) == ("den_entered", DEN_GAME)
        for name, rating in ratings.items():
            assert profile(second, name)["ratings"]["rapid"] == rating
            login = player(second).post(
                "/api/auth/login", json={"username": name, "password": PASSWORD}
            )
            assert login.status_code == 200, login.text
    finally:
        second.kill()
    # The database the restore replaced had every move (its -wal taken in first).
    with sqlite3.connect(kept[0]) as replaced:
        events = replaced.execute(
            "SELECT count(*) FROM game_events WHERE game_id = ? AND type = 'move_made'",
            (live_id,),
        ).fetchone()[0]
    assert events == played


# ---------------------------------------------------------------- the checks, one by one


def site(path: Path, revision: str = "head") -> str:
    """A SQLite site database at ``path``, migrated to ``revision``; returns its URL."""
    url = f"sqlite:///{path}"
    if revision == "head":
        db = Database(url)
        db.migrate()
        db.close()
        return url
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, revision)
    return url


def test_restore_upgrades_an_older_backup(tmp_path: Path) -> None:
    chain, _ = known_revisions()
    old = tmp_path / "old.sqlite3"
    site(old, chain[-2])
    restored = restore_sqlite(old, f"sqlite:///{tmp_path / 'site' / 'server.sqlite3'}")
    assert restored.upgraded_from == chain[-2] and restored.summary.revision == chain[-1]
    assert restored.kept is None  # there was no database to replace
    with sqlite3.connect(old) as backup:  # the backup file itself is left as it was
        assert (
            backup.execute("SELECT version_num FROM alembic_version").fetchone()[0] == (chain[-2])
        )


def test_restore_refuses_what_is_no_doushouqi_database(tmp_path: Path) -> None:
    target = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 100)
    with pytest.raises(BackupError, match="is not a SQLite database"):
        restore_sqlite(text, target)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    with pytest.raises(BackupError, match="is not a doushouqi database"):
        restore_sqlite(other, target)
    with pytest.raises(BackupError, match="there is no file"):
        restore_sqlite(tmp_path / "missing.sqlite3", target)
    assert not (tmp_path / "site.sqlite3").exists()


def test_restore_refuses_a_backup_of_a_newer_doushouqi(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    site(newer)
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    with pytest.raises(BackupError, match="made by a newer doushouqi"):
        restore_sqlite(newer, f"sqlite:///{tmp_path / 'site.sqlite3'}")


def test_the_lock_keeps_restores_and_servers_apart(tmp_path: Path) -> None:
    backup = tmp_path / "backup.sqlite3"
    url = site(tmp_path / "site.sqlite3")
    backup_sqlite(url, backup)
    serving = Database(url)  # what a running server holds
    try:
        with pytest.raises(BackupError, match="a server is using"):
            restore_sqlite(backup, url)
    finally:
        serving.close()
    assert restore_sqlite(backup, url).kept is not None  # once it is closed
    restoring = SqliteLock.acquire(tmp_path / "site.sqlite3", exclusive=True)
    try:
        with pytest.raises(DatabaseInUseError, match="is being restored"):
            Database(url)
    finally:
        restoring.release()


def test_backup_refuses_to_overwrite_or_to_copy_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    with pytest.raises(BackupError, match="there is no database"):
        backup_sqlite(url, tmp_path / "b.sqlite3")
    site(tmp_path / "site.sqlite3")
    first = backup_sqlite(url, tmp_path / "b.sqlite3")
    with pytest.raises(BackupError, match="exists"):
        backup_sqlite(url, tmp_path / "b.sqlite3")
    assert backup_sqlite(url, tmp_path / "b.sqlite3", overwrite=True) == first
    with pytest.raises(BackupError, match="the database itself"):
        backup_sqlite(url, tmp_path / "site.sqlite3", overwrite=True)
    # One self-contained file: no -wal to carry along, nothing left beside it.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("b.")) == ["b.sqlite3"]
    with sqlite3.connect(tmp_path / "b.sqlite3") as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_on_postgresql_the_commands_name_pg_dump_and_pg_restore(tmp_path: Path) -> None:
    url = "postgresql+psycopg://jungle:secret@db.example:5433/jungle"
    dump, restore = postgres_commands(url, "site.dump")
    plain = "postgresql://jungle@db.example:5433/jungle"  # no password printed
    assert dump == ["pg_dump", "--format=custom", "--file=site.dump", plain]
    assert restore == [
        "pg_restore",
        "--no-owner",
        "--single-transaction",
        f"--dbname={plain}",
        "site.dump",
    ]
    env = {**os.environ, "DOUSHOUQI_DATABASE_URL": url, "PYTHONPATH": str(ROOT / "src")}
    said = subprocess.run(
        [sys.executable, "-m", "doushouqi", "backup", "site.dump"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert said.returncode == 2 and " ".join(dump) in said.stderr
    assert "secret" not in said.stderr

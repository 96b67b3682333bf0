"""A PostgreSQL site backed up and restored with exactly the commands of docs/deploy.md,
"Backups" (read from the page, with the test's database and file put in): ``pg_dump`` while a
server is serving, ``pg_restore`` into a fresh database, and a server on that one finds every
account, rating and game. ``doushouqi backup`` / ``restore`` print those same commands."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from tests.support.live import (
    DEN_GAME,
    PASSWORD,
    Player,
    make_settings,
    move,
    running,
    start_online,
)
from tests.support.postgres import create_database, find_bindir

from doushouqi.server.db.backup import postgres_commands

pytestmark = pytest.mark.skipif(
    find_bindir() is None,
    reason="PostgreSQL binaries not found (CI installs them: apt-get install postgresql)",
)

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = ROOT / "docs" / "deploy.md"
#: The database and the file the page's commands name.
DOCUMENTED_URL = "postgresql://jungle@127.0.0.1/jungle"
DOCUMENTED_FILE = "jungle.dump"
_restored_names = itertools.count()


def documented(program: str) -> list[str]:
    """The page's one command line that starts with ``program``, in its Backups section."""
    section = DEPLOY.read_text(encoding="utf-8").split("## Backups", 1)[1].split("\n## ", 1)[0]
    lines = re.findall(rf"^    ({re.escape(program)} .*)$", section, re.MULTILINE)
    assert len(lines) == 1, lines
    return shlex.split(lines[0])


def run_documented(program: str, url: str, file: Path) -> None:
    """Run the page's command with the test's database and file in place of its own."""
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    args = [
        arg.replace(DOCUMENTED_URL, plain).replace(DOCUMENTED_FILE, str(file))
        for arg in documented(program)
    ]
    bindir = find_bindir()
    assert bindir is not None
    # The client tools of the server's own version first (Debian keeps them out of PATH).
    env = {**os.environ, "PATH": os.pathsep.join([str(bindir), os.environ.get("PATH", "")])}
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{args}: {done.stderr}"


def rapid_rating(viewer: Player, name: str) -> dict[str, Any]:
    """The player's rating at rapid, as its profile shows it (ratings are per speed)."""
    return viewer.get(f"/api/players/{name}").json()["ratings"]["rapid"]  # type: ignore[no-any-return]


def test_the_commands_printed_are_the_documented_ones() -> None:
    dump, restore = postgres_commands(
        "postgresql+psycopg://jungle@127.0.0.1/jungle", DOCUMENTED_FILE
    )
    assert dump == documented("pg_dump")
    assert restore == documented("pg_restore")


def test_pg_dump_and_pg_restore_as_documented_keep_every_game_account_and_rating(
    tmp_path: Path, postgres: str, database: str
) -> None:
    dump_file = tmp_path / "site.dump"
    with running(make_settings(tmp_path, database_url=database)) as live:
        red, blue = live.player().register("pg_red"), live.player().register("pg_blue")
        # Rated at rapid (ratings are per speed; a rated game needs a clock).
        rated_id, red_ws, blue_ws = start_online(live, red, blue, rated=True, time_control="10+0")
        for ply, text in enumerate(DEN_GAME):
            move(red_ws if ply % 2 == 0 else blue_ws, text)
        blue_ws.wait_for("game_finished")
        live_id, red_ws, blue_ws = start_online(live, red, blue)
        for ply, text in enumerate(["a3a4", "g7g6", "a4a5"]):
            move(red_ws if ply % 2 == 0 else blue_ws, text)
        ratings = {n: rapid_rating(red, n) for n in ("pg_red", "pg_blue")}
        assert ratings["pg_red"]["rating"] > 1500 > ratings["pg_blue"]["rating"]
        run_documented("pg_dump", database, dump_file)  # while the server is serving
        red_ws.close()
        blue_ws.close()

    restored = create_database(postgres, f"restored_{next(_restored_names)}")
    run_documented("pg_restore", restored, dump_file)
    with running(make_settings(tmp_path, database_url=restored)) as live:
        viewer = live.player()
        rated = viewer.get(f"/api/games/{rated_id}").json()["game"]
        assert rated["status"] == "den_entered"
        assert [text for text, _ in rated["moves"]] == DEN_GAME
        game = viewer.get(f"/api/games/{live_id}").json()["game"]
        assert game["status"] == "started"
        assert [text for text, _ in game["moves"]] == ["a3a4", "g7g6", "a4a5"]
        for name, rating in ratings.items():
            assert rapid_rating(viewer, name) == rating
            login = live.player().post(
                "/api/auth/login", json={"username": name, "password": PASSWORD}
            )
            assert login.status_code == 200, login.text

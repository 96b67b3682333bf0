"""Stale data goes at start-up and every ``cleanup_interval`` after, on SQLite and on PostgreSQL:
a guest's chosen name once the guest cookie it belongs to has expired, and expired logins."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.support.live import LiveServer, ManualTime, Player, make_settings, running
from tests.support.postgres import find_bindir

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.models import AuthTokenRow

DAY = 86400.0
YEAR = 365 * DAY  # the guest cookie's life (Settings.guest_days)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    if find_bindir() is None:
        pytest.skip("PostgreSQL binaries not found (CI installs them: apt-get install postgresql)")
    url: str = request.getfixturevalue("database")
    return url


def stored_name(url: str, guest_id: str) -> str | None:
    db = Database(url)
    try:
        return db.run_sync(lambda s: repo.guest_name(s, guest_id))
    finally:
        db.close()


def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_names_of_expired_guest_cookies_are_deleted_at_start(
    database_url: str, tmp_path: Path, clock: ManualTime
) -> None:
    now = clock.now()
    db = Database(database_url)
    try:
        db.migrate()
        db.run_sync(lambda s: repo.set_guest_name(s, "o" * 20, "Old", now - YEAR - DAY))
        db.run_sync(lambda s: repo.set_guest_name(s, "f" * 20, "Fresh", now - YEAR + DAY))
    finally:
        db.close()
    settings = make_settings(tmp_path, database_url=database_url)  # cleanup_interval: an hour
    with running(settings, clock):
        assert eventually(lambda: stored_name(database_url, "o" * 20) is None)
        assert stored_name(database_url, "f" * 20) == "Fresh"


def test_names_are_deleted_periodically_a_cookie_life_after_they_were_last_set(
    database_url: str, tmp_path: Path, clock: ManualTime
) -> None:
    settings = make_settings(tmp_path, database_url=database_url, cleanup_interval=0.1)
    with running(settings, clock) as server:
        early, late = server.player(), server.player()
        # The cookie is set once, for a year: no name can outlive it by more than that.
        started = early.post("/api/auth/guest")
        assert "max-age=31536000" in started.headers["set-cookie"].lower()
        early.me = started.json()
        late.guest()
        assert rename(early, "Early") == "Early"
        clock.advance(200 * DAY)
        assert rename(late, "Late") == "Late"
        clock.advance(YEAR - 200 * DAY - 1)
        time.sleep(0.3)  # a few clean-ups: both names are still within their cookies' year
        assert (name_of(early), name_of(late)) == ("Early", "Late")
        clock.advance(2)
        assert eventually(lambda: name_of(early).startswith("Guest-"))
        assert stored_name(server.settings.resolved_database_url, early.me["id"]) is None
        assert name_of(late) == "Late"
        clock.advance(200 * DAY)
        assert eventually(lambda: name_of(late).startswith("Guest-"))


def test_expired_logins_are_deleted_and_api_tokens_kept(
    database_url: str, tmp_path: Path, clock: ManualTime
) -> None:
    settings = make_settings(tmp_path, database_url=database_url, cleanup_interval=0.1)
    with running(settings, clock) as server:
        early = server.player().register("early")
        made = early.post("/api/auth/tokens", json={"label": "bot"})
        assert made.status_code == 201, made.text
        clock.advance(settings.session_days * DAY / 2)
        late = server.player().register("late")
        # Signing up is a login on a browser of the owner's: a session and a device token.
        assert stored_kinds(server) == ["api", "device", "device", "session", "session"]
        clock.advance(settings.session_days * DAY / 2 + 1)
        # The early login has expired and goes; the later one, the devices (a year) and the
        # API token stay.
        assert eventually(lambda: stored_kinds(server) == ["api", "device", "device", "session"])
        assert late.get("/api/auth/me").json()["username"] == "late"
        bot = server.player()
        bot.token = made.json()["token"]
        assert bot.get("/api/auth/me").json()["username"] == "early"


def stored_kinds(server: LiveServer) -> list[str]:
    db = Database(server.settings.resolved_database_url)
    try:
        return sorted(db.run_sync(lambda s: list(s.scalars(select(AuthTokenRow.kind)))))
    finally:
        db.close()


def rename(player: Player, name: str) -> str:
    response = player.request("PATCH", "/api/account", json={"display_name": name})
    assert response.status_code == 200, response.text
    return str(response.json()["name"])


def name_of(player: Player) -> str:
    return str(player.get("/api/auth/me").json()["name"])

"""Lobby expiry and guest names on a real PostgreSQL (started as in ``test_postgres``): the
same tests as on SQLite, and the 0002 migration upgrading an existing database."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.accounts import test_guest_names as guests
from tests.server.live import test_lobby_expiry as lobby
from tests.support.live import LiveServer, ManualTime, make_settings, running
from tests.support.postgres import find_bindir

from doushouqi.server.infra.settings import Settings

pytestmark = pytest.mark.skipif(
    find_bindir() is None,
    reason="PostgreSQL binaries not found (CI installs them: apt-get install postgresql)",
)


@pytest.fixture
def pg_settings(tmp_path: Path, database: str) -> Settings:
    return make_settings(tmp_path, database_url=database)


@pytest.fixture
def pg_server(pg_settings: Settings, clock: ManualTime) -> Iterator[LiveServer]:
    with running(pg_settings, clock) as live:
        yield live


def test_migration_0002_upgrades_an_existing_database(database: str) -> None:
    guests.migration_upgrades_an_existing_database(database)


def test_guest_names(pg_server: LiveServer) -> None:
    guests.test_a_guest_chooses_a_display_name(pg_server)
    guests.test_the_name_shows_in_games_the_guest_then_creates_or_joins(pg_server)
    guests.test_a_guest_name_is_checked_like_an_account_name(pg_server)


def test_lobby_expiry(pg_settings: Settings, clock: ManualTime) -> None:
    settings = dataclasses.replace(pg_settings, lobby_wait=lobby.WAIT)
    with running(settings, clock) as live:
        lobby.test_an_unjoined_game_expires_and_its_creator_sees_it(live, clock)
    lobby.test_the_lobby_never_lists_a_game_past_its_wait(settings)
    lobby.test_a_restart_settles_waits_that_ended_meanwhile(settings, clock)

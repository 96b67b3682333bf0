"""The server on a real PostgreSQL: the schema, and the same games as on SQLite.

The test command starts its own PostgreSQL (``initdb`` + ``pg_ctl`` on a free loopback port);
CI installs the binaries. Without them these tests are skipped, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.accounts import test_api_accounts as accounts
from tests.server.api import test_games as games
from tests.server.db import test_persistence_restart as restart
from tests.server.live import test_ws_online as online
from tests.server.live import test_ws_protocol as protocol
from tests.support.live import LiveServer, ManualTime, make_settings, move, running, start_online
from tests.support.postgres import find_bindir

pytestmark = pytest.mark.skipif(
    find_bindir() is None,
    reason="PostgreSQL binaries not found (CI installs them: apt-get install postgresql)",
)


@pytest.fixture
def pg_server(tmp_path: Path, clock: ManualTime, database: str) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path, database_url=database), clock) as live:
        yield live


def test_migrated_schema_matches_the_models(database: str) -> None:
    assert restart.schema_differences(database) == []


def test_accounts(pg_server: LiveServer) -> None:
    accounts.test_register_login_logout(pg_server)
    accounts.test_register_checks_its_input(pg_server)
    accounts.test_api_tokens_authenticate_bots(pg_server)


def test_online_endings(pg_server: LiveServer, clock: ManualTime) -> None:
    online.test_den_entry_wins_and_scores(pg_server)
    online.test_draw_by_agreement(pg_server)
    online.test_flag_fall(pg_server, clock)
    online.test_fourth_timeout_loses(pg_server, clock)
    online.test_abandonment_after_grace_period(pg_server, clock)


def test_lobby_history_and_records(pg_server: LiveServer) -> None:
    games.test_online_game_lobby_and_invite(pg_server)
    games.test_history_record_and_leaderboard(pg_server)
    games.test_record_upload_replays_it(pg_server)


def test_bad_input_changes_nothing(pg_server: LiveServer) -> None:
    red, blue = pg_server.player().guest(), pg_server.player().guest()
    game_id, red_ws, blue_ws = start_online(pg_server, red, blue)
    move(red_ws, "a3a4")
    blue_ws.wait_for("move_made")
    protocol.test_illegal_and_out_of_turn_moves_are_rejected(
        pg_server, (game_id, red, blue, red_ws, blue_ws)
    )


def test_games_resume_after_a_restart(tmp_path: Path, clock: ManualTime, database: str) -> None:
    settings = make_settings(tmp_path, database_url=database)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, _ = start_online(first, red, blue, time_control="5+0")
        clock.advance(3)
        move(red_ws, "a3a4")
        before = red.get(f"/api/games/{game_id}").json()["game"]
    clock.advance(300)
    with running(settings, clock) as second:
        after = second.player().get(f"/api/games/{game_id}").json()["game"]
        assert after["moves"] == before["moves"]
        assert after["clocks"]["remaining"] == before["clocks"]["remaining"]

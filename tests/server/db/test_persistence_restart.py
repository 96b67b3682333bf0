"""Restarting the server: the schema is migrated, and every game continues where it was."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from tests.support.live import ManualTime, make_settings, move, running, start_online

from doushouqi.server.db.database import Database
from doushouqi.server.db.models import Base


def schema_differences(url: str) -> list[object]:
    db = Database(url)
    try:
        db.migrate()
        db.migrate()  # running it again changes nothing
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            return list(compare_metadata(context, Base.metadata))
    finally:
        db.close()


def test_migrated_schema_matches_the_models(tmp_path: Path) -> None:
    assert schema_differences(f"sqlite:///{tmp_path / 'schema.sqlite3'}") == []


def test_games_resume_after_a_restart(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        red, blue = first.player().guest(), first.player().guest()
        game_id, red_ws, blue_ws = start_online(first, red, blue, time_control="5+0")
        clock.advance(3)
        move(red_ws, "a3a4")
        clock.advance(4)
        move(blue_ws, "a7a6")
        clock.advance(2)  # Red is thinking when the server stops
        before = red.get(f"/api/games/{game_id}").json()
        red_ws.close()
        blue_ws.close()
    clock.advance(600)  # ten minutes of downtime
    with running(settings, clock) as second:
        red.server = blue.server = second
        red.http = second.player().http
        after = red.get(f"/api/games/{game_id}").json()
        game = after["game"]
        assert game["moves"] == before["game"]["moves"] and game["status"] == "started"
        # Red had 297 s left when the server stopped; the downtime is nobody's.
        assert game["clocks"]["remaining"][0] == before["game"]["clocks"]["remaining"][0]
        events = red.get(f"/api/games/{game_id}/events?since={before['version']}").json()
        resumed = [e for e in events["events"] if e["type"] == "game_resumed"]
        assert len(resumed) == 1 and resumed[0]["downtime"] >= 600
        # Both players are away after the restart, with their grace periods running.
        assert all(t is not None for t in game["disconnected_since"])
        blue.http = red.http
        with red.socket(game_id) as ws, blue.socket(game_id) as ws2:
            ws.wait_for("state")
            ws2.wait_for("state")
            ws.wait_for("player_reconnected")
            clock.advance(1)
            made = move(ws, "a4a5")
            assert made["clocks"]["remaining"][0] == before["game"]["clocks"]["remaining"][0] - 1
            assert ws2.wait_for("move_made")["ply"] == 3

"""Guests choose a display name (``PATCH /api/account``): kept under their guest id for as long
as their cookie, validated like an account's, shown in the games they then create or join.
The schema migration that adds its table upgrades an existing database."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, Table, inspect, select
from tests.server.db.test_persistence_restart import schema_differences
from tests.support.live import LiveServer, ManualTime, Player, make_settings, running

from doushouqi.server.db import repo
from doushouqi.server.db.database import Database, alembic_config

LATEST_REVISION = "0018_ratings_per_speed"


def rename(player: Player, **body: object) -> tuple[int, dict[str, object]]:
    response = player.request("PATCH", "/api/account", json=body)
    return response.status_code, response.json()


def test_a_guest_chooses_a_display_name(server: LiveServer) -> None:
    guest = server.player().guest()
    default = guest.me["name"]
    assert default.startswith("Guest-")
    code, body = rename(guest, display_name="  小明  ")
    assert code == 200
    assert (body["kind"], body["id"], body["name"], body["display_name"]) == (
        "guest",
        guest.me["id"],
        "小明",
        "小明",
    )
    assert body["avatar"] == guest.me["avatar"]  # the guest id's animal, unchanged
    assert guest.get("/api/auth/me").json()["name"] == "小明"
    assert guest.get("/api/auth/session").json()["player"]["name"] == "小明"
    assert guest.post("/api/auth/guest").json()["name"] == "小明"  # the same guest
    # Another browser holding the same cookie is the same guest, with the same name.
    same = server.player()
    same.cookies = dict(guest.cookies)
    assert same.get("/api/auth/me").json()["name"] == "小明"
    # Other guests keep theirs.
    other = server.player().guest()
    assert other.me["name"].startswith("Guest-") and other.me["name"] != "小明"


def test_the_name_shows_in_games_the_guest_then_creates_or_joins(server: LiveServer) -> None:
    host, visitor = server.player().guest(), server.player().guest()
    before = host.create(mode="online", color="red")["id"]
    assert rename(host, display_name="Host")[0] == 200
    assert rename(visitor, display_name="Visitor")[0] == 200
    created = host.create(mode="online", color="red")
    game_id = created["id"]
    assert created["game"]["players"][0]["name"] == "Host"
    listed = {g["id"]: g for g in server.player().get("/api/lobby").json()["games"]}
    assert listed[game_id]["creator"]["name"] == "Host"
    with visitor.socket(game_id) as ws:
        ws.wait_for("state")
        ws.send({"type": "join"})
        assert ws.wait_for("player_joined", lambda m: m["color"] == 1)["player"]["name"] == (
            "Visitor"
        )
    state = server.player().get(f"/api/games/{game_id}").json()["game"]
    assert [p["name"] for p in state["players"]] == ["Host", "Visitor"]
    ai_game = visitor.create(mode="vs_ai", color="blue")
    assert ai_game["game"]["players"][1]["name"] == "Visitor"
    # A game set up before the change keeps the name it was set up with.
    old = server.player().get(f"/api/games/{before}").json()["game"]
    assert old["players"][0]["name"].startswith("Guest-")


def test_a_guest_name_is_checked_like_an_account_name(server: LiveServer) -> None:
    guest = server.player().guest()
    assert rename(guest, display_name="")[0] == 422
    assert rename(guest, display_name="x" * 41)[0] == 422
    assert rename(guest, display_name=["a"])[0] == 422
    assert rename(guest, display_name="Ada")[0] == 200
    code, body = rename(guest, display_name="   ")  # blank: keeps the current name
    assert code == 200 and body["name"] == "Ada"
    assert rename(guest, display_name="x" * 40)[1]["name"] == "x" * 40
    # An avatar comes with an account; a bad one is refused first, as for accounts.
    assert rename(guest, avatar="lion")[0] == 403
    assert rename(guest, avatar="unicorn")[0] == 422
    assert guest.get("/api/auth/me").json()["name"] == "x" * 40
    assert rename(server.player(), display_name="Nobody")[0] == 401
    # Accounts still change theirs as before.
    account = server.player().register("li_ming")
    code, body = rename(account, display_name="李明", avatar="tiger")
    assert code == 200 and (body["display_name"], body["avatar"]) == ("李明", "tiger")


def test_a_guest_name_survives_a_restart(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path)
    with running(settings, clock) as first:
        guest = first.player().guest()
        assert rename(guest, display_name="Wanderer")[0] == 200
    with running(settings, clock) as second:
        again = second.player()
        again.cookies = dict(guest.cookies)
        assert again.get("/api/auth/me").json()["name"] == "Wanderer"


def migration_upgrades_an_existing_database(url: str) -> None:
    """A database at revision 0001_accounts_and_games with data in it migrates to the latest
    revision, keeping the data; the new table works; downgrading removes it again."""
    db = Database(url)
    try:
        config = alembic_config()
        with db.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001_accounts_and_games")
        assert "guest_names" not in inspect(db.engine).get_table_names()
        # An account as that revision's code made it (today's models have moved some columns).
        accounts = Table("accounts", MetaData(), autoload_with=db.engine)
        early = {"id": 1, "username": "early", "display_name": "Early", "password_hash": "x"}
        stats = ("score", "games", "wins", "losses", "draws", "disconnects", "timeouts")
        glicko = {"rating": 1500.0, "rating_rd": 350.0, "rating_volatility": 0.06}
        with db.engine.begin() as connection:
            connection.execute(
                accounts.insert(),
                [
                    {
                        **early,
                        **dict.fromkeys(stats, 0),
                        **glicko,
                        "avatar": "cat",
                        "is_bot": False,
                        "created_at": 1.0,
                    }
                ],
            )
        db.migrate()
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == LATEST_REVISION
        assert db.run_sync(lambda s: repo.account_by_username(s, "early")) is not None
        db.run_sync(lambda s: repo.set_guest_name(s, "a" * 20, "Gast", 2.0))
        db.run_sync(lambda s: repo.set_guest_name(s, "a" * 20, "Gast 2", 3.0))
        assert db.run_sync(lambda s: repo.guest_name(s, "a" * 20)) == "Gast 2"
        assert db.run_sync(lambda s: repo.guest_name(s, "b" * 20)) is None
        with db.migration_transaction() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0001_accounts_and_games")
        assert "guest_names" not in inspect(db.engine).get_table_names()
        # Read as that revision's table (today's model has columns it lacks: roles, 0014).
        with db.engine.connect() as connection:
            found = connection.execute(select(accounts.c.username)).scalars().all()
        assert found == ["early"]
    finally:
        db.close()
    assert schema_differences(url) == []  # and back up to a schema that matches the models


def test_migration_0002_upgrades_an_existing_database(tmp_path: Path) -> None:
    migration_upgrades_an_existing_database(f"sqlite:///{tmp_path / 'old.sqlite3'}")

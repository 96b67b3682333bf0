"""Roles: only moderators and admins reach /api/mod (every route walked: a player, a guest and
nobody get a 403 before anything is read), only admins grant roles, on the web and on the
command line (``doushouqi admin`` on a real SQLite file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from tests.support.live import LiveServer, Player
from tests.support.moderation import grant, staff_member

from doushouqi.cli import main as cli
from doushouqi.server.api import moderation

#: A value for each path parameter of the walked routes.
PARAMS = {"message_id": "1", "username": "someone"}


def mod_routes() -> list[tuple[str, str]]:
    routes = []
    for route in moderation.router.routes:
        if isinstance(route, APIRoute) and route.path.startswith("/api/mod/"):
            path = re.sub(r"\{(\w+)\}", lambda m: PARAMS[m.group(1)], route.path)
            routes.extend((method, path) for method in sorted(route.methods))
    return routes


def test_only_moderators_reach_any_moderation_route(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    routes = mod_routes()
    assert len(routes) >= 11  # the queue, messages, players, the log and the staff
    player = server.player().register("plain_player")
    guest = server.player().guest()
    nobody = server.player()
    for who in (player, guest, nobody):
        for method, path in routes:
            # A body that would be refused anyway: the 403 must come before it is read.
            answer = who.request(method, path, json={"nonsense": True})
            assert answer.status_code in (401, 403), (method, path, answer.status_code)
            if who is not nobody:
                assert answer.json()["code"] == "mod.forbidden", (method, path)
    assert player.get("/api/auth/me").json()["role"] == "player"
    moderator = staff_member(server, "the_moderator", "moderator", monkeypatch)
    assert moderator.get("/api/auth/me").json()["role"] == "moderator"
    for path in ("/api/mod/reports", "/api/mod/log", "/api/mod/staff"):
        assert moderator.get(path).status_code == 200, path


def test_an_admin_grants_and_revokes_roles_and_a_moderator_cannot(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin = staff_member(server, "site_admin", "admin", monkeypatch)
    helper = server.player().register("helper")
    answer = admin.request("PUT", "/api/mod/staff/helper", json={"role": "moderator"})
    assert answer.status_code == 200 and answer.json()["role"] == "moderator"
    assert helper.get("/api/mod/reports").status_code == 200  # at once: no new log-in
    # A moderator may not grant.
    other = server.player().register("other_player")
    refused = helper.request("PUT", "/api/mod/staff/other_player", json={"role": "admin"})
    assert refused.status_code == 403 and refused.json()["code"] == "mod.admin_only"
    staff = admin.get("/api/mod/staff").json()["staff"]
    assert [(s["username"], s["role"]) for s in staff] == [
        ("site_admin", "admin"),
        ("helper", "moderator"),
    ]
    bad = admin.request("PUT", "/api/mod/staff/helper", json={"role": "emperor"})
    assert bad.status_code == 422 and bad.json()["code"] == "role.unknown"
    missing = admin.request("PUT", "/api/mod/staff/ghost_user", json={"role": "moderator"})
    assert missing.status_code == 404
    # Back to a player: refused at once.
    admin.request("PUT", "/api/mod/staff/helper", json={"role": "player", "reason": "rota"})
    assert helper.get("/api/mod/reports").status_code == 403
    log = admin.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["target"]["name"], e["moderator"]) for e in log[:2]] == [
        ("revoke", "helper", "site_admin"),
        ("grant", "helper", "site_admin"),
    ]
    assert log[0]["reason"] == "rota"
    assert other.get("/api/mod/log").status_code == 403


def test_the_command_line_makes_the_first_admin_on_a_sqlite_file(
    tmp_path: Path,
    server: LiveServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = server.settings.resolved_database_url
    assert url.startswith("sqlite:///") and Path(url.removeprefix("sqlite:///")).is_file()
    first: Player = server.player().register("first_admin")
    assert first.get("/api/mod/log").status_code == 403
    grant(url, "first_admin", "admin", monkeypatch)
    assert "first_admin: player -> admin" in capsys.readouterr().out
    assert first.get("/api/mod/log").status_code == 200  # the running server sees it
    assert cli.main(["admin", "list"]) == 0
    assert capsys.readouterr().out.split() == ["first_admin", "admin"]
    assert cli.main(["admin", "grant", "nobody_here", "moderator"]) == 1
    assert "no account is called 'nobody_here'" in capsys.readouterr().err
    assert cli.main(["admin", "revoke", "first_admin"]) == 0
    assert first.get("/api/mod/log").status_code == 403
    # The log keeps both, as the command line's.
    grant(url, "first_admin", "admin", monkeypatch)
    entries = first.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["moderator"]) for e in entries] == [
        ("grant", "(command line)"),
        ("revoke", "(command line)"),
        ("grant", "(command line)"),
    ]
    # A database file that does not exist yet is made (and migrated) by the command.
    monkeypatch.setenv("DOUSHOUQI_DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    assert cli.main(["admin", "list"]) == 0
    assert (tmp_path / "fresh.sqlite3").is_file()

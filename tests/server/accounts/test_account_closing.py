"""Closing an account, by its owner (with the password, from a signed-in browser only) or by a
moderator: it cannot log in, its sessions and tokens are gone at once, its seeks are withdrawn,
its username is never registered again, its games stay in others' histories under its name, and
its profile says it is closed."""

from __future__ import annotations

import pytest
from tests.support.live import PASSWORD, LiveServer, Player, start_online
from tests.support.moderation import staff_member


def played_a_game(server: LiveServer, leaving: Player, staying: Player) -> str:
    game_id, leaving_ws, staying_ws = start_online(server, leaving, staying)
    leaving_ws.send({"type": "resign"})
    staying_ws.wait_for("game_finished")
    leaving_ws.close()
    staying_ws.close()
    return game_id


def assert_closed(server: LiveServer, username: str, other: Player, game_id: str) -> None:
    login = server.player().post(
        "/api/auth/login", json={"username": username, "password": PASSWORD}
    )
    assert (login.status_code, login.json()["code"]) == (403, "account.closed")
    again = server.player().post(
        "/api/auth/register", json={"username": username, "password": PASSWORD}
    )
    assert again.status_code == 409  # the name stays taken
    profile = other.get(f"/api/players/{username}").json()
    assert profile["closed"] is True
    games = other.get(f"/api/players/{other.me['username']}/games").json()["games"]
    assert [g["id"] for g in games] == [game_id]
    names = [p["name"] for p in games[0]["players"]]
    assert profile["display_name"] in names  # listed under its name still


def test_the_owner_closes_the_account_with_the_password(server: LiveServer) -> None:
    leaving, staying = server.player().register("leaving"), server.player().register("staying")
    game_id = played_a_game(server, leaving, staying)
    token = leaving.post("/api/auth/tokens", json={}).json()["token"]
    assert leaving.post("/api/seeks", json={"time_control": "5+0"}).status_code == 201
    wrong = leaving.post("/api/account/close", json={"password": "not the password"})
    assert (wrong.status_code, wrong.json()["code"]) == (403, "account.password_wrong")
    # Not with a bearer token, even one that knows the password.
    bot = server.player()
    bot.token = token
    refused = bot.post("/api/account/close", json={"password": PASSWORD})
    assert (refused.status_code, refused.json()["code"]) == (403, "auth.session")
    assert (
        server.player().post("/api/account/close", json={"password": PASSWORD}).status_code == 401
    )
    closed = leaving.post("/api/account/close", json={"password": PASSWORD})
    assert closed.status_code == 200, closed.text
    cleared = [c for c in closed.headers.get_list("set-cookie") if "Max-Age=0" in c]
    assert sorted(c.split("=")[0] for c in cleared) == ["dsq_device", "dsq_session"]
    assert bot.get("/api/auth/me").status_code == 401  # its API token is gone too
    assert leaving.get("/api/seeks").json()["mine"] == []
    assert_closed(server, "leaving", staying, game_id)


def test_a_moderator_closes_an_account(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    troll, other = server.player().register("troll_account"), server.player().register("others")
    game_id = played_a_game(server, troll, other)
    moderator = staff_member(server, "closer", "moderator", monkeypatch)
    reasonless = moderator.post("/api/mod/accounts/troll_account/close", json={})
    assert reasonless.status_code == 422
    closed = moderator.post("/api/mod/accounts/troll_account/close", json={"reason": "alt"})
    assert closed.status_code == 200 and closed.json()["closed_at"] is not None
    assert troll.get("/api/auth/me").status_code == 401  # its session, at once
    assert_closed(server, "troll_account", other, game_id)
    entry = moderator.get("/api/mod/log").json()["entries"][0]
    assert (entry["action"], entry["target"]["name"], entry["reason"]) == (
        "close",
        "troll_account",
        "alt",
    )

"""Mutes and bans: a muted sender's messages are refused (``chat.muted``, until when) and
allowed again once the time is over (the app's clock); a banned account is shut out at once —
its session and API token refused, its game socket closed, its seeks and challenges withdrawn,
its log-in refused — until the ban is lifted. Reasons are required; moderators act on players
only; everything is logged."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.live import PASSWORD, LiveServer, ManualTime, Player, start_online
from tests.support.moderation import staff_member
from websockets.exceptions import ConnectionClosed


@pytest.fixture
def moderator(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> Player:
    return staff_member(server, "mod_on_duty", "moderator", monkeypatch)


def test_a_muted_player_is_refused_until_the_mute_is_over(
    server: LiveServer, clock: ManualTime, moderator: Player
) -> None:
    red, blue = server.player().register("chatty"), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    key = f"account:{red.me['id']}"
    no_reason = moderator.post("/api/mod/mutes", json={"player": key, "minutes": 10, "reason": ""})
    assert no_reason.status_code == 422
    blank = moderator.post("/api/mod/mutes", json={"player": key, "minutes": 10, "reason": "  "})
    assert blank.json()["code"] == "mod.reason_required"
    muted = moderator.post("/api/mod/mutes", json={"player": key, "minutes": 10, "reason": "spam"})
    assert muted.status_code == 200, muted.text
    until = muted.json()["until"]
    red_ws.send({"type": "chat", "text": "buy gold", "id": "m1"})
    refused = red_ws.wait_for("rejected", lambda m: m.get("id") == "m1")
    assert refused["code"] == "chat.muted"
    assert refused["params"] == {"until": until, "minutes": 10}
    clock.advance(9 * 60)
    red_ws.send({"type": "chat", "text": "buy gold", "id": "m2"})
    assert red_ws.wait_for("rejected", lambda m: m.get("id") == "m2")["params"]["minutes"] == 1
    clock.advance(61)
    red_ws.send({"type": "chat", "text": "sorry", "id": "m3"})
    assert blue_ws.wait_for("chat")["message"]["text"] == "sorry"
    # A guest can be muted too (chat keys guests by their public id).
    guest_key = f"guest:{blue.me['id']}"
    moderator.post("/api/mod/mutes", json={"player": guest_key, "minutes": 1, "reason": "rude"})
    blue_ws.send({"type": "chat", "text": "grr", "id": "g1"})
    assert blue_ws.wait_for("rejected", lambda m: m.get("id") == "g1")["code"] == "chat.muted"
    log = moderator.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["target"]["key"], e["reason"]) for e in log[:2]] == [
        ("mute", guest_key, "rude"),
        ("mute", key, "spam"),
    ]
    assert log[1]["details"] == {"minutes": 10} and log[1]["target"]["name"] == "chatty"
    bad = moderator.post("/api/mod/mutes", json={"player": "ai:5", "minutes": 1, "reason": "x"})
    assert bad.status_code == 422
    red_ws.close()
    blue_ws.close()
    assert game_id


def test_a_mute_can_be_lifted_before_its_time(server: LiveServer, moderator: Player) -> None:
    red, blue = server.player().register("sorry_now"), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    key = f"account:{red.me['id']}"
    lift = {"player": key, "reason": "apologised"}
    not_muted = moderator.post("/api/mod/mutes/lift", json=lift)
    assert (not_muted.status_code, not_muted.json()["code"]) == (409, "mod.not_muted")
    moderator.post("/api/mod/mutes", json={"player": key, "minutes": 60, "reason": "spam"})
    assert moderator.get("/api/mod/accounts/sorry_now").json()["muted_until"] is not None
    assert red.post("/api/mod/mutes/lift", json=lift).status_code == 403  # moderators only
    no_reason = moderator.post("/api/mod/mutes/lift", json={"player": key, "reason": " "})
    assert no_reason.json()["code"] == "mod.reason_required"
    lifted = moderator.post("/api/mod/mutes/lift", json=lift)
    assert lifted.status_code == 200, lifted.text
    assert lifted.json()["unmuted"]["username"] == "sorry_now"
    assert moderator.get("/api/mod/accounts/sorry_now").json()["muted_until"] is None
    red_ws.send({"type": "chat", "text": "sorry", "id": "s1"})
    assert blue_ws.wait_for("chat")["message"]["text"] == "sorry"
    log = moderator.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["target"]["key"], e["reason"]) for e in log[:2]] == [
        ("unmute", key, "apologised"),
        ("mute", key, "spam"),
    ]
    red_ws.close()
    blue_ws.close()
    assert game_id


def test_a_ban_shuts_the_account_out_at_once_until_it_is_lifted(
    server: LiveServer, moderator: Player
) -> None:
    cheat, other = server.player().register("cheater"), server.player().register("victim")
    token = cheat.post("/api/auth/tokens", json={"label": "bot"}).json()["token"]
    bot = server.player()
    bot.token = token
    assert bot.get("/api/auth/me").status_code == 200
    seek = cheat.post("/api/seeks", json={"time_control": "5+0"})
    assert seek.status_code == 201, seek.text
    challenge = cheat.post("/api/challenges", json={"to": "victim"}).json()
    game_id, cheat_ws, other_ws = start_online(server, cheat, other)

    no_reason = moderator.post("/api/mod/accounts/cheater/ban", json={"reason": ""})
    assert no_reason.status_code == 422
    banned = moderator.post("/api/mod/accounts/cheater/ban", json={"reason": "engine use"})
    assert banned.status_code == 200, banned.text
    assert banned.json()["banned_at"] is not None
    # At once: the session, the API token and the open socket.
    assert cheat.get("/api/auth/me").status_code == 401
    assert bot.get("/api/auth/me").status_code == 401
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            cheat_ws.recv(timeout=5)
    assert cheat.get("/api/seeks").json()["mine"] == []
    assert other.get(f"/api/challenges/{challenge['id']}").json()["status"] == "cancelled"
    login = server.player().post(
        "/api/auth/login", json={"username": "cheater", "password": PASSWORD}
    )
    assert (login.status_code, login.json()["code"]) == (403, "account.banned")
    wrong = server.player().post("/api/auth/login", json={"username": "cheater", "password": "x"})
    assert wrong.status_code == 401  # the ban is told only to whoever knows the password
    assert "cheater" not in [p["username"] for p in other.get("/api/leaderboard").json()["players"]]

    lifted = moderator.post("/api/mod/accounts/cheater/unban", json={"reason": "appeal won"})
    assert lifted.status_code == 200 and lifted.json()["banned_at"] is None
    again = server.player()
    assert (
        again.post(
            "/api/auth/login", json={"username": "cheater", "password": PASSWORD}
        ).status_code
        == 200
    )
    assert again.get("/api/auth/me").json()["username"] == "cheater"
    assert bot.get("/api/auth/me").status_code == 401  # its old tokens stay gone
    log = moderator.get("/api/mod/log").json()["entries"]
    assert [(e["action"], e["reason"]) for e in log[:2]] == [
        ("unban", "appeal won"),
        ("ban", "engine use"),
    ]
    other_ws.close()
    assert game_id


def test_moderators_act_on_players_only(
    server: LiveServer, moderator: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    colleague = staff_member(server, "mod_colleague", "moderator", monkeypatch)
    admin = staff_member(server, "the_admin", "admin", monkeypatch)
    reason: dict[str, Any] = {"reason": "test"}
    staff = moderator.post("/api/mod/accounts/mod_colleague/ban", json=reason)
    assert (staff.status_code, staff.json()["code"]) == (403, "mod.staff")
    self_ban = moderator.post("/api/mod/accounts/mod_on_duty/ban", json=reason)
    assert (self_ban.status_code, self_ban.json()["code"]) == (409, "mod.self")
    assert moderator.post("/api/mod/accounts/nobody_at_all/ban", json=reason).status_code == 404
    # An admin may: the banned moderator is a moderator no more.
    assert admin.post("/api/mod/accounts/mod_colleague/ban", json=reason).status_code == 200
    assert admin.get("/api/mod/accounts/mod_colleague").json()["role"] == "player"
    assert colleague.get("/api/mod/reports").status_code == 401


def test_a_banned_players_games_end_at_once(server: LiveServer, moderator: Player) -> None:
    """Its opponents are not left waiting for a player who can never come back: a game in
    progress is resigned (the opponent wins), a game not started is aborted."""
    cheat, other = server.player().register("quitter"), server.player().register("waiter")
    game_id, other_ws, cheat_ws = start_online(server, other, cheat)  # other is red (0)
    waiting = cheat.create(mode="online")["id"]
    banned = moderator.post("/api/mod/accounts/quitter/ban", json={"reason": "engine use"})
    assert banned.status_code == 200, banned.text
    finished = other_ws.wait_for("game_finished")
    assert (finished["winner"], finished["result"]) == (0, "1-0")
    assert other.get(f"/api/games/{game_id}").json()["game"]["status"] == "resignation"
    assert other.get(f"/api/games/{waiting}").json()["game"]["status"] == "aborted"
    other_ws.close()
    cheat_ws.close()

"""Accounts over REST: sign-up, log-in, cookies, guests, profiles, tokens, rate limits."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import LiveServer, ManualTime, make_settings, running

from doushouqi.server.infra.settings import RateLimit


def test_register_login_logout(server: LiveServer) -> None:
    li = server.player()
    response = li.post(
        "/api/auth/register",
        json={
            "username": "Li_Wei",
            "password": "tiger-tiger",
            "display_name": "李伟",
            "avatar": "tiger",
        },
    )
    assert response.status_code == 201
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" in cookie
    me = li.get("/api/auth/me").json()
    assert (me["kind"], me["username"], me["name"], me["avatar"]) == (
        "account",
        "li_wei",
        "李伟",
        "tiger",
    )
    assert li.post("/api/auth/logout").status_code == 200
    assert li.get("/api/auth/me").status_code == 401

    again = server.player()
    wrong = again.post("/api/auth/login", json={"username": "li_wei", "password": "lion-lion"})
    assert wrong.status_code == 401
    nobody = again.post("/api/auth/login", json={"username": "nobody", "password": "lion-lion"})
    assert nobody.status_code == 401 and nobody.json() == wrong.json()
    right = again.post("/api/auth/login", json={"username": "LI_WEI", "password": "tiger-tiger"})
    assert right.status_code == 200 and again.get("/api/auth/me").json()["username"] == "li_wei"


def test_register_checks_its_input(server: LiveServer) -> None:
    player = server.player()
    player.register("taken")
    cases = [
        ({"username": "taken", "password": "long enough"}, 409),
        ({"username": "ab", "password": "long enough"}, 422),
        ({"username": "no spaces", "password": "long enough"}, 422),
        ({"username": "fine", "password": "short"}, 422),
        ({"username": "fine", "password": "long enough", "avatar": "dragon"}, 422),
        ({"username": "fine"}, 422),
    ]
    for body, status in cases:
        assert server.player().post("/api/auth/register", json=body).status_code == status, body


def test_passwords_are_stored_as_argon2_hashes(server: LiveServer) -> None:
    server.player().register("hashed", "my secret words")
    ctx = server.app.state.ctx
    from doushouqi.server.db import repo

    row = ctx.db.run_sync(lambda s: repo.account_by_username(s, "hashed"))
    assert row.password_hash.startswith("$argon2id$") and "secret" not in row.password_hash


def test_guest_session(server: LiveServer) -> None:
    guest = server.player().guest()
    assert guest.me["kind"] == "guest" and guest.me["name"].startswith("Guest-")
    # What others see of a guest is not the secret in the guest's cookie.
    assert guest.me["id"] not in guest.cookies["dsq_guest"]
    impostor = server.player()
    impostor.cookies["dsq_guest"] = guest.me["id"]
    assert impostor.get("/api/auth/me").json().get("id") != guest.me["id"]
    assert guest.post("/api/auth/guest").json()["id"] == guest.me["id"]  # the same guest
    assert guest.get("/api/auth/me").json()["kind"] == "guest"
    assert guest.post("/api/auth/tokens", json={}).status_code == 403
    assert server.player().get("/api/auth/me").status_code == 401


def test_profile_and_avatar(server: LiveServer) -> None:
    player = server.player().register("wang")
    # No avatar until one is chosen (not one game's piece): the client draws the initial.
    assert player.me["avatar"] == ""
    assert server.player().get("/api/players/wang").json()["avatar"] == ""
    changed = player.request("PATCH", "/api/account", json={"display_name": "王", "avatar": "lion"})
    assert changed.status_code == 200
    profile = server.player().get("/api/players/wang").json()
    assert (profile["display_name"], profile["avatar"]) == ("王", "lion")
    assert profile["stats"] == {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "disconnects": 0,
        "timeouts": 0,
    }
    assert profile["level"]["number"] == 1
    # A rating per speed, fastest first; a new player's is provisional ("1500?").
    assert list(profile["ratings"]) == ["bullet", "blitz", "rapid", "classical", "correspondence"]
    assert profile["ratings"]["blitz"] == {
        "rating": 1500,
        "rd": 350,
        "volatility": 0.06,
        "provisional": True,
        "games": 0,
    }
    bad = player.request("PATCH", "/api/account", json={"avatar": "unicorn"})
    assert bad.status_code == 422
    assert server.player().get("/api/players/nobody").status_code == 404
    # Per game: a game the player has not played shows a new player's; an unknown one is refused.
    assert server.player().get("/api/players/wang?game=jungle").json() == profile
    unknown = server.player().get("/api/players/wang?game=nosuchgame")
    assert unknown.status_code == 422 and unknown.json()["code"] == "game.unknown"
    assert server.player().get("/api/leaderboard?game=nosuchgame").status_code == 422


def test_api_tokens_authenticate_bots(server: LiveServer) -> None:
    owner = server.player().register("engine_bot", bot=True)
    token = owner.post("/api/auth/tokens", json={"label": "my engine"}).json()["token"]
    bot = server.player()
    bot.token = token
    assert bot.get("/api/auth/me").json() == {**owner.me}
    bot.token = token[:-2] + "xx"
    assert bot.get("/api/auth/me").status_code == 401


def test_login_is_rate_limited(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path, login_rate=RateLimit(3, 60.0))
    with running(settings, clock) as live:
        player = live.player()
        codes = [
            player.post("/api/auth/login", json={"username": "x", "password": "y" * 8}).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [401, 401, 401] and codes[3:] == [429, 429]
        limited = player.post("/api/auth/login", json={"username": "x", "password": "y" * 8})
        assert int(limited.headers["retry-after"]) >= 1


def test_game_creation_is_rate_limited(tmp_path: Path, clock: ManualTime) -> None:
    settings = make_settings(tmp_path, create_rate=RateLimit(2, 60.0))
    with running(settings, clock) as live:
        player = live.player().guest()
        codes = [player.post("/api/games", json={}).status_code for _ in range(3)]
        assert codes == [201, 201, 429]


def test_scoring_rules_and_openapi(server: LiveServer) -> None:
    scoring = server.player().get("/api/scoring").json()
    assert scoring["win_base"] == 4 and scoring["loss_points"] == -2
    assert len(scoring["levels"]) == 10
    schema = server.player().get("/openapi.json").json()
    for path in (
        "/api/games",
        "/api/lobby",
        "/api/leaderboard",
        "/api/records",
        "/api/players/{username}",
        "/api/bot/game/{game_id}/move/{move}",
    ):
        assert path in schema["paths"], path
    page = server.player().get("/")
    assert page.status_code == 200 and "/docs" in page.text


def test_session_names_the_player_without_making_one(server: LiveServer) -> None:
    visitor = server.player()
    assert visitor.get("/api/auth/session").json() == {"player": None}
    assert visitor.get("/api/auth/me").status_code == 401
    guest = visitor.guest()
    assert guest.get("/api/auth/session").json()["player"]["kind"] == "guest"
    account = server.player().register("wu_song")
    assert account.get("/api/auth/session").json()["player"]["username"] == "wu_song"

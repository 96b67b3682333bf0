"""Cross-site request forgery: a page on another site cannot change anything with the player's
cookies (a ``text/plain`` POST included), while our own pages, bots with a bearer token and
scripts keep working."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.support.live import HOST, LiveServer, Player
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

EVIL = "https://evil.example"


def own_origin(server: LiveServer) -> str:
    return f"http://{HOST}:{server.port}"


def vs_ai_game(player: Player) -> str:
    """A started game against the computer, with ``player`` (Red) to move."""
    game_id = str(player.create(mode="vs_ai", color="red", ai_level=1)["id"])
    assert player.post(f"/api/games/{game_id}/join").status_code == 200
    return game_id


def game_of(server: LiveServer, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = server.player().get(f"/api/games/{game_id}").json()["game"]
    return game


FORGERIES = [
    {"Origin": EVIL},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://sub.example"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "OWN"},  # the fetch metadata wins
]


@pytest.mark.parametrize("headers", FORGERIES)
def test_a_forged_text_plain_command_is_refused(
    server: LiveServer, headers: dict[str, str]
) -> None:
    player = server.player().guest()
    game_id = vs_ai_game(player)
    forged = {k: own_origin(server) if v == "OWN" else v for k, v in headers.items()}
    response = player.post(
        f"/api/games/{game_id}/commands",
        content='{"type": "resign"}',
        headers={"Content-Type": "text/plain", **forged},
    )
    assert response.status_code == 403
    assert response.json() == {"detail": "cross-origin request refused"}
    game = game_of(server, game_id)
    assert game["result"] == "*" and game["status"] == "started"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/games", {}),
        ("/api/auth/logout", None),
        ("/api/auth/tokens", {"label": "stolen"}),
        ("/api/records", None),
    ],
)
def test_every_cookie_endpoint_refuses_other_origins(
    server: LiveServer, path: str, body: object
) -> None:
    player = server.player().register("victim")
    response = player.post(path, json=body, headers={"Origin": EVIL})
    assert response.status_code == 403
    assert (
        player.request("PATCH", "/api/account", json={}, headers={"Origin": EVIL}).status_code
        == 403
    )


def test_our_own_pages_and_non_browsers_are_let_through(server: LiveServer) -> None:
    player = server.player().guest()
    same = {"Origin": own_origin(server), "Sec-Fetch-Site": "same-origin"}
    game_id = player.create(mode="online", color="red")["id"]
    for headers in (same, {"Sec-Fetch-Site": "same-origin"}, {"Origin": own_origin(server)}, {}):
        created = player.post("/api/games", json={}, headers=headers)
        assert created.status_code == 201, (headers, created.text)
    # Safe methods are never refused: another site may link to a game.
    assert player.get(f"/api/games/{game_id}", headers={"Origin": EVIL}).status_code == 200


def test_a_bot_with_a_bearer_token_keeps_working(server: LiveServer) -> None:
    owner = server.player().register("engine_bot", bot=True)
    token = owner.api_token("board:play")
    bot = server.player()
    bot.token = token
    game_id = vs_ai_game(bot)
    # A browser never attaches a bearer token by itself: with one, no forgery is possible.
    response = bot.post(
        f"/api/games/{game_id}/commands",
        json={"type": "move", "move": "a3a4"},
        headers={"Origin": EVIL},
    )
    assert response.status_code == 200, response.text
    assert game_of(server, game_id)["moves"][0][0] == "a3a4"


def test_a_cross_site_websocket_handshake_is_refused(server: LiveServer) -> None:
    player = server.player().guest()
    game_id = vs_ai_game(player)
    url = f"ws://{HOST}:{server.port}/ws/games/{game_id}"
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, additional_headers={**player.headers(), **headers}).close()
        assert refused.value.response.status_code == 403
    with connect(url, additional_headers={**player.headers(), "Origin": own_origin(server)}) as ws:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"

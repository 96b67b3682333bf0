"""Every game between people is public (on Watch and TV) unless a player chose private: quick
pairing, challenges and their rematches are listed; a private challenge's game, a game against
the computer and an invite game created unlisted are not."""

from __future__ import annotations

from typing import Any

from tests.support.live import GameSocket, LiveServer, Player, move
from tests.support.site_helpers import site_socket


def listed(server: LiveServer) -> list[str]:
    answer = server.player().get("/api/games/live")
    assert answer.status_code == 200, answer.text
    return [g["id"] for g in answer.json()["games"]]


def at_the_board(red: Player, blue: Player, game_id: str) -> tuple[GameSocket, GameSocket]:
    """Both players' sockets to a game with both seats taken; returns once it started."""
    red_ws, blue_ws = red.socket(game_id), blue.socket(game_id)
    red_ws.wait_for("game_started")
    blue_ws.wait_for("game_started")
    return red_ws, blue_ws


def paired(server: LiveServer) -> tuple[str, Player, Player]:
    alice, bob = server.player().guest(), server.player().guest()
    with site_socket(alice) as tab:  # a seek lives while its tab does
        tab.wait_for("hello")
        assert alice.post("/api/seeks", json={"time_control": "5+3"}).status_code == 201
        game_id = bob.post("/api/seeks", json={"time_control": "5+3"}).json()["game_id"]
    assert game_id is not None
    return game_id, alice, bob


def accepted(server: LiveServer, **choice: Any) -> tuple[str, Player, Player]:
    alice, bob = server.player().register("alice"), server.player().register("bob")
    sent = alice.post("/api/challenges", json={"to": "bob", "time_control": "5+3", **choice})
    assert sent.status_code == 201, sent.text
    assert sent.json()["private"] is bool(choice.get("private"))
    answer = bob.post(f"/api/challenges/{sent.json()['id']}/accept")
    assert answer.status_code == 200, answer.text
    return answer.json()["game_id"], alice, bob


def test_a_quick_pairing_game_is_public(server: LiveServer) -> None:
    game_id, alice, bob = paired(server)
    assert listed(server) == []  # not until both are at the board: it has not started
    sockets = at_the_board(alice, bob, game_id)
    assert listed(server) == [game_id]
    for ws in sockets:
        ws.close()


def test_a_challenge_game_is_public_unless_the_challenger_chose_private(
    server: LiveServer,
) -> None:
    game_id, alice, bob = accepted(server)
    sockets = at_the_board(alice, bob, game_id)
    assert listed(server) == [game_id]
    carol, dave = server.player().register("carol"), server.player().register("dave")
    sent = carol.post("/api/challenges", json={"to": "dave", "private": True}).json()
    assert carol.get(f"/api/challenges/{sent['id']}").json()["private"] is True
    hidden = dave.post(f"/api/challenges/{sent['id']}/accept").json()["game_id"]
    more = at_the_board(carol, dave, hidden)
    assert listed(server) == [game_id]  # the private one is played, not shown
    assert carol.get(f"/api/games/{hidden}").status_code == 200  # its players' page works
    for ws in (*sockets, *more):
        ws.close()


def test_a_rematch_is_as_public_as_its_game(server: LiveServer) -> None:
    game_id, alice, bob = accepted(server)
    a_ws, b_ws = at_the_board(alice, bob, game_id)
    a_ws.send({"type": "resign"})
    a_ws.wait_for("game_finished")
    a_ws.send({"type": "rematch"})
    b_ws.send({"type": "rematch"})
    rematch = a_ws.wait_for("rematch_ready")["new_game_id"]
    sockets = at_the_board(alice, bob, rematch)
    assert listed(server) == [rematch]
    for ws in (a_ws, b_ws, *sockets):
        ws.close()


def test_games_against_the_computer_and_unlisted_invites_stay_off(server: LiveServer) -> None:
    me = server.player().guest()
    ai = me.create(mode="vs_ai", ai_level=1, color="red")["id"]
    with me.socket(ai) as ws:
        ws.wait_for("state")
        move(ws, "a3a4")
        assert listed(server) == []

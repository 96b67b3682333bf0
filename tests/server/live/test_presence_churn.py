"""Presence churn never makes a move stale: while one player's only connection keeps dropping
and coming back (each a ``player_disconnected`` / ``player_reconnected`` that raises the game's
version), the other player's moves — each sent with the version its sender last saw — and the
churning player's own moves are all accepted. On one node, and across nodes (the churning
player's sockets on a node that does not own the game, its presence reaching the owner through
Redis)."""

from __future__ import annotations

from typing import Any

from tests.support.helpers import quiet_moves
from tests.support.live import GameSocket, LiveServer, Player, answer_to, start_online

PLIES = 24


def _plies_seen(ws: GameSocket) -> int:
    """How many of the game's moves ``ws`` has been shown (by a ``state`` or a ``move_made``)."""
    shown = 0
    for message in ws.seen:
        if message["type"] == "state":
            shown = max(shown, len(message["game"]["moves"]))
        elif message["type"] == "move_made":
            shown = max(shown, message["ply"])
    return shown


def _last_version(ws: GameSocket, seen: int, plies: int) -> int:
    """The newest version ``ws`` has been told of once it has been shown the game's first
    ``plies`` moves (a player answers only a move it has seen: over Redis, or on a socket
    that has just connected, the last one may still be on its way), and everything queued
    behind them read."""
    while _plies_seen(ws) < plies:
        ws.recv()
    ws.drain(quiet=0.05)
    return max(seen, ws.version)


def _play_through_churn(
    game_id: str, red_ws: GameSocket, blue: Player, blue_ws: GameSocket
) -> list[dict[str, Any]]:
    """Play PLIES moves; Blue's socket is cut before each of Red's moves, which is sent for
    the version Red saw before that, while Blue connects again. Returns every answer that was
    not an ack."""
    moves = quiet_moves(PLIES)
    refused = []
    red_seen = blue_seen = 0
    for ply, text in enumerate(moves):
        move_id = f"p{ply}"
        if ply % 2 == 0:
            red_seen = _last_version(red_ws, red_seen, ply)
            blue_ws.close()  # Blue's last connection goes: the owner records a disconnect,
            red_ws.wait_for("player_disconnected")  # so Red's version is behind the game's,
            blue_ws = blue.socket(game_id)  # and Blue comes back while Red's move travels
            red_ws.send({"type": "move", "move": text, "version": red_seen, "id": move_id})
            answer = answer_to(red_ws, move_id)
        else:
            blue_seen = _last_version(blue_ws, blue_seen, ply)
            blue_ws.send({"type": "move", "move": text, "version": blue_seen, "id": move_id})
            answer = answer_to(blue_ws, move_id)
        if answer["type"] != "ack":
            refused.append(answer)
    blue_ws.close()
    return refused


def _moves(server: LiveServer, game_id: str) -> list[str]:
    """The game's moves, once the churn is shown to have raised its version (else the test
    proves nothing): beyond the two joins and the moves, by presence events."""
    state = server.player().get(f"/api/games/{game_id}").json()
    assert state["version"] >= 2 + PLIES + PLIES // 2, state["version"]
    return [m[0] for m in state["game"]["moves"]]


def test_presence_churn_rejects_no_move_on_one_node(server: LiveServer) -> None:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    assert _play_through_churn(game_id, red_ws, blue, blue_ws) == []
    assert _moves(server, game_id) == quiet_moves(PLIES)
    red_ws.close()


def test_presence_churn_rejects_no_move_across_nodes(nodes: list[LiveServer]) -> None:
    a, b, _ = nodes
    red = a.player().guest()
    blue = b.player().guest()
    game_id = red.create(mode="online", color="red")["id"]  # a owns it; Blue comes through b
    red_ws = red.socket(game_id)
    red_ws.wait_for("state")
    blue_ws = blue.socket(game_id)
    blue_ws.wait_for("state")
    blue_ws.send({"type": "join"})
    red_ws.wait_for("game_started")
    assert _play_through_churn(game_id, red_ws, blue, blue_ws) == []
    assert _moves(b, game_id) == quiet_moves(PLIES)
    red_ws.close()

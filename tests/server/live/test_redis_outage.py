"""Redis away mid-game on two real nodes (PostgreSQL and Redis real): the player to move is
connected to the node that does not own the game, so cannot reach it; the time until Redis
answers again is not charged to them, and their flag does not fall meanwhile. The player at
the owner's node moves meanwhile, and the move stands. No request gets a 5xx."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import (
    DEN_GAME,
    GameSocket,
    LiveServer,
    ManualTime,
    Player,
    move,
    running,
)
from tests.support.redis_server import RedisServer

from doushouqi.server.db import outages

pytestmark = CLUSTER_MARKS

#: How long Redis stays away.
OUTAGE = 5.0
#: What Red's clock may be charged beyond its own thinking: Redis coming back, the game being
#: claimed again (within a second or two) and the retried move's round trips. Without the
#: outage given back it would be charged at least ``OUTAGE``.
TOLERANCE = 2.0


def _away_since(node: LiveServer) -> float | None:
    return node.app.state.ctx.registry.services.downtime.away_since  # type: ignore[no-any-return]


def _until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def _game(player: Player, game_id: str, statuses: list[int]) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    statuses.append(response.status_code)
    assert response.status_code == 200, response.text
    return response.json()["game"]  # type: ignore[no-any-return]


def test_the_player_cut_off_from_the_owner_is_not_charged_for_a_redis_outage(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    statuses: list[int] = []
    with (
        running(node_settings(tmp_path, database, redis, "a")) as a,
        running(node_settings(tmp_path, database, redis, "b")) as b,
    ):
        red, blue = b.player().guest(), a.player().guest()
        creator = a.player()
        creator.cookies = dict(red.cookies)  # Red creates the game on a: a owns it
        game_id = creator.create(mode="online", color="red", time_control="5+0")["id"]
        sockets: dict[str, GameSocket | None] = {"red": red.socket(game_id)}  # through b
        blue_ws = blue.socket(game_id)  # at the owner
        red_ws = sockets["red"]
        assert red_ws is not None
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        move(red_ws, DEN_GAME[0])
        move(blue_ws, DEN_GAME[1])
        made = move(red_ws, DEN_GAME[2])
        red_left = made["clocks"]["remaining"][0]  # Red's time when its turn next begins

        redis.kill()
        try:
            _until(lambda: _away_since(a) is not None and _away_since(b) is not None)
            # Blue, at the owner, moves: the database is there, the move is stored.
            move(blue_ws, DEN_GAME[3])
            # Red, on b, cannot reach the owner: told to try again, not failed.
            red_ws.send({"type": "move", "move": DEN_GAME[4], "id": "cut-off"})
            reply = red_ws.wait_for("error", lambda m: m.get("id") == "cut-off")
            assert reply["code"] == "unavailable", reply
            for node in (a, b):  # any node still reads the game from the database
                game = _game(node.player(), game_id, statuses)
                assert [m[0] for m in game["moves"]] == DEN_GAME[:4]
            time.sleep(OUTAGE)  # the outage itself: Red can do nothing meanwhile
        finally:
            redis.start()
        back = time.monotonic()

        _move_again_until_taken(b, red, sockets, game_id, 4)
        moved_after = time.monotonic() - back

        # Both nodes agree (the one that ran the game before Redis went away hands it over
        # within a beat of finding its lease gone).
        _until(
            lambda: all(
                len(_game(node.player(), game_id, statuses)["moves"]) == 5 for node in (a, b)
            )
        )
        game = _game(a.player(), game_id, statuses)
        assert [m[0] for m in game["moves"]] == DEN_GAME[:5]  # Blue's move stands
        charged = red_left - game["clocks"]["remaining"][0]
        # Red was charged only from the game's claim after Redis came back to its move.
        assert charged < TOLERANCE, (charged, moved_after)
        assert charged <= moved_after + 0.5, (charged, moved_after)
        # Each node recorded its outage (about as long as Redis was away).
        db = a.app.state.ctx.db
        _until(lambda: len(db.run_sync(lambda s: outages.since(s, 0.0))) >= 2)
        recorded = db.run_sync(lambda s: outages.since(s, 0.0))
        lengths = [o.end - o.start for o in recorded if o.end is not None]
        assert all(OUTAGE <= n < OUTAGE + 5 for n in lengths), lengths
        for ws in (*sockets.values(), blue_ws):
            if ws is not None:
                ws.close()
    assert statuses and all(s < 500 for s in statuses), statuses


def _move_again_until_taken(
    node: LiveServer, player: Player, sockets: dict[str, GameSocket | None], game_id: str, ply: int
) -> None:
    """Red's move ``DEN_GAME[ply]``, as the web client makes it once Redis is back: again when
    told to, reconnecting when cut off."""
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "Red's move never went in"
        if len(node.player().get(f"/api/games/{game_id}").json()["game"]["moves"]) > ply:
            return  # taken, though its event was missed in a reconnect
        try:
            if sockets["red"] is None:
                sockets["red"] = player.socket(game_id)
            ws = sockets["red"]
            ws.send({"type": "move", "move": DEN_GAME[ply], "id": "retry"})
            if _answer(ws, DEN_GAME[ply])["type"] == "move_made":
                return
        except Exception:  # the socket was closed (its node gave the game up)
            sockets["red"] = None
        time.sleep(0.1)


def test_a_flag_that_would_fall_while_redis_is_away_does_not(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Both nodes on one injected clock: Red, cut off from the owner, had five minutes; Redis
    stays away for more (on that clock), and the owner's timer wakes at Red's old deadline
    meanwhile. Red has not lost, and after Redis is back still has all five minutes."""
    clock = ManualTime()
    with (
        running(node_settings(tmp_path, database, redis, "a"), clock) as a,
        running(node_settings(tmp_path, database, redis, "b"), clock) as b,
    ):
        red, blue = b.player().guest(), a.player().guest()
        creator = a.player()
        creator.cookies = dict(red.cookies)
        game_id = creator.create(mode="online", color="red", time_control="5+0")["id"]
        sockets: dict[str, GameSocket | None] = {"red": red.socket(game_id)}
        red_ws = sockets["red"]
        assert red_ws is not None
        with blue.socket(game_id) as blue_ws:
            red_ws.wait_for("state")
            blue_ws.wait_for("state")
            blue_ws.send({"type": "join"})
            red_ws.wait_for("game_started")
            move(red_ws, DEN_GAME[0])
            move(blue_ws, DEN_GAME[1])  # Red to move, with its five minutes
            version = a.player().get(f"/api/games/{game_id}").json()["version"]
            redis.kill()
            try:
                _until(lambda: _away_since(a) is not None and _away_since(b) is not None)
                clock.advance(400)  # past Red's deadline: the owner's timer wakes
                owner_view = a.player().get
                _until(lambda: owner_view(f"/api/games/{game_id}").json()["version"] > version)
                state = owner_view(f"/api/games/{game_id}").json()["game"]
                assert state["status"] == "started"  # the deadline waits for Redis
                assert state["clocks"]["remaining"][0] == 300.0
            finally:
                redis.start()
            _move_again_until_taken(b, red, sockets, game_id, 2)
            _until(
                lambda: all(
                    len(n.player().get(f"/api/games/{game_id}").json()["game"]["moves"]) == 3
                    for n in (a, b)
                )
            )
            game = b.player().get(f"/api/games/{game_id}").json()["game"]
            assert game["status"] == "started"
            assert game["clocks"]["remaining"][0] == 300.0  # none of the 400 s was Red's
        for ws in sockets.values():
            if ws is not None:
                ws.close()


def _answer(ws: GameSocket, text: str) -> dict[str, Any]:
    """The move ``text`` just sent: its ``move_made``, or the error that refused it."""
    while True:
        reply = ws.recv(timeout=10)
        if reply["type"] == "move_made" and reply["move"] == text:
            return reply
        if reply.get("id") == "retry" and reply["type"] in ("error", "rejected"):
            return reply

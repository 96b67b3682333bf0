"""Two nodes that both believe they own a game (all real: PostgreSQL, Redis, the nodes).

Redis restarted without persistence loses every lease: another node may then claim a game from
the database while its owner still runs it, and both accept commands until the old owner's next
lease renewal. The database's version check keeps either from overwriting the other; these
tests show that the node whose copy is out of date finds out at once — when it writes, when a
socket opens, when the game is asked for — and reloads the game (it holds the lease) or leaves
it to the node that does, so that no client is sent a state older than the database's, every
acknowledged move is kept, and the game goes on.

The race is made deterministic: the leases last ten minutes, so no renewal (every third of a
lease) falls within a test, and the Redis restart is a FLUSHALL (everything lost at once).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis
from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import DEN_GAME, GameSocket, LiveServer, Player, move, running
from tests.support.redis_server import RedisServer
from websockets.exceptions import ConnectionClosed

pytestmark = CLUSTER_MARKS

#: Seconds a lease lasts here: long enough that no node renews (or finds it lost) by itself.
LEASE = 600.0


@contextmanager
def two_nodes(tmp_path: Path, database: str, redis: RedisServer) -> Iterator[list[LiveServer]]:
    with ExitStack() as stack:
        yield [
            stack.enter_context(
                running(
                    dataclasses.replace(
                        node_settings(tmp_path, database, redis, name), lease_seconds=LEASE
                    )
                )
            )
            for name in ("a", "b")
        ]


def wait_until(condition: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def at(node: LiveServer, player: Player) -> Player:
    """The same person (their cookies) talking to ``node``."""
    there = node.player()
    there.cookies = dict(player.cookies)
    return there


def node_name(node: LiveServer) -> str:
    cluster = node.app.state.ctx.registry.services.cluster
    return str(cluster.node)


def runs(node: LiveServer, game_id: str) -> bool:
    """Whether ``node`` has an actor for the game."""
    return game_id in node.app.state.ctx.registry._actors


def lease_holder(redis: RedisServer, game_id: str) -> str | None:
    client = sync_redis.Redis.from_url(redis.url, decode_responses=True)
    try:
        holder = client.get(f"dsq:lease:{game_id}")
        return None if holder is None else str(holder)
    finally:
        client.close()


def lose_redis_data(redis: RedisServer) -> None:
    """What a Redis restart without persistence does to the cluster: every lease is gone."""
    client = sync_redis.Redis.from_url(redis.url)
    try:
        client.flushall()
    finally:
        client.close()


def stored(node: LiveServer, game_id: str) -> dict[str, Any]:
    """The game as the database holds it (asked of a node that does not run it)."""
    assert not runs(node, game_id)
    game: dict[str, Any] = node.player().get(f"/api/games/{game_id}").json()["game"]
    return game


def states(ws: GameSocket) -> list[dict[str, Any]]:
    return [m["game"] for m in ws.seen if m["type"] == "state"]


def start_game(
    red: Player, blue: Player, red_node: Player, blue_node: Player
) -> tuple[str, GameSocket, GameSocket]:
    """A game created through ``red``'s node (its owner), played through the sockets of
    ``red_node`` and ``blue_node``, two moves in."""
    game_id = red.create(mode="online", color="red")["id"]
    red_ws, blue_ws = red_node.socket(game_id), blue_node.socket(game_id)
    red_ws.wait_for("state")
    blue_ws.wait_for("state")
    blue_ws.send({"type": "join"})
    red_ws.wait_for("game_started")
    blue_ws.wait_for("game_started")
    for ply in (0, 1):
        mover, other = (red_ws, blue_ws) if ply == 0 else (blue_ws, red_ws)
        move(mover, DEN_GAME[ply], id=f"m{ply}")
        other.wait_for("move_made", lambda m, t=DEN_GAME[ply]: m["move"] == t)
    return game_id, red_ws, blue_ws


def test_a_claimant_that_missed_moves_of_the_old_owner_reloads_the_game_at_its_next_write(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Node b claims a's game after Redis lost the leases (both players' sockets are on b);
    a, which has not noticed, stores two more moves. b's next write meets the newer version: b
    holds the lease, so it reloads the game at once and sends its sockets the stored state
    before it answers; the move it was given is judged against that state, and play goes on."""
    with two_nodes(tmp_path, database, redis) as (a, b):
        red, blue = a.player().guest(), a.player().guest()
        game_id, red_ws, blue_ws = start_game(red, blue, at(b, red), at(b, blue))
        seen_version = red_ws.version

        lose_redis_data(redis)
        wait_until(lambda: runs(b, game_id), "node b to claim the game")
        assert lease_holder(redis, game_id) == node_name(b)
        assert runs(a, game_id)  # a still believes it owns the game: both run it now

        # a stores two more moves (REST, as a bot would play); both are acknowledged.
        for ply, player in ((2, red), (3, blue)):
            body = {"type": "move", "move": DEN_GAME[ply], "id": f"m{ply}"}
            answer = player.post(f"/api/games/{game_id}/commands", json=body)
            assert answer.status_code == 200, answer.text
            assert answer.json()["events"][0]["type"] == "move_made"

        # Red, on b, still at the old position, plays the move it sees as its own.
        red_ws.send({"type": "move", "move": DEN_GAME[2], "version": seen_version, "id": "late"})
        refused = red_ws.wait_for("rejected", lambda m: m["id"] == "late")
        assert refused["code"] == "stale_version"
        fresh = states(red_ws)[-1]  # sent before the answer
        assert [m[0] for m in fresh["moves"]] == DEN_GAME[:4]
        assert [m[0] for m in blue_ws.wait_for("state")["game"]["moves"]] == DEN_GAME[:4]
        assert runs(b, game_id)  # reloaded, not dropped: b holds the lease

        # The game goes on from the stored position.
        move(red_ws, DEN_GAME[4], id="m4", version=red_ws.version)
        blue_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[4])

        # a, the old owner, is out of date now: asked for the game, it finds out, leaves the
        # game to b, and answers with the stored state, not with the copy it held.
        game = red.get(f"/api/games/{game_id}").json()["game"]
        assert [m[0] for m in game["moves"]] == DEN_GAME[:5]
        assert not runs(a, game_id)
        assert [m[0] for m in stored(a, game_id)["moves"]] == DEN_GAME[:5]
        # No state sent to anyone was ever behind the database (the moves only grew).
        for ws in (red_ws, blue_ws):
            lengths = [len(s["moves"]) for s in states(ws)]
            assert lengths == sorted(lengths) and lengths[-1] == 4, lengths
        red_ws.close()
        blue_ws.close()


def test_an_old_owner_whose_write_meets_the_claimants_version_drops_the_game_at_once(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Node a runs a game its players are connected to; after Redis lost the leases b claims
    it and stores a change (the players are not at b's board). a's next write meets b's
    version: a does not hold the lease, so it drops the game at once and cuts its sockets off
    (the move is not applied, nor acknowledged); they reconnect, reach b through forwarding,
    and the move sent again is played."""
    with two_nodes(tmp_path, database, redis) as (a, b):
        red, blue = a.player().guest(), a.player().guest()
        game_id, red_ws, blue_ws = start_game(red, blue, red, blue)
        before = red_ws.version

        lose_redis_data(redis)
        wait_until(lambda: runs(b, game_id), "node b to claim the game")
        # b sees nobody at the board: it stores that both players went away.
        wait_until(
            lambda: b.player().get(f"/api/games/{game_id}").json()["version"] > before,
            "node b to store the players' absence",
        )

        red_ws.send({"type": "move", "move": DEN_GAME[2], "version": before, "id": "m2"})
        with pytest.raises(ConnectionClosed):
            while True:
                message = red_ws.recv()
                assert message["type"] not in ("move_made", "ack", "state"), message
        assert not runs(a, game_id)
        with pytest.raises(ConnectionClosed):
            blue_ws.drain()

        # Reconnected (to a, which now follows b's game), the player is brought up to date
        # from the database and the move sent again is played by b.
        red_ws = red.socket(game_id, since=before)
        blue_ws = blue.socket(game_id)
        blue_ws.wait_for("state")
        red_ws.wait_for("player_disconnected")
        move(red_ws, DEN_GAME[2], id="m2", version=red_ws.version)
        blue_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[2])
        assert [m[0] for m in stored(a, game_id)["moves"]] == DEN_GAME[:3]
        assert runs(b, game_id)
        red_ws.close()
        blue_ws.close()


def test_a_socket_opening_on_the_out_of_date_node_is_sent_the_stored_state(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """The incident: players reconnecting to the node with the out-of-date copy were sent a
    state two moves old. A socket that opens makes the node confirm its copy against the
    database first: out of date, it is replaced, and the socket starts from the stored game."""
    with two_nodes(tmp_path, database, redis) as (a, b):
        red, blue = a.player().guest(), a.player().guest()
        game_id, red_ws, blue_ws = start_game(red, blue, at(b, red), at(b, blue))

        lose_redis_data(redis)
        wait_until(lambda: runs(b, game_id), "node b to claim the game")
        for ply, player in ((2, red), (3, blue)):  # a, the old owner, stores two more moves
            body = {"type": "move", "move": DEN_GAME[ply]}
            assert player.post(f"/api/games/{game_id}/commands", json=body).status_code == 200

        # Blue opens a second tab on b: b confirms its copy first, finds it two moves behind,
        # reloads the game, and every socket of b starts again from the stored state.
        with at(b, blue).socket(game_id) as second:
            first = second.wait_for("state")["game"]
            assert [m[0] for m in first["moves"]] == DEN_GAME[:4]
        for ws in (red_ws, blue_ws):
            assert [m[0] for m in ws.wait_for("state")["game"]["moves"]] == DEN_GAME[:4]
        move(red_ws, DEN_GAME[4], version=red_ws.version)
        blue_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[4])
        red_ws.close()
        blue_ws.close()

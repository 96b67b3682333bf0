"""Several server nodes on one PostgreSQL and one Redis (all real): the players of a game and
its spectators may be connected to different nodes, and when a node stops, its games go on
from another."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from alembic.runtime.migration import MigrationContext
from tests.server.accounts.test_guest_names import LATEST_REVISION
from tests.server.api.test_bot import Stream
from tests.server.live.test_crash_recovery import Client, serving
from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import DEN_GAME, GameSocket, LiveServer, Player, move, running
from tests.support.nginx import nginx_in_front, nginx_path
from tests.support.ports import free_port
from tests.support.redis_server import RedisServer
from websockets.exceptions import ConnectionClosed

from doushouqi.server.ai.pool import RandomAi
from doushouqi.server.db.database import Database

pytestmark = CLUSTER_MARKS


def seen_moves(ws: GameSocket) -> list[str]:
    return [m["move"] for m in ws.seen if m["type"] == "move_made"]


def test_players_and_a_spectator_on_three_nodes_play_a_game_to_its_end(
    nodes: list[LiveServer],
) -> None:
    a, b, c = nodes
    red, blue, watcher = a.player().guest(), b.player().guest(), c.player().guest()
    game_id = red.create(mode="online", color="red")["id"]
    with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join", "id": "j"})  # on node b, forwarded to a (the owner)
        blue_ws.wait_for("game_started")
        red_ws.wait_for("game_started")
        with watcher.socket(game_id) as watcher_ws:
            watcher_ws.wait_for("state")
            for ply, text in enumerate(DEN_GAME):
                mover = red_ws if ply % 2 == 0 else blue_ws
                made = move(mover, text, id=f"m{ply}")
                other = blue_ws if mover is red_ws else red_ws
                other.wait_for("move_made", lambda m, t=text: m["move"] == t)
                assert made["ply"] == ply + 1
            finished = watcher_ws.wait_for("game_finished")
            assert finished["result"] == "1-0"
            assert seen_moves(watcher_ws) == DEN_GAME
        assert blue_ws.wait_for("game_finished")["result"] == "1-0"
    # The database, read from any node, holds every move once.
    state = c.player().get(f"/api/games/{game_id}").json()["game"]
    assert [m[0] for m in state["moves"]] == DEN_GAME


def test_a_command_for_a_game_owned_elsewhere_is_judged_by_its_owner(
    nodes: list[LiveServer],
) -> None:
    a, b, _ = nodes
    red, blue = a.player().guest(), b.player().guest()
    game_id = red.create(mode="online", color="red")["id"]
    joined = blue.post(f"/api/games/{game_id}/join")  # REST on node b
    assert joined.status_code == 200, joined.text
    with blue.socket(game_id) as blue_ws:
        blue_ws.wait_for("state")
        blue_ws.send({"type": "move", "move": "a7a6", "id": "early"})
        refused = blue_ws.wait_for("rejected")
        assert refused["code"] == "not_started" and refused["id"] == "early"  # Red is away
        blue_ws.send({"type": "ping", "id": "p"})
        assert blue_ws.wait_for("pong")["id"] == "p"


def test_a_move_id_is_applied_once_across_nodes(nodes: list[LiveServer]) -> None:
    """A move sent again under its id — through the node that forwarded it, or straight to
    the owner after a reconnect — is answered as applied and never played twice."""
    a, b, _ = nodes
    red, blue = a.player().guest(), b.player().guest()
    game_id = red.create(mode="online", color="red")["id"]  # a owns it
    on_a = a.player()
    on_a.cookies = dict(blue.cookies)  # the same guest, connecting to the owner
    with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        move(red_ws, "a3a4")
        message = {"type": "move", "move": "a7a6", "id": "blue-1"}
        blue_ws.send(message)  # forwarded from b to a
        made = blue_ws.wait_for("move_made", lambda m: m["move"] == "a7a6")
        assert made["move_id"] == "blue-1"
        assert "duplicate" not in blue_ws.wait_for("ack", lambda m: m["id"] == "blue-1")
        blue_ws.send(message)
        assert blue_ws.wait_for("ack", lambda m: m["id"] == "blue-1")["duplicate"] is True
        with on_a.socket(game_id) as direct:
            direct.wait_for("state")
            direct.send(message)
            assert direct.wait_for("ack", lambda m: m["id"] == "blue-1")["duplicate"] is True
    state = b.player().get(f"/api/games/{game_id}").json()["game"]
    assert [m[0] for m in state["moves"]] == ["a3a4", "a7a6"]


def test_a_stopping_node_hands_its_games_over(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    a = LiveServer(node_settings(tmp_path, database, redis, "a"), ai=RandomAi()).start()
    with running(node_settings(tmp_path, database, redis, "b")) as b:
        red, blue = b.player().guest(), b.player().guest()
        creator = a.player()
        creator.cookies = dict(red.cookies)  # Red creates the game on a: a owns it
        game_id = creator.create(mode="online", color="red")["id"]
        red_ws, blue_ws = red.socket(game_id), blue.socket(game_id)  # both through b
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        move(red_ws, "a3a4")
        a.stop()  # as on SIGTERM: a closes its actors and gives its leases up
        # b takes the game over and goes on with it; the sockets on b never left.
        move(blue_ws, "a7a6")
        red_ws.wait_for("move_made", lambda m: m["move"] == "a7a6")
        move(red_ws, "a4a5")
        blue_ws.wait_for("move_made", lambda m: m["move"] == "a4a5")
        state = b.player().get(f"/api/games/{game_id}").json()["game"]
        assert [m[0] for m in state["moves"]] == ["a3a4", "a7a6", "a4a5"]
        red_ws.close()
        blue_ws.close()


def test_when_the_owner_is_killed_another_node_goes_on_with_its_games(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Two real ``doushouqi serve`` processes; the game's owner gets SIGKILL mid-game. Within
    10 s the other node plays on from it: every acknowledged move is there, and the clock of
    the side to move was not charged for the time nobody looked after the game."""
    env = {
        "DOUSHOUQI_DATABASE_URL": database,
        "DOUSHOUQI_REDIS_URL": redis.url,
        "DOUSHOUQI_LEASE_SECONDS": "3",
    }
    a_port, b_port = free_port(), free_port()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with serving(tmp_path / "a", a_port, env) as a, serving(tmp_path / "b", b_port, env):
        creator = Client(a_port)
        game_id = creator.post(
            "/api/games", json={"mode": "online", "color": "red", "time_control": "10+0"}
        ).json()["id"]
        red = Client(b_port)
        red.cookie = creator.cookie  # the same guest, now at node b
        blue = Client(b_port)
        red_ws, blue_ws = red.socket(game_id), blue.socket(game_id)
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        for ply in range(4):
            move((red_ws, blue_ws)[ply % 2], DEN_GAME[ply])
        before = red.get(f"/api/games/{game_id}").json()["game"]
        a.kill()
        killed = time.monotonic()
        # Red moves on: refused ("unavailable") until b has taken the game over.
        while True:
            red_ws.send({"type": "move", "move": DEN_GAME[4], "id": "retry"})
            reply = _answer(red_ws, DEN_GAME[4])
            if reply["type"] == "move_made":
                break
            assert reply["code"] == "unavailable", reply
            assert time.monotonic() - killed < 10, "no node took the game over"
            time.sleep(0.2)
        taken_over = time.monotonic() - killed
        assert taken_over < 10
        blue_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[4])
        # The sockets moved to the new owner without either player seeming to leave.
        assert not any(m["type"] == "player_disconnected" for m in blue_ws.seen)
        after = blue.get(f"/api/games/{game_id}").json()["game"]
        assert [m[0] for m in after["moves"]] == DEN_GAME[:5]
        # Red's clock ran only while Red thought: the downtime (about the lease's 3 s) was not
        # charged (a second of slack for the heartbeat and the retries' round trips).
        was, now = before["clocks"]["remaining"][0], after["clocks"]["remaining"][0]
        assert was - now < 1.5, (was, now, taken_over)
        red_ws.close()
        blue_ws.close()


#: The answers that say a move was played: its event, or the ack of a move sent again.
ACCEPTED = ("move_made", "ack")


def _answer(ws: GameSocket, text: str, move_id: str = "retry") -> dict[str, Any]:
    """The move ``text`` just sent under ``move_id``: its ``move_made``, the ``ack`` of a move
    the game had already applied under that id, or the error that refused it."""
    while True:
        reply = ws.recv(timeout=10)
        if reply["type"] == "move_made" and reply["move"] == text:
            return reply
        if reply.get("id") == move_id and reply["type"] in ("error", "rejected"):
            return reply
        if reply.get("id") == move_id and reply.get("duplicate"):
            return reply


@pytest.mark.skipif(nginx_path() is None, reason="nginx is not installed")
def test_a_game_through_nginx_in_front_of_the_nodes(nodes: list[LiveServer]) -> None:
    """deploy/nginx.conf in front of three nodes: sockets and requests spread over them, and
    a game is played to its end through it."""
    with nginx_in_front([node.port for node in nodes]) as url:
        front = SimpleNamespace(url=url, port=int(url.rsplit(":", 1)[1]))
        red, blue = Player(front), Player(front)  # type: ignore[arg-type]
        red.guest()
        blue.guest()
        game_id = red.create(mode="online", color="red")["id"]
        with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
            red_ws.wait_for("state")
            blue_ws.wait_for("state")
            blue_ws.send({"type": "join"})
            red_ws.wait_for("game_started")
            for ply, text in enumerate(DEN_GAME):
                move((red_ws, blue_ws)[ply % 2], text)
            assert blue_ws.wait_for("game_finished")["result"] == "1-0"
        # Round robin: the requests of this test reached every node.
        served = {red.get("/readyz").json()["node"] for _ in range(6)}
        assert len(served) == 3, served


def test_nodes_starting_together_on_a_new_database_migrate_it_once(database: str) -> None:
    databases = [Database(database) for _ in range(3)]
    try:
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda db: db.migrate(), databases))
        with databases[0].engine.connect() as connection:
            revision = MigrationContext.configure(connection).get_current_revision()
        assert revision == LATEST_REVISION
    finally:
        for db in databases:
            db.close()


def test_a_redis_restart_mid_game_loses_nothing(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Redis (no persistence) restarts mid-game: the leases are gone, so the game is claimed
    again (by either node) from PostgreSQL, and play resumes with every move kept."""
    with (
        running(node_settings(tmp_path, database, redis, "a")) as a,
        running(node_settings(tmp_path, database, redis, "b")) as b,
    ):
        red, blue = a.player().guest(), b.player().guest()
        game_id = red.create(mode="online", color="red")["id"]
        sockets: dict[str, GameSocket | None] = {
            "red": red.socket(game_id),
            "blue": blue.socket(game_id),
        }
        red_ws, blue_ws = sockets["red"], sockets["blue"]
        assert red_ws is not None and blue_ws is not None
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        red_ws.wait_for("game_started")
        players = {"red": red, "blue": blue}
        move(red_ws, DEN_GAME[0])
        move(blue_ws, DEN_GAME[1])
        redis.restart()
        deadline = time.monotonic() + 30
        for ply in range(2, 6):
            side = ("red", "blue")[ply % 2]
            while True:  # as the web client does: reconnect when cut off, move again if refused
                assert time.monotonic() < deadline, f"play did not resume at ply {ply}"
                if len(b.player().get(f"/api/games/{game_id}").json()["game"]["moves"]) > ply:
                    break  # taken, though its event was missed in a reconnect
                try:
                    if sockets[side] is None:
                        sockets[side] = players[side].socket(game_id)
                    move_id = f"retry-{ply}"  # sent again under its id: never played twice
                    sockets[side].send({"type": "move", "move": DEN_GAME[ply], "id": move_id})
                    if _answer(sockets[side], DEN_GAME[ply], move_id)["type"] in ACCEPTED:
                        break
                except Exception:  # the socket was closed (its node gave the game up)
                    sockets[side] = None
                time.sleep(0.2)
        state = b.player().get(f"/api/games/{game_id}").json()["game"]
        assert [m[0] for m in state["moves"]] == DEN_GAME[:6]
        for ws in sockets.values():
            if ws is not None:
                ws.close()


def test_a_bots_event_stream_hears_of_games_owned_by_another_node(
    nodes: list[LiveServer],
) -> None:
    a, b, _ = nodes
    owner = a.player().register("cluster_bot", bot=True)
    bot = b.player()
    bot.token = owner.api_token("bot:play")
    events = Stream(bot, "/api/bot/stream/event")  # on node b
    try:
        human = a.player().register("cluster_human")
        game_id = human.create(mode="online", color="red")["id"]  # owned by node a
        joined = a.player()
        joined.token = bot.token
        assert joined.post(f"/api/bot/game/{game_id}/join").status_code == 200
        assert events.next("player_joined")["game_id"] == game_id
        seat = Stream(bot, f"/api/bot/game/stream/{game_id}")  # the bot at the board, on b
        with human.socket(game_id) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "resign"})
            ws.wait_for("game_finished")
        assert events.next("game_finished")["game_id"] == game_id
        seat.close()
    finally:
        events.close()


def test_a_full_restart_after_redis_lost_everything_keeps_the_clocks_fair(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """The only node stops, Redis restarts empty, and a node starts again 3 s later: the
    game's clock is not charged for the time the site was down (Redis no longer knows who ran
    the game or when it last beat; the database's heartbeat says when the site stopped)."""
    with running(node_settings(tmp_path, database, redis, "a")) as a:
        red, blue = a.player().guest(), a.player().guest()
        game_id = red.create(mode="online", color="red", time_control="10+0")["id"]
        with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
            red_ws.wait_for("state")
            blue_ws.send({"type": "join"})
            red_ws.wait_for("game_started")
            move(red_ws, DEN_GAME[0])
            move(blue_ws, DEN_GAME[1])
        before = red.get(f"/api/games/{game_id}").json()["game"]
        seen = time.monotonic()
    stopped = time.monotonic()
    redis.restart()
    time.sleep(3.0)
    with running(node_settings(tmp_path, database, redis, "b")) as b:
        registry = b.app.state.ctx.registry  # claimed within a second or so
        deadline = time.monotonic() + 10
        while len(registry) == 0:
            assert time.monotonic() < deadline, "the game was not claimed"
            time.sleep(0.05)
        claimed = time.monotonic()
        game = b.player().get(f"/api/games/{game_id}").json()["game"]  # from its actor
        fetched = time.monotonic()
    assert [m[0] for m in game["moves"]] == DEN_GAME[:2]
    was, now = before["clocks"]["remaining"][0], game["clocks"]["remaining"][0]  # Red's
    # Red's clock runs while a node runs the game: until the first node stopped, and from the
    # claim on. The time between (3 s and more) is the site's and is not charged; how long
    # the running parts took depends on the machine's load, so they are measured.
    running_time = (stopped - seen) + (fetched - claimed)
    assert was - now < running_time + 0.5, (was, now, running_time)


def test_a_socket_opened_while_redis_is_down_is_told_to_try_again(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    """Redis away: a node cannot know who owns a game it does not hold, so a socket to it there
    is accepted and closed with 1013 ("try again"), never a handshake answered 500; once Redis
    is back it opens."""
    with (
        running(node_settings(tmp_path, database, redis, "a")) as a,
        running(node_settings(tmp_path, database, redis, "b")) as b,
    ):
        game_id = a.player().guest().create(mode="online", color="red")["id"]
        player = b.player().guest()
        redis.kill()
        try:
            with pytest.raises(ConnectionClosed) as closed:
                ws = player.socket(game_id)
                ws.ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        finally:
            redis.start()
        deadline = time.monotonic() + 30
        while True:  # as the web client does: reconnect until the node answers again
            try:
                ws = player.socket(game_id)
                break
            except Exception:
                assert time.monotonic() < deadline, "the socket never opened again"
                time.sleep(0.5)
        assert ws.wait_for("state")["game"]["id"] == game_id
        ws.close()

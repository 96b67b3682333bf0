"""A tournament on two nodes (real PostgreSQL and Redis): the players are spread over both, one
node directs; when it stops mid-tournament the other takes the tournament over and plays it to
its end."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from sqlalchemy import select
from tests.server.tournaments.test_tournament_director import (
    _higher_id_loses,
    _open,
    _resign_open_games,
    _until,
)
from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import PASSWORD, LiveServer, Player, running
from tests.support.redis_server import RedisServer

from doushouqi.server.tournaments.models import TournamentRow

pytestmark = CLUSTER_MARKS


def _director(server: LiveServer, tournament_id: str) -> str | None:
    with server.app.state.ctx.db.sessions() as session:
        return session.scalar(
            select(TournamentRow.director_node).where(TournamentRow.id == tournament_id)
        )


def _log_in(server: LiveServer, name: str) -> Player:
    agent = server.player()
    assert agent.post("/api/auth/login", json={"username": name, "password": PASSWORD})
    agent.me = agent.get("/api/auth/me").json()
    return agent


def test_a_swiss_goes_on_when_its_directing_node_stops(
    tmp_path: Path, database: str, redis: RedisServer
) -> None:
    names = ("ann", "bob", "cai", "dan")
    with ExitStack() as a_stack, ExitStack() as b_stack:
        a = a_stack.enter_context(running(node_settings(tmp_path, database, redis, "a")))
        b = b_stack.enter_context(running(node_settings(tmp_path, database, redis, "b")))
        # ann and cai use node a, bob and dan node b.
        homes = {name: (a if i % 2 == 0 else b) for i, name in enumerate(names)}
        players = {}
        for name in names:
            player = homes[name].player().register(name)
            players[player.me["id"]] = player
        ann = next(iter(players.values()))
        body = {"kind": "swiss", "name": "Two nodes", "time_control": "5+3", "rounds": 3}
        tid = ann.post("/api/tournaments", json={**body, "starts_in": 2}).json()["id"]
        for player in players.values():
            assert player.post(f"/api/tournaments/{tid}/join").status_code == 200
        view = _until(ann, tid, lambda v: len(_open(v)) == 2)
        _resign_open_games(players, view, _higher_id_loses)
        _until(ann, tid, lambda v: v["current_round"] == 2 and len(_open(v)) == 2)
        # Stop whichever node directs it; the other takes it over.
        directing = _director(a, tid)
        assert directing is not None
        staying = b if directing.startswith("a") else a
        (a_stack if staying is b else b_stack).close()  # a clean stop: the lease is let go
        players = {p.me["id"]: p for p in (_log_in(staying, n) for n in names)}
        ann = next(iter(players.values()))
        view = _until(ann, tid, lambda v: v["current_round"] == 2 and len(_open(v)) == 2)
        _resign_open_games(players, view, _higher_id_loses)
        view = _until(ann, tid, lambda v: v["current_round"] == 3 and len(_open(v)) == 2, 30)
        assert _director(staying, tid) not in (None, directing)
        _resign_open_games(players, view, _higher_id_loses)
        final = _until(ann, tid, lambda v: v["status"] == "finished")
    assert [row["name"] for row in final["standings"]] == list(names)
    assert [row["score"] for row in final["standings"]] == [3.0, 2.0, 1.0, 0.0]
    pairs = {
        frozenset((p["red"]["account_id"], p["blue"]["account_id"])) for p in final["pairings"]
    }
    assert len(pairs) == 6

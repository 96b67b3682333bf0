"""The opening explorer on several nodes (real PostgreSQL and Redis): games owned by
different nodes, finishing at the same time through the same opening, are all counted, and
every node answers the same counts (the index is in the shared database)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.cluster_nodes import CLUSTER_MARKS, started_nodes
from tests.support.helpers import played_out
from tests.support.live import LiveServer, move
from tests.support.redis_server import RedisServer

from doushouqi.server.explorer.service import MIN_PLIES

pytestmark = CLUSTER_MARKS


@pytest.fixture
def nodes(tmp_path: Path, database: str, redis: RedisServer) -> Iterator[list[LiveServer]]:
    with started_nodes(tmp_path, database, redis, ("a", "b")) as started:
        yield started


def _game(owner: LiveServer, other: LiveServer, moves: list[str], ready: threading.Barrier) -> None:
    """An online game created on ``owner`` (its owner node), Blue connected to ``other``;
    Red resigns after ``moves`` (played out to the fewest plies the explorer counts), once
    every game of the test is ready to."""
    red, blue = owner.player().guest(), other.player().guest()
    game_id = red.create(mode="online", color="red")["id"]
    with red.socket(game_id) as red_ws, blue.socket(game_id) as blue_ws:
        red_ws.wait_for("state")
        blue_ws.wait_for("state")
        blue_ws.send({"type": "join"})
        blue_ws.wait_for("game_started")
        red_ws.wait_for("game_started")
        for ply, text in enumerate(played_out(moves, MIN_PLIES)):
            mover = red_ws if ply % 2 == 0 else blue_ws
            move(mover, text)
        ready.wait(timeout=60)
        red_ws.send({"type": "resign"})
        blue_ws.wait_for("game_finished")


def test_games_of_every_node_are_counted_and_every_node_sees_them(
    nodes: list[LiveServer],
) -> None:
    a, b = nodes
    games = [(a, b), (b, a), (a, b), (b, a)]
    ready = threading.Barrier(len(games))
    threads = [
        threading.Thread(target=_game, args=(owner, other, ["a3a4", "g7g6"], ready))
        for owner, other in games
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    answers = [n.player().get("/api/explorer", params={"rules": "wango"}).json() for n in nodes]
    for answer in answers:
        assert [(m["move"], m["count"], m["blue_wins"]) for m in answer["moves"]] == [
            ("a3a4", 4, 4)
        ]
    after = answers[0]["moves"][0]["fen"]
    for node in nodes:
        second = node.player().get("/api/explorer", params={"rules": "wango", "fen": after})
        assert [(m["move"], m["count"]) for m in second.json()["moves"]] == [("g7g6", 4)]

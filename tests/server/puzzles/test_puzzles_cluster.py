"""Puzzles on several nodes (real PostgreSQL and Redis): nodes loading the shipped set at the
same moment end with one copy of it, and a puzzle solved through one node moves the ratings
every node then shows (the set, the ratings and the history are in the shared database)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from tests.server.live.test_cluster import node_settings
from tests.server.puzzles.test_puzzles_api import solution_of, solve
from tests.support.live import LiveServer, Player, running
from tests.support.postgres import find_bindir
from tests.support.redis_server import RedisServer, redis_server, redis_server_path

from doushouqi.server.puzzles import service as puzzles

pytestmark = [
    pytest.mark.skipif(redis_server_path() is None, reason="redis-server is not installed"),
    pytest.mark.skipif(find_bindir() is None, reason="PostgreSQL is not installed"),
]


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


@pytest.fixture
def nodes(tmp_path: Path, database: str, redis: RedisServer) -> Iterator[list[LiveServer]]:
    with ExitStack() as stack:
        yield [
            stack.enter_context(running(node_settings(tmp_path, database, redis, name)))
            for name in ("a", "b", "c")
        ]


def test_every_node_serves_one_set_and_the_same_ratings(nodes: list[LiveServer]) -> None:
    answers: list[int] = []

    def first_request(node: LiveServer) -> None:
        answers.append(node.player().get("/api/puzzles/themes").status_code)

    threads = [threading.Thread(target=first_request, args=(node,)) for node in nodes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert answers.count(200) == 3
    totals = {n.player().get("/api/puzzles/themes").json()["total"] for n in nodes}
    assert totals == {len(puzzles.shipped())}

    a, b = nodes[0], nodes[1]
    player = a.player().guest()
    puzzle = player.get("/api/puzzles/next").json()["puzzle"]
    solved = solve(player, puzzle["id"])
    elsewhere = Player(b)
    elsewhere.cookies = dict(player.cookies)  # the same guest, through another node
    me = elsewhere.get("/api/puzzles/me").json()
    assert me["rating"] == solved["score"]["rating"] > 1500
    assert me["history"][0]["puzzle"] == puzzle["id"]
    shown = elsewhere.get(f"/api/puzzles/{puzzle['id']}").json()["puzzle"]
    assert shown["rating"] == solved["score"]["puzzle_rating"] and shown["plays"] == 1
    days = {n.player().get("/api/puzzles/daily").json()["puzzle"]["id"] for n in nodes}
    assert len(days) == 1


def at_once(players: list[Player], puzzle_id: str) -> list[dict[str, Any]]:
    """Each player sends the puzzle's first move at the same moment; their answers."""
    start = threading.Barrier(len(players))
    answers: list[dict[str, Any]] = []

    def attempt(player: Player) -> None:
        body = {"moves": solution_of(puzzle_id)[:1]}
        start.wait(timeout=10)
        answer = player.post(f"/api/puzzles/{puzzle_id}/attempt", json=body)
        answers.append({"status": answer.status_code, **answer.json()})

    threads = [threading.Thread(target=attempt, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def test_a_first_try_sent_to_two_nodes_at_once_is_rated_once(nodes: list[LiveServer]) -> None:
    """The same account solves each puzzle through two nodes at the same moment: one of the
    two tries is rated (the unique index on rated tries), the other is told it was not."""
    a, b = nodes[0], nodes[1]
    on_a = a.player().register("racer")
    on_b = Player(b)
    on_b.cookies = dict(on_a.cookies)
    one_move = [p for p in puzzles.shipped() if len(p["line"]) == 1][:12]
    for puzzle in one_move:  # the shipped set loaded on both nodes before the race
        assert on_b.get(f"/api/puzzles/{puzzle['id']}").status_code == 200
    rated_twice = []
    for puzzle in one_move:
        answers = at_once([on_a, on_b], puzzle["id"])
        assert [x["status"] for x in answers] == [200, 200], answers
        rated = [x["score"]["rated"] for x in answers]
        if rated.count(True) != 1:
            rated_twice.append((puzzle["id"], rated))
    assert not rated_twice
    me = on_a.get("/api/puzzles/me").json()
    assert me["attempts"] == len(one_move)  # rated tries only: one per puzzle

"""A game page on one node of a cluster while Redis goes away and comes back (PostgreSQL,
Redis, two nodes and Chromium, all real): the node that serves the page does not own the game,
so it hears nothing of it meanwhile; once Redis answers, the page is shown the move its
opponent made meanwhile on the game's owner (read from the database), without a reload, and
plays on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import Client, click_move, plies
from tests.support.cluster_nodes import CLUSTER_MARKS, node_settings
from tests.support.live import DEN_GAME, Player, move, running
from tests.support.postgres import create_database, postgres_server
from tests.support.redis_server import RedisServer, redis_server

pytestmark = CLUSTER_MARKS


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_server() as url:
        yield create_database(url, "browser_outage")


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


def stored_moves(player: Player, game_id: str) -> list[str]:
    return [m[0] for m in player.get(f"/api/games/{game_id}").json()["game"]["moves"]]


def test_the_game_page_rides_out_redis_going_away(
    browser: Browser, tmp_path: Path, database: str, redis: RedisServer
) -> None:
    with (
        running(node_settings(tmp_path, database, redis, "a")) as a,
        running(node_settings(tmp_path, database, redis, "b")) as b,
    ):
        red = a.player().guest()
        game_id = red.create(mode="online", color="red")["id"]  # owned by a
        red_ws = red.socket(game_id)
        blue = Client(browser, b)  # the page is served by b, which does not own the game
        try:
            page = blue.open(f"/#/game/{game_id}?join=1")
            red_ws.wait_for("game_started")
            move(red_ws, DEN_GAME[0])
            plies(page, 1)
            click_move(page, DEN_GAME[1])
            red_ws.wait_for("move_made", lambda m: m["move"] == DEN_GAME[1])

            redis.kill()
            try:
                move(red_ws, DEN_GAME[2])  # the owner goes on: it needs only the database
            finally:
                redis.start()

            expect(page.locator("#moves li")).to_have_count(3, timeout=30_000)
            expect(page.locator("#offline")).to_be_hidden()
            # A move in the first moments may still be answered "unavailable" (not applied: the
            # nodes are subscribing to their channels again), which the client must send again;
            # a person would. Here the test waits until b reaches the owner again.
            deadline = time.monotonic() + 15
            watcher = b.player().guest()
            hello = {"type": "chat", "text": "back?"}
            while watcher.post(f"/api/games/{game_id}/commands", json=hello).status_code != 200:
                assert time.monotonic() < deadline, "node b never reached the game's owner"
                time.sleep(0.1)
            click_move(page, DEN_GAME[3])
            while stored_moves(red, game_id) != DEN_GAME[:4]:
                assert time.monotonic() < deadline, stored_moves(red, game_id)
                time.sleep(0.1)
        finally:
            red_ws.close()
            blue.close()  # no error in the page's console

"""Stored game reviews (POST/GET /api/games/{id}/review): computed once per finished game at a
fixed node budget by the real engine, so that the same game gives byte for byte the same
review, whoever asks, however busy the engine is; stored and shown alike to every viewer."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.live import DEN_GAME, LiveServer, Player, make_settings, move, running
from tests.support.tiger_moves import CAPTURE, ONE_CAPTURE_WINS

from doushouqi.server.ai.pool import ProcessPoolAi
from doushouqi.server.infra.settings import RateLimit

#: What a review's numbers are (the rest says how far it got).
CONTENT = ("budget", "positions", "plies", "players")
#: Budgets small enough for a test machine (the site's are ten times as large): what is
#: tested is that a budget, whatever its size, gives one answer.
BUDGETS = {"standard": 40_000, "deep": 200_000}


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose games and analyses are searched by the real engine, in two workers (so
    that reviews and other analyses share them)."""
    settings = make_settings(
        tmp_path_factory.mktemp("reviews"),
        analysis_rate=RateLimit(100_000, 60.0),
        review_nodes=BUDGETS["standard"],
        review_deep_nodes=BUDGETS["deep"],
    )
    with running(settings, ai=ProcessPoolAi(2)) as live:
        yield live


def finished_game(server: LiveServer, moves: list[str], **options: Any) -> str:
    """A game one person plays at one screen to its end (the moves end it)."""
    client = server.player().guest()
    game = client.create(mode="same_screen", **options)
    with client.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        for text in moves:
            move(ws, text)
        ws.wait_for("game_finished")
    return str(game["id"])


def reviewed(client: Player, game_id: str, budget: str = "standard") -> dict[str, Any]:
    """Ask for the review and wait for it; the state GET answers then."""
    asked = client.post(f"/api/games/{game_id}/review", json={"budget": budget})
    assert asked.status_code == 202, asked.text
    deadline = time.monotonic() + 180
    while True:
        state = client.get(f"/api/games/{game_id}/review").json()
        shown = state["review"]
        if shown is not None and shown["budget"]["name"] == budget:
            return state
        pending = state["pending"]
        assert pending is None or pending["status"] != "failed", pending
        assert time.monotonic() < deadline, state
        time.sleep(0.2)


def content(state: dict[str, Any]) -> str:
    """The review's numbers as the server sent them, as one string to compare exactly."""
    return json.dumps({key: state["review"][key] for key in CONTENT}, sort_keys=True)


def test_the_same_game_reviewed_twice_gives_the_same_review_even_under_load(
    engine_server: LiveServer,
) -> None:
    # Two games with the same moves: two reviews computed from scratch, the second while
    # the workers are kept busy by timed analyses (load that changed a timed search's depth).
    first = finished_game(engine_server, DEN_GAME)
    second = finished_game(engine_server, DEN_GAME)
    client = engine_server.player()
    quiet = reviewed(client, first)
    stop = threading.Event()

    def load() -> None:
        other = engine_server.player()
        body = {"moves": DEN_GAME[:6], "movetime": 0.2}
        while not stop.is_set():
            other.post("/api/analysis", json=body)

    # One worker of the two kept busy all along (the other takes the review's positions: a
    # review's position waits for an idle worker, so loading both would only make it wait).
    threads = [threading.Thread(target=load)]
    for thread in threads:
        thread.start()
    try:
        busy = reviewed(client, second)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert content(quiet) == content(busy)
    review = quiet["review"]
    assert review["status"] == "done" and review["done"] == review["total"] == len(DEN_GAME) + 1
    assert review["budget"] == {"name": "standard", "nodes": BUDGETS["standard"]}
    positions = review["positions"]
    assert positions[-1]["bestmove"] is None and positions[-1]["red_cp"] == 10000  # Red won
    assert all(p["bestmove"] and p["readable_en"] for p in positions[:-1])
    red, blue = review["players"]
    assert red["moves"] == 17 and blue["moves"] == 16
    assert all(0 < side["accuracy"] <= 100 for side in (red, blue))


def test_a_second_request_joins_the_first_and_every_viewer_reads_the_same_bytes(
    engine_server: LiveServer,
) -> None:
    game_id = finished_game(engine_server, DEN_GAME)
    player, spectator = engine_server.player(), engine_server.player().guest()
    first = player.post(f"/api/games/{game_id}/review", json={}).json()
    second = spectator.post(f"/api/games/{game_id}/review", json={}).json()
    # Joined: one review running (not two), its progress the same for both.
    assert first["pending"]["status"] == second["pending"]["status"] == "running"
    assert second["pending"]["total"] == len(DEN_GAME) + 1
    reviewed(player, game_id)
    seen = [c.get(f"/api/games/{game_id}/review").content for c in (player, spectator)]
    assert seen[0] == seen[1]
    again = player.post(f"/api/games/{game_id}/review", json={})
    assert again.status_code == 202 and again.content == seen[0]  # stored: not searched again


def test_a_deeper_re_analysis_is_stored_beside_the_first_and_shown_once_done(
    engine_server: LiveServer,
) -> None:
    game_id = finished_game(engine_server, DEN_GAME)
    client = engine_server.player()
    standard = reviewed(client, game_id)["review"]
    asked = client.post(f"/api/games/{game_id}/review", json={"budget": "deep"}).json()
    # While the deep one runs the standard one stays shown, the deep one's progress beside it.
    if asked["pending"] is not None:
        assert asked["review"]["budget"]["name"] == "standard"
        assert asked["pending"]["budget"]["name"] == "deep"
    deep = reviewed(client, game_id, "deep")
    assert deep["pending"] is None
    assert deep["review"]["budget"] == {"name": "deep", "nodes": BUDGETS["deep"]}
    depths = [p["depth"] for p in deep["review"]["positions"][:-1]]
    shallower = [p["depth"] for p in standard["positions"][:-1]]
    assert sum(depths) > sum(shallower)
    # Asking for the standard one again changes nothing: the deeper one is shown.
    again = client.post(f"/api/games/{game_id}/review", json={"budget": "standard"}).json()
    assert again["review"]["budget"]["name"] == "deep"


def test_a_tiger_game_is_reviewed_with_its_decided_scores(engine_server: LiveServer) -> None:
    game_id = finished_game(engine_server, CAPTURE, game="tiger", rules=ONE_CAPTURE_WINS)
    client = engine_server.player()
    review = reviewed(client, game_id)["review"]
    positions = review["positions"]
    assert len(positions) == len(CAPTURE) + 1
    assert positions[-1]["red_cp"] == 10000  # the tiger (the first seat) won
    # Before the jump the tiger's win is in sight: a decided score, {"win": n}.
    assert positions[-2]["score"] == {"win": 1} and positions[-2]["bestmove"] == CAPTURE[-1]
    assert positions[-2]["red_cp"] == 9999
    assert review["players"][0]["moves"] == 5 and review["players"][1]["moves"] == 4
    assert content(reviewed(client, game_id)) == content(reviewed(client, game_id))


def test_what_cannot_be_reviewed_is_refused_with_a_code(server: LiveServer) -> None:
    client = server.player().guest()
    game = client.create(mode="same_screen")
    with client.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        move(ws, DEN_GAME[0])
    unfinished = client.post(f"/api/games/{game['id']}/review", json={})
    assert unfinished.status_code == 409 and unfinished.json()["code"] == "review.unfinished"
    bad = client.post(f"/api/games/{game['id']}/review", json={"budget": "huge"})
    assert bad.status_code == 422
    missing = client.post("/api/games/nosuchgame/review", json={})
    assert missing.status_code == 404 and missing.json()["code"] == "game.not_found"
    assert client.get("/api/games/nosuchgame/review").status_code == 404
    none_yet = client.get(f"/api/games/{game['id']}/review").json()
    assert none_yet["review"] is None and none_yet["pending"] is None


def test_a_review_whose_node_stopped_is_resumed_by_the_next_request(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, review_nodes=BUDGETS["standard"])
    with running(settings, ai=ProcessPoolAi(1)) as live:
        game_id = finished_game(live, DEN_GAME)
        live.player().post(f"/api/games/{game_id}/review", json={})
    # The server stopped mid-review (or before it began): its row says running, silent.
    with running(settings, ai=ProcessPoolAi(1)) as live:
        client = live.player()
        state = client.get(f"/api/games/{game_id}/review").json()
        if state["review"] is None:
            assert state["pending"]["status"] == "running"
            _age_the_lease(live, game_id)
            assert client.get(f"/api/games/{game_id}/review").json()["pending"]["stalled"]
        assert reviewed(client, game_id)["review"]["status"] == "done"


def _age_the_lease(live: LiveServer, game_id: str) -> None:
    from sqlalchemy import update

    from doushouqi.server.review.models import GameReviewRow

    db = live.app.state.ctx.db
    db.run_sync(
        lambda s: s.execute(
            update(GameReviewRow).where(GameReviewRow.game_id == game_id).values(beat=0.0)
        )
    )

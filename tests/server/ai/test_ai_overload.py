"""Overload costs the AI depth, never legality: a saturated worker pool gives every search a
shorter think and says so, no move is random, and new games against the computer are refused
while its capacity is used up. Operators see it all in ``/metrics``."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from tests.support.helpers import board_for
from tests.support.live import (
    LiveServer,
    ManualTime,
    first_ai_replies,
    make_settings,
    metric,
    running,
)

from doushouqi.jungle.board import Board
from doushouqi.server.ai.effort import MIN_MOVETIME, effective_movetime
from doushouqi.server.ai.pool import AiMove, AiRequest, ProcessPoolAi, RandomAi, search_move

WANGO = Board().rules.to_mapping()


def request(moves: tuple[str, ...] = (), movetime: float = 1.0, level: int = 10) -> AiRequest:
    return AiRequest(rules=WANGO, start_fen=None, moves=moves, level=level, movetime=movetime)


@pytest.mark.parametrize(
    ("backlog", "workers", "expected"),
    [(0, 1, 1.0), (1, 1, 0.5), (3, 2, 0.4), (0, 4, 1.0), (10_000, 1, MIN_MOVETIME)],
)
def test_each_search_gets_its_fair_share(backlog: int, workers: int, expected: float) -> None:
    assert effective_movetime(1.0, backlog=backlog, workers=workers) == expected


def test_a_late_job_fits_its_deadline_but_still_searches() -> None:
    assert effective_movetime(1.0, deadline=10.3, now=10.0) == pytest.approx(0.25)
    assert effective_movetime(1.0, deadline=9.0, now=10.0) == MIN_MOVETIME


def test_a_saturated_pool_thinks_less_and_plays_real_moves() -> None:
    """Twelve level-10 searches of a second each, at once, on one worker: together they are
    given about three seconds (not twelve), and every one is a real search of a legal move."""
    pool = ProcessPoolAi(1)
    pool.start()

    board = Board()
    board.push_move("a3a4")
    positions = [("a3a4", str(reply)) for reply in sorted(board.legal_moves, key=str)[:12]]
    assert len(positions) == 12

    async def burst() -> list[AiMove]:
        await pool.choose_move(request(movetime=0.05))  # the worker is warm
        return list(await asyncio.gather(*(pool.choose_move(request(p)) for p in positions)))

    try:
        moves = asyncio.run(burst())
    finally:
        pool.close()
    # Job k (from 1) finds k - 2 queued beyond the one the worker searches: it is given
    # 1/max(1, k - 1) s at most, less where its deadline came first (searches that use all of their
    # time give about 3.1 s in all; those that stop early, as level 10 does once its move
    # stands, leave the later jobs more of theirs). Not the twelve seconds asked.
    fair = 1.0 + sum(1 / ahead for ahead in range(1, 12))
    assert sum(found.movetime for found in moves) <= fair + 0.01
    for position, found in zip(positions, moves, strict=True):
        assert board_for(request(position)).parse_move(found.move)  # legal where it was asked
        assert found.nodes > 0 and found.asked == 1.0
    assert not moves[0].reduced  # the first in line got its full second...
    assert sum(found.reduced for found in moves) >= 10  # ... those queued behind it, less


class BusyAi(RandomAi):
    """Random moves, each given 0.3 of the second asked for and searched ``searched`` s."""

    def __init__(self, searched: float) -> None:
        super().__init__()
        self.searched = searched

    async def choose_move(self, request: AiRequest) -> AiMove:
        found = await super().choose_move(request)
        return AiMove(found.move, 0.3 * request.movetime, request.movetime, 1, 0.0, self.searched)


@pytest.mark.parametrize(("searched", "told"), [(0.29, True), (0.1, False)])
def test_players_hear_of_a_busy_computer_only_when_the_load_cut_its_search(
    tmp_path: Path, searched: float, told: bool
) -> None:
    """A search given less than it asked for that ran out of it lost depth: the players are
    told; one that stopped well before its time (level 10's easy stop, measured against the
    time asked) played as it would have with all of it: nothing to tell, nothing counted."""
    settings = make_settings(tmp_path, ai_movetime=1.0)
    with running(settings, ai=BusyAi(searched)) as server:
        player = server.player().guest()
        game = player.create(mode="vs_ai", ai_level=10, color="red")
        with player.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "move", "move": "a3a4"})
            ws.wait_for("move_made", lambda m: m["color"] == 1)
            ws.send({"type": "move", "move": "a4a5"})
            ws.wait_for("move_made", lambda m: m["color"] == 1 and m["ply"] == 4)
            assert ("ai_busy" in [m["type"] for m in ws.seen]) is told
        exposition = server.player().get("/metrics").text
        if told:
            assert metric(server, "doushouqi_ai_effort_reductions_total") == 2
        else:  # a labelled counter never counted has no sample
            assert "doushouqi_ai_effort_reductions_total{" not in exposition
            assert "doushouqi_ai_search_seconds_count{" in exposition  # the searches were seen


@pytest.mark.parametrize(("level", "timed"), [(10, True), (5, False)])
def test_how_long_a_search_took_is_kept_at_the_top_level_only(level: int, timed: bool) -> None:
    """Level 10 searches the time it is given (or stops where a full search would): how long
    it took tells whether the load cut it short. A lower level uses a share of its time, so a
    reduced search of it counts as cut short, as before there was an easy stop."""
    found = search_move(request(("a3a4",), movetime=0.2, level=level), backlog=3, workers=1)
    assert found.reduced  # a quarter of the time asked
    assert (found.searched is not None) is timed
    if not timed:
        assert found.cut_short


class SlowStartAi(RandomAi):
    """Random moves from workers that take ``loading`` seconds to come up."""

    def __init__(self, loading: float) -> None:
        super().__init__()
        self.up = asyncio.Event()
        self.loading = loading

    async def ready(self) -> None:
        if not self.up.is_set():
            await asyncio.sleep(self.loading)
            self.up.set()

    async def choose_move(self, request: AiRequest) -> AiMove:
        await self.ready()  # as a process pool's jobs wait for its workers
        return await super().choose_move(request)


def test_the_computer_waits_for_workers_still_loading_rather_than_play_at_random(
    tmp_path: Path,
) -> None:
    """Workers still loading the engine (a cold start compiles it for a minute or more) are
    not dead: the first reply waits for them, however much longer than a search's limit
    (here 0.7 s against 2 s of loading), and is the engine's, not a random move."""
    settings = make_settings(tmp_path, ai_movetime=0.1, ai_timeout_margin=0.0)
    with running(settings, ai=SlowStartAi(2.0)) as server:
        player = server.player().guest()
        game = player.create(mode="vs_ai", ai_level=10, color="red")
        with player.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "move", "move": "a3a4"})
            ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=30)
        exposition = server.player().get("/metrics").text
        assert "doushouqi_ai_random_fallbacks_total" in exposition
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0


def test_a_computer_short_of_time_plays_at_random_rather_than_lose_it_waiting(
    tmp_path: Path,
) -> None:
    """The wait for loading workers stops short of the computer's own deadline: with 3 s a
    move it waits 3 − 0.7 (its search's limit) − 1 s, then plays a random move in time,
    instead of the timeout pass that waiting out the 60 s load would cost it."""
    settings = make_settings(tmp_path, ai_movetime=0.1, ai_timeout_margin=0.0)
    with running(settings, ai=SlowStartAi(60.0)) as server:
        player = server.player().guest()
        game = player.create(mode="vs_ai", ai_level=10, color="red", time_control="5+0/3s")
        with player.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "move", "move": "a3a4"})
            sent = time.monotonic()
            reply = ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=10)
            waited = time.monotonic() - sent
        assert 1.0 <= waited < 3.0, waited
        after = Board()
        after.push_move("a3a4")
        assert reply["move"] in {str(m) for m in after.legal_moves}
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 1


def test_workers_already_up_answer_even_when_the_clock_leaves_no_time_to_wait(
    tmp_path: Path,
) -> None:
    """With 1 s a move the computer has no time to wait for loading workers (1 − 0.7 − 1 < 0):
    workers that are up must still search its move, not time out on a zero wait."""
    settings = make_settings(tmp_path, ai_movetime=0.1, ai_timeout_margin=0.0)
    with running(settings) as server:
        player = server.player().guest()
        game = player.create(mode="vs_ai", ai_level=10, color="red", time_control="5+0/1s")
        with player.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "move", "move": "a3a4"})
            ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=10)
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0


class LimitedAi(RandomAi):
    """Random moves, with room for ``seats`` games against the computer."""

    def __init__(self, seats: int) -> None:
        super().__init__()
        self.seats = seats

    def capacity(self) -> int | None:
        return self.seats


def test_new_ai_games_are_refused_while_the_ai_is_full(tmp_path: Path, clock: ManualTime) -> None:
    with running(make_settings(tmp_path), clock, LimitedAi(2)) as server:
        player = server.player().guest()
        games = [player.create(mode="vs_ai", ai_level=3, color="red") for _ in range(2)]
        refused = player.post("/api/games", json={"mode": "vs_ai", "ai_level": 3})
        assert refused.status_code == 503
        assert "the computer is busy" in refused.json()["detail"]
        assert refused.headers["retry-after"] == "60"
        # Games against people are not held up, and games in progress go on.
        assert player.post("/api/games", json={"mode": "online"}).status_code == 201
        with player.socket(games[0]["id"]) as ws:
            ws.wait_for("game_started")
            ws.send({"type": "resign"})
            ws.wait_for("game_finished")
        assert player.post("/api/games", json={"mode": "vs_ai"}).status_code == 201
        assert metric(server, "doushouqi_ai_games_refused_total") == 1


def test_overloaded_games_hear_that_the_computer_is_busy(tmp_path: Path) -> None:
    """Eight games against level 10 on one real worker: the AI answers every one with a real
    search, tells the games whose search the load cut short, and plays nothing at random."""
    pool = ProcessPoolAi(1)
    pool.start()
    with running(make_settings(tmp_path, ai_movetime=1.0), ai=pool) as server:
        replies, busy = first_ai_replies(server, 8)
        for reply in replies:
            assert reply["move"] != "0000"
        # Job k (from 1) is given at most 1/(k - 1) s of its second. From the fifth on that is
        # a quarter second or less: its deadline comes before the easy stop's least share (a
        # quarter of the second asked), so it runs out and is cut short, whatever the search
        # finds. The second to fourth may stop on their own first (their move stands): not
        # counted, as they played as a full search would have.
        assert busy >= 4
        assert metric(server, "doushouqi_ai_random_fallbacks_total") == 0
        assert metric(server, "doushouqi_ai_effort_reductions_total") == busy
        assert metric(server, "doushouqi_moves_total") == 16


def test_health_readiness_and_metrics(server: LiveServer) -> None:
    reader = server.player()
    assert reader.get("/healthz").json() == {"status": "ok"}
    ready = reader.get("/readyz").json()
    assert ready["status"] == "ready" and ready["database"] == "ok"
    exposition = reader.get("/metrics")
    assert exposition.headers["content-type"].startswith("text/plain")
    for name in (
        "doushouqi_moves_total",
        "doushouqi_move_latency_seconds_bucket",
        "doushouqi_live_games",
        "doushouqi_sockets",
        "doushouqi_ai_queue",
        "doushouqi_ai_random_fallbacks_total",
    ):
        assert name in exposition.text, name

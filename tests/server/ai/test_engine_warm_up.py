"""A fresh server's engines: the games' and the analysis workers are warmed up at start, and
a job that comes while they still load waits for them before its time starts, so that the
first hint does not fail with 503 "engine not available" and the first move of the computer
is searched for the time it asked (not the little left of a deadline that passed during the
load). The real engine in real worker pools, with times far shorter than a worker's cold
start, so that each could only succeed by waiting for the warm-up."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from tests.support.live import LiveServer, make_settings, move

from doushouqi.jungle.board import Board
from doushouqi.server.ai.pool import AiMove, AiRequest, ProcessPoolAi
from doushouqi.server.context import AppContext


def test_a_hint_right_after_start_succeeds(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, ai_workers=1, analysis_workers=1, ai_timeout_margin=0.3)
    server = LiveServer(settings).start()  # the pools come from the settings, as in `serve`
    try:
        ctx: AppContext = server.app.state.ctx
        assert isinstance(ctx.analysis, ProcessPoolAi)
        assert ctx.analysis.started  # warming up in the background since the start
        client = server.player()
        body = {"moves": ["a3a4"], "movetime": 0.1, "purpose": "hint"}
        answer = client.post("/api/analysis", json=body, timeout=150)
        assert answer.status_code == 200, answer.text
        assert answer.json()["bestmove"]
    finally:
        server.stop()


def test_a_cold_pools_first_search_gets_its_whole_time() -> None:
    # Stamped before the workers are up, a 0.05 s search's deadline (0.55 s on) would pass
    # while the worker starts (importing the engine takes longer) and leave it the minimum.
    request = AiRequest(
        rules=Board().rules.to_mapping(), start_fen=None, moves=(), level=10, movetime=0.05
    )

    async def first_search() -> AiMove:
        pool = ProcessPoolAi(1)
        try:
            assert not pool.started
            return await asyncio.wait_for(pool.choose_move(request), 150)
        finally:
            pool.close()

    found = asyncio.run(first_search())
    assert found.movetime == found.asked == 0.05, found
    assert not found.reduced


def test_a_search_whose_worker_died_is_searched_again_in_full_by_new_workers() -> None:
    # The worker is killed mid-search: the job goes to a new worker, which loads the engine
    # first (as at a cold start). Stamped before that load, the search again would get the
    # minimum; and the jobs after it must wait for the new workers too.
    request = AiRequest(
        rules=Board().rules.to_mapping(), start_fen=None, moves=(), level=10, movetime=0.3
    )

    async def killed_then_next() -> tuple[AiMove, AiMove]:
        pool = ProcessPoolAi(1)
        try:
            await asyncio.wait_for(pool.ready(), 150)
            search = asyncio.ensure_future(pool.choose_move(request))
            await asyncio.sleep(0.1)  # the worker is searching
            workers = pool._executor()._processes  # the processes, to kill them
            assert workers, "no worker process"
            for pid in list(workers):
                os.kill(pid, signal.SIGKILL)
            again = await asyncio.wait_for(search, 150)
            after = await asyncio.wait_for(pool.choose_move(request), 150)
            return again, after
        finally:
            pool.close()

    again, after = asyncio.run(killed_then_next())
    assert again.movetime == again.asked == 0.3 and not again.reduced, again
    assert after.movetime == after.asked == 0.3 and not after.reduced, after


def test_the_computers_first_move_after_start_is_searched_in_full(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, ai_workers=1, analysis_workers=1, ai_movetime=0.1)
    server = LiveServer(settings).start()
    try:
        ctx: AppContext = server.app.state.ctx
        assert isinstance(ctx.ai, ProcessPoolAi) and ctx.ai is not ctx.analysis
        assert ctx.ai.started  # warming up in the background since the start
        human = server.player().guest()
        game = human.create(mode="vs_ai", ai_level=10, color="red")
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            move(ws, "a3a4")
            ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=150)
            # A search cut short is told to the players ("ai_busy"); this one was not.
            assert "ai_busy" not in [m["type"] for m in ws.seen]
    finally:
        server.stop()

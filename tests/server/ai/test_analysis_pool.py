"""Engine analysis (``/api/analysis``) runs in worker processes of its own, so that someone
analysing a long replay never makes the AI's moves in games wait behind their positions.

These tests run the real engine in the real worker pools, wired from the settings as
``doushouqi serve`` does; the AI thinks 0.2 s a move, each analysis 2 s.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from tests.support.live import GameSocket, LiveServer, Player, make_settings
from tests.support.site_helpers import in_server

from doushouqi.jungle.board import Board
from doushouqi.server.ai.pool import AiRequest, ProcessPoolAi
from doushouqi.server.context import AppContext
from doushouqi.server.infra.settings import Settings

AI_MOVETIME = 0.2
ANALYSIS_MOVETIME = 2.0
ANALYSES = 3


def test_the_analysis_workers_setting() -> None:
    assert Settings.from_env({}).analysis_workers == 1
    assert Settings.from_env({"DOUSHOUQI_ANALYSIS_WORKERS": "2"}).analysis_workers == 2
    assert Settings.from_env({"DOUSHOUQI_ANALYSIS_WORKERS": "0"}).analysis_workers == 0


class Analyses:
    """Several long analyses, each from its own client thread; when each answered."""

    def __init__(self, server: LiveServer, count: int) -> None:
        self.answers: list[tuple[float, int, dict[str, object]]] = []
        self._threads = [
            threading.Thread(target=self._ask, args=(server.player(), ply)) for ply in range(count)
        ]

    def _ask(self, client: Player, ply: int) -> None:
        moves = ["a3a4", "g7g6"][: ply % 3]  # different positions, as in a replay
        body = {"moves": moves, "movetime": ANALYSIS_MOVETIME}
        response = client.post("/api/analysis", json=body, timeout=60)
        self.answers.append((time.monotonic(), response.status_code, response.json()))

    def start(self) -> Analyses:
        for thread in self._threads:
            thread.start()
        return self

    def join(self) -> None:
        for thread in self._threads:
            thread.join(timeout=60)


def ai_reply_after(ws: GameSocket, move: str) -> float:
    """Play ``move`` and return when the AI's answer arrived (time.monotonic())."""
    ws.send({"type": "move", "move": move})
    ws.wait_for("move_made", lambda m: m["move"] == move)
    ws.wait_for("move_made", lambda m: m["color"] == 1, timeout=60)
    return time.monotonic()


def warm_up_request() -> AiRequest:
    rules = Board().rules.to_mapping()
    return AiRequest(rules=rules, start_fen=None, moves=(), level=1, movetime=0.05)


@pytest.mark.parametrize("analysis_workers", [1, 0], ids=["own_pool", "shared_pool"])
def test_an_ai_move_does_not_wait_for_analyses_in_flight(
    tmp_path: Path, analysis_workers: int
) -> None:
    settings = make_settings(
        tmp_path, ai_workers=1, analysis_workers=analysis_workers, ai_movetime=AI_MOVETIME
    )
    server = LiveServer(settings).start()  # no engine injected: the pools come from settings
    try:
        ctx: AppContext = server.app.state.ctx
        own_pool = analysis_workers > 0
        assert (ctx.analysis is not ctx.ai) is own_pool
        human = server.player().guest()
        game = human.create(mode="vs_ai", color="red", ai_level=3)
        with human.socket(game["id"]) as ws:
            ws.wait_for("game_started")
            ai_reply_after(ws, "a3a4")  # the first search starts and warms up the AI's workers
            if own_pool:  # warmed up at start (app.py), before anybody asked for an analysis
                assert isinstance(ctx.analysis, ProcessPoolAi) and ctx.analysis.started
            # Start and warm the analysis workers without the endpoint's time limit (on a
            # crowded machine, loading the engine takes longer than one analysis may). On the
            # server's loop: the pool's warm-up, begun at start, is a future of that loop (from
            # another loop, awaiting it while still loading failed).
            in_server(server, lambda ctx: ctx.analysis.analyse(warm_up_request()), timeout=150)
            warm = human.post("/api/analysis", json={"movetime": 0.05}, timeout=60)
            assert warm.status_code == 200, warm.text

            analyses = Analyses(server, ANALYSES).start()
            time.sleep(0.5)  # every analysis is now in the engine's queue
            sent = time.monotonic()
            replied = ai_reply_after(ws, "g3g4")
            analyses.join()

        assert sorted(code for _, code, _ in analyses.answers) == [200] * ANALYSES
        assert all(answer["bestmove"] for _, _, answer in analyses.answers)
        first_analysis_done = min(done for done, _, _ in analyses.answers)
        if own_pool:
            # The AI answered in about its thinking time, while every analysis still ran.
            assert replied - sent < AI_MOVETIME + 1.5, replied - sent
            assert replied < first_analysis_done
        else:
            # Sharing one worker, the AI's search queued behind the analyses.
            assert replied > first_analysis_done
            assert replied - sent > ANALYSIS_MOVETIME
    finally:
        server.stop()


def test_a_reviews_position_waits_for_an_idle_worker_so_a_hint_goes_first() -> None:
    """The pool's executor serves jobs in the order they come: a game review's position (the
    least urgent job) is handed over only to an idle worker, so a hint asked while the only
    worker is busy is searched before a review position asked earlier."""
    wango = Board().rules.to_mapping()

    def job(kind: str, **extra: object) -> AiRequest:
        return AiRequest(rules=wango, start_fen=None, moves=(), level=10, kind=kind, **extra)  # type: ignore[arg-type]

    async def scenario() -> list[str]:
        pool = ProcessPoolAi(1, name="analysis")
        done: list[str] = []

        async def track(label: str, request: AiRequest) -> None:
            await pool.analyse(request)
            done.append(label)

        try:
            await pool.ready()
            busy = asyncio.create_task(track("busy", job("analysis", movetime=1.0)))
            await asyncio.sleep(0.2)
            review = asyncio.create_task(
                track("review", job("review", movetime=1.0, budget={"nodes": 20_000}))
            )
            await asyncio.sleep(0.2)
            hint = asyncio.create_task(track("hint", job("hint", movetime=0.3)))
            await asyncio.wait_for(asyncio.gather(busy, review, hint), 60)
        finally:
            pool.close()
        return done

    assert asyncio.run(scenario()) == ["busy", "hint", "review"]

"""The first hint on a fresh server: the analysis workers are warmed up at start, and a hint
asked while they still load waits for them instead of failing with 503 "engine not
available". The real engine in a real worker pool, with a time margin far shorter than a
worker's cold start, so that the hint could only succeed by waiting for the warm-up."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import LiveServer, make_settings

from doushouqi.server.ai.pool import ProcessPoolAi
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

"""Log lines carry the game they are about; with no engine to answer, the AI's random move is
logged (with its game) and counted."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.live import ManualTime, make_settings, running

from doushouqi.server.ai.pool import AiMove, AiRequest, RandomAi
from doushouqi.server.infra.logcontext import GameIdFilter


class NoEngine(RandomAi):
    async def choose_move(self, request: AiRequest) -> AiMove:
        raise ConnectionError("no worker reachable")


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []
        self.addFilter(GameIdFilter())

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def records() -> Iterator[Records]:
    handler = Records()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


def test_the_random_fallback_is_logged_with_its_game_and_counted(
    tmp_path: Path, clock: ManualTime, records: Records
) -> None:
    with running(make_settings(tmp_path), clock, NoEngine()) as server:
        player = server.player().guest()
        game_id = player.create(mode="vs_ai", ai_level=5, color="blue")["id"]
        with player.socket(game_id) as ws:
            ws.wait_for("move_made")  # the computer (Red) moved: at random
        text = server.player().get("/metrics").text
    fallbacks = [r for r in records.records if "random move" in r.getMessage()]
    assert fallbacks and all(r.game == game_id for r in fallbacks)  # type: ignore[attr-defined]
    assert any(
        line.startswith("doushouqi_ai_random_fallbacks_total") and line.endswith(" 1.0")
        for line in text.splitlines()
    )

"""Public reads that cost the database a query are rate-limited per address, as writes are:
``read_rate`` for every ``GET /api/…`` but the fixed data, and ``explorer_rate`` on top for
the opening explorer (each query a search of its table)."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from pathlib import Path

from fastapi import APIRouter
from fastapi.routing import APIRoute
from tests.support.live import ManualTime, make_settings, running

from doushouqi.server import api
from doushouqi.server.api.deps import limit_reads
from doushouqi.server.infra.settings import RateLimit, Settings

#: GET routes that read no table: fixed data computed in memory; and the bot API's streams,
#: one long request per game for an account's bearer token.
NO_QUERY = {
    "/api/site-games",
    "/api/rules",
    "/api/rules/{name}",
    "/api/scoring",
    "/api/ranks",
    "/api/bot/stream/event",
    "/api/bot/game/stream/{game_id}",
}


def api_reads() -> list[APIRoute]:
    """Every ``GET /api/…`` route of the API's routers (``server/api/``, a router a module)."""
    reads = []
    for module in pkgutil.iter_modules(api.__path__):
        router = getattr(importlib.import_module(f"{api.__name__}.{module.name}"), "router", None)
        if isinstance(router, APIRouter):
            reads += [r for r in router.routes if isinstance(r, APIRoute) and "GET" in r.methods]
    return [r for r in reads if r.path.startswith("/api/")]  # not /healthz, /metrics


def test_every_read_of_the_api_is_limited() -> None:
    reads = api_reads()
    assert {"/api/explorer", "/api/lobby", "/api/players/{username}"} <= {r.path for r in reads}
    unlimited = [
        route.path
        for route in reads
        if route.path not in NO_QUERY
        and limit_reads not in [d.call for d in route.dependant.dependencies]
    ]
    assert not unlimited
    assert {r.path for r in reads} >= NO_QUERY  # no stale exceptions


def test_the_explorer_answers_at_most_its_limit(tmp_path: Path) -> None:
    """400 explorer queries from one address in a burst: the default limit's 300 answered."""
    settings = make_settings(tmp_path, explorer_rate=Settings().explorer_rate)
    with running(settings, ManualTime()) as server:
        client = server.player()
        codes = Counter(client.get("/api/explorer").status_code for _ in range(400))
        assert codes == {200: Settings().explorer_rate.count, 429: 100}
        refused = client.get("/api/explorer")
        assert refused.json()["code"] == "rate_limited"
        assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_reads_past_the_limit_wait_and_fixed_data_does_not(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, read_rate=RateLimit(5, 60.0))
    with running(settings, ManualTime()) as server:
        client = server.player()
        codes = [client.get("/api/lobby").status_code for _ in range(4)]
        codes += [client.get("/api/players/nobody").status_code]  # 404: counted all the same
        assert codes == [200, 200, 200, 200, 404]
        assert client.get("/api/leaderboard").status_code == 429
        assert client.get("/api/puzzles/themes").status_code == 429
        assert client.get("/api/rules").status_code == 200

"""For operators and load balancers: liveness, readiness and Prometheus metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from sqlalchemy import text

from doushouqi.server.api.deps import Ctx
from doushouqi.server.infra.metrics import CONTENT_TYPE_LATEST

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up and its event loop answers (restart it when this fails)."""
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
async def readyz(ctx: Ctx) -> dict[str, Any] | JSONResponse:
    """Whether this node should get traffic: its database (and in a cluster, Redis) answers;
    503 when not."""
    checks: dict[str, str] = {}
    try:
        await ctx.db.read(lambda session: session.execute(text("SELECT 1")))
        checks["database"] = "ok"
        if (cluster := ctx.registry.services.cluster) is not None:
            checks["redis"] = "down"
            await cluster.redis.ping()
            checks["redis"] = "ok"
    except Exception as exc:
        checks.setdefault("database", type(exc).__name__)
        return JSONResponse({"status": "unavailable", **checks}, status_code=503)
    return {"status": "ready", "node": ctx.metrics.node, **checks}


@router.get("/metrics")
async def metrics(ctx: Ctx) -> Response:
    """Prometheus metrics of this node (text exposition format)."""
    return Response(ctx.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

"""What request handlers share: one typed bundle of the app's parts, kept on ``app.state``."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from doushouqi.server.accounts.auth import Auth
from doushouqi.server.ai.pool import AiService
from doushouqi.server.db.database import Database
from doushouqi.server.infra.metrics import Metrics
from doushouqi.server.infra.ratelimit import LoginThrottle, RateLimiter
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import TimeSource
from doushouqi.server.live.registry import ActorRegistry

__all__ = ["AppContext", "context_of"]


@dataclass
class AppContext:
    settings: Settings
    db: Database
    time: TimeSource
    auth: Auth
    registry: ActorRegistry
    #: Sign-ups and failed logins per address.
    login_limiter: RateLimiter
    login_throttle: LoginThrottle
    create_limiter: RateLimiter
    record_limiter: RateLimiter
    ai: AiService
    #: The engine for ``/api/analysis``: a pool of its own unless settings (or tests) share ``ai``.
    analysis: AiService
    analysis_limiter: RateLimiter
    #: Public reads that cost a query, and opening explorer queries, per address.
    read_limiter: RateLimiter
    explorer_limiter: RateLimiter
    metrics: Metrics
    #: Websockets open on this node now.
    sockets: int = 0


def context_of(conn: HTTPConnection) -> AppContext:
    ctx: AppContext = conn.app.state.ctx
    return ctx


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "unknown"

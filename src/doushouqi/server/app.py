"""The app factory: ``create_app(settings)`` builds the whole server, cheaply, for tests too.

On start-up (the lifespan) the schema is migrated to the latest revision, the time the site
was down is recorded (from the last heartbeat: ``live/downtime.py``), the games that were in
progress are loaded back with it taken off their clocks, and a heartbeat starts recording that
the server is alive (the next start measures the downtime from it). A clean-up
task forgets stale data at once and then every ``cleanup_interval``. Games' AI moves and
``/api/analysis`` use separate worker pools, so analysing a long replay never delays a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.orm import Session

from doushouqi import __version__
from doushouqi.server.accounts.auth import Auth
from doushouqi.server.ai.pool import AiService, ProcessPoolAi
from doushouqi.server.ai.redis_queue import RedisAi
from doushouqi.server.api import analysis, bot, games, ops, players, records, rules
from doushouqi.server.api import auth as auth_api
from doushouqi.server.api import challenges as challenges_api
from doushouqi.server.api import chat as chat_api
from doushouqi.server.api import closing as closing_api
from doushouqi.server.api import correspondence as correspondence_api
from doushouqi.server.api import editor as editor_api
from doushouqi.server.api import explorer as explorer_api
from doushouqi.server.api import export as export_api
from doushouqi.server.api import moderation as moderation_api
from doushouqi.server.api import notifications as notifications_api
from doushouqi.server.api import pages as pages_api
from doushouqi.server.api import pairing as pairing_api
from doushouqi.server.api import puzzles as puzzles_api
from doushouqi.server.api import ranks as ranks_api
from doushouqi.server.api import review as review_api
from doushouqi.server.api import security as security_api
from doushouqi.server.api import tablebase as tablebase_api
from doushouqi.server.api import tournaments as tournaments_api
from doushouqi.server.api import watch as watch_api
from doushouqi.server.chat.moderation import ChatRemoval, handle_removal
from doushouqi.server.chat.service import ChatMessage, handle_chat
from doushouqi.server.chat.service import greeting as chat_greeting
from doushouqi.server.context import AppContext
from doushouqi.server.db import outages, repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import GameStore
from doushouqi.server.explorer import service as explorer
from doushouqi.server.infra import errors, translations
from doushouqi.server.infra.guards import CrossOriginGuard, JsonBodyGuard
from doushouqi.server.infra.headers import add_security_headers
from doushouqi.server.infra.metrics import Metrics
from doushouqi.server.infra.proxies import TrustedProxies
from doushouqi.server.infra.ratelimit import LoginThrottle, RateLimiter
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import SystemTime, TimeSource
from doushouqi.server.live import correspondence, ws
from doushouqi.server.live.actors import Services
from doushouqi.server.live.cluster import Cluster, node_id
from doushouqi.server.live.downtime import Downtime
from doushouqi.server.live.registry import ActorRegistry
from doushouqi.server.review.service import GameReviews
from doushouqi.server.tournaments.director import Director

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def _gauges(ctx: AppContext) -> None:
    metrics, registry = ctx.metrics, ctx.registry
    metrics.gauge("doushouqi_live_games", "Games held by this node's actors", lambda: len(registry))
    metrics.gauge("doushouqi_sockets", "Websockets open on this node", lambda: ctx.sockets)
    metrics.gauge("doushouqi_ai_queue", "AI jobs waiting for a worker", lambda: ctx.ai.backlog)
    if ctx.analysis is not ctx.ai:
        analysis = ctx.analysis
        metrics.gauge(
            "doushouqi_analysis_queue", "Analyses waiting for a worker", lambda: analysis.backlog
        )


#: A node's heartbeat in the database is forgotten this long after the node stopped.
FORGET_NODE_BEATS_AFTER = 7 * 86400.0
#: Recorded outages are forgotten this long after they ended: longer than any wait (a
#: correspondence move's 14 days, an open correspondence game's week) that could span one.
FORGET_OUTAGES_AFTER = 30 * 86400.0


def _node(ctx: AppContext) -> str | None:
    cluster = ctx.registry.services.cluster
    return None if cluster is None else cluster.node


def _beat(at: float, node: str | None, session: Session) -> None:
    repo.set_heartbeats(session, at, node)


async def _heartbeat(ctx: AppContext) -> None:
    if _node(ctx) is not None:
        before = ctx.time.now() - FORGET_NODE_BEATS_AFTER
        await ctx.db.write(lambda s: repo.forget_node_beats(s, before))
    while True:
        try:
            await ctx.db.write(functools.partial(_beat, ctx.time.now(), _node(ctx)))
        except Exception:
            log.exception("could not record the heartbeat")
        await asyncio.sleep(ctx.settings.heartbeat_interval)


async def _clean_up(ctx: AppContext) -> None:
    while True:
        try:
            if forgotten := await ctx.auth.forget_stale_guest_names():
                log.info("forgot %d guest name(s) whose cookies have expired", forgotten)
            if forgotten := await ctx.auth.forget_expired_tokens():
                log.info("forgot %d expired login(s)", forgotten)
            before = ctx.time.now() - ctx.settings.record_days * 86400
            forget = functools.partial(repo.forget_anonymous_records, uploaded_before=before)
            if forgotten := await ctx.db.write(forget):
                log.info("forgot %d record(s) uploaded without an account", forgotten)
            long_ago = ctx.time.now() - FORGET_OUTAGES_AFTER
            await ctx.db.write(functools.partial(outages.forget, before=long_ago))
        except Exception:
            log.exception("could not clean up stale data")
        await asyncio.sleep(ctx.settings.cleanup_interval)


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def create_app(
    settings: Settings | None = None,
    *,
    time: TimeSource | None = None,
    ai: AiService | None = None,
    analysis_ai: AiService | None = None,
) -> FastAPI:
    """The server app. ``time``, ``ai`` and ``analysis_ai`` replace the real clock, the games'
    engine and the analysis engine (tests); an ``ai`` given alone serves analysis too."""
    # The socket's feature messages: chat's message and its history for a new socket.
    ws.register_message(ChatMessage, handle_chat)
    ws.register_message(ChatRemoval, handle_removal)  # a moderator's, checked by the owner
    ws.register_greeting(chat_greeting)
    settings = settings or Settings.from_env()
    time = time or SystemTime()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.resolved_database_url)
        await asyncio.to_thread(db.migrate)
        # With a Redis URL, ``doushouqi worker``s search both games' moves and analyses.
        shared = ai or (RedisAi.from_settings(settings) if settings.redis_url else None)
        engine = shared or ProcessPoolAi(
            settings.ai_workers, games_per_worker=settings.ai_games_per_worker
        )
        if analysis_ai is not None:
            analyst = analysis_ai
        elif shared is None and settings.analysis_workers > 0:
            # Its own workers: a long analysis never holds up the AI's moves in games.
            analyst = ProcessPoolAi(settings.analysis_workers, name="analysis")
        else:
            analyst = engine
        name = settings.node_name or socket.gethostname()
        cluster = None
        if settings.redis_url:
            cluster = Cluster(
                settings.redis_url, node_id(name), lease_seconds=settings.lease_seconds
            )
        metrics = Metrics(name if cluster is None else cluster.node)
        downtime = Downtime(
            db,
            time,
            None if cluster is None else cluster.outages,
            "" if cluster is None else cluster.node,
        )
        services = Services(
            settings,
            db,
            GameStore(
                db,
                on_finished=[explorer.record_game],
                gather_for=settings.commit_gather_ms / 1000,
            ),
            time,
            engine,
            metrics,
            cluster,
            downtime=downtime,
        )
        registry = ActorRegistry(services)
        ctx = AppContext(
            settings=settings,
            db=db,
            time=time,
            auth=Auth(settings, db, time),
            registry=registry,
            login_limiter=RateLimiter(settings.login_rate),
            login_throttle=LoginThrottle(settings.login_account_rate, time.now),
            create_limiter=RateLimiter(settings.create_rate),
            record_limiter=RateLimiter(settings.record_rate),
            ai=engine,
            analysis=analyst,
            analysis_limiter=RateLimiter(settings.analysis_rate),
            read_limiter=RateLimiter(settings.read_rate),
            explorer_limiter=RateLimiter(settings.explorer_rate),
            metrics=metrics,
        )
        app.state.ctx = ctx
        # Stored game reviews, searched by the analysis service (api/review.py reaches them
        # here: the features do not know each other, so the shared context holds none).
        app.state.reviews = reviews = GameReviews(
            db,
            analyst,
            time.now,
            name if cluster is None else cluster.node,
            {"standard": settings.review_nodes, "deep": settings.review_deep_nodes},
        )
        for pool in (engine, analyst):  # one pool twice when it serves both: warmed once
            if isinstance(pool, ProcessPoolAi):
                # In the background: the first game and hint after a start get their time.
                pool.warm_up()
        correspondence.install(ctx)
        _gauges(ctx)
        # A Redis AI starts watching its workers at its first use: make that now, so that
        # admission control knows their capacity from the first game on.
        engine.capacity()
        lease = None if cluster is None else settings.lease_seconds
        if (down := await downtime.record_restart(cluster_lease=lease)) is not None:
            log.info("the site was down for %.1f s", (down.end or down.start) - down.start)
        if cluster is None:
            resumed = await registry.recover()
            if resumed:
                log.info("resumed %d game(s) in progress or waiting for an opponent", resumed)
        else:
            # The live games are claimed by whichever node gets there first (and then again
            # whenever their owner dies), not all loaded here.
            cluster.on_command = functools.partial(ws.serve_forwarded, ctx)
            cluster.live_game_ids = functools.partial(db.read, repo.live_game_ids)
            downtime.watch_redis(registry.outage_over)  # before the loops that report it
            await cluster.start(registry)
            log.info("node %s joined the cluster", cluster.node)
        heartbeat = asyncio.create_task(_heartbeat(ctx))
        clean_up = asyncio.create_task(_clean_up(ctx))
        app.state.tournament_director = director = Director(ctx)
        director.start()  # every node: the tournaments' leases are in the database
        try:
            yield
        finally:
            await _stop(heartbeat)
            await _stop(clean_up)
            await director.stop()
            await reviews.close()
            await downtime.close()
            await registry.close()
            if cluster is not None:  # drain: the other nodes take our games over at once
                await cluster.stop()
            # The last moment the games were looked after: the next start pauses clocks here.
            await db.write(functools.partial(_beat, time.now(), _node(ctx)))
            engine.close()
            if analyst is not engine:
                analyst.close()
            db.close()

    app = FastAPI(
        title="Jungle (斗兽棋) server",
        version=__version__,
        description="Games against the AI, on one screen and online; accounts, ratings, "
        "records. Live games: websocket `/ws/games/{id}`; bots: `/api/bot/...`.",
        lifespan=lifespan,
    )

    # Added last = runs first: a forged request is refused before its body is even read.
    app.add_middleware(JsonBodyGuard)
    app.add_middleware(CrossOriginGuard)

    errors.install(app)  # HTTP errors with a code the web client translates

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own handler echoes the input back and fails on bytes that are not UTF-8.
        errors = [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in exc.errors()]
        # The code every other refusal carries ("invalid": the client's error.invalid).
        return JSONResponse({"detail": errors, "code": "invalid", "params": {}}, status_code=422)

    for router in (
        auth_api.router,
        security_api.router,
        export_api.router,
        correspondence_api.router,  # before games: /api/games/my-turn is no game id
        ranks_api.router,
        watch_api.router,  # before games: /api/games/live is no game id
        chat_api.router,
        games.router,
        players.router,
        records.router,
        analysis.router,
        review_api.router,
        editor_api.router,
        explorer_api.router,
        puzzles_api.router,
        tablebase_api.router,
        bot.router,
        notifications_api.router,
        pairing_api.router,
        challenges_api.router,
        tournaments_api.router,
        closing_api.router,
        moderation_api.router,
        ops.router,
    ):
        app.include_router(router)
    app.include_router(rules.router)
    app.include_router(ws.router)
    app.include_router(watch_api.socket_router)
    if settings.static_dir.is_dir():
        translations.check_tables(settings.static_dir)  # a broken file stops the start here
        app.state.static_dir = settings.static_dir
        app.include_router(translations.router)
        app.include_router(pages_api.router)  # the client's pages by address (/game/ID …)
        # Last: the API routes above take precedence over files.
        app.mount("/", StaticFiles(directory=settings.static_dir, html=True), name="static")
    add_security_headers(app)  # outermost but one, so every response gets the headers
    if settings.trusted_proxies:  # outermost: the client and scheme as the proxy forwards them
        app.add_middleware(TrustedProxies, trusted=settings.trusted_proxies)
    return app

"""The bot API: external engines play with an account token, in the spirit of lichess's.

* ``GET /api/bot/stream/event`` — NDJSON: a line when a game with your account seated is
  created, starts, or finishes.
* ``GET /api/bot/game/stream/{id}`` — NDJSON: the game's ``state``, then every event as it
  happens. While the stream is open the bot counts as connected to the game (it is seated
  when it opens it, and its grace period runs when it closes).
* ``POST /api/bot/game/{id}/move/{move}`` and ``POST /api/bot/game/{id}/{action}`` (resign,
  offer_draw, accept_draw, …) — play; 400 with a ``rejected`` body when refused.

Every request carries ``Authorization: Bearer TOKEN``: an API token with the scope ``bot:play``
(made on the settings page, or ``POST /api/auth/tokens``); revoking it ends its streams. An empty
line is sent every few seconds on idle streams so that proxies keep them open.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse, StreamingResponse

from doushouqi.server.accounts.auth import Caller, Principal
from doushouqi.server.accounts.scopes import BOT_PLAY
from doushouqi.server.api.deps import Ctx, Who, account_principal
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.errors import Problem, unavailable
from doushouqi.server.live.actors import GameActor
from doushouqi.server.live.cluster import RemoteGame
from doushouqi.server.live.subscriber import Subscriber
from doushouqi.server.live.ws import ACTIONS, Client, dispatch, open_game

router = APIRouter(prefix="/api/bot", tags=["bot"])

#: A bot's stream: the caller (its token, whose revoking ends the stream) with ``bot:play``.
BotCaller = Annotated[Caller, Depends(Who(BOT_PLAY, "account", caller=True))]

KEEPALIVE_SECONDS = 5.0
NDJSON = "application/x-ndjson"


async def _lines(subscriber: Subscriber, first: list[str], on_close: Any) -> AsyncIterator[str]:
    try:
        for line in first:
            yield line + "\n"
        while True:
            try:
                text = await asyncio.wait_for(subscriber.queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield "\n"
                continue
            if text is None:
                return
            yield text + "\n"
    finally:
        on_close()


@router.get("/stream/event")
async def stream_events(ctx: Ctx, caller: BotCaller) -> StreamingResponse:
    """Your account's game events, as NDJSON."""
    principal = caller.principal
    assert principal.account_id is not None
    streams = ctx.registry.account_streams.setdefault(principal.account_id, set())
    subscriber = Subscriber(principal.identity)
    streams.add(subscriber)
    ctx.registry.token_sockets.add(caller, subscriber)  # ends if the token is revoked or expires

    def closed() -> None:
        streams.discard(subscriber)
        ctx.registry.token_sockets.discard(caller, subscriber)

    return StreamingResponse(_lines(subscriber, [], closed), media_type=NDJSON)


async def _actor(ctx: Ctx, game_id: str) -> GameActor | RemoteGame:
    actor = await ctx.registry.get(game_id)
    if actor is None:
        raise Problem(404, "game.not_found", "no such game")
    return actor


@router.get("/game/stream/{game_id}")
async def stream_game(
    game_id: str,
    ctx: Ctx,
    caller: BotCaller,
    since: int | None = Query(None, ge=0, le=MAX_ID),
) -> StreamingResponse:
    """The game's state, then its events, as NDJSON."""
    subscriber = Subscriber(caller.principal.identity)
    actor, first = await open_game(ctx, await _actor(ctx, game_id), subscriber, since)
    ctx.registry.token_sockets.add(caller, subscriber)  # ends if the token is revoked or expires

    def closed() -> None:
        actor.unsubscribe(subscriber)
        ctx.registry.token_sockets.discard(caller, subscriber)

    return StreamingResponse(_lines(subscriber, first, closed), media_type=NDJSON)


async def _play(
    ctx: Ctx, principal: Principal, game_id: str, message: dict[str, Any]
) -> JSONResponse:
    actor = await _actor(ctx, game_id)
    replies = await dispatch(Client(ctx, actor, principal), json.dumps(message))
    failed = [r for r in replies if r.get("type") in ("rejected", "error")]
    if failed and failed[0].get("code") == "unavailable":  # not applied: send it again
        return unavailable(str(failed[0]["reason"]), **failed[0])
    if failed:
        return JSONResponse(failed[0], status_code=400)
    return JSONResponse({"ok": True, "version": actor.version})


@router.post("/game/{game_id}/move/{move}")
async def bot_move(
    game_id: str,
    move: str,
    ctx: Ctx,
    principal: Annotated[Principal, account_principal(BOT_PLAY)],
    version: int | None = Query(
        None, ge=0, le=MAX_ID, description="refuse unless the game is here"
    ),
) -> JSONResponse:
    """Play ``move`` (e.g. ``a3a4``)."""
    return await _play(ctx, principal, game_id, {"type": "move", "move": move, "version": version})


@router.post("/game/{game_id}/{action}")
async def bot_action(
    game_id: str,
    action: str,
    ctx: Ctx,
    principal: Annotated[Principal, account_principal(BOT_PLAY)],
) -> JSONResponse:
    """``resign``, ``offer_draw``, ``accept_draw``, ``decline_draw``, ``abort``, ``takeback``,
    ``accept_takeback``, ``decline_takeback``, ``rematch``, ``claim_victory``, ``claim_draw``
    or ``join``."""
    if action not in ACTIONS and action != "join":
        known = ", ".join(ACTIONS)
        raise Problem(404, "bot.unknown_action", f"unknown action; known: join, {known}")
    return await _play(ctx, principal, game_id, {"type": action})

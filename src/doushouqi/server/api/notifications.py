"""The bell over REST, and the site socket that pushes to a player's open tabs.

* ``GET /api/notifications`` — the newest 30 and the unread count.
* ``POST /api/notifications/read`` — ``{"ids": [..]}`` marks those read, ``{}`` (or
  ``"ids": null``) all of them.
* ``/ws/site`` — one websocket per browser tab of a signed-in player (account or guest),
  authenticated by the cookie like a game's socket. The server sends ``hello`` (the unread
  count) on connecting, then whatever :mod:`doushouqi.server.notifications.service` pushes
  (``notification``, ``unread``, ``paired``, ``challenge`` …). The client sends ``ping``
  (answered ``pong``). A tab that reconnects fetches the list again over REST: pushes made
  while it was away are in it when they were notifications, and gone when transient.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated, Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketState

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import NOTIFICATION_READ, NOTIFICATION_WRITE
from doushouqi.server.api.deps import READ_LIMITED, Ctx, required_principal
from doushouqi.server.context import context_of
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.guards import is_cross_origin
from doushouqi.server.infra.json_input import BadJsonError, parse_json
from doushouqi.server.infra.outage import is_outage
from doushouqi.server.infra.ratelimit import TokenBucket
from doushouqi.server.live.actors import dumps
from doushouqi.server.live.subscriber import Subscriber
from doushouqi.server.notifications.service import mark_read, player_key_of, recent

router = APIRouter(tags=["notifications"])
log = logging.getLogger(__name__)

#: Most ids one "mark read" names.
MAX_IDS = 100


class MarkRead(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ids: list[Annotated[int, Field(ge=1, le=MAX_ID)]] | None = Field(
        default=None, max_length=MAX_IDS
    )


@router.get("/api/notifications", dependencies=READ_LIMITED)
async def list_notifications(
    ctx: Ctx, principal: Annotated[Principal, required_principal(NOTIFICATION_READ)]
) -> dict[str, Any]:
    """Your newest notifications (newest first) and how many are unread."""
    return await recent(ctx, player_key_of(principal))


@router.post("/api/notifications/read")
async def read_notifications(
    body: MarkRead,
    ctx: Ctx,
    principal: Annotated[Principal, required_principal(NOTIFICATION_WRITE)],
) -> dict[str, Any]:
    """Mark notifications read (``ids``; none given: all); answers the unread count left."""
    return {"unread": await mark_read(ctx, player_key_of(principal), body.ids)}


async def _pump(websocket: WebSocket, subscriber: Subscriber) -> None:
    try:
        while True:
            text = await subscriber.queue.get()
            if text is None:  # fell too far behind (reconnect and refetch), or signed out
                code, reason = subscriber.closing or (4408, "too slow; reconnect")
                await websocket.close(code=code, reason=reason)
                return
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError):
        return
    except Exception:
        log.exception("could not send to a site socket; closing it")
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code=1011, reason="server error; reconnect")


def _reply(raw: str | bytes, max_bytes: int) -> dict[str, Any]:
    if len(raw) > max_bytes:
        return {"type": "error", "code": "too_large"}
    try:
        data = parse_json(raw)
    except BadJsonError:
        return {"type": "error", "code": "bad_json"}
    if isinstance(data, dict) and data.get("type") == "ping":
        return {"type": "pong"}
    return {"type": "error", "code": "bad_message"}


@router.websocket("/ws/site")
async def site_socket(websocket: WebSocket) -> None:
    ctx = context_of(websocket)
    if is_cross_origin(websocket.headers):
        await websocket.close(code=4403, reason="cross-origin connection refused")
        return
    caller = await ctx.auth.caller(websocket)
    if caller is None:
        await websocket.close(code=4401, reason="sign in or play as a guest first")
        return
    await websocket.accept()
    if not caller.allows(NOTIFICATION_READ):
        await websocket.close(code=4403, reason=f"auth.scope {NOTIFICATION_READ}")
        return
    principal = caller.principal
    key = player_key_of(principal)
    subscriber = Subscriber(principal.identity)
    sockets = ctx.registry.player_sockets.setdefault(key, set())
    sockets.add(subscriber)
    ctx.registry.token_sockets.add(caller, subscriber)  # closed if its session ends or expires
    ctx.sockets += 1
    pump = asyncio.create_task(_pump(websocket, subscriber))
    bucket = TokenBucket(ctx.settings.message_rate)
    try:
        try:
            first = await recent(ctx, key)
        except Exception as exc:
            if not is_outage(exc):
                raise
            # The database is away: "try again later"; the tab reconnects and fetches again.
            log.warning("cannot greet a site socket now (%r)", exc)
            await websocket.close(code=1013, reason="try again")
            return
        subscriber.deliver(dumps({"type": "hello", "unread": first["unread"]}))
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if not bucket.take():
                reply = {"type": "error", "code": "rate_limited"}
            else:
                reply = _reply(raw, ctx.settings.max_message_bytes)
            subscriber.deliver(dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        ctx.sockets -= 1
        sockets.discard(subscriber)
        ctx.registry.token_sockets.discard(caller, subscriber)
        if not sockets and ctx.registry.player_sockets.get(key) is sockets:
            del ctx.registry.player_sockets[key]
        pump.cancel()
        if websocket.application_state is WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close()

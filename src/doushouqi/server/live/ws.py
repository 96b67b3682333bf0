"""The game protocol: typed client messages, dispatched through a table, and the websocket.

Clients send JSON objects tagged by ``type``; each is validated by a pydantic model (unknown
fields, wrong types and oversized values are refused) and handled by the function that
:data:`DISPATCH` gives for its model. The same messages are accepted over REST
(``POST /api/games/{id}/commands``), so bots and scripts need no websocket.

Server → client messages are the domain events (``move_made``, ``game_finished``, …) plus
``state`` (a full snapshot), ``rejected`` (a refused command, to its sender only), ``error``
(a message that could not be understood), ``ack``, ``pong`` and ``rematch_ready``. A move sent
with an ``id`` is applied at most once: sent again (a client that lost the answer in a
reconnect), it is answered with the first answer, never played twice. Every one
carries the game's ``version``; a client that sees a gap sends ``sync`` with its last version
(or reconnects with ``?since=VERSION``) and receives what it missed, or a fresh ``state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import typing
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from redis.exceptions import RedisError
from starlette.websockets import WebSocketState

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.accounts.scopes import BOARD_PLAY
from doushouqi.server.context import AppContext, context_of
from doushouqi.server.db.gamestore import CommitError
from doushouqi.server.domain import (
    Abort,
    AcceptDraw,
    AcceptTakeback,
    Actor,
    AlreadyApplied,
    ClaimDraw,
    ClaimVictory,
    Command,
    DeclineDraw,
    DeclineTakeback,
    Event,
    Join,
    Move,
    OfferDraw,
    Rejected,
    Rematch,
    RequestTakeback,
    Resign,
)
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.infra.guards import is_cross_origin
from doushouqi.server.infra.json_input import BadJsonError, parse_json
from doushouqi.server.infra.logcontext import current_game
from doushouqi.server.infra.outage import is_outage
from doushouqi.server.infra.proxies import routed_by_game
from doushouqi.server.infra.ratelimit import TokenBucket
from doushouqi.server.infra.ws_protocol import SEND_NOW
from doushouqi.server.live.actors import (
    ActorClosedError,
    GameActor,
    Subscriber,
    dumps,
    state_message,
)
from doushouqi.server.live.cluster import ClusterUnavailable, RemoteGame
from doushouqi.server.live.subscriber import SendNow
from doushouqi.server.live.watching import spectators_message

__all__ = [
    "DISPATCH",
    "Client",
    "Message",
    "dispatch",
    "open_game",
    "parse_message",
    "register_greeting",
    "register_message",
    "router",
]

log = logging.getLogger(__name__)

#: The close code for an API token without the scope a socket needs (its reason names it).
SCOPE_REFUSED = 4403

#: Client message types that become a domain command with no further data.
ACTIONS: dict[str, type[Command]] = {
    "resign": Resign,
    "offer_draw": OfferDraw,
    "accept_draw": AcceptDraw,
    "decline_draw": DeclineDraw,
    "abort": Abort,
    "takeback": RequestTakeback,
    "accept_takeback": AcceptTakeback,
    "decline_takeback": DeclineTakeback,
    "rematch": Rematch,
    "claim_victory": ClaimVictory,
    "claim_draw": ClaimDraw,
}


class Message(BaseModel):
    """A client message: a pydantic model whose ``type`` field is a ``Literal`` of its tags."""

    model_config = ConfigDict(extra="forbid", strict=True)
    #: Echoed in the ``ack`` or ``rejected`` reply, so a client can match replies to requests.
    #: A move's id also names the move: the game applies it at most once, and answers the
    #: move sent again under it (after a reconnect) with an ``ack`` marked ``duplicate``.
    id: str | None = Field(default=None, max_length=64)


class _GameCommand(Message):
    #: The game version the command was meant for; a replayed or outdated command is refused.
    version: int | None = Field(default=None, ge=0, le=MAX_ID)
    #: The seat to act for (needed only by a player who holds both, on one screen).
    color: Literal[0, 1] | None = None


class MoveMessage(_GameCommand):
    type: Literal["move"]
    move: str = Field(max_length=16)


class JoinMessage(_GameCommand):
    type: Literal["join"]


class ActionMessage(_GameCommand):
    type: Literal[
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "abort",
        "takeback",
        "accept_takeback",
        "decline_takeback",
        "rematch",
        "claim_victory",
        "claim_draw",
    ]


class SyncMessage(Message):
    type: Literal["sync"]
    version: int | None = Field(default=None, ge=0, le=MAX_ID)


class PingMessage(Message):
    type: Literal["ping"]


@dataclass
class Client:
    """Who sent a message about which game, and where replies go (no subscriber: REST). The
    game runs on this node (its actor) or on another (a handle on it, in a cluster)."""

    ctx: AppContext
    actor: GameActor | RemoteGame
    principal: Principal | None
    subscriber: Subscriber | None = None
    #: A command another node sent to this one, the game's owner (``serve_forwarded``).
    forwarded: bool = False
    #: Forwarded from a socket, which hears the command's events as a subscriber on its
    #: node: an accepted command is answered with its ``ack`` alone.
    ack_only: bool = False

    def reply(self, kind: str, **fields: Any) -> dict[str, Any]:
        return {
            "type": kind,
            "game_id": self.actor.id,
            "version": self.actor.version,
            **fields,
        }

    def error(self, code: str, reason: str, message_id: str | None = None) -> dict[str, Any]:
        return self.reply("error", code=code, reason=reason, id=message_id)


def build_command(message: _GameCommand, principal: Principal) -> Command:
    actor, color, version = principal.identity, message.color, message.version
    if isinstance(message, MoveMessage):
        move_id = message.id
        return Move(
            actor=actor, color=color, expected_version=version, move=message.move, move_id=move_id
        )
    if isinstance(message, JoinMessage):
        return Join(actor=actor, color=color, expected_version=version, player=principal.slot())
    assert isinstance(message, ActionMessage)
    return ACTIONS[message.type](actor=actor, color=color, expected_version=version)


async def handle_command(client: Client, message: _GameCommand) -> list[dict[str, Any]]:
    if client.principal is None:
        reason = "spectators cannot play: sign in or play as a guest"
        return [client.error("not_signed_in", reason, message.id)]
    if isinstance(client.actor, RemoteGame):
        return await _forward(client, message, client.principal)
    principal = client.principal
    if isinstance(message, JoinMessage):  # seated with the standing in this game (per game)
        game = client.actor.game  # its rating at the game's speed too
        principal = await client.ctx.auth.in_game(principal, game.game_key, game.speed)
    command = build_command(message, principal)
    try:
        events = await client.ctx.registry.submit(client.actor.id, command)
    except CommitError:
        return [client.error("unavailable", "the move could not be saved; try again", message.id)]
    except ActorClosedError:
        if client.forwarded:  # handed over meanwhile: the sender looks the owner up again
            raise
        return [client.error("unavailable", "the game is reloading; try again", message.id)]
    if events is None:
        return [client.error("not_found", "no such game", message.id)]
    if events and isinstance(events[0], Rejected):
        return [{**events[0].to_dict(), "id": message.id}]
    if events and isinstance(events[0], AlreadyApplied):  # sent again: it was played once
        return [client.reply("ack", id=message.id, duplicate=True)]
    return _accepted(client, message, events)


def _accepted(
    client: Client, message: _GameCommand, events: Sequence[Event | dict[str, Any]]
) -> list[dict[str, Any]]:
    # Events are turned into dicts only for a caller without a socket (REST, a forwarding
    # node), whose answer they are: a socket's sender hears them as a subscriber (on its own
    # node, when the command was forwarded: ``ack_only``).
    if client.subscriber is None and not client.ack_only:
        return [e if isinstance(e, dict) else e.to_dict() for e in events]
    if message.id is not None:  # the events themselves reach the sender as a subscriber
        return [client.reply("ack", id=message.id)]
    return []


async def _forward(
    client: Client, message: _GameCommand, principal: Principal
) -> list[dict[str, Any]]:
    """A command for a game another node owns: the owner handles it (as if it came there)."""
    assert isinstance(client.actor, RemoteGame)
    forwarded = message.model_dump(mode="json")
    reason = "the game is moving to another server; try again"
    try:
        replies = await client.actor.cluster.forward(
            client.actor.id, forwarded, principal.to_dict(), ack_only=client.subscriber is not None
        )
        if replies is None:
            # No owner answered: it stopped or died. Take the game over here, if nobody has.
            claimed = await client.ctx.registry.get(client.actor.id)
            if isinstance(claimed, GameActor):
                client.actor = claimed
                return await handle_command(client, message)
            return [client.error("unavailable", reason, message.id)]
    except RedisError:  # Redis is restarting: nothing was sent, the client may send it again
        return [client.error("unavailable", reason, message.id)]
    # The owner's own answer (a refusal, a failure, or the ack of a move sent again) is final.
    if any(reply.get("type") in ("rejected", "error", "ack") for reply in replies):
        return replies
    return _accepted(client, message, replies)


async def serve_forwarded(
    ctx: AppContext,
    game_id: str,
    message: dict[str, Any],
    principal: dict[str, Any],
    ack_only: bool = False,
) -> list[dict[str, Any]] | None:
    """On the owner: handle a command another node validated and sent here (None: the game
    does not run here). ``ack_only``: the sender's socket hears the events where it is."""
    actor = await ctx.registry.local(game_id)
    if actor is None:
        return None
    parsed = parse_message(message)
    sender = Principal.from_dict(principal)
    client = Client(ctx, actor, sender, forwarded=True, ack_only=ack_only)
    try:
        return await DISPATCH[type(parsed)](client, parsed)
    except ActorClosedError:  # handed over meanwhile: the sender finds the new owner
        return None


async def handle_sync(client: Client, message: SyncMessage) -> list[dict[str, Any]]:
    if client.subscriber is None:
        loaded = await client.ctx.registry.load(client.actor.id)
        if loaded is None:
            return [client.error("not_found", "no such game", message.id)]
        now = client.ctx.time.now()
        identity = None if client.principal is None else client.principal.identity
        return [state_message(loaded[0], loaded[1], identity, now)]
    # Re-subscribing is idempotent and returns exactly what was missed (or a full state).
    handle, texts = await open_game(client.ctx, client.actor, client.subscriber, message.version)
    client.actor = handle
    return [json.loads(text) for text in texts]


async def open_game(
    ctx: AppContext, handle: GameActor | RemoteGame, subscriber: Subscriber, since: int | None
) -> tuple[GameActor | RemoteGame, list[str]]:
    """Subscribe to a game; the handle it runs under now and what to send first. An actor
    that turns out to be out of date (another node stored the game meanwhile) is replaced
    (``actors.py``): the game is looked up again, once. Raises ClusterUnavailable when the
    game cannot be followed now (the client tries again)."""
    try:
        return handle, await handle.open(subscriber, since)
    except ActorClosedError:
        again = await ctx.registry.get(handle.id)
        if again is None:
            raise ClusterUnavailable(f"game {handle.id} is being reloaded") from None
        try:
            return again, await again.open(subscriber, since)
        except ActorClosedError:
            raise ClusterUnavailable(f"game {handle.id} is being reloaded") from None


async def handle_ping(client: Client, message: PingMessage) -> list[dict[str, Any]]:
    return [client.reply("pong", id=message.id)]


Handler = Callable[[Client, Any], Awaitable[list[dict[str, Any]]]]
#: What a socket that just opened is sent after the game (a feature's: chat history, …).
Greeting = Callable[[AppContext, GameActor | RemoteGame, Actor | None], Awaitable[list[str]]]

#: The dispatch table: message model → handler. The game's own messages are here; features
#: add theirs with :func:`register_message` (the app wires them: this layer imports none).
DISPATCH: dict[type[Message], Handler] = {
    MoveMessage: handle_command,
    JoinMessage: handle_command,
    ActionMessage: handle_command,
    SyncMessage: handle_sync,
    PingMessage: handle_ping,
}
#: Message type tag → its model, kept in step with DISPATCH.
_MODELS: dict[str, type[Message]] = {}
_GREETINGS: list[Greeting] = []


def _tags(model: type[Message]) -> tuple[str, ...]:
    return typing.get_args(model.model_fields["type"].annotation)


def register_message(model: type[Message], handler: Handler) -> None:
    """Handle ``model``'s messages with ``handler`` (again for the same model: replaced)."""
    for tag in _tags(model):
        known = _MODELS.get(tag)
        if known is not None and known is not model:
            raise ValueError(f"message type {tag!r} is taken by {known.__name__}")
        _MODELS[tag] = model
    DISPATCH[model] = handler


def register_greeting(greeting: Greeting) -> None:
    """Send what ``greeting`` returns to every socket that opens (once however often called)."""
    if greeting not in _GREETINGS:
        _GREETINGS.append(greeting)


for _model, _handler in list(DISPATCH.items()):
    register_message(_model, _handler)


def parse_message(data: object) -> Message:
    """The message ``data`` (parsed JSON) is; ValidationError or UnknownMessageError if none."""
    kind = data.get("type") if isinstance(data, dict) else None
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise UnknownMessageError(kind)
    return model.model_validate(data)


class UnknownMessageError(ValueError):
    def __init__(self, kind: object) -> None:
        known = ", ".join(sorted(_MODELS))
        shown = repr(kind)[:40] if kind is not None else "missing"
        super().__init__(f"type: {shown} is not a message type (one of {known})")


def _validation_reason(exc: ValidationError) -> str:
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "message"
    return f"{where}: {first.get('msg', 'invalid')}"


def _message_id(data: object) -> str | None:
    message_id = data.get("id") if isinstance(data, dict) else None
    return message_id if isinstance(message_id, str) and len(message_id) <= 64 else None


async def dispatch(client: Client, raw: str | bytes) -> list[dict[str, Any]]:
    """Handle one raw client message; return the replies for its sender. Never raises for
    bad input: every problem becomes an ``error`` reply and changes nothing."""
    if len(raw) > client.ctx.settings.max_message_bytes:
        return [client.error("too_large", "message too large")]
    try:
        data = parse_json(raw)
    except BadJsonError as exc:
        return [client.error("bad_json", f"the message is not accepted JSON: {exc}")]
    try:
        message = parse_message(data)
    except UnknownMessageError as exc:
        return [client.error("bad_message", str(exc), _message_id(data))]
    except ValidationError as exc:
        return [client.error("bad_message", _validation_reason(exc), _message_id(data))]
    if isinstance(client.actor, RemoteGame) or client.actor.closed:
        # Taken over or reloaded here since the socket opened: the game's actor here now
        # judges it, rather than an owner that Redis named a moment ago (and that may not
        # know yet that it lost the game), or an actor that was replaced.
        client.actor = await client.ctx.registry.local(client.actor.id) or client.actor
    return await DISPATCH[type(message)](client, message)


# ---------------------------------------------------------------------- the websocket


def _rate_limited(client: Client, raw: str | bytes) -> dict[str, Any]:
    """The refusal of a message over the rate, naming the message when it is readable (so a
    client knows which move to send again later, instead of waiting for an answer)."""
    message_id = None
    if len(raw) <= client.ctx.settings.max_message_bytes:
        with contextlib.suppress(BadJsonError):
            message_id = _message_id(parse_json(raw))
    return client.error("rate_limited", "too many messages; slow down", message_id)


async def _dispatch_safely(client: Client, raw: str | bytes) -> list[dict[str, Any]]:
    # A fault of ours in one message must not cost the player the connection; nor must Redis
    # or the database being away, which is no fault at all: "try again" (the command was not
    # applied), answered with the message's id so that the client knows which to send again.
    try:
        return await dispatch(client, raw)
    except Exception as exc:
        message_id = _raw_message_id(raw)
        if is_outage(exc):
            log.warning("game %s: a message met an outage (%r)", client.actor.id, exc)
            reason = "the server cannot reach its storage now; try again"
            return [client.error("unavailable", reason, message_id)]
        log.exception("a game socket's message failed (game %s)", client.actor.id)
        return [client.error("internal", "the server could not handle that message", message_id)]


def _raw_message_id(raw: str | bytes) -> str | None:
    try:
        return _message_id(parse_json(raw))
    except BadJsonError:
        return None


router = APIRouter()


async def _spectators(ctx: AppContext, actor: GameActor | RemoteGame) -> list[str]:
    """How many watch, for a socket that just opened (nothing when Redis cannot say now)."""
    try:
        count = await ctx.registry.spectators_of(actor)
    except RedisError:
        log.warning("cannot count the spectators of game %s now", actor.id[:16])
        return []
    return [spectators_message(actor.id, actor.version, count)]


def _send_now(websocket: WebSocket) -> SendNow | None:
    """The server protocol's way to hand a text frame over at once (``infra/ws_protocol.py``),
    where it offers one (not under a test client's transport)."""
    send_now = (websocket.scope.get("extensions") or {}).get(SEND_NOW)
    return send_now if callable(send_now) else None


async def _pump(websocket: WebSocket, subscriber: Subscriber) -> None:
    """Send what the subscriber queued (what could not go at once: ``Subscriber.deliver``)."""
    try:
        while True:
            text = await subscriber.queue.get()
            if text is None:  # fell too far behind (reconnect with ?since=), or signed out
                code, reason = subscriber.closing or (4408, "too slow; reconnect with ?since=")
                await websocket.close(code=code, reason=reason)
                return
            subscriber.sending = True  # what is delivered meanwhile queues behind it
            await websocket.send_text(text)
            subscriber.sending = False
            del text  # not kept while the queue is waited on (most sockets are idle)
    except (WebSocketDisconnect, RuntimeError):
        return  # the client left; the receiving side notices and unsubscribes
    except Exception:
        # A socket that can no longer send must not look alive (its player would count as
        # connected for ever): close it, so the player shows as gone and can reconnect.
        log.exception("could not send to a game socket; closing it")
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code=1011, reason="server error; reconnect")


def _routed_by_game(ctx: AppContext, websocket: WebSocket) -> bool:
    """Whether the game's owner should hand it to this node as this socket arrives: a trusted
    proxy routed it here by its game (``deploy/nginx.conf``), and affinity is on."""
    return ctx.settings.game_affinity and routed_by_game(websocket.scope, websocket.headers)


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, since: int | None = None) -> None:
    ctx = context_of(websocket)
    current_game.set(game_id[:16])
    # Browsers send cookies with cross-site websocket handshakes too.
    if is_cross_origin(websocket.headers):
        await websocket.close(code=4403, reason="cross-origin connection refused")
        return
    caller = await ctx.auth.caller(websocket)
    if caller is not None and not caller.allows(BOARD_PLAY):
        await websocket.accept()  # first, so that the client sees why
        await websocket.close(code=SCOPE_REFUSED, reason=f"auth.scope {BOARD_PLAY}")
        return
    principal = None if caller is None else caller.principal
    try:
        actor = await ctx.registry.get(game_id)
        if isinstance(actor, RemoteGame) and _routed_by_game(ctx, websocket):
            # Its players and spectators all reach this node: the game moves here.
            actor = await ctx.registry.take_over(game_id)
    except (RedisError, ClusterUnavailable):
        # Who owns the game cannot be known while Redis is away: "try again", the same as a
        # game that cannot be followed now (accepted first, so the client sees the code).
        log.warning("cannot find game %s's owner now; the client reconnects", game_id[:16])
        await websocket.accept()
        await websocket.close(code=1013, reason="try again")
        return
    if actor is None:
        # Accepted first, so that the browser sees the 4404 (a socket closed before it is
        # accepted is a bare 403 to the client, which cannot tell it from a network fault).
        await websocket.accept()
        await websocket.close(code=4404, reason="no such game")
        return
    await websocket.accept()
    identity = None if principal is None else principal.identity
    subscriber = Subscriber(identity, _send_now(websocket))
    # Noted before anything is sent: a client that has seen its game may end the session.
    ctx.registry.token_sockets.add(caller, subscriber)  # closed if its session ends or expires
    try:
        actor, first = await open_game(ctx, actor, subscriber, since)
        for text in first:  # at once: what happens in the game from now on comes after it
            subscriber.deliver(text)
        for greeting in _GREETINGS:  # chat history, …
            for text in await greeting(ctx, actor, subscriber.identity):
                subscriber.deliver(text)
    except Exception as exc:
        ctx.registry.token_sockets.discard(caller, subscriber)
        if not is_outage(exc):
            raise
        # Redis or the database away, or the game changing hands: the client reconnects.
        log.warning("cannot follow game %s now; the client reconnects (%r)", game_id[:16], exc)
        actor.unsubscribe(subscriber)
        await websocket.close(code=1013, reason="try again")
        return
    ctx.sockets += 1
    client = Client(ctx, actor, principal, subscriber)
    for text in await _spectators(ctx, actor):
        subscriber.deliver(text)
    pump = asyncio.create_task(_pump(websocket, subscriber))
    bucket = TokenBucket(ctx.settings.message_rate)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            if not bucket.take():
                replies = [_rate_limited(client, raw)]
            else:
                replies = await _dispatch_safely(client, raw)
            for reply in replies:
                subscriber.deliver(dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        ctx.sockets -= 1
        ctx.registry.token_sockets.discard(caller, subscriber)
        # The socket may have moved from a game owned elsewhere to one taken over here.
        for handle in {client.actor, actor, await ctx.registry.local(game_id)}:
            if handle is not None:
                handle.unsubscribe(subscriber)
        pump.cancel()
        if websocket.application_state is WebSocketState.CONNECTED:
            # The client may be gone already: then there is nobody left to tell.
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await websocket.close()

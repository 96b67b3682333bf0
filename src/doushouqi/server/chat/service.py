"""Games' chat: two rooms per game, the rules of a message, storage, and who hears what.

* **Rooms.** ``players``: the two seated players. ``spectators``: everyone else watching.
  The server decides from the sender's identity where a message goes (a seated player writes
  to ``players``, anyone else to ``spectators``); ``room`` in the message, when sent, must
  agree. While the game is on, each side reads only its own room, so spectators cannot pass
  hints to a player. Once the game is over, both rooms are open to every reader (the game
  cannot change any more): the history then holds both, and new messages reach everyone.
* **A message** is free ``text`` (trimmed, 1–140 code points, no control, format or
  replacement characters) or a quick ``phrase`` code (:data:`PHRASES`), which every reader
  sees in their own language. Refusals are ``rejected`` replies with a code and parameters
  (``chat.empty``, ``chat.too_long`` {max}, ``chat.bad_text``, ``chat.too_fast``
  {seconds}, ``chat.repeated``, ``chat.unknown_phrase``, ``chat.wrong_room``,
  ``chat.not_signed_in``, ``chat.muted`` {until, minutes}); the client words them.
* **Moderation** (chat/moderation.py): a moderator may remove a message (gone from every
  reader's screen at once, and from the history) and mute a sender for a while.
* **Limits**, counted in the database so that every node and game shares them: a sender may
  send :data:`RATE_COUNT` messages in :data:`RATE_SECONDS` (in all games together), and not
  the same message again in the same room within :data:`REPEAT_SECONDS`.
* **Order and storage.** Like a move, a message is handled by the game's owner node (another
  node forwards it there), stored (``chat_messages``) before anyone hears of it, then
  broadcast to its room's readers only (an :class:`~doushouqi.server.live.audience.Audience`, on
  every node). A socket that opens gets the recent messages of the rooms it may read
  (``chat_history``); messages carry increasing ids, so a client merges the two without
  duplicates.
"""

from __future__ import annotations

import functools
import logging
import math
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field
from redis.exceptions import RedisError
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from doushouqi.server.chat.models import ChatMessageRow, ChatMuteRow, ChatReportRow
from doushouqi.server.db.models import AccountRow, GameRow
from doushouqi.server.domain import Actor, Game, GameStatus
from doushouqi.server.live.actors import GameActor, dumps
from doushouqi.server.live.audience import Audience
from doushouqi.server.live.cluster import RemoteGame
from doushouqi.server.live.ws import Client, Handler, Message

if TYPE_CHECKING:
    from doushouqi.server.accounts.auth import Principal
    from doushouqi.server.context import AppContext

__all__ = [
    "MAX_CHARS",
    "PHRASES",
    "PLAYERS",
    "ROOMS",
    "SPECTATORS",
    "ChatMessage",
    "ChatRefused",
    "check_text",
    "greeting",
    "handle_chat",
    "history_for",
    "report_message",
]

log = logging.getLogger(__name__)

PLAYERS = "players"
SPECTATORS = "spectators"
ROOMS = (PLAYERS, SPECTATORS)
#: Most code points in a message, after trimming.
MAX_CHARS = 140
#: Messages of each room a reader gets on connecting.
HISTORY = 100
#: The rate limit: at most RATE_COUNT messages in RATE_SECONDS per sender.
RATE_COUNT = 5
RATE_SECONDS = 10.0
#: The same message again in the same room within this long is refused.
REPEAT_SECONDS = 30.0
#: Quick phrases: one tap on a phone; readers see each in their own language.
PHRASES = ("hello", "good_move", "good_game", "again", "thanks", "go", "sorry")
#: Why a reader reports a message.
REPORT_REASONS = ("spam", "abuse", "cheating", "other")
# Format characters that emoji sequences need (zero-width joiner and non-joiner); every other
# one (bidirectional overrides, invisible separators) could disguise what a message says.
_ALLOWED_FORMAT = {"\u200c", "\u200d"}


class ChatRefused(Exception):
    """A message that is not sent: ``code`` (``chat.too_long``) and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def check_text(raw: str) -> str:
    """The message as stored (trimmed), or :class:`ChatRefused` saying why not."""
    text = raw.strip()
    if not text:
        raise ChatRefused("chat.empty")
    if len(text) > MAX_CHARS:  # Python counts code points, as a reader counts characters
        raise ChatRefused("chat.too_long", max=MAX_CHARS, length=len(text))
    for char in text:
        category = unicodedata.category(char)
        bad_format = category == "Cf" and char not in _ALLOWED_FORMAT
        # Cc: control characters (binary, line breaks); Cs/Co/Cn: nothing a person types;
        # U+FFFD: what undecodable bytes become.
        if category in ("Cc", "Cs", "Co", "Cn") or bad_format or char == "\ufffd":
            raise ChatRefused("chat.bad_text")
    return text


def identity_key(identity: Actor) -> str:
    """The identity as games key their players (``account:7``, ``guest:ID``)."""
    data = identity.to_dict()
    return f"{data['kind']}:{data.get('id', data.get('level'))}"


def _players(game: Game) -> set[Actor]:
    return {p.identity for p in game.players if p is not None}


def room_of(game: Game, identity: Actor) -> str:
    """Where ``identity`` writes in ``game``."""
    return PLAYERS if identity in _players(game) else SPECTATORS


def readable_rooms(seated: bool, over: bool) -> tuple[str, ...]:
    if over:
        return ROOMS
    return (PLAYERS,) if seated else (SPECTATORS,)


def audience_of(game: Game, room: str) -> Audience | None:
    """Who hears a new message of ``room`` (None: everyone, once the game is over)."""
    if game.status.is_over:
        return None
    players = _players(game)
    return Audience.only(players) if room == PLAYERS else Audience.excluding(players)


# ---------------------------------------------------------------------- storage


def message_dict(row: ChatMessageRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "room": row.room,
        "author": {"key": row.author_key, "name": row.author_name},
        "text": row.text,
        "phrase": row.phrase,
        "at": row.at,
    }


@dataclass(frozen=True)
class Draft:
    game_id: str
    room: str
    author_key: str
    author_name: str
    text: str | None
    phrase: str | None


def _check_sender(session: Session, author_key: str, now: float) -> None:
    """Refuse a sender a moderator has muted (``chat.muted`` {until, minutes}) or whose account
    is banned or closed (``chat.not_signed_in``: its open sockets are being cut off)."""
    mute = session.get(ChatMuteRow, author_key)
    if mute is not None and mute.until > now:
        minutes = max(1, math.ceil((mute.until - now) / 60))
        raise ChatRefused("chat.muted", until=mute.until, minutes=minutes)
    kind, _, number = author_key.partition(":")
    if kind == "account":
        account = session.get(AccountRow, int(number))
        if account is None or account.banned_at is not None or account.closed_at is not None:
            raise ChatRefused("chat.not_signed_in")


def store_message(session: Session, draft: Draft, now: float) -> dict[str, Any]:
    """Check the sender's limits and store the message, in one transaction."""
    _check_sender(session, draft.author_key, now)
    since = now - RATE_SECONDS
    recent = select(ChatMessageRow.at).where(
        ChatMessageRow.author_key == draft.author_key, ChatMessageRow.at > since
    )
    times = sorted(session.scalars(recent.order_by(ChatMessageRow.at)))
    if len(times) >= RATE_COUNT:
        wait = times[len(times) - RATE_COUNT] + RATE_SECONDS - now
        raise ChatRefused("chat.too_fast", seconds=max(1, round(wait + 0.5)))
    last = session.scalars(
        select(ChatMessageRow)
        .where(
            ChatMessageRow.game_id == draft.game_id,
            ChatMessageRow.room == draft.room,
            ChatMessageRow.author_key == draft.author_key,
        )
        .order_by(ChatMessageRow.id.desc())
        .limit(1)
    ).first()
    if (
        last is not None
        and last.at > now - REPEAT_SECONDS
        and (last.text, last.phrase) == (draft.text, draft.phrase)
    ):
        raise ChatRefused("chat.repeated", seconds=int(REPEAT_SECONDS))
    row = ChatMessageRow(
        game_id=draft.game_id,
        room=draft.room,
        author_key=draft.author_key,
        author_name=draft.author_name[:40],
        text=draft.text,
        phrase=draft.phrase,
        at=now,
    )
    session.add(row)
    session.flush()
    return message_dict(row)


def recent_messages(session: Session, game_id: str, rooms: tuple[str, ...]) -> list[dict[str, Any]]:
    """The last :data:`HISTORY` messages of each of ``rooms``, oldest first."""
    found: list[ChatMessageRow] = []
    for room in rooms:
        query = (
            select(ChatMessageRow)
            .where(
                ChatMessageRow.game_id == game_id,
                ChatMessageRow.room == room,
                ChatMessageRow.removed_at.is_(None),
            )
            .order_by(ChatMessageRow.id.desc())
            .limit(HISTORY)
        )
        found.extend(session.scalars(query))
    return [message_dict(row) for row in sorted(found, key=lambda r: r.id)]


def _rooms_from_row(session: Session, game_id: str, identity: Actor | None) -> tuple[str, ...]:
    row = session.get(GameRow, game_id)
    if row is None:
        return ()
    key = None if identity is None else identity_key(identity)
    seated = key is not None and key in (row.seat0_key, row.seat1_key)
    return readable_rooms(seated, row.status >= int(GameStatus.ABORTED))


def history(
    session: Session, game_id: str, identity: Actor | None
) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    rooms = _rooms_from_row(session, game_id, identity)
    return rooms, recent_messages(session, game_id, rooms)


async def history_for(
    ctx: AppContext, game_id: str, identity: Actor | None
) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """The rooms ``identity`` may read in the game, and their recent messages."""
    return await ctx.db.read(functools.partial(history, game_id=game_id, identity=identity))


def _report(
    session: Session, game_id: str, message_id: int, identity: Actor, reason: str, now: float
) -> bool | None:
    """Store a report (None: no such message the reporter may read; False: reported before)."""
    row = session.get(ChatMessageRow, message_id)
    if row is None or row.game_id != game_id or row.removed_at is not None:
        return None
    if row.room not in _rooms_from_row(session, game_id, identity):
        return None
    reporter = identity_key(identity)
    done = select(func.count()).where(
        ChatReportRow.message_id == message_id, ChatReportRow.reporter_key == reporter
    )
    if session.scalar(done):
        return False
    session.add(ChatReportRow(message_id=message_id, reporter_key=reporter, reason=reason, at=now))
    session.flush()
    return True


async def report_message(
    ctx: AppContext, game_id: str, message_id: int, identity: Actor, reason: str
) -> bool | None:
    """Record ``identity``'s report of a message, once per reporter (see :func:`_report`)."""
    report = functools.partial(
        _report,
        game_id=game_id,
        message_id=message_id,
        identity=identity,
        reason=reason,
        now=ctx.time.now(),
    )
    try:
        return await ctx.db.write(report)
    except IntegrityError:  # the same reporter at the same moment on another node
        return False


# ---------------------------------------------------------------------- the socket's side


def _refused(client: Client, code: str, message_id: str | None, **params: Any) -> dict[str, Any]:
    return client.reply("rejected", code=code, params=params, id=message_id)


class ChatMessage(Message):
    """A chat message: free ``text`` or a quick ``phrase`` code (see this module)."""

    type: Literal["chat"]
    room: Literal["players", "spectators"] | None = None
    text: str | None = None
    phrase: str | None = Field(default=None, max_length=32)


async def handle_chat(client: Client, message: ChatMessage) -> list[dict[str, Any]]:
    """A ``chat`` message: checked, stored and broadcast by the game's owner."""
    principal = client.principal
    if principal is None:
        return [_refused(client, "chat.not_signed_in", message.id)]
    if isinstance(client.actor, RemoteGame):
        return await forward(client, message, principal, handle_chat)
    actor = client.actor
    try:
        draft = _draft(actor.game, principal, message)
        stored = await client.ctx.db.write(
            functools.partial(store_message, draft=draft, now=client.ctx.time.now())
        )
    except ChatRefused as refusal:
        return [_refused(client, refusal.code, message.id, **refusal.params)]
    except SQLAlchemyError:
        log.exception("could not store a chat message in game %s", actor.id)
        return [client.error("unavailable", "the message could not be saved", message.id)]
    chat = client.reply("chat", message=stored)
    actor.broadcast([dumps(chat)], notice=True, audience=audience_of(actor.game, draft.room))
    if actor.game.status.is_over and not actor.has_subscribers:
        client.ctx.registry.evict(actor)  # loaded only for this message (REST, after the game)
    if client.subscriber is None:  # REST, or forwarded: the reply carries the message
        return [chat]
    return [client.reply("ack", id=message.id)] if message.id is not None else []


def _draft(game: Game, principal: Principal, message: ChatMessage) -> Draft:
    room = room_of(game, principal.identity)
    if message.room is not None and message.room != room:
        raise ChatRefused("chat.wrong_room", room=room)
    if (message.text is None) == (message.phrase is None):
        raise ChatRefused("chat.empty")  # neither (or both): nothing clear to send
    text = None if message.text is None else check_text(message.text)
    if message.phrase is not None and message.phrase not in PHRASES:
        raise ChatRefused("chat.unknown_phrase")
    key = identity_key(principal.identity)
    return Draft(game.id, room, key, principal.name, text, message.phrase)


async def forward(
    client: Client, message: Message, principal: Principal, handler: Handler
) -> list[dict[str, Any]]:
    """A message for a game another node owns: its owner stores and broadcasts it (or
    ``handler`` here, when this node takes the game over)."""
    assert isinstance(client.actor, RemoteGame)
    reason = "the game is moving to another server; try again"
    try:
        replies = await client.actor.cluster.forward(
            client.actor.id, message.model_dump(mode="json"), principal.to_dict()
        )
    except RedisError:
        return [client.error("unavailable", reason, message.id)]
    if replies is None:  # no owner answered: take the game over here, if nobody has
        claimed = await client.ctx.registry.get(client.actor.id)
        if isinstance(claimed, GameActor):
            client.actor = claimed
            return await handler(client, message)
        return [client.error("unavailable", reason, message.id)]
    if client.subscriber is None or any(r.get("type") in ("rejected", "error") for r in replies):
        return replies
    # The message itself reaches this socket through the game's channel, like everyone's.
    return [client.reply("ack", id=message.id)] if message.id is not None else []


async def greeting(
    ctx: AppContext, actor: GameActor | RemoteGame, identity: Actor | None
) -> list[str]:
    """What a socket that just opened is sent after the game: the chat it may read. Never
    raises: a socket opens without its chat rather than not at all."""
    texts: list[str] = []
    try:
        if isinstance(actor, GameActor):
            game = actor.game
            seated = identity is not None and identity in _players(game)
            rooms = readable_rooms(seated, game.status.is_over)
            read = functools.partial(recent_messages, game_id=actor.id, rooms=rooms)
            messages = await ctx.db.read(read)
        else:
            rooms, messages = await history_for(ctx, actor.id, identity)
        history_message = {
            "type": "chat_history",
            "game_id": actor.id,
            "version": actor.version,
            "rooms": list(rooms),
            "messages": messages,
        }
        texts.append(dumps(history_message))
    except (SQLAlchemyError, RedisError):
        log.exception("could not read the chat of game %s", actor.id)
    return texts

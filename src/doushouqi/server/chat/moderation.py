"""What moderators do to the chat: the queue of reported messages, dismissing a report,
removing a message, muting a sender.

* **The queue**: every message with reports nobody has dealt with, most reported first, each
  with the messages around it in its room (what it answered, what came after), who reported
  it and why.
* **Removing a message** hides it from every reader: it is marked removed (kept for the
  moderation log, never shown again, gone from every history) and ``chat_removed`` is pushed
  to every socket that shows the game, on every node. Like a message, a removal is made by the
  game's owner node (a socket message, ``chat_remove``, forwarded there from any node), which
  checks in the database that whoever asks is a moderator: a player who sends it is refused.
* **Muting** keeps a sender's messages out (``chat.muted`` {until, minutes}) until a time,
  counted in the database, so on every node at once.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import Field
from sqlalchemy import func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from doushouqi.server.accounts.roles import is_moderator
from doushouqi.server.chat.models import ChatMessageRow, ChatMuteRow, ChatReportRow
from doushouqi.server.chat.service import forward, message_dict
from doushouqi.server.db.models import AccountRow, GuestNameRow
from doushouqi.server.infra.bounds import MAX_ID
from doushouqi.server.live.actors import dumps
from doushouqi.server.live.cluster import RemoteGame
from doushouqi.server.live.ws import Client, Message

__all__ = [
    "CONTEXT",
    "ChatRemoval",
    "dismiss_reports",
    "handle_removal",
    "mute",
    "muted_until",
    "name_of",
    "report_queue",
    "reported_message",
]

#: Messages of the room shown before and after a reported one.
CONTEXT = 4
#: Most reported messages the queue lists at once.
QUEUE = 50


def name_of(session: Session, key: str) -> dict[str, Any]:
    """Who ``key`` (``account:7``, ``guest:ID``) is, as the moderation page names them: an
    account's username and display name, a guest's chosen name (if any)."""
    kind, _, ident = key.partition(":")
    if kind == "account" and ident.isdigit():
        row = session.get(AccountRow, int(ident))
        if row is not None:
            return {"key": key, "username": row.username, "name": row.display_name}
    if kind == "guest":
        guest = session.get(GuestNameRow, ident)
        return {"key": key, "username": None, "name": None if guest is None else guest.display_name}
    return {"key": key, "username": None, "name": None}


def _shown(row: ChatMessageRow) -> dict[str, Any]:
    return {**message_dict(row), "removed": row.removed_at is not None}


def _context(session: Session, row: ChatMessageRow) -> list[dict[str, Any]]:
    in_room = (ChatMessageRow.game_id == row.game_id) & (ChatMessageRow.room == row.room)
    before = session.scalars(
        select(ChatMessageRow)
        .where(in_room, ChatMessageRow.id < row.id)
        .order_by(ChatMessageRow.id.desc())
        .limit(CONTEXT)
    )
    after = session.scalars(
        select(ChatMessageRow)
        .where(in_room, ChatMessageRow.id > row.id)
        .order_by(ChatMessageRow.id)
        .limit(CONTEXT)
    )
    return [_shown(r) for r in [*reversed(list(before)), row, *after]]


def report_queue(session: Session) -> list[dict[str, Any]]:
    """The reported messages nobody has dealt with yet, most reporters first, then oldest."""
    open_reports = ChatReportRow.resolved_at.is_(None)
    counts = (
        select(
            ChatReportRow.message_id,
            func.count().label("n"),
            func.min(ChatReportRow.at).label("first"),
        )
        .where(open_reports)
        .group_by(ChatReportRow.message_id)
        .order_by(func.count().desc(), func.min(ChatReportRow.at))
        .limit(QUEUE)
    )
    queue = []
    for message_id, _, first in session.execute(counts):
        row = session.get(ChatMessageRow, message_id)
        if row is None:
            continue
        reports = session.scalars(
            select(ChatReportRow)
            .where(open_reports, ChatReportRow.message_id == message_id)
            .order_by(ChatReportRow.at)
        )
        queue.append(
            {
                "message": _shown(row),
                "game_id": row.game_id,
                "author": name_of(session, row.author_key),
                "first_reported_at": first,
                "reports": [
                    {"by": name_of(session, r.reporter_key), "reason": r.reason, "at": r.at}
                    for r in reports
                ],
                "context": _context(session, row),
            }
        )
    return queue


def reported_message(session: Session, message_id: int) -> ChatMessageRow | None:
    return session.get(ChatMessageRow, message_id)


def dismiss_reports(session: Session, message_id: int, now: float) -> int:
    """Take a message's open reports off the queue (the message stays); return how many."""
    done = session.execute(
        update(ChatReportRow)
        .where(ChatReportRow.message_id == message_id, ChatReportRow.resolved_at.is_(None))
        .values(resolved_at=now)
    )
    return int(done.rowcount)  # type: ignore[attr-defined]


def mute(session: Session, author_key: str, until: float, now: float) -> None:
    """Refuse ``author_key``'s messages until ``until`` (a later mute replaces an earlier)."""
    row = session.get(ChatMuteRow, author_key)
    if row is None:
        session.add(ChatMuteRow(author_key=author_key, until=until, at=now))
    else:
        row.until, row.at = until, now


def unmute(session: Session, author_key: str, now: float) -> bool:
    """Lift ``author_key``'s mute before its time; False when there was none to lift."""
    row = session.get(ChatMuteRow, author_key)
    if row is None or row.until <= now:
        return False
    session.delete(row)
    return True


def muted_until(session: Session, author_key: str, now: float) -> float | None:
    row = session.get(ChatMuteRow, author_key)
    return None if row is None or row.until <= now else row.until


# ---------------------------------------------------------------------- removing a message


class ChatRemoval(Message):
    """A moderator's removal of one of the game's messages (see this module)."""

    type: Literal["chat_remove"]
    message_id: int = Field(ge=1, le=MAX_ID)


class _Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _remove(
    session: Session, game_id: str, message_id: int, account_id: int, now: float
) -> dict[str, Any]:
    """Mark the message removed and its reports dealt with; return it as it was."""
    moderator = session.get(AccountRow, account_id)
    if moderator is None or not is_moderator(moderator.role) or moderator.banned_at is not None:
        raise _Refused("mod.forbidden")
    row = session.get(ChatMessageRow, message_id)
    if row is None or row.game_id != game_id:
        raise _Refused("chat.message_not_found")
    if row.removed_at is None:
        row.removed_at = now
    dismiss_reports(session, message_id, now)
    return message_dict(row)


async def handle_removal(client: Client, message: ChatRemoval) -> list[dict[str, Any]]:
    """``chat_remove``: on the game's owner, remove the message and tell every socket of the
    game (all rooms: whoever saw it); elsewhere, forwarded to the owner. The reply to the
    moderator is ``chat_removed`` with the message as it was."""
    principal = client.principal
    account_id = None if principal is None else principal.account_id
    if principal is None or account_id is None:
        return [client.reply("rejected", code="mod.forbidden", params={}, id=message.id)]
    if isinstance(client.actor, RemoteGame):
        return await forward(client, message, principal, handle_removal)
    actor = client.actor
    remove = functools.partial(
        _remove,
        game_id=actor.id,
        message_id=message.message_id,
        account_id=account_id,
        now=client.ctx.time.now(),
    )
    try:
        removed = await client.ctx.db.write(remove)
    except _Refused as refusal:
        return [client.reply("rejected", code=refusal.code, params={}, id=message.id)]
    except SQLAlchemyError:
        return [client.error("unavailable", "the removal could not be saved", message.id)]
    notice = client.reply("chat_removed", message_id=message.message_id)
    actor.broadcast([dumps(notice)], notice=True)
    if actor.game.status.is_over and not actor.has_subscribers:
        client.ctx.registry.evict(actor)  # loaded only for this removal
    return [client.reply("chat_removed", message_id=message.message_id, message=removed)]

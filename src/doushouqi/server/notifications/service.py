"""Telling a player something, wherever they are: the bell's notifications and live pushes.

Every browser tab of a signed-in player (an account or a guest) holds one site socket
(``/ws/site``, :mod:`doushouqi.server.site`), registered in ``registry.player_sockets`` under the
player's key (``account:7``, ``guest:<public id>``, as ``repo.player_key`` writes it). A
message for a player goes to that player's sockets on this node at once and, in a cluster, to
every other node over the channel that already carries accounts' events
(``Cluster.publish_to_player``), whose readers hand it to their own sockets of that player.

* :func:`notify` stores a notification (the bell's list survives restarts and reaches tabs
  opened later) and then pushes it: ``{"type": "notification", "notification": {...},
  "unread": N}``.
* :func:`push` sends a transient message that is not stored (``{"type": "paired", ...}``):
  only the tabs open now hear it.
* :func:`withdraw` deletes notifications that are no longer true (a challenge its sender
  withdrew) and tells the tabs: ``{"type": "notification_withdrawn", "ids": [...],
  "unread": N}``. A challenge sent and withdrawn again and again leaves nothing in the bell.

The server words nothing: a notification is a ``kind`` and its ``params``, which the client
translates.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from doushouqi.server.accounts.auth import Principal
from doushouqi.server.context import AppContext
from doushouqi.server.db import repo
from doushouqi.server.live.actors import dumps
from doushouqi.server.notifications.models import NotificationRow

__all__ = [
    "LIST_LENGTH",
    "mark_read",
    "notification_dict",
    "notify",
    "player_key_of",
    "push",
    "recent",
    "withdraw",
]

#: How many notifications ``GET /api/notifications`` lists (the newest).
LIST_LENGTH = 30
#: Longest kind and link accepted (the table's column sizes).
MAX_KIND = 40
MAX_LINK = 200


def player_key_of(principal: Principal) -> str:
    """The key a player's notifications and sockets are filed under."""
    key = repo.player_key(principal.slot())
    assert key is not None
    return key


def notification_dict(row: NotificationRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "params": json.loads(row.params),
        "link": row.link,
        "created_at": row.created_at,
        "read_at": row.read_at,
    }


def _unread(session: Session, player_key: str) -> int:
    query = select(func.count()).where(
        NotificationRow.player_key == player_key, NotificationRow.read_at.is_(None)
    )
    return int(session.scalar(query) or 0)


def push(ctx: AppContext, player_key: str, message: dict[str, Any]) -> None:
    """Send ``message`` (a JSON object with a ``type``) to every site socket the player has
    open now, on every node. Not stored: a tab opened later never hears it."""
    text = dumps(message)
    ctx.registry.deliver_to_player(player_key, text)
    if (cluster := ctx.registry.services.cluster) is not None:
        cluster.publish_to_player(player_key, text)


async def notify(
    ctx: AppContext,
    player_key: str,
    kind: str,
    params: dict[str, Any],
    *,
    link: str | None = None,
) -> None:
    """Store a notification for the player and push it to their open tabs on every node.

    ``kind`` is a code the client translates (``challenge.received``, ``corr.your_turn``,
    ``tournament.starting`` …) with ``params`` (JSON-able); ``link`` is the client route the
    entry opens (``#/game/ID``)."""
    if len(kind) > MAX_KIND or (link is not None and len(link) > MAX_LINK):
        raise ValueError("notification kind or link too long")
    now = ctx.time.now()
    text = json.dumps(params, ensure_ascii=False)

    def store(session: Session) -> tuple[dict[str, Any], int]:
        row = NotificationRow(
            player_key=player_key, kind=kind, params=text, link=link, created_at=now
        )
        session.add(row)
        session.flush()  # gives the row its id
        return notification_dict(row), _unread(session, player_key)

    item, unread = await ctx.db.write(store)
    push(ctx, player_key, {"type": "notification", "notification": item, "unread": unread})


async def withdraw(ctx: AppContext, player_key: str, kind: str, link: str) -> list[int]:
    """Delete the player's notifications of ``kind`` that lead to ``link`` (what they said is
    no longer so), read or not, and tell the player's open tabs; return their ids."""

    def write(session: Session) -> tuple[list[int], int]:
        mine = (
            NotificationRow.player_key == player_key,
            NotificationRow.kind == kind,
            NotificationRow.link == link,
        )
        ids = list(session.scalars(select(NotificationRow.id).where(*mine)))
        if ids:
            session.execute(delete(NotificationRow).where(NotificationRow.id.in_(ids)))
        return ids, _unread(session, player_key)

    ids, unread = await ctx.db.write(write)
    if ids:
        push(ctx, player_key, {"type": "notification_withdrawn", "ids": ids, "unread": unread})
    return ids


async def recent(ctx: AppContext, player_key: str) -> dict[str, Any]:
    """The newest notifications (``LIST_LENGTH``) and how many are unread in all."""

    def read(session: Session) -> dict[str, Any]:
        query = (
            select(NotificationRow)
            .where(NotificationRow.player_key == player_key)
            .order_by(NotificationRow.id.desc())
            .limit(LIST_LENGTH)
        )
        rows = session.scalars(query).all()
        return {
            "notifications": [notification_dict(r) for r in rows],
            "unread": _unread(session, player_key),
        }

    return await ctx.db.read(read)


async def mark_read(ctx: AppContext, player_key: str, ids: list[int] | None) -> int:
    """Mark the player's notifications ``ids`` (None: all) read; tell their other tabs the
    new unread count, and return it."""
    now = ctx.time.now()

    def write(session: Session) -> int:
        query = update(NotificationRow).where(
            NotificationRow.player_key == player_key, NotificationRow.read_at.is_(None)
        )
        if ids is not None:
            query = query.where(NotificationRow.id.in_(ids))
        session.execute(query.values(read_at=now))
        return _unread(session, player_key)

    unread = await ctx.db.write(write)
    push(ctx, player_key, {"type": "unread", "unread": unread})
    return unread


async def forget_old(ctx: AppContext, before: float) -> int:
    """Delete notifications created before ``before`` (the clean-up)."""

    def write(session: Session) -> int:
        result = session.execute(delete(NotificationRow).where(NotificationRow.created_at < before))
        return int(getattr(result, "rowcount", 0) or 0)

    return await ctx.db.write(write)

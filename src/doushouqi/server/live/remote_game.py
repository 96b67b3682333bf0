"""A game owned by another node of the cluster, as this node's sockets see it
(:class:`RemoteGame`): its broadcasts arrive on the game's channel, its commands go to the
owner. The cluster (:mod:`.cluster`) makes one for each game this node's sockets follow and
hands it the owner's broadcasts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Protocol

from redis.exceptions import RedisError

from doushouqi.server.domain import Actor
from doushouqi.server.infra.json_output import dumps
from doushouqi.server.infra.outage import ServiceUnavailable
from doushouqi.server.live.audience import Audience
from doushouqi.server.live.subscriber import Subscriber

__all__ = ["ClusterUnavailable", "Following", "RemoteGame"]

log = logging.getLogger(__name__)


class ClusterUnavailable(ServiceUnavailable):
    """Redis did not answer in time: the client should try again (another node may be
    taking the game over)."""


class Following(Protocol):
    """What a :class:`RemoteGame` and its users ask of the cluster (:class:`~.cluster.Cluster`
    is it; named here rather than imported, as the cluster imports this module)."""

    def spawn(self, work: Awaitable[Any]) -> None: ...
    async def listen(self, remote: RemoteGame) -> None: ...
    async def follow(self, game_id: str) -> None: ...
    def forget(self, remote: RemoteGame) -> None: ...
    async def snapshot(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]: ...
    async def report_presence(self, remote: RemoteGame) -> None: ...
    async def forward(
        self,
        game_id: str,
        message: dict[str, Any],
        principal: dict[str, Any],
        *,
        ack_only: bool = False,
    ) -> list[dict[str, Any]] | None: ...


class RemoteGame:
    """A game owned by another node, as this node's sockets see it: its events arrive on the
    game's channel, its commands go to the owner."""

    def __init__(self, cluster: Following, game_id: str) -> None:
        self.cluster = cluster
        self.id = game_id
        self.version = -1
        self.subscribers: dict[Subscriber, int] = {}  # → the version it has seen
        #: Sockets whose first read of the database is under way → the broadcasts heard
        #: meanwhile, as (version, texts, notice): one stored just after that read is kept.
        self._opening: dict[Subscriber, list[tuple[int, list[str], bool]]] = {}
        #: The sockets as of the last presence record, and the record's list of them.
        self._presence_ids: tuple[frozenset[Subscriber], str] | None = None

    async def open(self, subscriber: Subscriber, since: int | None) -> list[str]:
        """Subscribe ``subscriber``; return what it must be sent first (as ``GameActor``):
        read from the database once the channel is listened to, and what the channel brings
        while that read is under way, so nothing falls between."""
        await self.cluster.listen(self)
        await self.cluster.follow(self.id)
        heard: list[tuple[int, list[str], bool]] = []
        self._opening[subscriber] = heard
        try:
            texts, version = await self.cluster.snapshot(self.id, subscriber.identity, since)
        finally:
            del self._opening[subscriber]
        for at, more, notice in heard:
            if at > version or (notice and at == version):
                texts = [*texts, *more]
                version = max(version, at)
        self.version = max(self.version, version)
        before = self.subscribers.get(subscriber)  # a socket that follows already: a sync
        self.subscribers[subscriber] = version
        try:
            await self.cluster.report_presence(self)
        except RedisError as exc:
            # Not followed from here, or (a sync) still as before: a socket that asks again
            # while Redis is away must not stop hearing the game for good.
            if before is None:
                self.subscribers.pop(subscriber, None)
            else:
                self.subscribers[subscriber] = before
            raise ClusterUnavailable(f"cannot follow game {self.id}: {exc!r}") from exc
        return texts

    def presence_ids(self) -> str:
        """The identities of this node's sockets to the game, as its presence record lists
        them (a JSON list of each identity's JSON), made again only when they changed."""
        sockets = frozenset(self.subscribers)
        if self._presence_ids is None or self._presence_ids[0] != sockets:
            identities = sorted({dumps(s.identity.to_dict()) for s in sockets if s.identity})
            self._presence_ids = (sockets, dumps(identities))
        return self._presence_ids[1]

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self.subscribers.pop(subscriber, None)
        self.cluster.spawn(self.cluster.report_presence(self))
        if not self.subscribers:
            self.cluster.forget(self)

    async def catch_up(self) -> None:
        """Send each socket what it missed while the game's channel was silent (Redis was away,
        and what the owner published meanwhile is lost), read from the database, where the
        owner stored it first. A socket that heard something newer meanwhile is left as it is:
        it sees the gap itself and asks for what it missed."""
        try:
            # Subscribed again: the owner may have found nobody listening meanwhile and
            # stopped publishing, so it is told (and answers) before the database is read.
            await self.cluster.follow(self.id)
        except ClusterUnavailable as exc:
            # Redis away again: the next subscription's confirmation comes back here.
            log.warning("cannot follow game %s again yet (%r)", self.id[:16], exc)
        for subscriber, seen in list(self.subscribers.items()):
            texts, version = await self.cluster.snapshot(self.id, subscriber.identity, seen)
            if self.subscribers.get(subscriber) != seen or version <= seen:
                continue
            for text in texts:
                subscriber.deliver(text)
            self.subscribers[subscriber] = version
            self.version = max(self.version, version)

    def cut_off(self, identity: Actor) -> None:
        """Close this node's sockets to the game of ``identity`` (they may reconnect)."""
        for subscriber in list(self.subscribers):
            if subscriber.identity == identity:
                subscriber.cut_off_now()

    def deliver(
        self, version: int, texts: list[str], notice: bool, audience: Audience | None = None
    ) -> None:
        """Hand a broadcast on: events newer than a socket has seen (its snapshot may already
        hold them), and notices (``ai_busy``) of the version it is at; with an ``audience``,
        only to the sockets it admits."""
        self.version = max(self.version, version)
        for subscriber, heard in self._opening.items():
            # (One that follows already, asking again, is sent it below.)
            if subscriber not in self.subscribers and (
                audience is None or audience.admits(subscriber.identity)
            ):
                heard.append((version, texts, notice))
        for subscriber, seen in list(self.subscribers.items()):
            if audience is not None and not audience.admits(subscriber.identity):
                continue
            if version > seen or (notice and version == seen):
                for text in texts:
                    subscriber.deliver(text)
                self.subscribers[subscriber] = max(seen, version)

"""How many watch a game: counted by the game's owner, told to its sockets, kept for lists.

Spectators are the distinct identities watching a game that hold no seat in it. The owner's
actor knows its own sockets, and, in a cluster, everyone the other nodes have at the board:
each node records the identities of its sockets to a game in ``dsq:presence:GAME`` and tells
the owner (``cluster.py``'s presence, which also tells the owner when a player is away). So the
owner counts every node's spectators, each person once however many tabs or nodes they use, and
a dead node's spectators drop out when its records go stale (three beats).

The count is worked out whenever the actor looks again at who is connected (``schedule``: a
socket opened or closed here, presence changed elsewhere). When it changes, the game's sockets
get ``{"type": "spectators", "count": N}`` (a notice, not an event: nothing is stored), and in a
cluster the owner writes it to the Redis hash ``dsq:spectators`` (game → count) that every
node's Watch page reads; a game that ends leaves the hash.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Iterable
from typing import Protocol

from doushouqi.server.domain import Actor, Game
from doushouqi.server.infra.json_output import dumps
from doushouqi.server.live.cluster import Cluster


class WatchedGame(Protocol):
    """What the count needs of a game's actor (live/actors.py's GameActor, which calls in here,
    so this module names the fields instead of importing it)."""

    game: Game
    spectators: int | None

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def watcher_identities(self) -> set[Actor]: ...

    def broadcast(self, texts: Iterable[str], *, notice: bool = False) -> None: ...


__all__ = [
    "SPECTATORS",
    "WatchedGame",
    "count_spectators",
    "report_spectators",
    "spectators_message",
]

log = logging.getLogger(__name__)

#: Redis hash: game id → its spectators, written by the game's owner.
SPECTATORS = "dsq:spectators"
#: What each actor reported last: (count, whether the game was over).
_reported: weakref.WeakKeyDictionary[WatchedGame, tuple[int, bool]] = weakref.WeakKeyDictionary()
#: In a cluster, what is still to be written to the hash for each actor (the newest count, and
#: whether its sockets are still to be told a new count), and the actors whose writer runs.
_unwritten: weakref.WeakKeyDictionary[WatchedGame, tuple[int, bool, bool]] = (
    weakref.WeakKeyDictionary()
)
_writing: weakref.WeakSet[WatchedGame] = weakref.WeakSet()


def count_spectators(actor: WatchedGame, cluster: Cluster | None) -> int:
    players = {p.identity for p in actor.game.players if p is not None}
    watching = actor.watcher_identities
    if cluster is not None:
        watching |= cluster.present_elsewhere(actor.id)
    return len(watching - players)


def spectators_message(game_id: str, version: int, count: int) -> str:
    message = {"type": "spectators", "game_id": game_id, "version": version, "count": count}
    return dumps(message)


def report_spectators(actor: WatchedGame, cluster: Cluster | None) -> None:
    """Tell the game's sockets (and the Watch page's hash) when the count has changed."""
    count, over = count_spectators(actor, cluster), actor.game.status.is_over
    if _reported.get(actor) == (count, over):
        return
    _reported[actor] = (count, over)
    changed = count != actor.spectators
    actor.spectators = count  # this node's lists read it at once
    if cluster is None:
        if changed:
            actor.broadcast([spectators_message(actor.id, actor.version, count)], notice=True)
        return
    _, _, untold = _unwritten.get(actor, (0, False, False))
    _unwritten[actor] = (count, over, changed or untold)
    if actor not in _writing:
        _writing.add(actor)
        cluster.spawn(_write(actor, cluster))


async def _write(actor: WatchedGame, cluster: Cluster) -> None:
    """Write the actor's newest count to the hash, then tell its sockets. One writer a game, so
    two writes cannot land out of order and leave an old count; and a count is told only once
    every node's lists read it, so a page that heard it and then asks a list sees the same."""
    try:
        while (pending := _unwritten.pop(actor, None)) is not None:
            count, over, tell = pending
            try:
                if over:  # off the Watch page's list anyway: the hash keeps only games in play
                    await cluster.redis.hdel(SPECTATORS, actor.id)
                else:
                    await cluster.redis.hset(SPECTATORS, actor.id, count)
            finally:  # told even when Redis fails: the sockets need not wait for the lists
                if tell:
                    message = spectators_message(actor.id, actor.version, count)
                    actor.broadcast([message], notice=True)
    finally:
        _writing.discard(actor)

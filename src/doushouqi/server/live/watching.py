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
    if count != actor.spectators:
        actor.spectators = count
        actor.broadcast([spectators_message(actor.id, actor.version, count)], notice=True)
    if cluster is not None:
        if over:  # off the Watch page's list anyway: the hash keeps only games in play
            cluster.spawn(cluster.redis.hdel(SPECTATORS, actor.id))
        else:
            cluster.spawn(cluster.redis.hset(SPECTATORS, actor.id, count))

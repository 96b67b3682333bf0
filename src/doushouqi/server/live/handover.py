"""Affinity: a live game moves to the node its sockets reach.

``deploy/nginx.conf`` routes a game's sockets by the game (``hash $uri consistent``) and says
so (``X-Doushouqi-Affinity``), so both players and every spectator reach one node. When that
node (B) is not the game's owner (A: the node that created it, say), B asks A, on A's node
channel, to hand the game over:

1. A stops its actor between two commands (:meth:`GameActor.stop`): the command being applied
   is stored first, the ones waiting after it are refused as "try again" (not applied);
2. A passes the lease to B in one Lua script, only while A still holds it, and records B as
   the game's owner (``dsq:owners``): B's load then takes nothing off the clocks, since a
   hand-over is no owner's death (``registry._owner_gone_at``);
3. A cuts its own sockets to the game off (they reconnect: through nginx, to B) and answers;
4. B counts the lease as its own and loads the game from the database, where A stored every
   acknowledged change; B's sockets that followed the game from afar move to the new actor.

A passes the lease only within a second of the request (``_PASS_WITHIN``), while B still
waits; an answer that reaches B after it stopped waiting is made good by the lease itself
(B looks at it then, and at any later ``Cluster.acquire``). If A does not answer (dead:
nobody listens on its channel; stuck; Redis away), B falls back to what it did before: it
follows the game from afar and forwards its commands, or claims it once its lease lapses.
Only a socket routed by its game asks, so sockets connected to a node directly never move a
game, and a game's sockets all asking the same node cannot move it to and fro.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from redis.exceptions import RedisError

from doushouqi.server.live.cluster import Cluster, NoAnswer, NobodyListens
from doushouqi.server.live.cluster_keys import OWNERS, lease_key

__all__ = ["HAND_OVER_TIMEOUT", "HandOvers", "Releasing"]

log = logging.getLogger(__name__)

#: How long a node waits for the owner's answer before it follows the game from afar.
HAND_OVER_TIMEOUT = 2.0
#: The owner passes the lease on only this soon after the request reached it (its command in
#: flight stored): later, the asking node may have stopped waiting, and a lease it does not
#: know it holds would lapse with nobody running the game (it would find out at its next
#: look, ``Cluster.acquire``, but the game would wait until then).
_PASS_WITHIN = HAND_OVER_TIMEOUT / 2

# Pass a lease on, only while it is ours: KEYS[1] the lease, KEYS[2] the owners' hash;
# ARGV[1] this node, ARGV[2] the new owner, ARGV[3] milliseconds, ARGV[4] the game.
_PASS = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('set', KEYS[1], ARGV[2], 'px', ARGV[3])
    redis.call('hset', KEYS[2], ARGV[4], ARGV[2])
    return 1
end
return 0
"""


class Releasing(Protocol):
    """The owner's side (the actor registry): stop a game's actor and pass its lease on."""

    async def give_up(self, game_id: str, pass_lease: Callable[[], Awaitable[bool]]) -> bool: ...


class HandOvers:
    """This node's hand-overs, asked of other nodes and answered for its own games."""

    def __init__(self, cluster: Cluster, games: Releasing) -> None:
        self.cluster = cluster
        self.games = games
        self._pass = cluster.redis.register_script(_PASS)
        #: Game → the hand-over this node is asking for (one at a time a game).
        self._asking: dict[str, asyncio.Future[bool]] = {}
        cluster.node_ops["hand_over"] = self._asked
        # How a node of the version before answers a hand-over (this one answers every request
        # alike, ``Cluster.reply``), heard during a rolling upgrade. Such a node asking this
        # one misses the answer, but finds the lease its own after HAND_OVER_TIMEOUT.
        cluster.node_ops["handed_over"] = self._answered_as_before

    def pending(self, game_id: str) -> asyncio.Future[bool] | None:
        """The hand-over of ``game_id`` to this node under way, if one is."""
        return self._asking.get(game_id)

    async def ask(self, game_id: str) -> bool:
        """Have the game's owner hand it to this node; True when this node holds its lease
        now (it then loads the game), False when it should go on as before."""
        if game_id in self.cluster.owned:
            return True
        if (asking := self._asking.get(game_id)) is not None:
            return await asyncio.shield(asking)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._asking[game_id] = future
        took = False
        try:
            took = await self._ask(game_id)
        except (RedisError, TimeoutError) as exc:  # Redis away, or the request not published
            log.warning("cannot ask for game %s now (%r)", game_id[:16], exc)
        finally:
            del self._asking[game_id]
            future.set_result(took)
        return took

    async def _ask(self, game_id: str) -> bool:
        cluster = self.cluster
        owner = await cluster.owner(game_id)
        if owner is None:
            return False  # nobody's: the registry claims it as any node would
        if owner != cluster.node:
            try:
                if not await cluster.ask(owner, "hand_over", {"game": game_id}, HAND_OVER_TIMEOUT):
                    return False
            except NobodyListens:
                return False  # the owner is gone
            except NoAnswer:
                # Slow, or its answer lost: the lease says whether it was passed.
                if await cluster.owner(game_id) != cluster.node:
                    return False
        # Ours now (or already: an earlier hand-over answered too late); renewed from now on.
        cluster.owned.add(game_id)
        return True

    def _answered_as_before(self, data: dict[str, Any]) -> None:
        self.cluster.answered(str(data["id"]), bool(data["handed"]))

    def _asked(self, data: dict[str, Any]) -> None:
        self.cluster.spawn(self._serve(str(data["game"]), str(data["from"]), str(data["id"])))

    async def _serve(self, game_id: str, to: str, request_id: str) -> None:
        handed = False
        asked_at = time.monotonic()
        try:
            if game_id in self.cluster.owned:
                handed = await self.games.give_up(
                    game_id, lambda: self._pass_lease(game_id, to, asked_at)
                )
        finally:  # answered whatever happens, so that the asking node need not wait it out
            self.cluster.reply(to, request_id, handed)
        if handed:
            log.info("handed game %s over to node %s", game_id[:16], to)

    async def _pass_lease(self, game_id: str, to: str, asked_at: float) -> bool:
        if time.monotonic() - asked_at > _PASS_WITHIN:
            return False  # the asking node may have stopped waiting: the game stays here
        cluster = self.cluster
        keys = [lease_key(game_id), OWNERS]
        args: list[str | int] = [cluster.node, to, cluster.lease_ms, game_id]
        cluster.passing.add(game_id)
        try:
            passed = bool(await self._pass(keys=keys, args=args))
            if passed:
                cluster.disown(game_id)
        finally:
            cluster.passing.discard(game_id)
        return passed

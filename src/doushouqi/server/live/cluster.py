"""Several server nodes sharing one PostgreSQL and one Redis: a layer around the actors.

Each live game has exactly one owner node at a time, the node holding its lease in Redis
(``dsq:lease:GAME``, renewed every third of its life by a thread of its own, so that a busy
event loop does not lose its games). Only the owner runs the game's actor:
it alone applies commands, runs the clocks and asks for AI moves, exactly as a single server
does. Around that:

* **forwarding**: a command that reaches another node (its player's socket is there) is
  validated there, then sent to the owner over the owner's node channel (``dsq:node:NODE``),
  which answers on the sender's; it is never applied anywhere else;
* **fan-out**: the owner publishes everything it broadcasts on the game's channel
  (``dsq:game:GAME``), with the game's version; a node with sockets to a game it does not own
  holds a :class:`RemoteGame` that subscribes to the channel and delivers to its sockets. A
  game nobody else listens to (Redis handed its last broadcast to no one) is not published
  until a node asks to follow it: that node subscribes first, then tells the owner and waits
  for its answer, then reads the database (:meth:`Cluster.follow`), so nothing falls between;
* **presence**: such a node records which players it has at the board in
  ``dsq:presence:GAME`` and tells the owner, so that the owner's actor sees a player connected
  to any node (grace periods, a game's start);
* **takeover**: every node looks at the database's live games every ``claim_interval``, and
  claims any whose lease has lapsed (its owner died): it loads the game with the time the owner
  was gone taken off the clocks (from the dead node's last heartbeat), and its sockets to the
  game move to the new actor. On a clean stop (SIGTERM) a node closes its actors and gives its
  leases up, so that another node takes its games over at once.

The database stays the truth: the owner stores every change before it is broadcast, so a node
that takes a game over, or a socket that (re)subscribes, reads it from there. The pure domain
core knows nothing of this; the actors reach it through three hooks (``publish``,
``is_connected_elsewhere``, and the registry's claim on first use).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from doushouqi.server.domain import Actor, identity_from_dict
from doushouqi.server.infra.json_output import dumps_bytes, loads
from doushouqi.server.infra.redis_close import close_now
from doushouqi.server.infra.redis_pubsub import next_response
from doushouqi.server.live.audience import Audience
from doushouqi.server.live.cluster_games import LocalGames, OwnedGame
from doushouqi.server.live.cluster_keys import (
    ACCOUNTS_CHANNEL,
    AI_GAMES,
    BEATS,
    HOLD,
    OWNERS,
    PRESENCE_BEAT,
    RELEASE,
    game_channel,
    lease_key,
    node_channel,
    presence_key,
)
from doushouqi.server.live.downtime import RedisOutages
from doushouqi.server.live.outbox import Outbox
from doushouqi.server.live.remote_game import ClusterUnavailable, RemoteGame

__all__ = [
    "Cluster",
    "ClusterUnavailable",
    "LocalGames",
    "NoAnswer",
    "NobodyListens",
    "OwnedGame",
    "RemoteGame",
    "node_id",
]

log = logging.getLogger(__name__)
_rng = random.Random()  # its own: the process-wide generator is its host's (tests, tools)


#: Renew leases (and beat) this many times per lease life.
_RENEWALS_PER_LEASE = 3
#: The lease keeper stops renewing once the event loop has not run for this many lease lives
#: (it is stuck, not just busy): the node's games then go to the other nodes.
_LOOP_STALL_LEASES = 5
#: How long a forwarded command waits for the owner's answer.
FORWARD_TIMEOUT = 5.0
#: How long a node that follows a game waits for its owner's answer (:meth:`Cluster.follow`):
#: a live owner answers in milliseconds; one of the version before never answers (it always
#: publishes), and a socket should not wait long on it.
FOLLOW_TIMEOUT = 1.0

#: Games one script call takes (leases renewed, presence records written or read): Redis
#: runs nothing else meanwhile.
_GAMES_A_CALL = 500
#: Handles a forwarded command on the owner: (game id, message, principal, ack only) → replies.
CommandHandler = Callable[
    [str, dict[str, Any], dict[str, Any], bool], Awaitable[list[dict[str, Any]] | None]
]


class NobodyListens(Exception):
    """A request (:meth:`Cluster.ask`) reached nobody on its node's channel: the node is gone."""


class NoAnswer(TimeoutError):
    """A request's node did not answer in time (slow, stuck, or its answer lost); a
    :class:`TimeoutError`, as the outbox's own time-out is, for callers that treat both alike."""


def node_id(name: str) -> str:
    """A name for this process that no other node shares (several may run on one host)."""
    return f"{name}-{secrets.token_hex(3)}"


@functools.lru_cache(maxsize=8192)
def _identities(listed: tuple[str, ...]) -> frozenset[Actor]:
    """The identities a presence record lists (each as its JSON): the same few lists come back
    at every beat, so each is read once."""
    return frozenset(identity_from_dict(loads(text)) for text in listed)


class Cluster:
    """This node's membership: leases, forwarding, fan-out, presence and takeover."""

    def __init__(
        self,
        redis_url: str,
        node: str,
        *,
        lease_seconds: float = 6.0,
        claim_interval: float = 1.0,
    ) -> None:
        self.node = node
        # A blocking pool: under load a call waits for a free connection instead of failing.
        pool = aioredis.BlockingConnectionPool.from_url(
            redis_url, decode_responses=True, max_connections=64, timeout=FORWARD_TIMEOUT
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.lease_ms = int(lease_seconds * 1000)
        #: Seconds between beats: lease renewals, presence and AI-game reports.
        self.beat_seconds = lease_seconds / _RENEWALS_PER_LEASE
        self.claim_interval = claim_interval
        self.owned: set[str] = set()
        #: Owned games whose lease a hand-over is passing on now (``handover.py``): the lease
        #: keeper leaves them to it. The hand-over disowns a game once its lease is passed; a
        #: renewal answered in between would read the pass as a lease lost.
        self.passing: set[str] = set()
        self.remote: dict[str, RemoteGame] = {}
        self._presence: dict[str, frozenset[Actor]] = {}  # owned game → players elsewhere
        #: Request id → the answer :meth:`ask` waits for (every kind of request's).
        self._answers: dict[str, asyncio.Future[Any]] = {}
        #: game → (its owner, until when we trust that without asking Redis again).
        self._owners: dict[str, tuple[str, float]] = {}
        #: Owned games whose last broadcast Redis handed to no one, and that no node asked to
        #: follow since: their broadcasts are not published (:meth:`publish`).
        self._unheard: set[str] = set()
        #: Owned game → follow requests heard for it: a publish's "nobody listens" counts only
        #: when no request came between the publish and its answer.
        self._follows: dict[str, int] = {}
        self._hold = self.redis.register_script(HOLD)
        self._presence_beat = self.redis.register_script(PRESENCE_BEAT)
        self._pubsub = self.redis.pubsub()
        #: Channel → set once Redis has confirmed our subscription to it.
        self._subscribed: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Everything this node publishes, in batches, in order (``live/outbox.py``).
        self.outbox = Outbox(pool, self.spawn, FORWARD_TIMEOUT)
        self._loops: list[asyncio.Task[None]] = []
        self.registry: LocalGames | None = None
        self.on_command: CommandHandler | None = None
        #: More operations on this node's channel (``op`` → its handler), e.g. the hand-overs
        #: of ``live/handover.py``.
        self.node_ops: dict[str, Callable[[dict[str, Any]], None]] = {}
        #: Live game ids in the database, read by :meth:`start`'s caller.
        self.live_game_ids: Callable[[], Awaitable[list[str]]] | None = None
        #: Games against the computer the other nodes run (as of the last presence refresh).
        self.ai_games_elsewhere = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_seen = time.monotonic()  # when the event loop last ran the presence loop
        #: Whether this node reaches Redis: every loop here notes its calls' failures, the
        #: lease keeper its answers, so that the time it could not is nobody's
        #: (``live/downtime.py``).
        self.outages = RedisOutages()
        self._stopping = threading.Event()
        self._keeper = threading.Thread(
            target=self._keep_leases, args=(redis_url,), name=f"leases-{node}", daemon=True
        )

    # ------------------------------------------------------------------ life

    async def start(self, registry: LocalGames) -> None:
        self.registry = registry
        self._loop = asyncio.get_running_loop()
        await self._pubsub.subscribe(node_channel(self.node), ACCOUNTS_CHANNEL)
        await self.redis.hset(BEATS, self.node, repr(time.time()))
        self._loops = [
            asyncio.create_task(self._read()),
            asyncio.create_task(self._presence_loop()),
            asyncio.create_task(self._claim_loop()),
        ]
        self._keeper.start()

    async def stop(self) -> None:
        """Stop looking after games and give their leases up (the registry has closed its
        actors): other nodes take them over at their next claim. Bounded: a connection that
        redis-py cannot close cleanly is dropped, never waited on."""
        self._stopping.set()
        for task in self._loops:
            task.cancel()
        if self._loops:
            await asyncio.wait(self._loops, timeout=FORWARD_TIMEOUT)
        if self._keeper.is_alive():
            await asyncio.to_thread(self._keeper.join, FORWARD_TIMEOUT)
        with contextlib.suppress(RedisError, TimeoutError):
            async with asyncio.timeout(FORWARD_TIMEOUT):
                for game_id in list(self.owned):
                    await self.release(game_id)
                await self.redis.hdel(AI_GAMES, self.node)
        for task in list(self._tasks):
            task.cancel()
        close_now(self.redis)
        self.outbox.close()

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in the background (fire and forget, errors logged)."""

        async def run() -> None:
            try:
                await work
            except RedisError:
                log.warning("redis unavailable; will retry at the next beat")
            except Exception:
                log.exception("cluster task failed")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ leases

    async def acquire(self, game_id: str) -> bool:
        """Become the game's owner if nobody is; True when this node owns it now (also when
        Redis names this node already: a hand-over whose answer came too late)."""
        if game_id in self.owned:
            return True
        # SET NX GET (Redis 7): the holder it found, or None when it set ours; one round trip.
        holder = await self.redis.set(
            lease_key(game_id), self.node, nx=True, px=self.lease_ms, get=True
        )
        if holder is not None and holder != self.node:
            return False
        self.owned.add(game_id)
        return True

    async def hold(self, game_id: str) -> bool:
        """Whether this node may go on running a game it runs: its lease is still ours, or was
        lost with Redis's data and is ours again; False when another node holds it now (this
        node then stops counting it as its own)."""
        keys = [OWNERS, lease_key(game_id)]
        answer = await self._hold(keys=keys, args=[self.node, self.lease_ms, game_id])
        held = bool(answer[0])
        if held:
            self.owned.add(game_id)
        else:
            self.disown(game_id)
        return held

    def disown(self, game_id: str) -> None:
        """Stop counting the game as this node's (its lease is another's): no more renewals."""
        self.owned.discard(game_id)
        self._presence.pop(game_id, None)
        self._forget_listeners(game_id)

    def _forget_listeners(self, game_id: str) -> None:
        # Owned again later, the game is published until Redis says nobody listens.
        self._unheard.discard(game_id)
        self._follows.pop(game_id, None)

    async def previous_owner(self, game_id: str) -> str | None:
        """The node that last ran the game (None: Redis holds no record of it)."""
        owner = await self.redis.hget(OWNERS, game_id)
        return None if owner is None else str(owner)

    async def beat_of(self, node: str) -> float | None:
        """When ``node`` last showed it was alive."""
        beat = await self.redis.hget(BEATS, node)
        return None if beat is None else float(beat)

    async def confirm(self, game_id: str) -> None:
        """Record this node as the game's owner (once its actor runs here)."""
        await self.redis.hset(OWNERS, game_id, self.node)

    async def release(self, game_id: str) -> None:
        self.owned.discard(game_id)
        self._presence.pop(game_id, None)
        self._forget_listeners(game_id)
        await self.redis.eval(RELEASE, 1, lease_key(game_id), self.node)

    async def owner(self, game_id: str) -> str | None:
        owner = await self.redis.get(lease_key(game_id))
        return None if owner is None else str(owner)

    async def _presence_loop(self) -> None:
        while True:
            self._loop_seen = time.monotonic()
            await asyncio.sleep(self.beat_seconds)
            try:
                await self._refresh_presence()
                await self._share_ai_games()
            except RedisError:
                self.outages.failed()
                log.warning("redis unavailable: cannot refresh presence")
            except Exception:
                log.exception("could not refresh presence")

    async def _share_ai_games(self) -> None:
        """Publish how many games against the computer this node runs, and read the others'
        (fresh ones only: a dead node's games are being taken over and counted again)."""
        if self.registry is None:
            return
        mine = self.registry.active_ai_games(self.registry.services.time.now())
        await self.redis.hset(AI_GAMES, self.node, json.dumps({"n": mine, "t": time.time()}))
        reports = await self.redis.hgetall(AI_GAMES)
        records = [json.loads(text) for node, text in reports.items() if node != self.node]
        self.ai_games_elsewhere = sum(r["n"] for r in records if r["t"] >= self._stale_before())

    def _stale_before(self) -> float:
        """Reports (presence, AI games) older than this come from a node that missed three
        beats: it is dead, or cut off."""
        return time.time() - 3 * self.beat_seconds

    def _keep_leases(self, url: str) -> None:
        """The lease keeper (a thread with its own connection): beat and renew our leases on
        time however busy the event loop is — a loop starved for a lease's life by a burst of
        moves must not hand its games to other nodes, which would then be starved in turn."""
        client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=FORWARD_TIMEOUT)
        renew = client.register_script(HOLD)
        stall_limit = _LOOP_STALL_LEASES * self.lease_ms / 1000
        try:
            while not self._stopping.wait(self.beat_seconds):
                if time.monotonic() - self._loop_seen > stall_limit:
                    log.error("the event loop is stuck: letting this node's leases lapse")
                    continue
                try:
                    self._renew_with(client, renew)
                    # After the leases lost meanwhile are handed back: the games still ours
                    # then are the ones that get the outage (``live/downtime.py``).
                    self.outages.answered()
                except RedisError:
                    self.outages.failed()
                    log.warning("redis unavailable: cannot renew leases")
        finally:
            client.close()

    def _renew_with(self, client: redis.Redis, renew: Any) -> None:
        games = list(self.owned.copy())  # one atomic copy: the loop may change the set meanwhile
        pipe = client.pipeline(transaction=False)
        pipe.hset(BEATS, self.node, repr(time.time()))
        for start in range(0, len(games), _GAMES_A_CALL):
            chunk = games[start : start + _GAMES_A_CALL]
            keys = [OWNERS, *(lease_key(game_id) for game_id in chunk)]
            renew(keys=keys, args=[self.node, self.lease_ms, *chunk], client=pipe)
        kept = [ok for answers in pipe.execute()[1:] for ok in answers]
        lost = [game_id for game_id, ok in zip(games, kept, strict=True) if not ok]
        if lost and self._loop is not None:
            self._loop.call_soon_threadsafe(self._lost_leases, lost)

    def _lost_leases(self, games: list[str]) -> None:
        for game_id in games:
            if game_id in self.owned and game_id not in self.passing:
                # Another node holds it now (we were cut off for a lease's life): stop acting.
                log.error("lost the lease of game %s; leaving it to its new owner", game_id)
                self.disown(game_id)
                if self.registry is not None:
                    self.registry.drop(game_id)

    async def _claim_loop(self) -> None:
        while True:
            # Spread the nodes' claims, so that one node does not take every orphan.
            await asyncio.sleep(self.claim_interval * _rng.uniform(0.5, 1.5))
            try:
                await self._claim_orphans()
            except RedisError:
                self.outages.failed()
                log.warning("redis unavailable: cannot look for orphaned games")
            except Exception:
                log.exception("could not look for orphaned games")

    async def _claim_orphans(self) -> None:
        if self.live_game_ids is None or self.registry is None:
            return
        candidates = [g for g in await self.live_game_ids() if g not in self.owned]
        if not candidates:
            return
        # One MGET of every lease, not an EXISTS each: a command per live game every second,
        # each packed and parsed by redis-py, was 2 % of a node's time at 400 games.
        holders = await self.redis.mget([lease_key(game_id) for game_id in candidates])
        for game_id, holder in zip(candidates, holders, strict=True):
            if holder is None:
                await self.registry.get(game_id)  # claims it, if no other node was quicker

    # ------------------------------------------------------------------ fan-out

    def publish(
        self,
        game_id: str,
        version: int,
        texts: list[str],
        notice: bool,
        audience: Audience | None = None,
    ) -> None:
        """Send what the owner broadcast to every other node's sockets (those ``audience``
        admits, when there is one); nothing while no other node listens to the game.

        Nobody listens when Redis handed the game's last broadcast to no subscriber and no
        node asked to :meth:`follow` it since its sending: a node subscribes to the game's
        channel before it asks, so a broadcast published after the request reaches it, and
        it reads the database only once this node has answered, so what was stored before
        the request is in what it reads (a change is stored before it is broadcast). A node
        that owns a game from now on publishes until it finds nobody listens."""
        if game_id in self._unheard:
            return
        message = {"from": self.node, "v": version, "texts": texts, "notice": notice}
        if audience is not None:
            message["to"] = audience.to_dict()
        receivers: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        receivers.add_done_callback(
            functools.partial(self._heard, game_id, self._follows.get(game_id, 0))
        )
        self.outbox.send_later(game_channel(game_id), dumps_bytes(message), receivers)

    def _heard(self, game_id: str, follows: int, receivers: asyncio.Future[int]) -> None:
        """A broadcast's receivers counted: none (and no follow request since it was handed
        to the outbox) makes the game's broadcasts unpublished until a node asks to follow."""
        if receivers.cancelled() or receivers.exception() is not None:
            return
        if (
            receivers.result() == 0
            and game_id in self.owned
            and self._follows.get(game_id, 0) == follows
        ):
            self._unheard.add(game_id)

    async def follow(self, game_id: str) -> None:
        """Tell the owner of ``game_id`` that this node listens to its channel (subscribed
        already) and wait for its answer: from then on it publishes the game's broadcasts,
        so a read of the database after this misses nothing. Nothing to wait for when the
        game has no owner or its owner is gone (a node that takes the game publishes until
        Redis hands a broadcast to nobody, which it cannot while this node listens), nor
        for an owner that does not answer in time (one of the version before, which always
        publishes; or stuck). Raises :class:`ClusterUnavailable` when Redis is away or did not
        take the request in time (the owner may not have heard it)."""
        try:
            owner = await self.owner(game_id)
        except RedisError as exc:
            raise ClusterUnavailable(f"cannot follow game {game_id}: {exc!r}") from exc
        if owner is None or owner == self.node:
            return
        try:
            await self.ask(owner, "follow", {"game": game_id}, FOLLOW_TIMEOUT)
        except NobodyListens:
            pass  # the owner is gone
        except NoAnswer:
            log.warning("game %s: its owner %s did not answer a follow", game_id[:16], owner)
        except Exception as exc:  # not published: the owner may not publish for us
            raise ClusterUnavailable(f"cannot follow game {game_id}: {exc!r}") from exc

    def _heard_of_follower(self, game_id: str) -> None:
        self._follows[game_id] = self._follows.get(game_id, 0) + 1
        self._unheard.discard(game_id)

    def _followed(self, data: dict[str, Any]) -> None:
        """Another node listens to a game's channel (and waits for this answer before it
        reads the database): its broadcasts are published again."""
        game_id = str(data["game"])
        if game_id in self.owned:
            self._heard_of_follower(game_id)
        self.reply(str(data["from"]), data["id"], [])

    def publish_to_account(self, account_id: int, text: str) -> None:
        """Send an account's event to its bot event streams on the other nodes."""
        payload = json.dumps({"from": self.node, "account": account_id, "text": text})
        self.outbox.send_later(ACCOUNTS_CHANNEL, payload)

    def publish_to_player(self, player_key: str, text: str) -> None:
        """Send a message to a player's site sockets on the other nodes (same channel as
        the accounts' events: one fan-out for everything addressed to a person)."""
        payload = json.dumps({"from": self.node, "player": player_key, "text": text})
        self.outbox.send_later(ACCOUNTS_CHANNEL, payload)

    def publish_sessions_ended(self, token_ids: list[str]) -> None:
        """Tell the other nodes to close the sockets of these ended sessions and tokens."""
        payload = json.dumps({"from": self.node, "ended": token_ids})
        self.outbox.send_later(ACCOUNTS_CHANNEL, payload)

    def publish_cut_off(self, account_id: int) -> None:
        """Have the other nodes close every socket of an account (banned or closed)."""
        payload = json.dumps({"from": self.node, "cut_off": account_id})
        self.outbox.send_later(ACCOUNTS_CHANNEL, payload)

    async def listen(self, remote: RemoteGame) -> None:
        """Subscribe to the game's channel; return once Redis has confirmed it, so that every
        change stored after this is heard. Raises :class:`ClusterUnavailable` when Redis does
        not confirm (it is away): the next call subscribes again."""
        channel = game_channel(remote.id)
        self.remote[remote.id] = remote
        confirmed = self._subscribed.setdefault(channel, asyncio.Event())
        try:
            if not confirmed.is_set():
                await self._pubsub.subscribe(channel)  # again, if an earlier try was lost
            await asyncio.wait_for(confirmed.wait(), FORWARD_TIMEOUT)
        # RuntimeError: redis-py's, while another task reconnects (see _resubscribe).
        except (RedisError, RuntimeError, TimeoutError) as exc:
            raise ClusterUnavailable(f"cannot follow game {remote.id}: {exc!r}") from exc

    def forget(self, remote: RemoteGame) -> None:
        if self.remote.get(remote.id) is remote:
            del self.remote[remote.id]
            self._owners.pop(remote.id, None)
            self._unlisten(remote.id)

    def _unlisten(self, game_id: str) -> None:
        channel = game_channel(game_id)
        if self._subscribed.pop(channel, None) is not None:
            self.spawn(self._pubsub.unsubscribe(channel))

    def handle(self, game_id: str) -> RemoteGame:
        """This node's handle on a game another node owns."""
        return self.remote.get(game_id) or RemoteGame(self, game_id)

    def adopt_sockets(self, actor: OwnedGame) -> None:
        """This node now owns a game it had sockets to: they watch the actor from here on
        (all at once, so that the actor never sees one of its players as gone)."""
        remote = self.remote.pop(actor.id, None)
        if remote is None:
            return
        self._unlisten(actor.id)
        subscribers, remote.subscribers = remote.subscribers, {}
        actor.subscribe_all(subscribers)

    async def snapshot(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]:
        if self.registry is None:
            raise RuntimeError("the cluster has not started")
        return await self.registry.stored_view(game_id, identity, since)

    # ------------------------------------------------------------------ presence

    def _presence_record(self, remote: RemoteGame) -> str:
        identities = remote.presence_ids()
        return f'{{"t": {time.time()!r}, "ids": {identities}}}'

    async def report_presence(self, remote: RemoteGame) -> None:
        """Record the players this node has at the board of ``remote``; tell its owner (who
        otherwise sees it at its next beat)."""
        await self.redis.hset(presence_key(remote.id), self.node, self._presence_record(remote))
        owner = await self.owner(remote.id)
        if owner is not None and owner != self.node:
            message = json.dumps({"op": "presence", "game": remote.id})
            await self.redis.publish(node_channel(owner), message)

    def is_connected_elsewhere(self, game_id: str, identity: Actor) -> bool:
        return identity in self._presence.get(game_id, frozenset())

    def present_elsewhere(self, game_id: str) -> frozenset[Actor]:
        """Everyone other nodes have at the board of a game we own (players and spectators)."""
        return self._presence.get(game_id, frozenset())

    async def _refresh_presence(self, only: str | None = None) -> None:
        """Re-read who is at the board of our games on other nodes, and keep our own records
        of our sockets to others' games fresh (a dead node's records go stale): one script
        call a beat (a few hundred games to a call), however many games."""
        games = [only] if only is not None else list(self.owned)
        followed = [] if only is not None else list(self.remote.values())
        answers: list[Any] = []
        for start in range(0, max(len(games), len(followed)), _GAMES_A_CALL):
            writes = followed[start : start + _GAMES_A_CALL]
            reads = games[start : start + _GAMES_A_CALL]
            keys = [presence_key(r.id) for r in writes] + [presence_key(g) for g in reads]
            records = [self._presence_record(remote) for remote in writes]
            args: list[str | int] = [self.node, len(writes), *records]
            answers += await self._presence_beat(keys=keys, args=args)
        stale_before = self._stale_before()
        for game_id, flat in zip(games, answers, strict=True):
            present: set[Actor] = set()
            for node, text in zip(flat[::2], flat[1::2], strict=True):
                record = loads(text)
                if node != self.node and record["t"] >= stale_before:
                    present.update(_identities(tuple(record["ids"])))
            if frozenset(present) != self._presence.get(game_id, frozenset()):
                self._presence[game_id] = frozenset(present)
                if self.registry is not None:
                    self.registry.reschedule(game_id)

    # ------------------------------------------------------------------ forwarding

    async def forward(
        self,
        game_id: str,
        message: dict[str, Any],
        principal: dict[str, Any],
        *,
        ack_only: bool = False,
    ) -> list[dict[str, Any]] | None:
        """Have the game's owner handle ``message``; its replies, or None when no owner
        answered (gone, or the lease is changing hands). ``ack_only``: the sender's socket
        hears the events as a subscriber, so an accepted command's answer is its ``ack``."""
        owner = await self._cached_owner(game_id)
        if owner is None or owner == self.node:
            return None
        request: dict[str, Any] = {"game": game_id, "message": message, "principal": principal}
        request |= {"ack_only": True} if ack_only else {}  # as before, for an older owner
        replies: list[dict[str, Any]] | None = None
        with contextlib.suppress(NobodyListens, TimeoutError):  # the owner gone; or too slow
            replies = await self.ask(owner, "command", request, FORWARD_TIMEOUT)
        if replies is None:  # not the owner (any more): ask Redis next time
            self._owners.pop(game_id, None)
        return replies

    async def _cached_owner(self, game_id: str) -> str | None:
        """The game's owner, asked of Redis at most once a beat while commands keep being
        forwarded to it (a stale answer only costs one ``unavailable`` and a new look). Each
        broadcast the owner publishes on the game's channel counts as such an answer
        (:meth:`_dispatch`): a player who moves every few seconds would otherwise find the
        answer expired at each move and ask again, a round trip a forwarded move."""
        now = time.monotonic()
        cached = self._owners.get(game_id)
        if cached is not None and cached[1] > now:
            return cached[0]
        owner = await self.owner(game_id)
        if owner is None:
            self._owners.pop(game_id, None)
        else:
            self._owners[game_id] = (owner, now + self.beat_seconds)
        return owner

    async def _serve(self, request: dict[str, Any]) -> None:
        game_id = request["game"]
        if game_id in self.owned and self.on_command is not None:
            replies: list[dict[str, Any]] | None = await self.on_command(
                game_id, request["message"], request["principal"], bool(request.get("ack_only"))
            )
        else:
            replies = None  # not ours (any more): the sender looks the owner up again
        self.reply(request["from"], request["id"], replies)

    # ------------------------------------------------------------------ requests and answers

    async def ask(self, node: str, op: str, request: dict[str, Any], timeout: float) -> Any:
        """Send ``request`` (the fields of an ``op``) on ``node``'s channel and wait at most
        ``timeout`` seconds for its answer (:meth:`reply`). Raises :class:`NobodyListens`
        when no node listens on that channel, :class:`NoAnswer` when none came in time, and
        the outbox's error when the request could not be published (Redis away, or slow)."""
        loop = asyncio.get_running_loop()
        request_id = secrets.token_hex(8)
        answer: asyncio.Future[Any] = loop.create_future()
        self._answers[request_id] = answer
        message = {"op": op, "id": request_id, "from": self.node, **request}
        # Published with the rest of this loop step's messages (the events of this node's
        # own games, other requests): no round trip of its own.
        receivers: asyncio.Future[int] = loop.create_future()
        self.outbox.send_later(node_channel(node), dumps_bytes(message), receivers)
        try:
            if not await receivers:
                raise NobodyListens(node)
            try:
                return await asyncio.wait_for(answer, timeout)
            except TimeoutError as exc:
                raise NoAnswer(node) from exc
        finally:
            self._answers.pop(request_id, None)

    def reply(self, to: str, request_id: str, answer: Any) -> None:
        """Answer node ``to``'s request (:meth:`ask`); in ``replies``, a forwarded command's
        field first, so that nodes of the version before and after read each other's."""
        message = {"op": "reply", "id": request_id, "replies": answer}
        self.outbox.send_later(node_channel(to), dumps_bytes(message))

    def answered(self, request_id: str, answer: Any) -> None:
        """An answer to this node's request came: :meth:`ask` returns it, if still waiting."""
        future = self._answers.get(request_id)
        if future is not None and not future.done():
            future.set_result(answer)

    # ------------------------------------------------------------------ the channel reader

    async def _read(self) -> None:
        while not self._stopping.is_set():
            try:
                response = await next_response(self._pubsub, 1.0)
            except Exception as exc:  # RedisError, or redis-py's state after one: read on
                self.outages.failed()
                log.warning("redis unavailable: the cluster channels are silent (%r)", exc)
                await asyncio.sleep(1.0)
                await self._resubscribe()
                continue
            if response is None:
                continue
            if response[0] == "message":  # most of what comes: [kind, channel, data]
                try:
                    self._dispatch(response[1], loads(response[2]))
                except Exception:
                    log.exception("bad cluster message on %s", response[1])
                continue
            # Anything else keeps redis-py's own bookkeeping (subscriptions, unsubscriptions).
            message = await self._pubsub.handle_message(response)  # type: ignore[no-untyped-call]
            if message is None:
                continue
            if message.get("type") == "subscribe":
                if (confirmed := self._subscribed.get(message["channel"])) is not None:
                    if confirmed.is_set():
                        self._subscribed_again(message["channel"])
                    confirmed.set()
                continue

    def _subscribed_again(self, channel: str) -> None:
        """A game's channel confirmed once more: the connection was lost and made again (by
        the reader, or by redis-py itself), and what the owner published meanwhile is lost.
        The sockets here that follow the game are sent it from the database instead."""
        remote = self.remote.get(channel.removeprefix("dsq:game:"))
        if remote is not None:
            self.spawn(remote.catch_up())

    async def _resubscribe(self) -> None:
        # redis-py may refuse with a RuntimeError while another task's call is reconnecting
        # the same connection: the reader then tries again at its next turn.
        try:
            await self._pubsub.subscribe(node_channel(self.node), ACCOUNTS_CHANNEL)
            for game_id in list(self.remote):
                await self._pubsub.subscribe(game_channel(game_id))
        except (RedisError, RuntimeError) as exc:
            log.warning("could not subscribe again yet (%r)", exc)

    def _dispatch(self, channel: str, data: dict[str, Any]) -> None:
        if channel == ACCOUNTS_CHANNEL:
            if data["from"] != self.node and self.registry is not None:
                if "ended" in data:
                    self.registry.end_sessions_here([str(t) for t in data["ended"]])
                elif "cut_off" in data:
                    self.registry.cut_off_account(int(data["cut_off"]))
                elif "player" in data:
                    self.registry.deliver_to_player(str(data["player"]), str(data["text"]))
                else:
                    self.registry.deliver_to_account(int(data["account"]), str(data["text"]))
            return
        if channel.startswith("dsq:game:"):
            remote = self.remote.get(channel.removeprefix("dsq:game:"))
            if remote is not None and data["from"] != self.node:
                # Only the owner publishes a game's broadcasts: it is the owner as of now.
                self._owners[remote.id] = (data["from"], time.monotonic() + self.beat_seconds)
                audience = Audience.from_dict(data["to"]) if "to" in data else None
                notice = bool(data.get("notice"))
                remote.deliver(int(data["v"]), list(data["texts"]), notice, audience)
            return
        op = data.get("op")
        if op == "command":
            self.spawn(self._serve(data))
        elif op == "follow":
            self._followed(data)
        elif op == "reply":
            self.answered(data["id"], data["replies"])
        elif op == "presence" and data["game"] in self.owned:
            # A node of the version before follows without asking: its word that it has
            # sockets to the game (after its read) makes the game published again too.
            self._heard_of_follower(data["game"])
            self.spawn(self._refresh_presence(only=data["game"]))
        elif (handler := self.node_ops.get(str(op))) is not None:
            handler(data)

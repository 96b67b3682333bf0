"""One actor per live game: it alone changes the game, one command at a time.

A command goes ``apply`` (pure) → commit to the database → only then the in-memory game moves
on and the events go out to every subscriber, stamped with the game's version. Nothing is
acknowledged before it is stored, so a crash at any point loses nothing anyone was told.

Around that the actor keeps the game moving by itself:

* a timer sleeps until ``next_deadline`` and sends a ``Tick`` (flag fall, timeout passes,
  the end of a grace period); while this node cannot reach Redis the deadlines wait, and the
  game gets the time back once it can (``live/downtime.py``);
* when the AI is to move, its opponent (``server/ai/opponent.py``) asks the AI service for a
  move, bounded in time, and plays it like any player, tied to the version it thought about;
* it tells the domain when a seated player's last connection closes or a first one opens
  (``Disconnected`` / ``Reconnected``), and seats a player who arrives (``Join``).

In a cluster two nodes may briefly both believe they own a game (Redis lost its leases, and
another node claimed the game from the database before this one noticed). The database's
version check keeps either from overwriting the other; the one whose copy is then out of date
finds out when it writes (``StaleWriteError``) or when a socket opens (its stored version is
newer), and never serves that copy again: :meth:`ActorRegistry.replace_stale` reloads the game
or leaves it to its owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from doushouqi.server.ai.opponent import AiOpponent
from doushouqi.server.ai.pool import AiService
from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import CommitError, GameStore, GameWrite, StaleWriteError
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain import (
    Actor,
    Command,
    Disconnected,
    Event,
    Game,
    GameStatus,
    Join,
    Mode,
    Move,
    Reconnected,
    Rejected,
    RematchCreated,
    Tick,
    apply,
    game_state_dict,
    new_game,
    next_deadline,
)
from doushouqi.server.domain.recovery import resume_after_outages
from doushouqi.server.domain.site_time import Outage
from doushouqi.server.infra.logcontext import current_game
from doushouqi.server.infra.metrics import Metrics
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import TimeSource
from doushouqi.server.live.audience import Audience
from doushouqi.server.live.cluster import Cluster, RemoteGame
from doushouqi.server.live.downtime import Downtime
from doushouqi.server.live.subscriber import Subscriber
from doushouqi.server.live.watching import SPECTATORS, report_spectators

__all__ = [
    "ActorClosedError",
    "ActorRegistry",
    "GameActor",
    "Services",
    "Subscriber",
    "dumps",
    "new_game_id",
    "state_message",
]

log = logging.getLogger(__name__)

#: Events kept in memory per game for clients that reconnect after a short gap.
RECENT_EVENTS = 256
#: Seconds a game's timer waits before retrying after the database failed a write.
RETRY_AFTER_FAILURE = 1.0
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
#: Refused move ids a game's actor remembers (oldest forgotten first).
REFUSALS_KEPT = 32


def _move_id(command: Command) -> str | None:
    return command.move_id if isinstance(command, Move) else None


def new_game_id() -> str:
    """A short random id, also the game's invite code (48 random bits, URL-safe)."""
    return secrets.token_urlsafe(6)


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def state_message(
    game: Game, rematch_id: str | None, identity: Actor | None, now: float
) -> dict[str, Any]:
    """The full ``state`` message; ``you.seats`` are the colours ``identity`` plays."""
    state = game_state_dict(game, now)
    state["rematch_id"] = rematch_id
    seats = [] if identity is None else list(game.seats_of(identity))
    return {
        "type": "state",
        "game_id": game.id,
        "version": game.version,
        "game": state,
        "you": {"seats": seats},
        # The server's clock: clients count down to deadlines by it, not by their own clock.
        "server_time": now,
    }


class ActorClosedError(RuntimeError):
    """The actor was evicted; fetch the game's actor again."""


@dataclass
class Services:
    settings: Settings
    db: Database
    store: GameStore
    time: TimeSource
    ai: AiService
    metrics: Metrics = field(default_factory=lambda: Metrics("local"))
    #: Several nodes: leases, forwarding, fan-out (None: this process is the only server).
    cluster: Cluster | None = None
    #: The site's outages, which no waiting period counts.
    downtime: Downtime = field(kw_only=True)


class GameActor:
    def __init__(
        self,
        game: Game,
        services: Services,
        registry: ActorRegistry,
        *,
        public: bool = True,
        rematch_id: str | None = None,
    ) -> None:
        self.game = game
        self.public = public
        self.rematch_id = rematch_id
        self.closed = False
        self._services = services
        self._registry = registry
        self._lock = asyncio.Lock()
        self._subscribers: set[Subscriber] = set()
        self._recent: deque[tuple[int, str]] = deque(maxlen=RECENT_EVENTS)
        self._timer: asyncio.Task[None] | None = None
        self._timer_deadline: float | None = None
        self._retry_at = -math.inf
        services = self._services
        #: The computer at its seat, if any (it does nothing in a game between people).
        self._opponent = AiOpponent(
            settings=services.settings,
            time=services.time,
            ai=services.ai,
            metrics=services.metrics,
            submit=self._submit_ai_move,
            notify=self._notify,
        )
        self._sync_task: asyncio.Task[None] | None = None
        #: How many watch the game (not its players), as last told (``watching.py``).
        self.spectators: int | None = None
        #: Move id → the refusal it got (the last few): a move sent again after a connection
        #: drop is answered as it was (applied ones are remembered by the game itself).
        self._refused_ids: dict[str, Rejected] = {}

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def has_subscribers(self) -> bool:
        return bool(self._subscribers)

    @property
    def watcher_identities(self) -> set[Actor]:
        """Who watches the game on this node (players included; anonymous sockets not)."""
        return {s.identity for s in self._subscribers if s.identity is not None}

    # ------------------------------------------------------------------ commands

    async def submit(self, command: Command) -> list[Event]:
        """Apply ``command``; return its events (a lone ``Rejected`` when refused).

        Raises CommitError when the database could not store the change (which then did not
        happen) and ActorClosedError when this actor was evicted, or found its game newer in
        the database (the change did not happen either: submit it again to the game's actor).
        """
        arrived = time.perf_counter()
        current_game.set(self.id)
        async with self._lock:
            if self.closed:
                raise ActorClosedError(self.id)
            now = self._services.time.now()
            move_id = _move_id(command)
            if move_id is not None and (refused := self._refused_ids.get(move_id)):
                return [refused]  # sent again: the same answer, not a new verdict
            stale: asyncio.Task[None] | None = None
            try:
                await self._catch_up(now)
                game, events = apply(self.game, command, now)
                if events and isinstance(events[0], Rejected):
                    self._remember_refusal(move_id, events[0])
                elif game.version > self.game.version:  # not a resend that changed nothing
                    try:
                        await self._commit(game, events, now)
                    except CommitError:
                        self._retry_at = now + RETRY_AFTER_FAILURE
                        raise
                    if isinstance(command, Move):
                        metrics = self._services.metrics
                        metrics.moves.inc()
                        metrics.move_latency.observe(time.perf_counter() - arrived)
            except StaleWriteError:
                stale = self._found_stale()
        if stale is not None:
            await asyncio.shield(stale)
            raise ActorClosedError(self.id)
        self.schedule()
        if self.game.status.is_over and not self._subscribers:
            self._registry.evict(self)  # e.g. ended by a timer after everyone left
        return events

    def _found_stale(self) -> asyncio.Task[None]:
        """Another node stored the game meanwhile (a write of ours met a newer version, or the
        database holds one): this copy is out of date, and trying again would fail the same
        way for ever. Nothing more is served from it (closed at once); the registry reloads
        the game or leaves it to its owner (the task returned)."""
        self.closed = True
        return self._registry.replace_stale(self)

    def _remember_refusal(self, move_id: str | None, refusal: Rejected) -> None:
        if move_id is not None:
            self._refused_ids[move_id] = refusal
            if len(self._refused_ids) > REFUSALS_KEPT:
                del self._refused_ids[next(iter(self._refused_ids))]

    async def _catch_up(self, now: float) -> None:
        """Give the game this node's outages not recorded yet (the one in progress up to now),
        before anything else happens to it: nobody is charged for them. Under the lock."""
        own = self._services.downtime.own()
        if not own:
            return
        game, events = resume_after_outages(self.game, own, now)
        if events:
            await self._commit(game, events, now)

    async def catch_up(self) -> None:
        """:meth:`_catch_up` now, then look at the deadlines again (this node reaches Redis
        again: the deadlines held meanwhile fall as the outage moved them)."""
        try:
            async with self._lock:
                if not self.closed:
                    await self._catch_up(self._services.time.now())
        except StaleWriteError:
            await asyncio.shield(self._found_stale())
        finally:
            self.schedule()

    async def _commit(self, game: Game, events: list[Event], now: float) -> None:
        before = self.game
        dicts = [event.to_dict() for event in events]
        rematch = None
        for event in events:
            if isinstance(event, RematchCreated):
                rematch = new_game(event.spec, game_id=new_game_id(), now=now)
        finished = game.status.is_over and not before.status.is_over
        write = GameWrite(game, before.version, dicts, finished=finished, rematch=rematch)
        await self._services.store.commit(write)
        # Stored: from here on, the change is real and everyone may hear of it.
        self.game = game
        texts = [dumps(d) for d in dicts]
        if rematch is not None:
            self.rematch_id = rematch.id
            ready = {
                "type": "rematch_ready",
                "game_id": game.id,
                "version": game.version,
                "new_game_id": rematch.id,
            }
            texts.append(dumps(ready))
        for text in texts:
            self._recent.append((game.version, text))
        self.broadcast(texts)
        if rematch is not None:
            self._registry.adopt(rematch)
        self._registry.notify_players(game, events)
        for listener in self._registry.commit_listeners:
            listener(game, events)

    def broadcast(
        self, texts: Iterable[str], *, notice: bool = False, audience: Audience | None = None
    ) -> None:
        """Send ``texts`` (the events of the current version, or a ``notice`` that is no
        event) to every socket watching the game, here and on other nodes; with an
        ``audience``, only to the sockets it admits (a chat room's readers)."""
        texts = list(texts)
        for subscriber in list(self._subscribers):
            if audience is not None and not audience.admits(subscriber.identity):
                continue
            for text in texts:
                subscriber.deliver(text)
        if (cluster := self._services.cluster) is not None:
            cluster.publish(self.id, self.game.version, texts, notice, audience)

    # ------------------------------------------------------------------ subscribers

    def subscribe(self, subscriber: Subscriber, since: int | None = None) -> list[str]:
        """Add ``subscriber``; return what it must be sent first: the events after version
        ``since`` when they are still in memory, else a full state. No await happens between
        the snapshot and the subscription, so no event can fall between them."""
        self._subscribers.add(subscriber)
        self.schedule()
        game = self.game
        if since is not None and 0 <= since <= game.version:
            missed = [text for version, text in self._recent if version > since]
            oldest = self._recent[0][0] if self._recent else game.version + 1
            if since == game.version or oldest <= since + 1:
                return missed
        return [dumps(self.state_message(subscriber.identity))]

    def subscribe_all(self, seen: dict[Subscriber, int]) -> None:
        """Subscribe several at once (each to what it missed since the version it saw)."""
        self._subscribers.update(seen)  # first all, so none looks gone to the others
        for subscriber, version in seen.items():
            for text in self.subscribe(subscriber, version):
                subscriber.deliver(text)

    async def open(self, subscriber: Subscriber, since: int | None = None) -> list[str]:
        """:meth:`subscribe`, as a game on another node is subscribed to (awaited). In a
        cluster, only once the database has confirmed that this copy is the latest: raises
        ActorClosedError when it is not (ask the registry for the game's actor again)."""
        if not await self.is_current():
            raise ActorClosedError(self.id)
        return self.subscribe(subscriber, since)

    async def is_current(self) -> bool:
        """Whether this copy of the game is the stored one, so that it may be served (to a
        socket that opens, a request for the game's state). Alone on its database, a server
        is the game's only writer and need not ask. In a cluster another node may have stored
        a newer version while both believed they owned the game: this actor is then closed
        and replaced (:meth:`ActorRegistry.replace_stale`), and this returns False."""
        if self.closed:
            return False
        if self._services.cluster is None:
            return True
        # Under the lock: a commit of ours in flight is stored before our copy moves on, and
        # must not look like somebody else's.
        async with self._lock:
            if self.closed:
                return False
            stored = await self._services.db.read(lambda s: repo.stored_version(s, self.id))
            if stored is None or stored <= self.game.version:
                return True
            log.warning(
                "game %s is at version %d in the database, %d here",
                self.id,
                stored,
                self.game.version,
            )
            stale = self._found_stale()
        await asyncio.shield(stale)
        return False

    def take_subscribers(self) -> dict[Subscriber, int]:
        """Hand this actor's sockets over (it is closed), each with the version it was at."""
        taken = dict.fromkeys(self._subscribers, self.game.version)
        self._subscribers.clear()
        return taken

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.discard(subscriber)
        self.schedule()
        if not self._subscribers and self.game.status.is_over:
            self._registry.evict(self)

    def state_message(self, identity: Actor | None) -> dict[str, Any]:
        return state_message(self.game, self.rematch_id, identity, self._services.time.now())

    def _connected(self, color: int) -> bool:
        player = self.game.players[color]
        if player is None:
            return False
        if any(s.identity == player.identity for s in self._subscribers):
            return True
        cluster = self._services.cluster
        return cluster is not None and cluster.is_connected_elsewhere(self.id, player.identity)

    def _connection_commands(self) -> list[Command]:
        game = self.game
        commands: list[Command] = []
        for color, player in enumerate(game.players):
            if player is None or player.is_ai:
                continue
            connected = self._connected(color)
            if game.status is GameStatus.CREATED and connected and not game.ready[color]:
                commands.append(Join(actor=player.identity, color=color))
            elif game.status is GameStatus.STARTED:
                away = game.disconnected_since[color] is not None
                if connected and away:
                    commands.append(Reconnected(color=color))
                elif not connected and not away:
                    commands.append(Disconnected(color=color))
        return commands

    async def _sync_connections(self, commands: list[Command]) -> None:
        try:
            for command in commands:
                await self.submit(command)
        except (CommitError, ActorClosedError):
            pass
        finally:
            self._sync_task = None
        if self._retry_at <= self._services.time.now():
            self.schedule()

    # ------------------------------------------------------------------ what runs by itself

    def schedule(self) -> None:
        """Arm the timer for the next deadline, start the AI's move, report connections."""
        if self.closed:
            return
        game = self.game
        now = self._services.time.now()
        deadline = next_deadline(game, now)
        if deadline is not None:
            deadline = max(deadline, self._retry_at)
        if self._services.downtime.away_since is not None:
            deadline = None  # held: the other nodes' players cannot reach the game now
        if deadline != self._timer_deadline or self._timer is None:
            current = asyncio.current_task()
            if self._timer is not None and self._timer is not current:
                self._timer.cancel()
            self._timer, self._timer_deadline = None, deadline
            if deadline is not None:
                self._timer = asyncio.create_task(self._tick_at(deadline))
        self._opponent.consider(game)
        if self._sync_task is None and (commands := self._connection_commands()):
            self._sync_task = asyncio.create_task(self._sync_connections(commands))
        report_spectators(self, self._services.cluster)

    async def _tick_at(self, deadline: float) -> None:
        current_game.set(self.id)
        await self._services.time.sleep_until(deadline)
        self._timer, self._timer_deadline = None, None  # spent: the next one is armed anew
        try:
            await self.submit(Tick())
        except (CommitError, ActorClosedError):
            self.schedule()

    async def _submit_ai_move(self, command: Move) -> bool:
        try:
            await self.submit(command)
        except (CommitError, ActorClosedError):
            return False
        return True

    def _notify(self, message: dict[str, Any]) -> None:
        self.broadcast([dumps(message)], notice=True)

    def cut_off_subscribers(self) -> None:
        for subscriber in list(self._subscribers):
            subscriber.cut_off_now()

    def close(self) -> None:
        self.closed = True
        self._opponent.close()
        for task in (self._timer, self._sync_task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()


class ActorRegistry:
    """The live games' actors, loaded from the database on first use."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._actors: dict[str, GameActor] = {}
        self._loading: dict[str, asyncio.Future[GameActor | None]] = {}
        #: Actors found out of date, while their games are reloaded (or left to their owner).
        self._replacing: dict[GameActor, asyncio.Task[None]] = {}
        #: Account id → its bot event streams (game starts and the like).
        self.account_streams: dict[int, set[Subscriber]] = {}
        #: Player key (``account:7``, ``guest:ID``) → its site sockets (``/ws/site``) here.
        self.player_sockets: dict[str, set[Subscriber]] = {}
        #: Called with each committed game and its events (after the broadcast); must not
        #: block or raise (e.g. correspondence.py's your-turn notifications).
        self.commit_listeners: list[Callable[[Game, list[Event]], None]] = []

    def __len__(self) -> int:
        return len(self._actors)

    def active_ai_games(self, now: float) -> int:
        """Games against the computer being played here now: not over, and someone at the
        board (or created within the last minute, while its player connects)."""
        return sum(
            1
            for actor in self._actors.values()
            if actor.game.mode is Mode.VS_AI
            and not actor.game.status.is_over
            and (actor.has_subscribers or actor.game.created_at > now - 60)
        )

    async def get(self, game_id: str) -> GameActor | RemoteGame | None:
        """The game's actor, loaded on first use; in a cluster, the actor when this node owns
        the game (or could claim it), else a handle on the owner's."""
        if not GAME_ID.fullmatch(game_id):
            return None
        if (actor := self._actors.get(game_id)) is not None:
            return actor
        cluster = self.services.cluster
        if cluster is not None and not await cluster.acquire(game_id):
            exists = await self.services.db.read(lambda s: repo.game_exists(s, game_id))
            return cluster.handle(game_id) if exists else None
        return await self._load(game_id)

    async def local(self, game_id: str) -> GameActor | None:
        """The game's actor if it runs on this node now."""
        return self._actors.get(game_id)

    async def spectators_of(self, actor: GameActor | RemoteGame) -> int:
        """The count a socket that just opened is told (its owner told the others already)."""
        local = await self.local(actor.id)
        if local is not None:
            return local.spectators or 0
        counts = await self.spectator_counts([actor.id])
        return counts.get(actor.id, 0)

    async def spectator_counts(self, game_ids: list[str]) -> dict[str, int]:
        """Each game's spectators: from this node's actors, and in a cluster from the owners'
        reports (``watching.py``; a game nobody reported has none)."""
        counts: dict[str, int] = {}
        cluster = self.services.cluster
        if cluster is not None and game_ids:
            try:
                values = await cluster.redis.hmget(SPECTATORS, game_ids)
            except RedisError:  # the lists still show the games; other nodes' counts wait
                log.warning("cannot read the spectator counts now")
                values = [None] * len(game_ids)
            counts = {g: int(v) for g, v in zip(game_ids, values, strict=True) if v is not None}
        for game_id in game_ids:
            actor = self._actors.get(game_id)
            if actor is not None and actor.spectators is not None:
                counts[game_id] = actor.spectators
        return counts

    async def _load(self, game_id: str) -> GameActor | None:
        if (loading := self._loading.get(game_id)) is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[GameActor | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        cluster = self.services.cluster
        try:
            loaded = await self._read_for_claim(game_id)
            actor = None
            if loaded is not None:
                game, row = loaded
                actor = self._add(
                    game,
                    public=row.public,
                    rematch_id=row.rematch_id,
                    before_start=None if cluster is None else cluster.adopt_sockets,
                )
                if cluster is not None:
                    await cluster.confirm(game_id)
            elif cluster is not None:
                await cluster.release(game_id)
            future.set_result(actor)
            return actor
        except BaseException as exc:
            if cluster is not None and game_id not in self._actors:
                # Not loaded (the database or Redis is away): let the lease go, so that the
                # game does not sit claimed by a node that runs no actor for it.
                cluster.spawn(cluster.release(game_id))
            future.set_exception(exc)
            future.exception()  # retrieved here, so an unawaited future logs nothing
            raise
        finally:
            del self._loading[game_id]

    async def _read_for_claim(self, game_id: str) -> tuple[Game, GameRow] | None:
        """The stored game, carried through the time nobody could play it (stored)."""
        loaded = await self.services.db.read(lambda s: repo.load_game(s, game_id))
        if loaded is None:
            return None
        game, row = loaded
        try:
            return await self._carried_through(game), row
        except StaleWriteError:
            # Stored again since it was read: whoever wrote it looked after it until just now.
            return await self.services.db.read(lambda s: repo.load_game(s, game_id))

    async def _carried_through(self, game: Game) -> Game:
        """``game`` after a dead owner's absence (in a cluster) and the site's outages since it
        was last played."""
        now = self.services.time.now()
        cluster = self.services.cluster
        if cluster is not None:  # another node may have held it until it died
            down_at = await self._owner_gone_at(cluster, game)
            if down_at is not None:
                game = await self._resume(game, [Outage(down_at, now)], now)
        if not game.status.is_over:  # the site's outages since it was last played
            away = await self.services.downtime.outages_after(game.last_activity_at)
            game = await self._resume(game, away, now)
        return game

    async def _owner_gone_at(self, cluster: Cluster, game: Game) -> float | None:
        """When the node that ran ``game`` before stopped looking after it (None: nothing to
        take off its clocks — this node ran it, or it has not started)."""
        previous = await cluster.previous_owner(game.id)
        if previous is not None:
            return None if previous == cluster.node else await cluster.beat_of(previous)
        if game.status is not GameStatus.STARTED:
            return None
        # A game in progress that Redis knows no owner of: Redis lost its records (flushed,
        # or restarted without persistence). Its owner was one of the nodes now dead (their
        # heartbeats in the database are older than a lease), and stopped at the latest of
        # their last beats — after a full restart of the site, when its last node stopped.
        # Unless the game was played after that: then its owner was alive until just now.
        beats = await self.services.db.read(repo.node_beats)
        alive_since = self.services.time.now() - self.services.settings.lease_seconds
        mine = repo.node_beat_key(cluster.node)
        dead = [at for key, at in beats.items() if key != mine and at < alive_since]
        if not dead or max(dead) < game.last_activity_at:
            return None
        return max(dead)

    def _add(
        self,
        game: Game,
        *,
        public: bool,
        rematch_id: str | None = None,
        before_start: Callable[[GameActor], None] | None = None,
    ) -> GameActor:
        actor = GameActor(game, self.services, self, public=public, rematch_id=rematch_id)
        self._actors[game.id] = actor
        if before_start is not None:
            before_start(actor)
        actor.schedule()
        return actor

    async def create(self, game: Game, *, public: bool) -> GameActor:
        """Store a new game (version 0), then give it an actor (here: this node owns it). In a
        cluster the game's lease comes first: with Redis away nothing is stored (the request
        fails whole, and trying again makes one game, not two)."""
        cluster = self.services.cluster
        if cluster is not None:
            await cluster.acquire(game.id)
        try:
            await self.services.store.commit(GameWrite(game, None, [], public=public))
        except BaseException:
            if cluster is not None:
                cluster.spawn(cluster.release(game.id))
            raise
        if cluster is not None:
            await cluster.confirm(game.id)
        actor = self._add(game, public=public)
        self.notify_players(game, [])
        return actor

    def adopt(self, game: Game) -> None:
        """Give an actor to a game just stored by another actor's commit (a rematch)."""
        if game.id not in self._actors:
            if (cluster := self.services.cluster) is not None:
                cluster.spawn(cluster.acquire(game.id))
                cluster.spawn(cluster.confirm(game.id))
            self._add(game, public=False)
            self.notify_players(game, [])

    async def submit(self, game_id: str, command: Command) -> list[Event] | None:
        """Submit to the game's actor (None: no such game)."""
        for _ in range(3):
            actor = await self.get(game_id)
            if actor is None:
                return None
            if isinstance(actor, RemoteGame):
                raise ActorClosedError(game_id)  # owned elsewhere now: send it there
            try:
                return await actor.submit(command)
            except ActorClosedError:
                continue
            finally:
                if not actor.closed and not actor.has_subscribers and actor.game.status.is_over:
                    self.evict(actor)  # loaded for this one command (e.g. a late rematch)
        raise ActorClosedError(game_id)

    async def load(self, game_id: str) -> tuple[Game, str | None] | None:
        """A game and its rematch's id, without keeping it in memory when it is not live."""
        if not GAME_ID.fullmatch(game_id):
            return None
        actor = self._actors.get(game_id)
        if actor is not None and await actor.is_current():
            return actor.game, actor.rematch_id
        loaded = await self.services.db.read(lambda s: repo.load_game(s, game_id))
        if loaded is None:
            return None
        game, row = loaded
        return game, row.rematch_id

    def evict(self, actor: GameActor) -> None:
        if self._actors.get(actor.id) is actor:
            del self._actors[actor.id]
            if (cluster := self.services.cluster) is not None:
                cluster.spawn(cluster.release(actor.id))
        actor.close()

    def drop(self, game_id: str) -> None:
        """Stop running a game whose lease another node holds now; its sockets here are cut
        off, to reconnect (and reach the game through its new owner)."""
        actor = self._actors.pop(game_id, None)
        if actor is not None:
            actor.close()
            actor.cut_off_subscribers()

    def replace_stale(self, actor: GameActor) -> asyncio.Task[None]:
        """``actor`` (closed) found its game newer in the database: it is out of date, and
        nothing more is served from it. Its game is reloaded from the database when this node
        still holds the lease, else left to the node that does (see :meth:`_replace`). Returns
        the task doing it (the same one however often the actor is reported)."""
        task = self._replacing.get(actor)
        if task is None:
            if self._actors.get(actor.id) is actor:
                del self._actors[actor.id]
            actor.close()
            task = asyncio.create_task(self._replace(actor))
            self._replacing[actor] = task
            task.add_done_callback(lambda _: self._replacing.pop(actor, None))
        return task

    async def _replace(self, stale: GameActor) -> None:
        # Which is right, reloading or dropping, depends on who holds the lease now, not on
        # who wrote last: the lease decides who runs a game. A node that still holds it (or
        # takes it again, when Redis lost it and nobody else has) is the game's owner: the
        # other writer was a node that also believed it owned the game and stops at its next
        # lease renewal, which it will find taken. Cutting this node's sockets off would bring
        # them straight back here, so it reloads the game (the database holds every
        # acknowledged move) and hands them a fresh state. A node that does not hold the
        # lease is the one that lost the game: it drops it, like a lease found lost at a
        # renewal, and its sockets reconnect to reach the owner through forwarding. With Redis
        # away nobody can say who owns it: the node drops it too and stops renewing its lease,
        # so that whichever node Redis names once it answers loads it afresh.
        game_id, cluster = stale.id, self.services.cluster
        subscribers = stale.take_subscribers()
        try:
            ours = cluster is None or await cluster.hold(game_id)
        except RedisError:
            log.warning("cannot tell who owns game %s now; dropping it here", game_id)
            assert cluster is not None
            cluster.disown(game_id)
            ours = False
        fresh = None
        if ours:
            try:
                fresh = await self.get(game_id)
            except Exception:
                log.exception("could not reload game %s", game_id)
        if isinstance(fresh, GameActor):
            log.warning("reloaded game %s at version %d from the database", game_id, fresh.version)
            fresh.subscribe_all(subscribers)
            return
        log.warning("dropped game %s here; its sockets reconnect", game_id)
        self.drop(game_id)  # an actor loaded meanwhile (a request before the lease was asked)
        for subscriber in subscribers:
            subscriber.cut_off_now()

    def reschedule(self, game_id: str) -> None:
        """Something about the game changed elsewhere (who is connected): look again."""
        if (actor := self._actors.get(game_id)) is not None:
            actor.schedule()

    async def stored_view(
        self, game_id: str, identity: Actor | None, since: int | None
    ) -> tuple[list[str], int]:
        """What a socket subscribing to a game owned elsewhere is sent first, read from the
        database (the owner stores every change before telling anyone): the events after
        ``since``, or a full state; and the version that brings it to."""
        loaded = await self.services.db.read(lambda s: repo.load_game(s, game_id))
        if loaded is None:
            return [], -1
        game, row = loaded
        if since is not None and 0 <= since <= game.version:
            payloads = await self.services.db.read(lambda s: repo.events_since(s, game_id, since))
            versions = [int(json.loads(p)["version"]) for p in payloads]
            return payloads, max([game.version, *versions])
        now = self.services.time.now()
        return [dumps(state_message(game, row.rematch_id, identity, now))], game.version

    def notify_players(self, game: Game, events: list[Event]) -> None:
        """Tell the seated accounts' bot event streams about a new or starting game."""
        kinds = {e.type for e in events}
        if events and not kinds & {"game_started", "game_finished", "player_joined"}:
            return
        kind = "game_created" if not events else "game_started"
        if "game_finished" in kinds:
            kind = "game_finished"
        elif "game_started" not in kinds and events:
            kind = "player_joined"
        text = dumps({"type": kind, "game_id": game.id, "version": game.version})
        cluster = self.services.cluster
        for player in game.players:
            if player is None or player.account_id is None:
                continue
            self.deliver_to_account(player.account_id, text)
            if cluster is not None:  # the account's streams may be on other nodes too
                cluster.publish_to_account(player.account_id, text)

    def deliver_to_account(self, account_id: int, text: str) -> None:
        """Send ``text`` to the account's bot event streams on this node."""
        for stream in self.account_streams.get(account_id, ()):
            stream.deliver(text)

    def deliver_to_player(self, player_key: str, text: str) -> None:
        """Send ``text`` to the player's site sockets on this node."""
        for socket in self.player_sockets.get(player_key, ()):
            socket.deliver(text)

    async def recover(self) -> int:
        """Load every game in progress or waiting for an opponent after a (re)start, skipping
        the site's outages since each was last played (the downtime just recorded, on one
        server) on its clocks; returns how many. Players are not connected yet: their grace
        periods start now (the actors report them as disconnected). A game that ends on the
        way (a deadline fell while the server was down) is stored and not kept in memory."""
        now = self.services.time.now()
        live = await self.services.db.read(repo.live_games)
        since = min((game.last_activity_at for game, _ in live), default=now)
        away = await self.services.downtime.outages_after(since)
        for game, meta in live:
            resumed = await self._resume(game, away, now)
            if not resumed.status.is_over:
                self._add(resumed, public=meta.public, rematch_id=meta.rematch_id)
        return len(live)

    async def outage_over(self, outage: Outage) -> None:
        """This node reaches Redis again after ``outage``: each of its games gets the outage
        (the part after its last activity) and its deadlines run again; then the outage is
        recorded, for whoever loads a game or measures a wait later."""
        for actor in list(self._actors.values()):
            with contextlib.suppress(CommitError, ActorClosedError):
                await actor.catch_up()
        await self.services.downtime.record_redis_outage(outage)

    async def _resume(self, game: Game, away: list[Outage], now: float) -> Game:
        """``game`` after nobody could play it during the outages ``away`` (stored)."""
        if not away:
            return game
        resumed, events = resume_after_outages(game, away, now)
        if events:
            dicts = [e.to_dict() for e in events]
            finished = resumed.status.is_over
            await self.services.store.commit(
                GameWrite(resumed, game.version, dicts, finished=finished)
            )
        return resumed

    async def close(self) -> None:
        for actor in list(self._actors.values()):
            actor.close()
        self._actors.clear()

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
newer), and never serves that copy again: the registry's ``replace_stale``
(``live/registry.py``) reloads the game or leaves it to its owner.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from doushouqi.server.ai.opponent import AiOpponent
from doushouqi.server.ai.pool import AiService
from doushouqi.server.db import repo
from doushouqi.server.db.database import Database
from doushouqi.server.db.gamestore import CommitError, GameStore, GameWrite, StaleWriteError
from doushouqi.server.domain import (
    Actor,
    Command,
    Disconnected,
    Event,
    Game,
    GameStatus,
    Join,
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
from doushouqi.server.infra.json_output import dumps
from doushouqi.server.infra.logcontext import current_game
from doushouqi.server.infra.metrics import Metrics
from doushouqi.server.infra.settings import Settings
from doushouqi.server.infra.timesource import Cancellable, TimeSource
from doushouqi.server.live.audience import Audience
from doushouqi.server.live.cluster import Cluster
from doushouqi.server.live.downtime import Downtime
from doushouqi.server.live.subscriber import Subscriber
from doushouqi.server.live.watching import report_spectators

__all__ = [
    "ActorClosedError",
    "GameActor",
    "GameRegistry",
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


class GameRegistry(Protocol):
    """What an actor needs of the registry that holds it (``live/registry.py``'s
    ActorRegistry, which imports this module: named here, not imported)."""

    commit_listeners: list[Callable[[Game, list[Event]], None]]

    def evict(self, actor: GameActor) -> None: ...
    def adopt(self, game: Game, *, public: bool) -> None: ...
    def notify_players(self, game: Game, events: list[Event]) -> None: ...
    def replace_stale(self, actor: GameActor) -> asyncio.Task[None]: ...


class GameActor:
    def __init__(
        self,
        game: Game,
        services: Services,
        registry: GameRegistry,
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
        #: Counts the changes of ``_subscribers`` (who is connected here).
        self._subscribers_changed = 0
        #: What the connections' commands and the spectators' count were last worked out
        #: from (:meth:`_connections_seen`); None: to be worked out.
        self._connections_seen_at: tuple[object, ...] | None = None
        self._recent: deque[tuple[int, str]] = deque(maxlen=RECENT_EVENTS)
        #: The next deadline's loop timer (re-armed with nearly every move: a handle, not a
        #: task), and the task of the tick it started when it fired (held: a task nobody
        #: holds may be collected before it ends).
        self._timer: Cancellable | None = None
        self._timer_deadline: float | None = None
        self._tick_task: asyncio.Task[None] | None = None
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
        # Encoded once: the same text goes into the event rows and to the sockets.
        stored = [dumps(d) for d in dicts]
        # A rematch is as public as its game (two people who let others watch go on doing so).
        write = GameWrite(
            game,
            before.version,
            dicts,
            public=self.public,
            finished=finished,
            rematch=rematch,
            texts=stored,
            same_setup=before.same_setup(game),
            same_status=before.status is game.status,
        )
        await self._services.store.commit(write)
        # Stored: from here on, the change is real and everyone may hear of it.
        self.game = game
        texts = list(stored)
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
            self._registry.adopt(rematch, public=self.public)
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
        self._subscribers_changed += 1
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
        self._subscribers_changed += 1
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
        and replaced (the registry's ``replace_stale``), and this returns False."""
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

    def cut_off(self, identity: Actor) -> None:
        """Close this node's sockets to the game of ``identity`` (an account just banned or
        closed: what reconnects does so as whoever its cookies make it now)."""
        for subscriber in list(self._subscribers):
            if subscriber.identity == identity:
                subscriber.cut_off_now()

    def take_subscribers(self) -> dict[Subscriber, int]:
        """Hand this actor's sockets over (it is closed), each with the version it was at."""
        taken = dict.fromkeys(self._subscribers, self.game.version)
        self._subscribers.clear()
        self._subscribers_changed += 1
        return taken

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.discard(subscriber)
        self._subscribers_changed += 1
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
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._timer_deadline = None, deadline
            if deadline is not None:
                self._timer = self._services.time.call_at(deadline, self._deadline_reached)
        self._opponent.consider(game)
        if self._connections_seen(game):
            return
        if self._sync_task is None and (commands := self._connection_commands()):
            self._sync_task = asyncio.create_task(self._sync_connections(commands))
        report_spectators(self, self._services.cluster)

    def _connections_seen(self, game: Game) -> bool:
        """Whether the connections' commands and the spectators' count were worked out from
        what they read now, so that nothing can have changed: the same sockets here, the
        game's same seats, readiness, absences and status (the very same objects, which a
        move carries over). A move changes none of them: this spares it the look at who is
        connected (a tenth of what the actor does with a move). In a cluster presence on the
        other nodes counts too, which this does not follow: always worked out there; and
        while commands are being sent, again once they are (``_sync_connections``)."""
        if self._services.cluster is not None or self._sync_task is not None:
            self._connections_seen_at = None
            return False
        now = (game.status, game.players, game.ready, game.disconnected_since)
        seen = self._connections_seen_at
        self._connections_seen_at = (self._subscribers_changed, *now)
        return (
            seen is not None
            and seen[0] == self._subscribers_changed
            and all(a is b for a, b in zip(seen[1:], now, strict=True))
        )

    def _deadline_reached(self) -> None:
        self._timer, self._timer_deadline = None, None  # spent: the next one is armed anew
        if not self.closed:
            self._tick_task = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        current_game.set(self.id)
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

    async def stop(self) -> bool:
        """Close between two commands: the one being applied is stored first, the ones
        waiting after it are refused (``ActorClosedError``: not applied). False when the
        actor was closed already."""
        async with self._lock:
            if self.closed:
                return False
            self.close()
            return True

    def close(self) -> None:
        self.closed = True
        self._opponent.close()
        if self._timer is not None:
            self._timer.cancel()
        # A tick already started runs to its end, as any command does (under the lock).
        if self._sync_task is not None and self._sync_task is not asyncio.current_task():
            self._sync_task.cancel()

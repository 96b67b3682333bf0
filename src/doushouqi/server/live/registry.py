"""The live games of this node: their actors, loaded from the database on first use.

The registry finds a game's actor (loading it, or in a cluster claiming it, or answering with a
handle on the node that owns it), creates and adopts new games, hands a game over when its
lease moved or to the node its sockets reach (``take_over``/``give_up``,
``live/handover.py``), replaces an actor whose copy is out of date (``replace_stale``),
recovers the games in progress after a restart, and tells the players' other sockets (bot
event streams, site sockets) of their games. The actor itself is ``live/actors.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Collection

from redis.exceptions import RedisError

from doushouqi.server.db import repo
from doushouqi.server.db.gamestore import CommitError, GameWrite, StaleWriteError
from doushouqi.server.db.models import GameRow
from doushouqi.server.domain import (
    Account,
    Actor,
    Command,
    Event,
    Game,
    GameStatus,
    Mode,
)
from doushouqi.server.domain.recovery import resume_after_outages
from doushouqi.server.domain.site_time import Outage
from doushouqi.server.live.actors import (
    GAME_ID,
    ActorClosedError,
    GameActor,
    Services,
    dumps,
    state_message,
)
from doushouqi.server.live.cluster import Cluster, RemoteGame
from doushouqi.server.live.handover import HandOvers
from doushouqi.server.live.signouts import TokenSockets
from doushouqi.server.live.subscriber import Subscriber
from doushouqi.server.live.watching import SPECTATORS

__all__ = ["ActorRegistry"]

log = logging.getLogger(__name__)


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
        #: The sockets and bot streams each session or API token opened here.
        self.token_sockets = TokenSockets(services.time)
        #: Called with each committed game and its events (after the broadcast); must not
        #: block or raise (e.g. correspondence.py's your-turn notifications).
        self.commit_listeners: list[Callable[[Game, list[Event]], None]] = []
        #: Games handed over between nodes (affinity, ``live/handover.py``).
        self.hand_overs = None if services.cluster is None else HandOvers(services.cluster, self)

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
        if self.hand_overs is not None and (handing := self.hand_overs.pending(game_id)):
            await asyncio.shield(handing)  # to this node: then it owns the game
        cluster = self.services.cluster
        if cluster is not None and not await cluster.acquire(game_id):
            exists = await self.services.db.read(lambda s: repo.game_exists(s, game_id))
            return cluster.handle(game_id) if exists else None
        return await self._load(game_id)

    async def local(self, game_id: str) -> GameActor | None:
        """The game's actor if it runs on this node now (once loaded, when it is loading)."""
        if (loading := self._loading.get(game_id)) is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(loading)
        return self._actors.get(game_id)

    async def take_over(self, game_id: str) -> GameActor | RemoteGame | None:
        """The game for a socket routed here by its game (affinity): its actor, once its owner
        has handed it over to this node (``live/handover.py``); else as :meth:`get` gives it
        (the owner did not answer, or would not: the game is followed from afar)."""
        if self.hand_overs is not None:
            await self.hand_overs.ask(game_id)
        return await self.get(game_id)

    async def give_up(self, game_id: str, pass_lease: Callable[[], Awaitable[bool]]) -> bool:
        """Hand a game this node runs to another node: stop its actor between two commands,
        pass the lease on (``pass_lease``), and cut the game's sockets here off (they
        reconnect, and reach the new owner). False, and the game still served here, when it
        does not run here, is over, or the lease could not be passed."""
        actor = self._actors.get(game_id)
        if actor is None or actor.game.status.is_over or not await actor.stop():
            return False
        try:
            passed = await pass_lease()
        except RedisError:
            log.warning("could not pass the lease of game %s on", game_id[:16])
            passed = False
        if not passed:
            # Closed for nothing: served afresh from the database by whoever holds the lease
            # (this node, unless it lost it meanwhile), as an actor found out of date is.
            await self.replace_stale(actor)
            return False
        if self._actors.get(game_id) is actor:
            del self._actors[game_id]
        actor.cut_off_subscribers()
        return True

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

    def adopt(self, game: Game, *, public: bool) -> None:
        """Give an actor to a game just stored by another actor's commit (a rematch)."""
        if game.id not in self._actors:
            if (cluster := self.services.cluster) is not None:
                cluster.spawn(cluster.acquire(game.id))
                cluster.spawn(cluster.confirm(game.id))
            self._add(game, public=public)
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

    def end_sessions(self, token_ids: Collection[str]) -> None:
        """Close the sockets and streams of these (ended) sessions and tokens, here and, in a
        cluster, on every other node."""
        self.token_sockets.close(token_ids)
        cluster = self.services.cluster
        if cluster is not None and token_ids:
            cluster.publish_sessions_ended(list(token_ids))

    def end_sessions_here(self, token_ids: Collection[str]) -> None:
        """Close this node's sockets of sessions another node ended."""
        self.token_sockets.close(token_ids)

    def deliver_to_player(self, player_key: str, text: str) -> None:
        """Send ``text`` to the player's site sockets on this node."""
        for socket in self.player_sockets.get(player_key, ()):
            socket.deliver(text)

    def cut_off_account(self, account_id: int) -> None:
        """Close every socket of the account on this node: its games', its site sockets and
        its bot event streams (the account was banned or closed)."""
        identity = Account(account_id)
        for actor in list(self._actors.values()):
            actor.cut_off(identity)
        cluster = self.services.cluster
        if cluster is not None:
            for remote in list(cluster.remote.values()):
                remote.cut_off(identity)
        streams = [
            *self.player_sockets.get(f"account:{account_id}", ()),
            *self.account_streams.get(account_id, ()),
        ]
        for stream in streams:
            stream.cut_off_now()

    def cut_off_everywhere(self, account_id: int) -> None:
        """:meth:`cut_off_account` on this node and on every other."""
        self.cut_off_account(account_id)
        if (cluster := self.services.cluster) is not None:
            cluster.publish_cut_off(account_id)

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

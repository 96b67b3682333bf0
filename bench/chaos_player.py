"""The chaos bench's players (``bench/cluster_chaos.py``): scripted guests that play an online
game as the web client does, through whatever the cluster suffers, and record what happens
in a :class:`PlayLog` for ``bench/chaos_bookkeeping.py`` to count.

A player's moves each carry an ``id`` of their own and the ``version`` it saw. A move without
an answer is sent again, with the same id and version, once the player is connected again
(``?since=VERSION``) and the server's catch-up (ended by the ``pong`` to a ``ping`` sent after
connecting: it comes after everything the server sends a new socket first) has not shown it
played. ``unavailable`` (or any error naming the move) means send it again a little later; a
``rejected`` is counted by its code, and the player asks for a fresh ``state`` and thinks
again. A version it has not seen (an event past the next one, a notice ahead of it) makes
it ``sync`` from the last version it has. A socket that leaves a move
unanswered for ``answer_timeout`` seconds is dropped and connected again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import websockets

from chaos_bookkeeping import ACCEPT, OVER, START, TRY, ClockSample, SentMove

#: The game's ``status_id`` (``GameStatus``): started, and from here on over.
STARTED_STATUS, OVER_STATUS = 20, 25
#: Replies and notices: they carry the version the game is at without taking it further, so
#: one ahead of the player's says it missed an event. Every other message is an event of its
#: own version: one more than the player's is the next, more is a gap.
NOTICES = {"ack", "pong", "rejected", "error", "spectators", "chat", "chat_history", "ai_busy"}
#: What a player's trace keeps of a message (the board and the clocks are left out).
TRACED = ("type", "version", "id", "code", "duplicate", "ply", "color", "move", "to_move")


def traced(message: dict[str, Any]) -> str:
    """A message, short, for a player's trace."""
    if message.get("type") == "state":
        game = message["game"]
        return f"state v{message['version']} status {game['status_id']} ply {game['ply']}"
    return " ".join(f"{k}={message[k]}" for k in TRACED if message.get(k) is not None)


@dataclass
class PlayLog:
    """What the players record, and the run's state they obey."""

    #: Mean seconds a player thinks (±50 %).
    think: float
    #: Seconds a move may go unanswered on an open socket before the socket is dropped.
    answer_timeout: float
    #: The players' moves are drawn from generators seeded with it.
    seed: int
    #: The games' clock increment (added back to what a move's clock lost).
    increment: float
    sent: list[SentMove] = field(default_factory=list)
    timeline: list[tuple[float, str, str]] = field(default_factory=list)
    samples: list[ClockSample] = field(default_factory=list)
    #: Notable happenings, by what happened.
    counts: Counter[str] = field(default_factory=Counter)
    #: ``error`` replies by code.
    errors: Counter[str] = field(default_factory=Counter)
    #: Sockets closed under the players, by close code.
    closes: Counter[str] = field(default_factory=Counter)
    started_games: set[str] = field(default_factory=set)
    #: The first few refused moves and odd errors (not ``unavailable``): (code, game, the
    #: player's trace then).
    refusals: list[tuple[str, str, list[tuple[float, str, str]]]] = field(default_factory=list)
    #: (game, record index) already seen accepted: each move opens one new wait.
    accepted: set[tuple[str, int]] = field(default_factory=set)
    #: No more moves are decided (the run is ending); then: the players leave.
    draining: bool = False
    stopped: bool = False

    def start(self, game_id: str) -> None:
        if game_id not in self.started_games:
            self.started_games.add(game_id)
            self.timeline.append((time.perf_counter(), game_id, START))

    def accept(self, game_id: str, index: int) -> None:
        """The move at ``index`` is accepted (first seen by either player, by any means)."""
        if (game_id, index) not in self.accepted:
            self.accepted.add((game_id, index))
            self.timeline.append((time.perf_counter(), game_id, ACCEPT))


@dataclass
class Turn:
    """One turn of a player's, from the moment it saw it was to move."""

    ply: int
    seen_at: float
    #: Its remaining time in the message that showed the turn (None: untimed, not shown).
    before: float | None
    #: When it first decided on a move (a refused move is followed by another at once).
    decided_at: float | None = None
    sampled: bool = False


def _short(exc: BaseException) -> str:
    if isinstance(exc, websockets.InvalidStatus):
        return f"HTTP {exc.response.status_code}"
    return type(exc).__name__


class Player:
    """A scripted guest at one colour of its pair's current game (see the module's text)."""

    def __init__(
        self, log: PlayLog, index: int, color: int, cookie: str, ws_bases: list[str]
    ) -> None:
        self.log = log
        self.index = index
        self.color = color
        self.cookie = cookie
        #: Where its sockets go (``ws://host:port``): the first, and the next ones in turn
        #: while it refuses connections (a node down), as a client with several addresses.
        self.ws_bases = ws_bases
        self.rng = random.Random(f"{log.seed}:{index}")
        self.ws: Any = None
        self.cut_until = 0.0
        #: The last messages and happenings, each (time, game, what), to show stuck games.
        self.trace: deque[tuple[float, str, str]] = deque(maxlen=80)
        self.begin("")

    def begin(self, game_id: str) -> None:
        """Forget the last game: seated in ``game_id``, knowing nothing of it yet."""
        self.game_id = game_id
        self.version = self.ply = 0
        self.status = 0
        self.to_move = -1
        self.dests: dict[str, list[str]] = {}
        self.turn: Turn | None = None
        self.pending: SentMove | None = None
        self.in_flight = False
        self.resend_at = 0.0
        #: A fresh ``state`` was asked for (after a refusal), and when: nothing is decided
        #: before it comes, and it is asked for again if it does not.
        self.resyncing: float | None = None
        self.over = False
        self.sent: dict[str, SentMove] = {}
        self.by_slot: dict[tuple[int, str], SentMove] = {}
        self.thinking: asyncio.Task[None] | None = None
        #: Blue takes its seat with a ``join`` of this id (resent until acknowledged).
        self.join_id: str | None = f"j-{uuid.uuid4().hex[:12]}" if self.color == 1 else None
        self.join_sent_at: float | None = None
        #: The id of the ``ping`` sent after connecting: its ``pong`` ends the catch-up.
        self.catching_up: str | None = None

    # -------------------------------------------------------------------------- socket

    async def play(self) -> None:
        """Play the current game until it is over (or the run stops)."""
        while not self.log.stopped and not self.over:
            if self.ws is None:
                await self.connect()
                continue
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 0.25)
            except TimeoutError:
                await self.tick()
                continue
            except websockets.ConnectionClosed as closed:
                self.on_closed(closed)
                continue
            await self.handle(json.loads(raw))
            await self.tick()
        if self.thinking is not None:
            self.thinking.cancel()
        await self.close()

    async def connect(self) -> None:
        delay, attempt = 0.2, 0
        while not self.log.stopped and not self.over:
            if (wait := self.cut_until - time.perf_counter()) > 0:
                await asyncio.sleep(wait)
            since = f"?since={self.version}" if self.version else ""
            base = self.ws_bases[attempt % len(self.ws_bases)]
            attempt += 1
            url = f"{base}/ws/games/{self.game_id}{since}"
            try:
                self.ws = await websockets.connect(
                    url, additional_headers={"Cookie": self.cookie}, open_timeout=10
                )
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                self.note(f"connect failed: {_short(exc)}")
                self.log.counts[f"connections refused ({_short(exc)})"] += 1
                await asyncio.sleep(delay)
                delay = min(2.0, 2 * delay)
                continue
            self.log.counts["connections"] += 1
            self.note(f"connected to {url}")
            self.catching_up = f"c-{uuid.uuid4().hex[:12]}"
            await self.send({"type": "ping", "id": self.catching_up})
            return

    def note(self, what: str) -> None:
        self.trace.append((time.perf_counter(), self.game_id, what))

    def on_closed(self, closed: websockets.ConnectionClosed) -> None:
        code = closed.rcvd.code if closed.rcvd is not None else "no close frame"
        self.note(f"closed: {code}")
        self.log.closes[str(code)] += 1
        self.ws = None
        self.in_flight = False
        self.catching_up = None
        self.join_sent_at = None

    async def send(self, message: dict[str, Any]) -> bool:
        if self.ws is None:
            return False
        self.note("→ " + traced(message))
        try:
            await self.ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            return False  # the receiving side sees the close and reconnects
        return True

    async def resync(self) -> None:
        """Ask for a fresh ``state`` (asked again on a later tick if none comes)."""
        self.resyncing = time.perf_counter()
        await self.send({"type": "sync"})

    def cut(self, seconds: float) -> None:
        """A network drop: the socket aborted (no close frame), no connection for a while."""
        self.cut_until = time.perf_counter() + seconds
        self.note(f"socket cut for {seconds:.1f} s")
        if self.ws is not None:
            self.ws.transport.abort()

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
            self.ws = None

    async def tick(self) -> None:
        """Resend what is due; give up on a socket that leaves a move unanswered too long."""
        now = time.perf_counter()
        await self.flush()
        pending = self.pending
        waited = now - pending.sends[-1] if self.in_flight and pending is not None else 0.0
        if waited > self.log.answer_timeout and self.ws is not None:
            self.log.counts["sockets dropped: a move unanswered too long"] += 1
            self.note("socket dropped: the move is unanswered too long")
            self.ws.transport.abort()
        if self.resyncing is not None and now - self.resyncing > 2.0 and not self.catching_up:
            self.log.counts["syncs asked again (no state came)"] += 1
            await self.resync()
        if self.join_id and self.join_sent_at is None and self.ws and not self.catching_up:
            self.join_sent_at = now
            await self.send({"type": "join", "id": self.join_id})

    # -------------------------------------------------------------------------- moving

    def consider_turn(self, clocks: dict[str, Any] | None) -> None:
        """Start thinking if it is this player's turn and nothing is in the way."""
        if self.status != STARTED_STATUS or self.to_move != self.color:
            return
        if self.turn is None or self.turn.ply != self.ply:
            before = clocks["remaining"][self.color] if clocks else None
            self.turn = Turn(self.ply, time.perf_counter(), before)
        busy = self.thinking is not None and not self.thinking.done()
        if self.pending is None and self.resyncing is None and not busy and not self.log.draining:
            self.thinking = asyncio.create_task(self.think())

    async def think(self) -> None:
        # After a refusal too: the player sees the fresh board and moves again (the time it
        # thought is still counted to its first decision of the turn).
        think = self.log.think
        while True:
            turn = self.turn
            await asyncio.sleep(self.rng.uniform(0.5 * think, 1.5 * think))
            if turn is None or self.turn is turn:
                break
            # Its turn came round again while it thought (a catch-up brought several moves
            # at once): it thinks about the position it has now.
        mine = self.status == STARTED_STATUS and self.to_move == self.color
        if turn is None or not mine or self.pending or not self.dests:
            return
        if self.resyncing is not None:
            return
        if self.log.draining:
            return
        origin = self.rng.choice(sorted(self.dests))
        move = origin + self.rng.choice(self.dests[origin])
        now = time.perf_counter()
        if turn.decided_at is None:
            turn.decided_at = now
        sent = SentMove(
            id=f"m-{uuid.uuid4().hex[:16]}",
            game_id=self.game_id,
            color=self.color,
            ply=self.ply,
            move=move,
            version=self.version,
            decided_at=now,
        )
        self.sent[sent.id] = self.by_slot[sent.ply, sent.move] = sent
        self.log.sent.append(sent)
        self.pending, self.in_flight, self.resend_at = sent, False, 0.0
        self.log.timeline.append((now, self.game_id, TRY))
        await self.flush()

    async def flush(self) -> None:
        """Send the pending move if it may go now (connected, caught up, not held back)."""
        pending = self.pending
        if pending is None or self.in_flight or self.ws is None or self.catching_up:
            return
        if time.perf_counter() < self.resend_at:
            return
        self.in_flight = True
        pending.sends.append(time.perf_counter())
        message = {"type": "move", "move": pending.move, "version": pending.version}
        if not await self.send({**message, "id": pending.id}):
            self.in_flight = False

    def settle(self, sent: SentMove, answer: str) -> None:
        if sent.answer is None:
            sent.answer, sent.answered_at = answer, time.perf_counter()
        if self.pending is sent:
            self.pending, self.in_flight = None, False

    def finish(self) -> None:
        if not self.over:
            self.over = True
            self.log.timeline.append((time.perf_counter(), self.game_id, OVER))
            if self.pending is not None:
                self.log.counts["moves pending when their game ended"] += 1
                self.pending = None

    # -------------------------------------------------------------------------- messages

    async def handle(self, message: dict[str, Any]) -> None:
        if message.get("game_id") not in (None, self.game_id):
            return
        self.note("← " + traced(message))
        kind = message.get("type")
        if kind == "state":
            await self.on_state(message)
            return
        version = message.get("version")
        if isinstance(version, int):
            step = 0 if kind in NOTICES else 1
            if self.version and version > self.version + step:
                # Something was missed (the socket is open: a broadcast got lost on the way).
                self.log.counts["version gaps (synced)"] += 1
                await self.send({"type": "sync", "version": self.version})
            self.version = max(self.version, version)
        if kind == "move_made":
            self.on_move_made(message)
        elif kind == "ack":
            self.on_ack(message)
        elif kind == "rejected":
            await self.on_rejected(message)
        elif kind == "error":
            self.on_error(message)
        elif kind in ("game_started", "timeout_passed"):
            self.status = STARTED_STATUS
            self.ply = message.get("ply", self.ply)
            self.to_move, self.dests = message["to_move"], message["dests"]
            if kind == "game_started":
                self.log.start(self.game_id)
            else:  # a timeout pass: the game moved on
                self.log.accept(self.game_id, self.ply - 1)
            self.consider_turn(message.get("clocks"))
        elif kind == "game_finished":
            self.finish()
        elif kind == "pong" and message.get("id") == self.catching_up:
            self.catching_up = None
            if self.resyncing is not None:  # the sync asked for was lost with the socket
                await self.resync()
            await self.flush()

    async def on_state(self, message: dict[str, Any]) -> None:
        game = message["game"]
        if message["version"] < self.version:
            self.log.counts["snapshots older than events already seen"] += 1
        self.version = message["version"]
        self.status, self.ply = game["status_id"], game["ply"]
        self.to_move, self.dests = game["turn"], game["dests"]
        self.resyncing = None
        pending = self.pending
        played = [move for move, _ in game["moves"]]
        if pending is not None and len(played) > pending.ply:
            if played[pending.ply] == pending.move:
                pending.seen_in_state = True
                self.settle(pending, "state")
                self.log.accept(self.game_id, pending.ply)
            else:  # another move took its place: it was never played, nor will it be
                self.log.counts["pending moves overtaken by another"] += 1
                self.pending, self.in_flight = None, False
        if self.status >= OVER_STATUS:
            self.finish()
        elif self.status == STARTED_STATUS:
            self.log.start(self.game_id)
            if self.join_id:
                self.join_id = None  # seated: the game could not have started otherwise
        self.consider_turn(game.get("clocks"))

    def on_move_made(self, message: dict[str, Any]) -> None:
        self.ply, self.to_move, self.dests = message["ply"], message["to_move"], message["dests"]
        self.log.accept(self.game_id, message["ply"] - 1)
        clocks = message.get("clocks")
        if message["color"] == self.color:
            # The event names the move's id (servers before move ids: found by its place).
            named = message.get("move_id")
            slot = (message["ply"] - 1, message["move"])
            sent = self.sent.get(named) if named else self.by_slot.get(slot)
            if sent is not None and (sent.ply, sent.move) != slot:
                self.log.counts["own moves played elsewhere than meant"] += 1
            if sent is None:
                self.log.counts["own move_made events for moves not sent"] += 1
            else:
                sent.event_versions.add(message["version"])
                if sent is self.pending:
                    self.settle(sent, "move_made")
                self.sample_clock(sent, clocks)
        self.consider_turn(clocks)

    def sample_clock(self, sent: SentMove, clocks: dict[str, Any] | None) -> None:
        turn = self.turn
        if turn is None or turn.ply != sent.ply or turn.sampled or turn.decided_at is None:
            return
        after = clocks["remaining"][self.color] if clocks else None
        if turn.before is None or after is None:
            return
        turn.sampled = True
        thought = turn.decided_at - turn.seen_at
        sample = ClockSample(
            self.game_id, sent.ply, thought, turn.before, after, self.log.increment
        )
        self.log.samples.append(sample)

    def on_ack(self, message: dict[str, Any]) -> None:
        ident = message.get("id")
        if ident is not None and ident == self.join_id:
            self.join_id = None
            return
        sent = self.sent.get(ident or "")
        if sent is None:
            return  # a ping's or sync's
        if message.get("duplicate"):
            sent.duplicate_acks += 1
        else:
            sent.fresh_acks += 1
        self.log.accept(self.game_id, sent.ply)
        if sent is self.pending:
            self.settle(sent, "ack")

    async def on_rejected(self, message: dict[str, Any]) -> None:
        ident, code = message.get("id"), str(message.get("code"))
        if ident is not None and ident == self.join_id:
            self.log.counts[f"joins rejected ({code})"] += 1
            self.join_id = None
            return
        sent = self.sent.get(ident or "")
        if sent is None:
            self.log.counts[f"rejections of no move ({code})"] += 1
            return
        if sent.code is None:
            sent.code = code
            if len(self.log.refusals) < 3:
                self.log.refusals.append((code, self.game_id, list(self.trace)[-25:]))
        if sent is self.pending:
            self.settle(sent, "rejected")
            # What it saw is out of date: a fresh snapshot, then a move at once.
            await self.resync()

    def on_error(self, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        self.log.errors[code] += 1
        odd = code not in ("unavailable", "rate_limited")
        if odd and sum(c == f"error {code}" for c, _, _ in self.log.refusals) < 2:
            self.log.refusals.append((f"error {code}", self.game_id, list(self.trace)[-25:]))
        ident = message.get("id")
        if ident is not None and ident == self.join_id:
            self.join_sent_at = None  # sent again on a later tick
            return
        pending = self.pending
        if pending is not None and ident == pending.id:
            # Not applied: kept, and sent again a little later (later still each time).
            self.in_flight = False
            self.resend_at = time.perf_counter() + min(2.0, 0.25 * len(pending.sends))

"""The chaos bench's bookkeeping (``bench/cluster_chaos.py``), apart from the sockets and
processes that feed it, so that it can be checked on recorded inputs
(``tests/server/live/test_cluster_chaos_bench.py``). Pure: no I/O, no clock of its own.

What the players record — each move they decided on (:class:`SentMove`), the moments a game
started, was waited on or moved on (a timeline of :data:`START`, :data:`TRY`, :data:`ACCEPT`
and :data:`OVER`), the clocks around each of their moves (:class:`ClockSample`) — and the
games' records read from PostgreSQL at the end answer four questions:

* **moves lost** (:func:`audit_moves`): moves the server acknowledged that the final record
  does not hold at their place, and moves applied twice; both must be none;
* **rejections** (:func:`rejections`): refused moves by code (``stale_version`` …);
* **games stuck** (:func:`gaps`, :func:`stuck`): the longest time a game went without an
  accepted move while a player was trying to move in it (and, apart, with nobody trying:
  the player to move never learned it was);
* **extra clock charge** (:func:`clock_figures`): the time a mover's clock lost beyond the time
  the player actually thought.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Timeline kinds: the game started — a player decided on a move (and tries to get it played
#: until it is answered) — a move was accepted in the game (seen by either player) — it ended.
START, TRY, ACCEPT, OVER = "start", "try", "accept", "over"


def pct(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank below): the one both cluster benches report."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


@dataclass
class SentMove:
    """One move a player decided on, under one id, however often it was sent."""

    id: str
    game_id: str
    color: int
    #: Plies in the position the player saw: the move is meant as the record's move ``ply``
    #: (0-based), and its ``move_made`` says ``ply + 1``.
    ply: int
    move: str
    #: The game version the player saw when it decided (sent with every try).
    version: int
    decided_at: float
    sends: list[float] = field(default_factory=list)
    #: How the server answered first: "ack", "move_made" (the player's own event came before
    #: the ack), "state" (a snapshot after a reconnect showed it played), "rejected", or None.
    answer: str | None = None
    answered_at: float | None = None
    #: The rejection's code, if it was refused.
    code: str | None = None
    #: ``ack`` replies for this id without ``duplicate``: more than one is a double application.
    fresh_acks: int = 0
    duplicate_acks: int = 0
    #: The versions of the player's own ``move_made`` events for this move (one event seen
    #: twice is one version; two versions: the move was applied twice).
    event_versions: set[int] = field(default_factory=set)
    #: A snapshot after a reconnect showed it in the game.
    seen_in_state: bool = False

    @property
    def acknowledged(self) -> bool:
        """The server said the move is played: an ack, its own ``move_made``, or a snapshot."""
        acks = self.fresh_acks + self.duplicate_acks
        return acks > 0 or bool(self.event_versions) or self.seen_in_state


@dataclass
class MoveAudit:
    """Acknowledged moves against the games' final records."""

    acknowledged: int = 0
    #: Acknowledged, yet not the record's move at the place it was meant for.
    lost: list[SentMove] = field(default_factory=list)
    #: The same id applied twice: acked twice as new, two ``move_made`` events, or its move
    #: in the record again at a later turn of its player that no other id explains.
    applied_twice: list[SentMove] = field(default_factory=list)
    #: Refused (the player was told so), yet the record holds it at its place.
    rejected_yet_played: list[SentMove] = field(default_factory=list)
    #: Both acknowledged and refused: the player was told two contradicting things (one
    #: message handled twice by the server, say: applied once, then refused as stale).
    contradicted: list[SentMove] = field(default_factory=list)
    #: Never answered (the answer was lost), yet played: harmless, counted to show resends.
    unanswered_played: int = 0
    #: (game, record index, move) that no id of the players explains.
    unexplained: list[tuple[str, int, str]] = field(default_factory=list)

    @property
    def lost_total(self) -> int:
        """The figure that must be 0."""
        return len(self.lost) + len(self.applied_twice)


def audit_moves(sent: Iterable[SentMove], records: Mapping[str, Sequence[str]]) -> MoveAudit:
    """Match every record's moves to the ids that asked for them, by (game, index, move).

    Several ids can ask for one place with the same move (a refused try, then a new id for
    the same move); the record's move is then taken as the acknowledged one's, else an
    unanswered one's, else a refused one's. Two acknowledged ids at one place: one is lost.
    """
    audit = MoveAudit()
    slots: dict[tuple[str, int, str], list[SentMove]] = defaultdict(list)
    moves = list(sent)
    for move in moves:
        slots[move.game_id, move.ply, move.move].append(move)
        audit.acknowledged += move.acknowledged
    placed: set[str] = set()
    for game_id, record in records.items():
        for index, text in enumerate(record):
            candidates = slots.get((game_id, index, text), [])
            chosen = _applied(candidates)
            if chosen is not None:
                placed.add(chosen.id)
                if chosen.code is not None and not chosen.acknowledged:
                    audit.rejected_yet_played.append(chosen)
                elif chosen.answer is None:
                    audit.unanswered_played += 1
                continue
            again = _repeated(moves, placed, game_id, index, text)
            if again is not None:
                audit.applied_twice.append(again)
            else:
                audit.unexplained.append((game_id, index, text))
    for move in moves:
        if move.acknowledged and move.id not in placed:
            audit.lost.append(move)
        if move.acknowledged and move.code is not None:
            audit.contradicted.append(move)
        twice = move.fresh_acks > 1 or len(move.event_versions) > 1
        if twice and move not in audit.applied_twice:
            audit.applied_twice.append(move)
    return audit


def _applied(candidates: list[SentMove]) -> SentMove | None:
    for wanted in (
        lambda m: m.acknowledged,
        lambda m: m.answer is None,
        lambda m: True,
    ):
        found = [m for m in candidates if wanted(m)]
        if found:
            return found[0]
    return None


def _repeated(
    moves: list[SentMove], placed: set[str], game_id: str, index: int, text: str
) -> SentMove | None:
    """An id of the same player (same parity of place) with this move, played earlier."""
    for move in moves:
        earlier = move.ply < index and (index - move.ply) % 2 == 0
        if move.game_id == game_id and move.move == text and earlier and move.id in placed:
            return move
    return None


def rejections(sent: Iterable[SentMove]) -> Counter[str]:
    """Refused moves by code, most frequent first when listed with ``most_common``."""
    return Counter(m.code for m in sent if m.code is not None)


def answer_times(sent: Iterable[SentMove]) -> tuple[list[float], list[float]]:
    """For each acknowledged move: the round trip of the try that was answered (its last
    send → the acknowledgement), and the time to settle (decided → acknowledged, outages,
    resends and waits for a socket included)."""
    trips, settles = [], []
    for move in sent:
        if move.acknowledged and move.answered_at is not None and move.sends:
            trips.append(move.answered_at - move.sends[-1])
            settles.append(move.answered_at - move.decided_at)
    return trips, settles


@dataclass(frozen=True)
class Gap:
    """A stretch of a game in progress without an accepted move."""

    game_id: str
    length: float
    #: When it began (the bench's clock): the start, or the last accepted move.
    since: float
    #: Still open when the run ended.
    open_at_end: bool
    #: A player was trying to move in it; if not, the player to move did not know it was.
    tried: bool


def gaps(timeline: Iterable[tuple[float, str, str]], end: float) -> list[Gap]:
    """Every game's stretches from its :data:`START` or an :data:`ACCEPT` to the next
    :data:`ACCEPT` (or :data:`OVER`, or ``end``: still open), each marked with whether a
    :data:`TRY` fell in it. A refused try does not end one: the game has not moved.
    """
    open_since: dict[str, float] = {}
    tried: dict[str, bool] = {}
    found: list[Gap] = []

    def close(game_id: str, at: float, open_at_end: bool = False) -> None:
        began = open_since.pop(game_id, None)
        if began is not None:
            found.append(Gap(game_id, at - began, began, open_at_end, tried.pop(game_id, False)))

    for at, game_id, kind in sorted(timeline, key=lambda e: e[0]):
        if kind == START:
            open_since.setdefault(game_id, at)
        elif kind == TRY:
            open_since.setdefault(game_id, at)  # a try seen before the start (a snapshot)
            tried[game_id] = True
        elif kind == ACCEPT:
            close(game_id, at)
            open_since[game_id] = at
        elif kind == OVER:
            close(game_id, at)
        else:
            raise ValueError(f"unknown timeline entry {kind!r}")
    for game_id in list(open_since):
        close(game_id, end, open_at_end=True)
    return found


def stuck(found: Iterable[Gap], threshold: float, tried: bool = True) -> list[Gap]:
    """Each game's longest gap over ``threshold`` seconds (with a player trying, or, with
    ``tried=False``, with nobody trying), the longest first."""
    worst: dict[str, Gap] = {}
    for gap in found:
        if gap.tried != tried or gap.length <= threshold:
            continue
        if gap.game_id not in worst or gap.length > worst[gap.game_id].length:
            worst[gap.game_id] = gap
    return sorted(worst.values(), key=lambda g: -g.length)


@dataclass(frozen=True)
class ClockSample:
    """The mover's clock around one of its moves, from the events the server sent."""

    game_id: str
    #: The move's index in the record.
    ply: int
    #: Seconds from seeing that it was to move (the opponent's ``move_made``, the start, or a
    #: snapshot after a reconnect) to deciding on its move.
    thought: float
    #: The mover's remaining time in that event (its clock running from then on).
    before: float
    #: The mover's remaining time in its own ``move_made`` (after the move, increment added).
    after: float
    increment: float = 0.0

    @property
    def charged(self) -> float:
        return self.before - self.after + self.increment

    @property
    def extra(self) -> float:
        """Clock time lost beyond the thinking: transport, server, outages, resends."""
        return self.charged - self.thought


def clock_figures(samples: Sequence[ClockSample]) -> dict[str, Any]:
    """The worst extra charge (and where), p99 and p50, over ``samples``."""
    if not samples:
        return {"moves": 0, "worst": None, "worst_at": None, "p99": None, "p50": None}
    extras = [s.extra for s in samples]
    worst = max(samples, key=lambda s: s.extra)
    return {
        "moves": len(samples),
        "worst": worst.extra,
        "worst_at": {"game": worst.game_id, "ply": worst.ply},
        "p99": pct(extras, 99),
        "p50": pct(extras, 50),
    }

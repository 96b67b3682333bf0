"""After time the site was away: a game's clocks and grace periods skip it.

A server that was killed cannot pause its clocks on the way down, so on the way back up it
learns when it went down (``down_at``, the last moment it knew it was alive) and calls
:func:`resume_after_downtime` for each game in progress; a node that could not reach Redis
does the same for its games once it can, and a node that loads a game carries it through every
recorded outage since the game's last activity (:func:`resume_after_outages`,
``domain/site_time.py``). Deadlines that fell before ``down_at``
are settled first, at their own times, exactly as a punctual server would have; then the main
and per-move clocks and any disconnected player's grace period are shifted by the downtime, so
that nobody is charged for time the server was away. Only the part of an outage after the
game's last activity counts (a move made meanwhile stands, and its player was charged as
usual), and the game notes when it went on (``Game.resumed_at``), so that no outage is owed
twice. An online game still waiting for an opponent is aborted if its wait ended meanwhile
(the wait is not extended by the downtime: an open game costs nobody anything).

Correspondence games (days per move) are the exception: their days are calendar days, which
pass whether or not the server runs (as on lichess), so a short downtime costs the side to move
nothing it would notice, and a long one is not added to anybody's time. But nobody loses one
on time because the server was away when they would have moved: if the deadline fell during
the downtime, or falls soon after, the side to move gets back the time it had left when the
server went down, up to :data:`CORRESPONDENCE_RESTART_MARGIN` (an hour) from the restart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from doushouqi.core.clock import GameClock
from doushouqi.server.domain.apply import apply
from doushouqi.server.domain.commands import Tick
from doushouqi.server.domain.events import ClockView, Event
from doushouqi.server.domain.model import Game, GameStatus
from doushouqi.server.domain.site_time import Outage, spans
from doushouqi.server.domain.views import clock_view

__all__ = [
    "CORRESPONDENCE_RESTART_MARGIN",
    "GameResumed",
    "resume_after_downtime",
    "resume_after_outages",
]

#: After a restart, the most time a correspondence player is sure to have for the move they
#: could not make while the server was down (seconds).
CORRESPONDENCE_RESTART_MARGIN = 3600.0


@dataclass(frozen=True, kw_only=True)
class GameResumed(Event):
    """The server came back after ``downtime`` seconds; the clocks went on from ``at``."""

    type: ClassVar[str] = "game_resumed"
    at: float
    downtime: float
    clocks: ClockView | None


def resume_after_downtime(game: Game, down_at: float, now: float) -> tuple[Game, list[Event]]:
    """``game`` as it continues at ``now`` after the server was down from ``down_at``.

    Returns the game unchanged and no events when there is nothing to shift (the game is not
    in progress, or has neither a clock nor a disconnected player). A game not yet started
    only has its wait for an opponent settled (up to ``now``).
    """
    if game.status is GameStatus.CREATED:
        return apply(game, Tick(), max(float(now), game.last_activity_at))
    if game.status is not GameStatus.STARTED:
        return game, []
    down_at = max(float(down_at), game.last_activity_at)
    now = max(float(now), down_at)
    settled, events = apply(game, Tick(), down_at)
    if settled.status is not GameStatus.STARTED:
        return settled, events
    downtime = now - down_at
    clock = settled.clock
    if clock is not None and clock.running:
        if clock.control.is_correspondence:
            clock = _correspondence_after_downtime(clock, down_at, now)
        else:
            clock = clock.pause(down_at).resume(now)
    away = tuple(None if t is None else t + downtime for t in settled.disconnected_since)
    if clock == settled.clock and away == settled.disconnected_since:
        return settled, events
    version = settled.version + 1
    # Shifted clocks change nothing a command acts on: one sent for the version before still
    # applies (as after a presence event), so a move crossing this in flight is not stale.
    resumed = settled.evolve(
        clock=clock,
        disconnected_since=away,
        version=version,
        state_version=settled.fresh_since,
        resumed_at=now,
    )
    event = GameResumed(
        at=now, downtime=downtime, clocks=clock_view(clock, now), game_id=game.id, version=version
    )
    return resumed, [*events, event]


def resume_after_outages(
    game: Game, outages: Iterable[Outage], now: float
) -> tuple[Game, list[Event]]:
    """``game`` carried through each of ``outages`` (up to ``now``) that came after its last
    activity, one after the other (:func:`resume_after_downtime` for each); its events."""
    events: list[Event] = []
    for start, end in spans(outages, now):
        if end <= game.last_activity_at:
            continue
        if game.status is not GameStatus.STARTED and game.status is not GameStatus.CREATED:
            break
        game, more = resume_after_downtime(game, start, end)
        events += more
    return game, events


def _correspondence_after_downtime(clock: GameClock, down_at: float, now: float) -> GameClock:
    """The days ran on; only a deadline the server's absence made impossible to meet moves,
    to give back what the side to move had left (at most the margin) from ``now``."""
    assert clock.turn_started is not None
    deadline = clock.turn_started + clock.main_time[clock.to_move]
    owed = min(clock.remaining(clock.to_move, down_at), CORRESPONDENCE_RESTART_MARGIN)
    if deadline >= now + owed:
        return clock
    shift = now + owed - deadline
    return clock.pause(down_at).resume(down_at + shift)

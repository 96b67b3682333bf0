"""Deadlines: flag fall, per-move timeouts (docs/rules.md 5.2, 5.3), abandonment (逃跑), and the
end of an open online game's wait for an opponent.

Events take effect at their deadline, not when the server notices them: :func:`settle`
applies every deadline that has passed by ``now`` in the order they fell, each at its own
time, so a late tick gives the same game as a punctual one. :func:`next_deadline` tells the
game's actor when to send the next ``Tick``.

Choices where the rules are silent:

* Leaving only loses in online games (docs/rules.md 5.2 speaks of games between people who can
  leave one another); against the AI or on one screen a disconnect is recorded and shown, and
  the clock, if any, keeps running.
* A disconnected player's clock keeps running; whichever deadline falls first decides.
* Correspondence games (days per move) have no grace period: their players come and go
  between moves, so leaving never loses there; only running out of days does (a flag fall).
* When a clock deadline and a grace expiry fall at the same moment, the clock goes first.
* An online game whose seat nobody takes is aborted ``lobby_wait`` seconds after it was
  created, so open games do not pile up in the lobby. The wait is wall-clock time: a server
  restart does not extend it. It ends once both seats are filled; started games never have it.
* An online game with both seats filled (a quick pairing, an accepted challenge, a rematch) is
  aborted when a player has not come to the board ``start_wait`` seconds (a minute) after it
  was created (``no_show``), or, once started, when the player to move has not made their
  first move ``start_wait`` seconds after their turn came (``no_first_move``; from the server's
  return after an outage at the earliest). So a game nobody plays never stays open, and no
  result is counted for moves never made. Not in correspondence games (their players come
  and go between moves: their days per move decide) nor in tournament games (the tournament
  counts no-shows itself). Before a clock deadline that falls at the same time.
"""

from __future__ import annotations

from dataclasses import dataclass

from doushouqi.core.clock import ClockEvent, ClockEventKind
from doushouqi.core.game import TimeoutEffect
from doushouqi.core.outcome import Outcome, PlatformEnding
from doushouqi.server.domain.events import Event, TimeoutPassed
from doushouqi.server.domain.flow import Accept, add_ply, end_on_board, finish, lapse_offers
from doushouqi.server.domain.model import AbortReason, Game, GameStatus, Mode
from doushouqi.server.domain.views import clock_view, legal_destinations

__all__ = [
    "abandonment_deadline",
    "lobby_deadline",
    "next_deadline",
    "settle",
    "start_deadline",
]


@dataclass(frozen=True)
class _Due:
    at: float
    color: int
    clock_event: ClockEvent | None  # None: the grace period of ``color`` ran out


def abandonment_deadline(game: Game, color: int) -> float | None:
    """When ``color`` loses by leaving unless it comes back (None: not disconnected, or no
    such rule in this game)."""
    since = game.disconnected_since[color]
    if since is None or game.mode is not Mode.ONLINE or game.status is not GameStatus.STARTED:
        return None
    if game.time_control is not None and game.time_control.is_correspondence:
        return None
    return since + game.grace_period


def lobby_deadline(game: Game) -> float | None:
    """When an online game still waiting for an opponent to take its open seat is aborted
    (None: the game is not waiting for one)."""
    if (
        game.mode is not Mode.ONLINE
        or game.status is not GameStatus.CREATED
        or all(p is not None for p in game.players)
    ):
        return None
    return game.created_at + game.lobby_wait


def start_deadline(game: Game) -> tuple[float, AbortReason] | None:
    """When a game whose players have not all come, or not all made a first move, is aborted,
    and why (None: no such wait, or it is over)."""
    if game.status is GameStatus.STARTED and len(game.moves) >= 2:
        return None  # over (asked with every move: the usual answer first)
    if (
        game.mode is not Mode.ONLINE
        or game.tournament
        or (game.time_control is not None and game.time_control.is_correspondence)
        or not all(p is not None for p in game.players)
    ):
        return None
    if game.status is GameStatus.CREATED:
        return game.created_at + game.start_wait, AbortReason.NO_SHOW
    if game.status is not GameStatus.STARTED or len(game.moves) >= 2:
        return None
    if any(game.is_pass(m.move) for m in game.moves):
        return None  # a turn passed on the clock: its timeouts decide from there
    assert game.started_at is not None
    since = game.moves[-1].at if game.moves else game.started_at
    if game.resumed_at is not None:
        since = max(since, game.resumed_at)
    return since + game.start_wait, AbortReason.NO_FIRST_MOVE


def _due(game: Game, now: float) -> _Due | None:
    found: list[tuple[float, int, _Due]] = []
    if game.clock is not None and game.clock.running:
        event = game.clock.check(now)
        if event is not None:
            found.append((event.at, 0, _Due(event.at, event.color, event)))
    for color in (0, 1):
        deadline = abandonment_deadline(game, color)
        if deadline is not None and deadline <= now:
            found.append((deadline, 1 + color, _Due(deadline, color, None)))
    return min(found, key=lambda item: item[:2])[2] if found else None


def _timeout_pass(game: Game, event: ClockEvent, now: float) -> Accept:
    assert game.clock is not None
    pass_move = game.game_type.pass_move
    assert pass_move is not None  # _apply_due passes only in games whose timeouts pass
    clock = game.clock.apply_timeout(now)
    position = game.position()
    position.push_pass()
    game = add_ply(game, position, pass_move, event.at, clock)
    passed = TimeoutPassed(
        color=event.color,
        timeouts=event.timeouts,
        ply=len(game.moves),
        at=event.at,
        fen=position.position_string(),
        to_move=position.turn,
        dests=legal_destinations(position),
        clocks=clock_view(clock, event.at),
    )
    lapsed = lapse_offers(game, event.color)
    # A pass changes the position's side to move and the no-capture count, so it may end it.
    ended = end_on_board(lapsed.game, position, event.at)
    return Accept(ended.game, [passed, *lapsed.events, *ended.events])


def _apply_due(game: Game, due: _Due, now: float) -> Accept:
    event = due.clock_event
    if event is None:
        outcome = Outcome(PlatformEnding.ABANDONMENT, 1 - due.color)
        return finish(game, outcome, due.at, leaver=due.color)
    passes = game.game_type.timeout_effect is TimeoutEffect.PASS_TURN
    if event.kind is ClockEventKind.TIMEOUT_PASS and passes:
        return _timeout_pass(game, event, now)
    assert game.clock is not None
    # In a game without passes every timeout loses, the first as the last (docs/rules.md 5.3
    # counts them in the games that pass).
    if event.kind is not ClockEventKind.FLAG:
        game = game.evolve(clock=game.clock.apply_timeout(now))
        return finish(game, Outcome(PlatformEnding.TIMEOUTS, 1 - event.color), event.at)
    return finish(game, Outcome(PlatformEnding.TIME_FORFEIT, 1 - event.color), event.at)


def settle(game: Game, now: float) -> tuple[Game, list[Event]]:
    """``game`` with every deadline up to ``now`` applied, and the events that produced."""
    expires = lobby_deadline(game)
    if expires is not None and expires <= now:
        outcome = Outcome(PlatformEnding.ABORTED, None)
        expired = finish(game, outcome, expires, abort_reason=AbortReason.LOBBY_EXPIRED)
        return expired.game, expired.events
    events: list[Event] = []
    while game.status is GameStatus.CREATED or game.status is GameStatus.STARTED:
        due = _due(game, now) if game.status is GameStatus.STARTED else None
        start = start_deadline(game)
        if start is not None and start[0] <= now and (due is None or start[0] <= due.at):
            at = max(start[0], game.last_activity_at)
            outcome = Outcome(PlatformEnding.ABORTED, None)
            aborted = finish(game, outcome, at, abort_reason=start[1])
            return aborted.game, [*events, *aborted.events]
        if due is None:
            break
        step = _apply_due(game, due, now)
        game = step.game
        events += step.events
    return game, events


def next_deadline(game: Game, now: float) -> float | None:
    """When the server must send a ``Tick``: the earliest of the clock's next event, any
    disconnected player's grace expiry (possibly already past) and the end of the wait for a
    first move, or, before the start, the end of the wait for an opponent or for the players
    to come; None when nothing is due.
    """
    start = start_deadline(game)
    if game.status is GameStatus.CREATED:
        return lobby_deadline(game) if start is None else start[0]
    if game.status is not GameStatus.STARTED:
        return None
    times: list[float] = [] if start is None else [start[0]]
    clock = game.clock
    if clock is not None and clock.running and clock.turn_started is not None:
        deadline = clock.next_deadline(max(now, clock.turn_started))
        if deadline is not None:
            times.append(deadline)
    for color in (0, 1):
        deadline = abandonment_deadline(game, color)
        if deadline is not None:
            times.append(deadline)
    return min(times) if times else None

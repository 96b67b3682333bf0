"""Shared steps of the handlers: seat resolution, playing a ply, finishing, clock surgery."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from doushouqi.core.clock import GameClock
from doushouqi.core.game import Position
from doushouqi.core.outcome import Outcome, PlatformEnding
from doushouqi.server.domain.commands import Command
from doushouqi.server.domain.events import (
    DrawDeclined,
    Event,
    GameFinished,
    RejectCode,
    TakebackDeclined,
)
from doushouqi.server.domain.model import AbortReason, Game, GameStatus, TimedMove
from doushouqi.server.domain.players import Server
from doushouqi.server.domain.settlement import settle_scores
from doushouqi.server.domain.views import clock_view

__all__ = [
    "Accept",
    "Context",
    "HandlerResult",
    "Reject",
    "add_ply",
    "end_on_board",
    "finish",
    "lapse_offers",
    "require_started",
    "resolve_seat",
    "rewind_clock",
    "stop_clock",
]


@dataclass(frozen=True)
class Context:
    """What a handler sees: the game as the command found it (``before``), the game with every
    deadline up to ``now`` applied (``game``, what the handler works on), and ``now``."""

    before: Game
    game: Game
    now: float


@dataclass(frozen=True)
class Accept:
    """The handler's new game and events (events are stamped with id and version later)."""

    game: Game
    events: list[Event]


@dataclass(frozen=True)
class Reject:
    code: RejectCode
    reason: str


HandlerResult = Accept | Reject


#: The platform's endings in the words of rejection messages ("the game is over (…)"); the
#: game names its own board endings.
_PLATFORM_ENDING_LABELS = {
    PlatformEnding.RESIGNATION: "resignation",
    PlatformEnding.DRAW_AGREED: "draw by agreement",
    PlatformEnding.TIME_FORFEIT: "time forfeit",
    PlatformEnding.TIMEOUTS: "too many timeouts",
    PlatformEnding.ABANDONMENT: "left the game",
    PlatformEnding.ABORTED: "aborted",
}


def ending_label(game: Game) -> str:
    """A short English label of how ``game`` ended."""
    outcome = game.outcome
    if outcome is None:
        return game.status.label
    if isinstance(outcome.ending, PlatformEnding):
        return _PLATFORM_ENDING_LABELS[outcome.ending]
    return game.game_type.ending_name(outcome.key, "en")


def require_started(game: Game) -> Reject | None:
    """A rejection unless the game is in progress."""
    if game.status is GameStatus.CREATED:
        return Reject(RejectCode.NOT_STARTED, "the game has not started yet")
    if game.status.is_over:
        return Reject(RejectCode.GAME_OVER, f"the game is over ({ending_label(game)})")
    return None


def resolve_seat(game: Game, command: Command, default: int | None = None) -> int | Reject:
    """The colour ``command`` acts for: the one asked for, the actor's only seat, or (when the
    actor holds both, on one screen) ``default``."""
    seats = game.seats_of(command.actor)
    if not seats:
        if isinstance(command.actor, Server):
            return Reject(RejectCode.NOT_A_PLAYER, "the server holds no seat in the game")
        return Reject(RejectCode.NOT_A_PLAYER, "you are not playing in this game")
    if command.color is not None:
        if command.color not in seats:
            return Reject(
                RejectCode.NOT_YOUR_SEAT, f"you do not play {game.seat_name(command.color)}"
            )
        return command.color
    if len(seats) == 1 or default is None:
        return seats[0]
    return default


def stop_clock(clock: GameClock | None, at: float) -> GameClock | None:
    """The clock frozen at ``at`` (already stopped clocks stay as they are)."""
    if clock is None or not clock.running or clock.turn_started is None:
        return clock
    return clock.pause(max(at, clock.turn_started))


def rewind_clock(clock: GameClock | None, to_move: int, now: float) -> GameClock | None:
    """After a takeback: charge the time used on this turn, then start ``to_move``'s turn.

    No increment is earned and the timeout counts stay: those timeouts really happened.
    """
    if clock is None or not clock.running or clock.turn_started is None:
        return clock
    used = now - clock.turn_started
    left = list(clock.main_time)
    left[clock.to_move] -= used
    if clock.control.move_seconds is not None:  # correspondence: each turn has its full days
        left = [clock.control.move_seconds] * 2
    return dataclasses.replace(
        clock, main_time=(left[0], left[1]), to_move=to_move, turn_started=now
    )


def finish(
    game: Game,
    outcome: Outcome,
    at: float,
    *,
    leaver: int | None = None,
    abort_reason: AbortReason | None = None,
) -> Accept:
    """End the game at ``at``: stop the clock, set the status, run the scoring step."""
    clock = stop_clock(game.clock, at)
    ended = game.evolve(
        status=GameStatus.for_outcome(outcome),
        outcome=outcome,
        leaver=leaver,
        finished_at=at,
        clock=clock,
        draw_offer=None,
        takeback_request=None,
        abort_reason=abort_reason,
    )
    scores, ratings = settle_scores(ended)
    ended = ended.evolve(score_change=scores, rating_change=ratings)
    event = GameFinished(
        result=outcome.result(),
        termination=outcome.ending,
        winner=outcome.winner,
        leaver=leaver,
        at=at,
        fen=ended.fen,
        clocks=clock_view(clock, at),
        score_change=scores,
        rating_change=ratings,
        abort_reason=abort_reason,
    )
    return Accept(ended, [event])


def add_ply(
    game: Game,
    position: Position,
    text: str,
    at: float,
    clock: GameClock | None,
    **changes: Any,
) -> Game:
    """``game`` with the ply ``text`` (already pushed on ``position``) recorded at ``at``, and
    ``changes`` to its other fields made in the same copy (a game is copied whole)."""
    moves = (*game.moves, TimedMove(text, at))
    return game.with_position(position, moves=moves, clock=clock, **changes)


def lapse_offers(game: Game, mover: int) -> Accept:
    """A ply by ``mover`` declines the opponent's draw offer and ends any takeback request."""
    events: list[Event] = []
    if game.draw_offer is not None and game.draw_offer != mover:
        game = game.evolve(draw_offer=None)
        events.append(DrawDeclined(color=mover, implicit=True))
    if game.takeback_request is not None:
        events.append(TakebackDeclined(color=1 - game.takeback_request, implicit=True))
        game = game.evolve(takeback_request=None)
    return Accept(game, events)


def end_on_board(game: Game, position: Position, at: float) -> Accept:
    """Finish the game if the position decides it (docs/rules.md 5.1); otherwise no change."""
    outcome = position.outcome()
    if outcome is None:
        return Accept(game, [])
    return finish(game, outcome, at)

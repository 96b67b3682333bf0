"""What clients are told about a position and its clocks (the web board knows no rules)."""

from __future__ import annotations

from doushouqi.core.clock import GameClock
from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import square_name
from doushouqi.server.domain.events import ClockView

__all__ = ["clock_view", "legal_destinations"]


def legal_destinations(board: Board) -> dict[str, list[str]]:
    """For each square of the side to move: where its animal may legally go (none: omitted).

    >>> legal_destinations(Board("r6/3L3/7/7/7/7/7/7/7 w"))
    {'d8': ['d7', 'c8', 'e8', 'd9']}
    """
    dests: dict[str, list[str]] = {}
    for move in board.generate_legal_moves():
        dests.setdefault(square_name(move.from_square), []).append(square_name(move.to_square))
    return dests


def clock_view(clock: GameClock | None, at: float) -> ClockView | None:
    """Both clocks as they stand at ``at`` (clamped to the clock's last change)."""
    if clock is None:
        return None
    latest = max(t for t in (at, clock.turn_started, clock.paused_at) if t is not None)
    remaining = tuple(clock.remaining(c, latest) for c in (0, 1))
    shown = tuple(None if r == float("inf") else r for r in remaining)
    return ClockView(
        remaining=(shown[0], shown[1]),
        move_time_left=clock.time_left_in_move(latest),
        to_move=clock.to_move,
        running=clock.running,
        timeouts=clock.timeouts,
    )

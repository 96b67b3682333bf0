"""What clients are told about a position and its clocks (the web board knows no rules)."""

from __future__ import annotations

from doushouqi.core.clock import GameClock
from doushouqi.core.game import Position
from doushouqi.server.domain.events import ClockView

__all__ = ["clock_view", "legal_destinations"]


def legal_destinations(position: Position) -> dict[str, list[str]]:
    """For each place of a piece of the side to move: where it may legally go (none: omitted);
    the game splits its moves into places (``Position.legal_destinations``).

    >>> from doushouqi.core.game import get_game
    >>> jungle = get_game("jungle")
    >>> rules = jungle.parse_rules("wango")
    >>> legal_destinations(jungle.new_position(rules, "r6/3L3/7/7/7/7/7/7/7 w"))
    {'d8': ['d7', 'c8', 'e8', 'd9']}
    """
    return position.legal_destinations()


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

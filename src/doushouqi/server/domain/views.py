"""What clients are told about a position and its clocks (the web board knows no rules)."""

from __future__ import annotations

import math

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
    latest = at  # made with every move: no generators, no lists
    for t in (clock.turn_started, clock.paused_at):
        if t is not None and t > latest:
            latest = t
    red, blue = clock.remaining(0, latest), clock.remaining(1, latest)
    return ClockView(
        remaining=(None if red == math.inf else red, None if blue == math.inf else blue),
        move_time_left=clock.time_left_in_move(latest),
        to_move=clock.to_move,
        running=clock.running,
        timeouts=clock.timeouts,
    )

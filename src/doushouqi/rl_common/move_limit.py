"""The move limit every game's RL environment takes, ``max_plies`` (standard library only).

>>> checked_max_plies(1000), checked_max_plies(None)
(1000, None)
"""

from __future__ import annotations

__all__ = ["checked_max_plies"]


def checked_max_plies(max_plies: int | None) -> int | None:
    """``max_plies`` when it is a positive number of plies or None (no limit, where an
    environment allows none); ValueError otherwise.

    >>> checked_max_plies(0)
    Traceback (most recent call last):
    ...
    ValueError: max_plies must be a positive number of plies, got 0
    """
    if max_plies is not None and max_plies < 1:
        raise ValueError(f"max_plies must be a positive number of plies, got {max_plies}")
    return max_plies

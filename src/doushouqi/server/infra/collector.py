"""The cyclic garbage collector tuned for a server holding many live games.

Measured on a server with 400 live games (docs/server.md "Efficiency", fifth round): with
CPython's defaults the collector took about 15 % of the server's CPU, two thirds of it in
full collections that walk every object (380,000 of them: the games, their sockets, the
loaded modules). Objects that live through the few hundred allocations between two young
collections (a move's events, its request's objects, in flight at that moment) are promoted
and later walked again, and enough of them start a full collection.

So: everything loaded at start-up (modules, the app) is frozen out of the collector's walks
(``gc.freeze``: it is never garbage), and the young generation holds many more objects
before it is collected, so that a move's short-lived objects are freed by reference counting
or a young collection before they are promoted. Nothing is kept longer than a young
generation's worth of allocations; reference counting frees most objects at once anyway.
"""

from __future__ import annotations

import gc

__all__ = ["YOUNG_THRESHOLD", "tune_collector"]

#: Allocations (less deallocations) of container objects before a young collection
#: (CPython's default: 700).
YOUNG_THRESHOLD = 50_000


def tune_collector() -> None:
    """Freeze what is loaded now and raise the young generation's threshold (call once, at
    start-up, once the app is built)."""
    gc.collect()  # what start-up left as garbage is freed, not frozen
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)

"""The largest numbers a request may carry, so that none reaches a query or arithmetic unbounded.

JSON numbers have no size: ``9223372036854775808`` parses as a Python int, and SQLite refuses
an int beyond a signed 64-bit one with an ``OverflowError`` (a 500, not a database error).
So every integer and float a request model or query parameter takes has both bounds, checked
at validation (a 422 naming the field); ``tests/server/infra/test_input_bounds.py`` walks the
API's schema and the websocket's messages to keep it so. A handler that checks a narrower
range itself, with a coded answer the client words, keeps doing so: these bounds are only the
outer wall.
"""

from __future__ import annotations

__all__ = ["MAX_ID", "MAX_NUMBER", "MAX_SECONDS"]

#: Row ids, game versions, event sequence numbers, offsets: far beyond any real one, and
#: within a signed 64-bit column (SQLite's INTEGER, PostgreSQL's BIGINT).
MAX_ID = 2**62
#: Any other count, score or setting whose real range is checked later (ratings, minutes,
#: rounds, players).
MAX_NUMBER = 10**9
#: Epoch seconds and durations in seconds (the year 5138).
MAX_SECONDS = 1e11

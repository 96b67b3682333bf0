"""JSON the server writes on the hot path: each event of each move is encoded here, once for
its sockets (and the other nodes) and once for its row in the database.

orjson encodes a move's events about ten times faster than the standard library (1.5 µs
against 17 µs for a ``move_made``, measured in docs/server.md's "Efficiency"), and its output
is what ``json.dumps(..., separators=(",", ":"), ensure_ascii=False)`` wrote, but for a
non-finite float, which becomes ``null`` (valid JSON) instead of ``NaN`` (which no browser
parses). Text is kept as UTF-8, not escaped: a Chinese move name costs 3 bytes a character on
the wire, not 6.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps", "dumps_bytes", "dumps_text_keys", "encoded", "loads"]

# Integer keys (an identity's, a count's) are written as strings, as the standard library does.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """``value`` as compact JSON text (a websocket text frame)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def dumps_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (a Redis payload, a database column)."""
    return orjson.dumps(value, option=_OPTIONS)


def dumps_text_keys(value: Any) -> bytes:
    """:func:`dumps_bytes` of a value whose every key is text (a stored game's): orjson's
    conversion of other keys, not needed then, costs a third of its time (TypeError for a
    key that is not text)."""
    return orjson.dumps(value)


def encoded(text: bytes) -> Any:
    """JSON text made already (by :func:`dumps_bytes`), to be written as it is where it
    stands in a value given to :func:`dumps` (``orjson.Fragment``): not parsed, not checked.

    >>> dumps({"moves": encoded(b'[["a1a2",1.5]]')})
    '{"moves":[["a1a2",1.5]]}'
    """
    return orjson.Fragment(text)


def loads(data: str | bytes) -> Any:
    """Our own JSON read back (from Redis, from the database); not for clients' input, which
    :func:`doushouqi.server.infra.json_input.parse_json` checks first."""
    return orjson.loads(data)

"""JSON from clients, parsed once, safely: every input the server reads as JSON goes through
:func:`parse_json` (websocket messages and REST command bodies directly, other REST bodies
through :class:`doushouqi.server.infra.guards.JsonBodyGuard`), so no client can make a handler
recurse too deep or hand it a string that cannot be written back out.

Two classes of input are refused here, before any handler sees them:

* nesting deeper than :data:`MAX_DEPTH` (no message of ours nests more than three levels;
  Python's parser and pydantic recurse, and past about a thousand levels they raise
  ``RecursionError``);
* strings that are not valid Unicode text: JSON's ``\\ud800`` escape (or UTF-16/32 bytes)
  can carry a lone surrogate, which Python keeps in a ``str`` but no UTF-8 encoder will write,
  so echoing it (a message ``id``, a move in an error) or storing it would fail later.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

import orjson

__all__ = ["MAX_DEPTH", "BadJsonError", "parse_json"]

#: The deepest nesting accepted (objects and arrays), far beyond any message's own.
MAX_DEPTH = 32

_SURROGATE = re.compile("[\ud800-\udfff]")
#: A JSON string (its brackets are text), and the brackets that nest.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


class BadJsonError(ValueError):
    """The input is not JSON the server accepts; the message says why, for the client."""


def _check_text(text: str, where: str) -> None:
    if _SURROGATE.search(text):
        raise BadJsonError(f"{where}: a string holds a lone surrogate (not valid Unicode)")


def _check_tree(data: Any) -> None:
    """Depth and strings of a parsed tree, walked without recursion."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            _check_text(value, "text")
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise BadJsonError(f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(value, dict):
                for key in value:
                    _check_text(key, "a key")
                value = list(value.values())
            pending.extend((item, depth + 1) for item in value)


def _depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest (brackets inside strings do not count)."""
    brackets = _BRACKET.findall(_STRING.sub("", text))
    return max(accumulate(1 if b in "[{" else -1 for b in brackets), default=0)


def _shallow_enough(data: Any) -> bool:
    """Whether ``data``'s containers nest at most :data:`MAX_DEPTH` deep (walked without
    recursion; strings are not looked at: the fast path's parser checked them)."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if depth >= MAX_DEPTH:  # the top is at 0: MAX_DEPTH levels in all
            return False
        if type(value) is dict:
            pending.extend((item, depth + 1) for item in value.values() if type(item) in _NESTING)
        elif type(value) is list:
            pending.extend((item, depth + 1) for item in value if type(item) in _NESTING)
    return True


_NESTING = (dict, list)
#: Enough digits in a row to be an integer that orjson would read as a float.
_LONG_DIGITS = re.compile(r"[0-9]{19}")


def parse_json(raw: str | bytes) -> Any:
    """The parsed value of ``raw``; :class:`BadJsonError` for anything that is not JSON,
    nests too deep or holds text that is not valid Unicode.

    Text goes to orjson first (every websocket message does: a twentieth of the careful path's
    time). orjson accepts less than the careful path, never more: it refuses lone surrogates,
    invalid UTF-8 and ``NaN``, and does not recurse. Whatever it refuses takes the careful path,
    which accepts or refuses it and says why, as it always did; so does text with 19 digits in
    a row (orjson reads an integer past 64 bits as a float, the standard parser as an int)."""
    if isinstance(raw, str) and not _LONG_DIGITS.search(raw):
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
        else:
            if type(data) not in _NESTING or _shallow_enough(data):
                return data
            raise BadJsonError(f"nested deeper than {MAX_DEPTH} levels")
    return _parse_carefully(raw)


def _parse_carefully(raw: str | bytes) -> Any:
    try:
        text = (
            raw if isinstance(raw, str) else raw.decode(json.detect_encoding(raw), "surrogatepass")
        )
    except UnicodeDecodeError:
        raise BadJsonError("not JSON") from None
    # Measured before parsing: the parser itself must never recurse that deep (a
    # RecursionError inside C code can leave CPython 3.11's recursion accounting unbalanced).
    if _depth(text) > MAX_DEPTH:
        raise BadJsonError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except ValueError:
        raise BadJsonError("not JSON") from None
    _check_tree(data)
    return data

"""Bad ``go`` commands and the error each engine answers, for every game's protocol tests:
the words and values are read by :mod:`doushouqi.core.go_command`, the same for each game."""

from __future__ import annotations

#: ``go`` arguments (``{legal}``: a legal move of the start position) and the error message.
_BAD_GO = [
    ("depth -1", "depth: expected 0 or more, got -1"),
    ("nodes -5", "nodes: expected 0 or more, got -5"),
    ("movetime -1", "movetime: expected 0 or more, got -1"),
    ("winc -1 wtime 1000", "winc: expected 0 or more, got -1"),
    ("nodes abc", "nodes: expected an integer, got 'abc'"),
    ("movestogo nan", "movestogo: expected an integer, got 'nan'"),
    ("depth", "depth: missing value"),
    ("depth infinite", "depth: missing value"),
    ("searchmoves", "searchmoves: expected one or more moves"),
    ("searchmoves depth 2", "searchmoves: expected one or more moves"),
    ("searchmoves {legal} a1a9 zz depth 2", "searchmoves: not legal in this position: a1a9 zz"),
    ("mate 0", "mate: expected 1..1000, got 0"),
    ("sideways 5", "unknown go parameter 'sideways'"),
]

#: Limits at their edge that are a search ending at once, not an error.
ZERO_LIMITS = ["depth 0", "nodes 0", "movetime 0", "depth 0 nodes 0"]


def bad_go_probes(legal: str) -> list[tuple[str, str]]:
    """The bad ``go`` arguments with ``legal`` for a legal move, and each one's message."""
    return [(arguments.format(legal=legal), message) for arguments, message in _BAD_GO]

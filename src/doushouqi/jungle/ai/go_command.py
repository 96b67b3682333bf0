"""The protocol's ``go`` command read into a search request, every word and value checked.

``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
[movestogo N] [mate N] [searchmoves M1 M2 …] [infinite] [ponder]``. A ``go`` with anything
wrong in it (an unknown word, a missing or non-integer value, a value out of range, an empty
or illegal ``searchmoves``) is refused as a whole: :func:`parse_go` raises ValueError and the
protocol starts no search (a search under a limit nobody asked for would play a move nobody
asked for). The edge values that UCI engines accept are a search that ends by itself:

* ``depth 0`` and ``nodes 0``: the smallest search, one ply, answered at once (as Stockfish
  answers ``go depth 0``); ``movetime 0``: the shortest search (a millisecond);
* ``wtime``/``btime`` below 0: a clock already run out (the least time there is);
* ``movestogo 0``: not known (the clock is spread over the usual number of moves).

Pure Python: nothing here is compiled, so the protocol reads ``go`` before the engine loads.

>>> from doushouqi.jungle.board import Board
>>> request = parse_go("depth 3 searchmoves g3g4 a3a4".split(), Board())
>>> request.limit.depth, [str(m) for m in request.root_moves or ()]
(3, ['g3g4', 'a3a4'])
>>> parse_go(["mate", "0"], Board())
Traceback (most recent call last):
ValueError: mate: expected 1..1000, got 0
"""

from __future__ import annotations

import dataclasses

from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board, InvalidMoveError, Move

__all__ = ["GO_WORDS", "MAX_MATE", "GoRequest", "clip", "parse_go"]

#: The longest piece of a command line an error message repeats (a 1 MB line is not echoed).
CLIP = 80
#: The longest ``go mate N``: its 2N - 1 plies are already far beyond any depth reached.
MAX_MATE = 1000
_MAX_COUNT = 10**15
_MAX_MILLISECONDS = 10**12
#: Each integer parameter's accepted range.
_RANGES: dict[str, tuple[int, int]] = {
    "depth": (0, _MAX_COUNT),
    "nodes": (0, _MAX_COUNT),
    "movetime": (0, _MAX_MILLISECONDS),
    "wtime": (-_MAX_MILLISECONDS, _MAX_MILLISECONDS),
    "btime": (-_MAX_MILLISECONDS, _MAX_MILLISECONDS),
    "winc": (0, _MAX_MILLISECONDS),
    "binc": (0, _MAX_MILLISECONDS),
    "movestogo": (0, _MAX_COUNT),
    "mate": (1, MAX_MATE),
}
_FLAGS = ("infinite", "ponder")
#: Every word ``go`` knows; ``searchmoves`` takes the moves up to the next of them.
GO_WORDS = frozenset((*_RANGES, *_FLAGS, "searchmoves"))


def clip(text: str, limit: int = CLIP) -> str:
    """``text`` cut to ``limit`` characters and an ellipsis, for echoing input back.

    >>> clip("x" * 100, 5)
    'xxxxx…'
    """
    return text if len(text) <= limit else text[:limit] + "…"


@dataclasses.dataclass(frozen=True)
class GoRequest:
    """A checked ``go``: its limit, whether it ponders, and the root moves it may play."""

    limit: Limit
    ponder: bool = False
    #: ``searchmoves``: the only root moves searched (None: all of them).
    root_moves: tuple[Move, ...] | None = None


def _integer(word: str, text: str) -> int:
    low, high = _RANGES[word]
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{word}: expected an integer, got {clip(text)!r}") from None
    if not low <= value <= high:
        if high <= MAX_MATE:
            wanted = f"{low}..{high}"
        else:
            wanted = f"{low} or more" if value < low else f"at most {high}"
        raise ValueError(f"{word}: expected {wanted}, got {clip(text)}")
    return value


def _root_moves(texts: list[str], board: Board) -> tuple[Move, ...]:
    """The ``searchmoves`` moves, each legal in ``board`` (ValueError names those that are
    not)."""
    if not texts:
        raise ValueError("searchmoves: expected one or more moves")
    moves: list[Move] = []
    bad: list[str] = []
    for text in texts:
        try:
            move = Move.from_str(text)
        except (InvalidMoveError, ValueError):
            move = None
        if move is None or not move or not board.is_legal(move):  # `not move`: a pass
            bad.append(clip(text))
        elif move not in moves:
            moves.append(move)
    if bad:
        shown = " ".join(bad[:8]) + (f" (and {len(bad) - 8} more)" if len(bad) > 8 else "")
        raise ValueError(f"searchmoves: not legal in this position: {shown}")
    return tuple(moves)


def parse_go(args: list[str], board: Board) -> GoRequest:
    """The request of ``go`` with the words ``args`` in ``board`` (ValueError when anything in
    it is wrong: the message names it)."""
    values: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[str] | None = None
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word in _FLAGS:
            flags.add(word)
        elif word == "searchmoves":
            start = i
            while i < len(args) and args[i] not in GO_WORDS:
                i += 1
            searchmoves = (searchmoves or []) + args[start:i]
        elif word in _RANGES:
            if i >= len(args) or args[i] in GO_WORDS:
                raise ValueError(f"{word}: missing value")
            values[word] = _integer(word, args[i])
            i += 1
        else:
            raise ValueError(f"unknown go parameter {clip(word)!r}")
    root_moves = _root_moves(searchmoves, board) if searchmoves is not None else None

    def seconds(key: str) -> float | None:
        return values[key] / 1000 if key in values else None

    limit = Limit(
        depth=values.get("depth"),
        nodes=values.get("nodes"),
        movetime=seconds("movetime"),
        red_clock=seconds("wtime"),
        blue_clock=seconds("btime"),
        red_inc=seconds("winc"),
        blue_inc=seconds("binc"),
        infinite="infinite" in flags,
        mate=values.get("mate"),
        moves_to_go=values.get("movestogo") or None,
    )
    return GoRequest(limit, "ponder" in flags, root_moves)

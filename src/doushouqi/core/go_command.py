"""The engine protocol's ``go`` command read and checked, for every game's engine.

``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
[movestogo N] [mate N] [searchmoves M1 M2 …] [infinite] [ponder]``. A ``go`` with anything
wrong in it (an unknown word, a missing or non-integer value, a value out of range, an empty
``searchmoves``) is refused as a whole: :func:`read_go` raises ValueError and the protocol
starts no search (a search under a limit nobody asked for would play a move nobody asked
for). The edge values that UCI engines accept are a search that ends by itself:

* ``depth 0`` and ``nodes 0``: the smallest search, one ply, answered at once (as Stockfish
  answers ``go depth 0``); ``movetime 0``: the shortest search (a millisecond);
* ``wtime``/``btime`` below 0: a clock already run out (the least time there is);
* ``movestogo 0``: not known (the clock is spread over the usual number of moves).

What is the game's own stays with the game: its :class:`~doushouqi.core.analysis.Limit`
(:meth:`GoCommand.limit` builds any game's) and whether the ``searchmoves`` are legal moves
of its board (:func:`check_root_moves` asks the game, move by move).

>>> command = read_go("depth 3 searchmoves g3g4 a3a4 ponder".split())
>>> command.values, command.searchmoves, command.ponder
({'depth': 3}, ('g3g4', 'a3a4'), True)
>>> read_go(["mate", "0"])
Traceback (most recent call last):
ValueError: mate: expected 1..1000, got 0
>>> sorted(GO_WORDS - {"wtime", "btime", "winc", "binc", "movestogo"}), MAX_MATE, CLIP
(['depth', 'infinite', 'mate', 'movetime', 'nodes', 'ponder', 'searchmoves'], 1000, 80)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from doushouqi.core.analysis import Limit

__all__ = ["CLIP", "GO_WORDS", "MAX_MATE", "GoCommand", "check_root_moves", "clip", "read_go"]

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
#: The most bad ``searchmoves`` an error names one by one.
_SHOWN_MOVES = 8

LimitT = TypeVar("LimitT", bound=Limit)
MoveT = TypeVar("MoveT")


def clip(text: str, limit: int = CLIP) -> str:
    """``text`` cut to ``limit`` characters and an ellipsis, for echoing input back.

    >>> clip("x" * 100, 5), clip("short")
    ('xxxxx…', 'short')
    """
    return text if len(text) <= limit else text[:limit] + "…"


@dataclasses.dataclass(frozen=True)
class GoCommand:
    """A checked ``go``: each integer parameter by its word, the flags given, and the
    ``searchmoves`` as the texts given (None: no ``searchmoves``), not yet read as moves.

    >>> command = read_go("wtime 60000 btime 45000 movestogo 0 infinite".split())
    >>> command.values["btime"], command.infinite, command.ponder, command.searchmoves
    (45000, True, False, None)
    """

    values: Mapping[str, int] = dataclasses.field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    searchmoves: tuple[str, ...] | None = None

    @property
    def infinite(self) -> bool:
        """Whether ``go infinite`` was asked for (search until ``stop``).

        >>> read_go(["infinite"]).infinite, read_go([]).infinite
        (True, False)
        """
        return "infinite" in self.flags

    @property
    def ponder(self) -> bool:
        """Whether ``go ponder`` was asked for (search on the opponent's time).

        >>> read_go(["ponder", "movetime", "100"]).ponder
        True
        """
        return "ponder" in self.flags

    def seconds(self, word: str) -> float | None:
        """The milliseconds given with ``word`` as seconds; None when it was not given.

        >>> read_go(["movetime", "250"]).seconds("movetime"), read_go([]).seconds("wtime")
        (0.25, None)
        """
        return self.values[word] / 1000 if word in self.values else None

    def limit(self, kind: type[LimitT]) -> LimitT:
        """The search limit this ``go`` asks for, as ``kind`` (a game's own ``Limit``: every
        game's takes the standard seat names, ``white_clock`` for ``wtime`` …).
        ``movestogo 0`` is no count at all.

        >>> read_go("depth 4 wtime 1500 movestogo 0 mate 2".split()).limit(Limit)
        Limit(depth=4, mate=2, white_clock=1.5)
        """
        return kind(
            depth=self.values.get("depth"),
            nodes=self.values.get("nodes"),
            time=self.seconds("movetime"),
            white_clock=self.seconds("wtime"),
            black_clock=self.seconds("btime"),
            white_inc=self.seconds("winc"),
            black_inc=self.seconds("binc"),
            infinite=self.infinite,
            mate=self.values.get("mate"),
            remaining_moves=self.values.get("movestogo") or None,
        )


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


def read_go(args: Sequence[str]) -> GoCommand:
    """The checked ``go`` with the words ``args`` (ValueError when anything in it is wrong:
    the message names it, repeating at most :data:`CLIP` characters of any word).

    >>> read_go("depth -1".split())
    Traceback (most recent call last):
    ValueError: depth: expected 0 or more, got -1
    >>> read_go("searchmoves depth 2".split())
    Traceback (most recent call last):
    ValueError: searchmoves: expected one or more moves
    """
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
            searchmoves = (searchmoves or []) + list(args[start:i])
        elif word in _RANGES:
            if i >= len(args) or args[i] in GO_WORDS:
                raise ValueError(f"{word}: missing value")
            values[word] = _integer(word, args[i])
            i += 1
        else:
            raise ValueError(f"unknown go parameter {clip(word)!r}")
    if searchmoves is not None and not searchmoves:
        raise ValueError("searchmoves: expected one or more moves")
    return GoCommand(values, frozenset(flags), None if searchmoves is None else tuple(searchmoves))


def check_root_moves(
    texts: Sequence[str], legal_move: Callable[[str], MoveT | None]
) -> tuple[MoveT, ...]:
    """The ``searchmoves`` ``texts`` as moves, each once, in their order: ``legal_move`` is
    the game's reading of one text (None when it is no move or not legal in its board).
    ValueError naming the texts that are not (the first eight, and how many more).

    >>> legal = {"a3a4": "A", "g3g4": "G"}.get
    >>> check_root_moves(["g3g4", "a3a4", "g3g4"], legal)
    ('G', 'A')
    >>> check_root_moves(["a3a4", "a1a9", "zz"], legal)
    Traceback (most recent call last):
    ValueError: searchmoves: not legal in this position: a1a9 zz
    """
    if not texts:
        raise ValueError("searchmoves: expected one or more moves")
    moves: list[MoveT] = []
    bad: list[str] = []
    for text in texts:
        move = legal_move(text)
        if move is None:
            bad.append(clip(text))
        elif move not in moves:
            moves.append(move)
    if bad:
        shown = " ".join(bad[:_SHOWN_MOVES])
        if len(bad) > _SHOWN_MOVES:
            shown += f" (and {len(bad) - _SHOWN_MOVES} more)"
        raise ValueError(f"searchmoves: not legal in this position: {shown}")
    return tuple(moves)

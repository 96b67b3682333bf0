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

The words, ranges and checks are every game's (:mod:`doushouqi.core.go_command`); this module
adds Jungle's :class:`~doushouqi.jungle.analysis.Limit` and its moves. Pure Python: nothing
here is compiled, so the protocol reads ``go`` before the engine loads.

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

from doushouqi.core.go_command import GO_WORDS, MAX_MATE, check_root_moves, clip, read_go
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board, InvalidMoveError, Move

__all__ = ["GO_WORDS", "MAX_MATE", "GoRequest", "clip", "parse_go"]


@dataclasses.dataclass(frozen=True)
class GoRequest:
    """A checked ``go``: its limit, whether it ponders, and the root moves it may play."""

    limit: Limit
    ponder: bool = False
    #: ``searchmoves``: the only root moves searched (None: all of them).
    root_moves: tuple[Move, ...] | None = None


def _legal_move(board: Board, text: str) -> Move | None:
    """The move ``text`` if it is legal in ``board`` (a pass is no root move)."""
    try:
        move = Move.from_str(text)
    except (InvalidMoveError, ValueError):
        return None
    return move if move and board.is_legal(move) else None


def parse_go(args: list[str], board: Board) -> GoRequest:
    """The request of ``go`` with the words ``args`` in ``board`` (ValueError when anything in
    it is wrong: the message names it)."""
    command = read_go(args)
    root_moves = None
    if command.searchmoves is not None:
        root_moves = check_root_moves(command.searchmoves, lambda text: _legal_move(board, text))
    return GoRequest(command.limit(Limit), command.ponder, root_moves)

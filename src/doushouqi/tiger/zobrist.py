"""Zobrist keys of 老虎棋 positions: one 64-bit key per piece kind and point, one for the men's
side to move. The keys come from a fixed seed, so that hashes are the same in every process (a
server compares them across nodes).

>>> from doushouqi.tiger.board import Board
>>> from doushouqi.tiger.fen import TIGER
>>> from doushouqi.tiger.points import parse_point
>>> from doushouqi.tiger.rules import TIGER_SIDE
>>> pieces = Board().pieces()
>>> zobrist_hash(pieces, MEN_SIDE) == zobrist_hash(pieces, TIGER_SIDE) ^ MEN_TO_MOVE_KEY
True
>>> zobrist_hash(pieces, TIGER_SIDE) == Board().zobrist_hash()
True
>>> tiger = PIECE_POINT_KEYS[TIGER]  # the tiger from e10 to e9: two keys change
>>> board = Board()
>>> start = board.zobrist_hash()
>>> board.push_move("e10e9")
Move.from_str('e10e9')
>>> moved = tiger[parse_point("e10")] ^ tiger[parse_point("e9")]
>>> board.zobrist_hash() == start ^ moved ^ MEN_TO_MOVE_KEY
True
"""

from __future__ import annotations

import random

from doushouqi.tiger.points import NUM_POINTS
from doushouqi.tiger.rules import MEN_SIDE

__all__ = ["MEN_TO_MOVE_KEY", "PIECE_POINT_KEYS", "zobrist_hash"]

_RANDOM = random.Random("doushouqi.tiger zobrist 1")
#: ``PIECE_POINT_KEYS[code][point]`` for the piece codes TIGER (1) and MAN (2); code 0 (EMPTY)
#: has none.
PIECE_POINT_KEYS: tuple[tuple[int, ...], ...] = (
    (),
    tuple(_RANDOM.getrandbits(64) for _ in range(NUM_POINTS)),
    tuple(_RANDOM.getrandbits(64) for _ in range(NUM_POINTS)),
)
#: XORed in when the men's side is to move.
MEN_TO_MOVE_KEY = _RANDOM.getrandbits(64)


def zobrist_hash(pieces: list[int], turn: int) -> int:
    """The hash of a whole position from its 87 piece codes and the side to move; the board
    keeps it up to date as moves are pushed and popped (:meth:`Board.zobrist_hash`).

    >>> from doushouqi.tiger.fen import EMPTY
    >>> from doushouqi.tiger.rules import TIGER_SIDE
    >>> empty = [EMPTY] * NUM_POINTS
    >>> zobrist_hash(empty, TIGER_SIDE), zobrist_hash(empty, MEN_SIDE) == MEN_TO_MOVE_KEY
    (0, True)
    """
    h = MEN_TO_MOVE_KEY if turn == MEN_SIDE else 0
    for point, code in enumerate(pieces):
        if code:
            h ^= PIECE_POINT_KEYS[code][point]
    return h

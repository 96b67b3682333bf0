"""Zobrist keys for repetition detection: one 64-bit key per (piece, square), one for the turn.

The keys come from a fixed seed, so hashes are stable across runs and processes.

>>> from doushouqi.jungle.board import Board
>>> codes = Board().piece_codes()
>>> zobrist_hash(codes, 1) == zobrist_hash(codes, 0) ^ TURN_KEY
True
>>> codes[0], codes[7] = 0, codes[0]  # Red's tiger (code 6) from a1 (square 0) to a2 (7)
>>> tiger = PIECE_SQUARE_KEYS[6]
>>> zobrist_hash(codes, 0) == Board().zobrist_hash() ^ tiger[0] ^ tiger[7]
True
"""

from __future__ import annotations

import random

__all__ = ["PIECE_SQUARE_KEYS", "TURN_KEY", "zobrist_hash"]

_rng = random.Random(0x5D0C_5A09_1E5)
#: ``PIECE_SQUARE_KEYS[code][square]``; code 0 (empty) has all-zero keys.
PIECE_SQUARE_KEYS: list[list[int]] = [[0] * 63] + [
    [_rng.getrandbits(64) for _ in range(63)] for _ in range(16)
]
#: XORed in when Blue is to move.
TURN_KEY = _rng.getrandbits(64)


def zobrist_hash(codes: list[int], turn: int) -> int:
    """Hash of a whole position from its 63 piece codes and the side to move; the board keeps
    it up to date as moves are pushed and popped (:meth:`Board.zobrist_hash`).

    >>> from doushouqi.jungle.board import Board
    >>> zobrist_hash(Board().piece_codes(), 0) == Board().zobrist_hash()
    True
    >>> zobrist_hash([0] * 63, 0), zobrist_hash([0] * 63, 1) == TURN_KEY
    (0, True)
    """
    h = TURN_KEY if turn else 0
    for square, code in enumerate(codes):
        if code:
            h ^= PIECE_SQUARE_KEYS[code][square]
    return h

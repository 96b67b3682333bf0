"""Zobrist keys for repetition detection: one 64-bit key per (piece, square), one for the turn.

The keys come from a fixed seed, so hashes are stable across runs and processes.
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
    """Hash of a whole position from its 63 piece codes and the side to move."""
    h = TURN_KEY if turn else 0
    for square, code in enumerate(codes):
        if code:
            h ^= PIECE_SQUARE_KEYS[code][square]
    return h

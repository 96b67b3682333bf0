"""The engine position as flat int64 arrays, and make/unmake with an incremental Zobrist hash.

A position is two arrays, so that compiled code (perft, search) works on them without any
Python object:

* ``state`` (``STATE_SIZE`` int64): the board, where each piece stands, occupancy bitboards,
  side to move, hash, halfmove clock, ply count, and scratch space (see the ``S_*`` indices);
* ``history`` (``(capacity, HISTORY_FIELDS)`` int64): one row per ply played since the starting
  position (imported game moves, then search plies): what :func:`unmake_move` needs, plus what
  the move restrictions (7-3, 17-5, must-vary repetition) look back at.

Moves are ints ``from | to << 6`` (see :func:`encode_move`). The pass (a timeout) is not a move:
it has its own :func:`make_pass` and is recorded with moved code 0.

Compiled functions do no bounds checks: the caller keeps ``state[S_PLY] < len(history)``.
Those that run at every node take their arrays without reference counting (:data:`.jit.HOT`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import hot
from doushouqi.jungle.ai.bitops import square_bit
from doushouqi.jungle.ai.tables import CAPTURED, ZOBRIST_PIECE, ZOBRIST_TURN

__all__ = [
    "HISTORY_FIELDS",
    "H_CAPTURED",
    "H_CODE",
    "H_FROM",
    "H_HALFMOVE",
    "H_HASH",
    "H_TO",
    "STATE_SIZE",
    "S_BOARD",
    "S_FORBID",
    "S_HALFMOVE",
    "S_HASH",
    "S_OCCUPANCY",
    "S_PLY",
    "S_TURN",
    "S_WHERE",
    "S_WINDOW",
    "compute_hash",
    "encode_move",
    "hash_after",
    "make_move",
    "make_pass",
    "move_from",
    "move_to",
    "new_state",
    "unmake_move",
]

# ------------------------------------------------------------------------- state layout
#: 63 piece codes, one per square (0 empty, 1-8 Red rat..elephant, 9-16 Blue).
S_BOARD = 0
#: 17 entries: square of each piece code, or CAPTURED (63); entry 0 unused.
S_WHERE = 63
#: 2 bitboards: Red's and Blue's animals.
S_OCCUPANCY = 80
S_TURN = 82
#: Zobrist hash of board and side to move (same keys as the rules library).
S_HASH = 83
#: Plies since the last capture (passes count).
S_HALFMOVE = 84
#: Rows of ``history`` in use.
S_PLY = 85
#: Scratch, 17 entries: squares each piece code may not enter because of 7-3 / 17-5; valid only
#: right after ``compute_restrictions`` (movegen), which every generator calls first (or, for
#: ``generate_moves_given_restrictions``, its caller).
S_FORBID = 86
#: Scratch, 17 entries: history rows of the side to move's recent moves (used by 7-3 / 17-5).
S_WINDOW = 103
STATE_SIZE = 120

# ----------------------------------------------------------------------- history layout
H_FROM = 0
H_TO = 1
#: Moved piece code; 0 for a pass.
H_CODE = 2
H_CAPTURED = 3
#: Halfmove clock before the ply.
H_HALFMOVE = 4
#: Hash of the position before the ply (the positions that have "stood", for repetition).
H_HASH = 5
HISTORY_FIELDS = 6


@njit(cache=True)
def encode_move(from_square: int, to_square: int) -> int:
    return from_square | (to_square << 6)


@njit(cache=True)
def move_from(move: int) -> int:
    return move & 63


@njit(cache=True)
def move_to(move: int) -> int:
    return move >> 6


@hot
def compute_hash(state: NDArray[np.int64]) -> int:
    """Hash of the position from scratch (make/unmake keep ``state[S_HASH]`` up to date)."""
    h = ZOBRIST_TURN if state[S_TURN] == 1 else np.int64(0)
    for square in range(63):
        code = state[S_BOARD + square]
        if code != 0:
            h ^= ZOBRIST_PIECE[code, square]
    # np.int64 to the checker (the tables' constant): numba types it int64, and a compiled call
    # returns an int; int(h) would add an error path to the compiled code.
    return h  # type: ignore[return-value]


def new_state(
    codes: list[int] | NDArray[np.int64], turn: int, halfmove_clock: int = 0
) -> NDArray[np.int64]:
    """A fresh ``state`` array from 63 piece codes (as ``Board.piece_codes()`` returns them)."""
    if len(codes) != 63:
        raise ValueError(f"expected 63 piece codes, got {len(codes)}")
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_WHERE : S_WHERE + 17] = CAPTURED
    for square, code in enumerate(codes):
        if not 0 <= code <= 16:
            raise ValueError(f"invalid piece code {code} on square {square}")
        if code:
            if state[S_WHERE + code] != CAPTURED:
                raise ValueError(f"piece code {code} appears twice")
            state[S_BOARD + square] = code
            state[S_WHERE + code] = square
            state[S_OCCUPANCY + (code - 1) // 8] |= 1 << square
    state[S_TURN] = turn
    state[S_HALFMOVE] = halfmove_clock
    state[S_HASH] = compute_hash(state)
    return state


@hot
def make_move(state: NDArray[np.int64], history: NDArray[np.int64], move: int) -> None:
    """Play a move that the generator produced (no checks) and record it for unmake."""
    frm = move & 63
    to = move >> 6
    code = state[S_BOARD + frm]
    captured = state[S_BOARD + to]
    turn = state[S_TURN]
    ply = state[S_PLY]
    history[ply, H_FROM] = frm
    history[ply, H_TO] = to
    history[ply, H_CODE] = code
    history[ply, H_CAPTURED] = captured
    history[ply, H_HALFMOVE] = state[S_HALFMOVE]
    history[ply, H_HASH] = state[S_HASH]

    h = state[S_HASH] ^ ZOBRIST_TURN ^ ZOBRIST_PIECE[code, frm] ^ ZOBRIST_PIECE[code, to]
    state[S_BOARD + frm] = 0
    state[S_BOARD + to] = code
    state[S_WHERE + code] = to
    state[S_OCCUPANCY + turn] ^= square_bit(frm) | square_bit(to)
    if captured != 0:
        h ^= ZOBRIST_PIECE[captured, to]
        state[S_WHERE + captured] = CAPTURED
        state[S_OCCUPANCY + 1 - turn] ^= square_bit(to)
        state[S_HALFMOVE] = 0
    else:
        state[S_HALFMOVE] += 1
    state[S_HASH] = h
    state[S_TURN] = 1 - turn
    state[S_PLY] = ply + 1


@hot
def hash_after(state: NDArray[np.int64], move: int) -> int:
    """The hash :func:`make_move` would give the position after ``move``, without playing it
    (the search prefetches that position's table bucket). An empty square's key is 0."""
    frm = move & 63
    to = move >> 6
    code = state[S_BOARD + frm]
    h: int = (
        state[S_HASH] ^ ZOBRIST_TURN ^ ZOBRIST_PIECE[code, frm] ^ ZOBRIST_PIECE[code, to]
        ^ ZOBRIST_PIECE[state[S_BOARD + to], to]
    )  # fmt: skip
    return h


@hot
def make_pass(state: NDArray[np.int64], history: NDArray[np.int64]) -> None:
    """The side to move loses its turn (per-move timeout); counts as a ply, moves nothing."""
    ply = state[S_PLY]
    history[ply, H_FROM] = 0
    history[ply, H_TO] = 0
    history[ply, H_CODE] = 0
    history[ply, H_CAPTURED] = 0
    history[ply, H_HALFMOVE] = state[S_HALFMOVE]
    history[ply, H_HASH] = state[S_HASH]
    state[S_HALFMOVE] += 1
    state[S_HASH] ^= ZOBRIST_TURN
    state[S_TURN] = 1 - state[S_TURN]
    state[S_PLY] = ply + 1


@hot
def unmake_move(state: NDArray[np.int64], history: NDArray[np.int64]) -> None:
    """Take back the last move or pass."""
    ply = state[S_PLY] - 1
    turn = 1 - state[S_TURN]
    code = history[ply, H_CODE]
    if code != 0:
        frm = history[ply, H_FROM]
        to = history[ply, H_TO]
        captured = history[ply, H_CAPTURED]
        state[S_BOARD + frm] = code
        state[S_BOARD + to] = captured
        state[S_WHERE + code] = frm
        state[S_OCCUPANCY + turn] ^= square_bit(frm) | square_bit(to)
        if captured != 0:
            state[S_WHERE + captured] = to
            state[S_OCCUPANCY + 1 - turn] ^= square_bit(to)
    state[S_HALFMOVE] = history[ply, H_HALFMOVE]
    state[S_HASH] = history[ply, H_HASH]
    state[S_TURN] = turn
    state[S_PLY] = ply

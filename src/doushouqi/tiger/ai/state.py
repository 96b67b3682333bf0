"""The engine position as flat int64 arrays, moves as ints, make/unmake with a Zobrist hash.

A position is two arrays, so that compiled code (perft, search) works on them with no Python
object in its loops:

* ``state`` (``STATE_SIZE`` int64): what stands on each of the 87 points, where the tigers
  are, the men's count, side to move, hash, halfmove clock, move number, plies played;
* ``history`` (``(capacity, HISTORY_FIELDS)`` int64): one row per ply played since the
  position was set (the game's moves, then the search's): what :func:`unmake_move` needs and
  the hashes that repetitions look back at.

A move is one int64 (``0`` is no move: a1 to a1):

* bits 0-6: the from-point; bit 7: set for a jump;
* a step: bits 8-14 the to-point;
* a jump: from bit 8, 3 bits per hop, its direction (:mod:`.tables`); after the last hop, the
  reverse of its direction ends the list, a continuation no chain can have (it would jump the
  man just taken). 18 hops, every man of the largest start, fit in 62 bits.

A pass (a per-move timeout) is :data:`PASS_MOVE` in the history and moves nothing.
Compiled functions do no bounds checks: the caller keeps ``state[S_PLY] < len(history)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from doushouqi.compiled.jit import HOT_NOGIL
from doushouqi.tiger.ai.tables import LAND, OVER, REVERSE, ZOBRIST, ZOBRIST_TURN

__all__ = [
    "A1",
    "A2",
    "EMPTY",
    "HISTORY_FIELDS",
    "H_HALFMOVE",
    "H_HASH",
    "H_MOVE",
    "H_NUMBER",
    "JUMP_FLAG",
    "MAN",
    "MAX_HOPS",
    "PASS_MOVE",
    "STATE_SIZE",
    "S_BOARD",
    "S_FIRST",
    "S_HALFMOVE",
    "S_HASH",
    "S_MEN",
    "S_NUMBER",
    "S_PLY",
    "S_TIGER",
    "S_TURN",
    "TIGER",
    "compute_hash",
    "encode_step",
    "jump_end",
    "jump_hops",
    "make_move",
    "make_pass",
    "move_path",
    "new_state",
    "unmake_move",
]

#: Signature types: 1-D and 2-D C-contiguous int64 arrays. Every compiled function declares
#: its signature, so numba builds one variant, at import from its cache, and a cached
#: recursive function never calls a variant of itself (numba issues #6061, #6713).
A1 = "int64[::1]"
A2 = "int64[:, ::1]"

EMPTY, TIGER, MAN = 0, 1, 2

# ------------------------------------------------------------------------- state layout
#: 87 piece codes, one per point.
S_BOARD = 0
#: 2 entries: the point of each tiger, or -1 (one tiger).
S_TIGER = 87
S_MEN = 89
S_TURN = 90
#: Zobrist hash of the pieces and side to move.
S_HASH = 91
#: Plies since the last capture (passes count).
S_HALFMOVE = 92
#: Rows of ``history`` in use.
S_PLY = 93
#: The move number (rounds, as the position string's fourth field).
S_NUMBER = 94
#: The seat that moved first (the move number grows after the other seat's move).
S_FIRST = 95
STATE_SIZE = 96

# ----------------------------------------------------------------------- history layout
H_MOVE = 0
#: Halfmove clock and move number before the ply.
H_HALFMOVE = 1
H_NUMBER = 2
#: Hash of the position before the ply (the positions that have stood, for repetitions).
H_HASH = 3
HISTORY_FIELDS = 4

JUMP_FLAG = 128
PASS_MOVE = -1
MAX_HOPS = 18


@njit("int64(int64, int64)", **HOT_NOGIL)
def encode_step(from_point: int, to_point: int) -> int:
    return from_point | (to_point << 8)


@njit("int64(int64)", **HOT_NOGIL)
def jump_hops(move: int) -> int:
    """How many men a jump takes (0 for a step)."""
    if (move & JUMP_FLAG) == 0:
        return 0
    hops = 1
    previous = (move >> 8) & 7
    while hops < MAX_HOPS:
        direction = (move >> (8 + 3 * hops)) & 7
        if direction == REVERSE[previous]:
            break
        previous = direction
        hops += 1
    return hops


@njit("int64(int64)", **HOT_NOGIL)
def jump_end(move: int) -> int:
    """Where a move ends (the landing point of its last hop, or a step's to-point)."""
    if (move & JUMP_FLAG) == 0:
        end: int = (move >> 8) & 127
        return end
    at = move & 127
    hops = jump_hops(move)
    for hop in range(hops):
        at = LAND[at, (move >> (8 + 3 * hop)) & 7]
    return at


def move_path(move: int) -> tuple[int, ...]:
    """The points a move passes, from-point first (the library's ``Move.path``)."""
    move = int(move)
    at = move & 127
    if not move & JUMP_FLAG:
        return (at, (move >> 8) & 127)
    path = [at]
    for hop in range(int(jump_hops(move))):
        at = int(LAND[at, (move >> (8 + 3 * hop)) & 7])
        path.append(at)
    return tuple(path)


@njit(f"int64({A1})", **HOT_NOGIL)
def compute_hash(state: NDArray[np.int64]) -> int:
    """Hash of the position from scratch (make/unmake keep ``state[S_HASH]`` up to date)."""
    h = ZOBRIST_TURN if state[S_TURN] == 1 else np.int64(0)
    for point in range(87):
        code = state[S_BOARD + point]
        if code != 0:
            h ^= ZOBRIST[code, point]
    return h  # type: ignore[return-value]


def new_state(
    codes: list[int], turn: int, halfmove: int = 0, number: int = 1, first: int = 0
) -> NDArray[np.int64]:
    """A fresh ``state`` array from 87 piece codes (as ``Board.pieces()`` returns them)."""
    if len(codes) != 87:
        raise ValueError(f"expected 87 piece codes, got {len(codes)}")
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[S_TIGER : S_TIGER + 2] = -1
    tigers = 0
    for point, code in enumerate(codes):
        if code not in (EMPTY, TIGER, MAN):
            raise ValueError(f"invalid piece code {code} on point {point}")
        state[S_BOARD + point] = code
        if code == TIGER:
            if tigers == 2:
                raise ValueError("more than two tigers")
            state[S_TIGER + tigers] = point
            tigers += 1
        elif code == MAN:
            state[S_MEN] += 1
    state[S_TURN] = turn
    state[S_HALFMOVE] = halfmove
    state[S_NUMBER] = number
    state[S_FIRST] = first
    state[S_HASH] = compute_hash(state)
    return state


@njit(f"void({A1}, int64, int64)", **HOT_NOGIL)
def _move_tiger(state: NDArray[np.int64], frm: int, to: int) -> None:
    if state[S_TIGER] == frm:
        state[S_TIGER] = to
    else:
        state[S_TIGER + 1] = to


@njit(f"void({A1}, {A2}, int64)", **HOT_NOGIL)
def make_move(state: NDArray[np.int64], history: NDArray[np.int64], move: int) -> None:
    """Play a move that the generator produced (no checks) and record it for unmake."""
    ply = state[S_PLY]
    history[ply, H_MOVE] = move
    history[ply, H_HALFMOVE] = state[S_HALFMOVE]
    history[ply, H_NUMBER] = state[S_NUMBER]
    history[ply, H_HASH] = state[S_HASH]
    frm = move & 127
    code = state[S_BOARD + frm]
    h = state[S_HASH] ^ ZOBRIST_TURN ^ ZOBRIST[code, frm]
    state[S_BOARD + frm] = EMPTY
    if (move & JUMP_FLAG) != 0:
        at = frm
        hops = jump_hops(move)
        for hop in range(hops):
            direction = (move >> (8 + 3 * hop)) & 7
            over = OVER[at, direction]
            state[S_BOARD + over] = EMPTY
            h ^= ZOBRIST[MAN, over]
            at = LAND[at, direction]
        state[S_MEN] -= hops
        state[S_HALFMOVE] = 0
        to = at
    else:
        to = (move >> 8) & 127
        state[S_HALFMOVE] += 1
    state[S_BOARD + to] = code
    h ^= ZOBRIST[code, to]
    if code == TIGER:
        _move_tiger(state, frm, to)
    turn = state[S_TURN]
    if turn != state[S_FIRST]:
        state[S_NUMBER] += 1
    state[S_HASH] = h
    state[S_TURN] = 1 - turn
    state[S_PLY] = ply + 1


@njit(f"void({A1}, {A2})", **HOT_NOGIL)
def make_pass(state: NDArray[np.int64], history: NDArray[np.int64]) -> None:
    """The side to move loses its turn (a per-move timeout, or a null move in the search)."""
    ply = state[S_PLY]
    history[ply, H_MOVE] = PASS_MOVE
    history[ply, H_HALFMOVE] = state[S_HALFMOVE]
    history[ply, H_NUMBER] = state[S_NUMBER]
    history[ply, H_HASH] = state[S_HASH]
    turn = state[S_TURN]
    if turn != state[S_FIRST]:
        state[S_NUMBER] += 1
    state[S_HALFMOVE] += 1
    state[S_HASH] ^= ZOBRIST_TURN
    state[S_TURN] = 1 - turn
    state[S_PLY] = ply + 1


@njit(f"void({A1}, {A2})", **HOT_NOGIL)
def unmake_move(state: NDArray[np.int64], history: NDArray[np.int64]) -> None:
    """Take back the last move or pass."""
    ply = state[S_PLY] - 1
    move = history[ply, H_MOVE]
    if move != PASS_MOVE:
        frm = move & 127
        if (move & JUMP_FLAG) != 0:
            # The tiger leaves first: a chain may end where it took a man earlier.
            to = jump_end(move)
            state[S_BOARD + to] = EMPTY
            at = frm
            hops = jump_hops(move)
            for hop in range(hops):
                direction = (move >> (8 + 3 * hop)) & 7
                state[S_BOARD + OVER[at, direction]] = MAN
                at = LAND[at, direction]
            state[S_MEN] += hops
            code = TIGER
        else:
            to = (move >> 8) & 127
            code = state[S_BOARD + to]
            state[S_BOARD + to] = EMPTY
        state[S_BOARD + frm] = code
        if code == TIGER:
            _move_tiger(state, to, frm)
    state[S_HALFMOVE] = history[ply, H_HALFMOVE]
    state[S_NUMBER] = history[ply, H_NUMBER]
    state[S_HASH] = history[ply, H_HASH]
    state[S_TURN] = 1 - state[S_TURN]
    state[S_PLY] = ply

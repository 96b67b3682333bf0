"""The bridge between the rules library and the compiled core: :class:`Position`.

A :class:`Position` is the three arrays the compiled functions work on (``state``,
``history``, the compiled rules), built from a library :class:`~doushouqi.tiger.board.Board`
with its move history replayed (so that repetitions before the root count), plus move
conversion both ways and perft.

>>> from doushouqi.tiger.board import Board
>>> position = Position.from_board(Board(rules="laohuqi"))
>>> position.perft(3), sorted(position.perft_divide(1))
(143, ['e10d10', 'e10e11', 'e10e9', 'e10f10'])
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

from doushouqi.tiger.ai.movegen import MAX_MOVES, generate_moves, has_legal_move
from doushouqi.tiger.ai.movegen import perft as _perft
from doushouqi.tiger.ai.state import (
    HISTORY_FIELDS,
    JUMP_FLAG,
    MAX_HOPS,
    S_PLY,
    S_TURN,
    encode_step,
    make_move,
    make_pass,
    move_path,
    new_state,
)
from doushouqi.tiger.ai.tables import DIRECTIONS, REVERSE, compile_rules
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import BETWEEN, point_file, point_rank
from doushouqi.tiger.rules import RuleSet

__all__ = ["SEARCH_PLIES", "Position", "decode_move", "encode_move"]

#: History rows kept free beyond the game's for the search (its deepest line and more).
SEARCH_PLIES = 256


def encode_move(move: Move) -> int:
    """The engine's int for a library move (not a pass).

    >>> hex(encode_move(Move.from_str("e5e7e9")))  # e5 (40), a jump, up, up, then down: end
    '0x1ba8'
    """
    path = move.path
    if not path:
        raise ValueError("a pass has no move code")
    if len(path) == 2 and (path[0], path[1]) not in BETWEEN:
        return int(encode_step(path[0], path[1]))
    code = path[0] | JUMP_FLAG
    last = 0
    for hop, (a, b) in enumerate(pairwise(path)):
        df = (point_file(b) - point_file(a)) // 2
        dr = (point_rank(b) - point_rank(a)) // 2
        last = DIRECTIONS.index((df, dr))
        code |= last << (8 + 3 * hop)
    hops = len(path) - 1
    if hops < MAX_HOPS:
        code |= int(REVERSE[last]) << (8 + 3 * hops)
    return code


def decode_move(code: int) -> Move:
    """The library move of an engine int."""
    return Move(move_path(code))


class Position:
    """A position for the compiled functions: ``state``, ``history`` and ``compiled_rules``."""

    __slots__ = ("compiled_rules", "history", "rules", "state")

    def __init__(
        self,
        rules: RuleSet,
        state: NDArray[np.int64],
        history: NDArray[np.int64],
    ) -> None:
        self.rules = rules
        self.compiled_rules = compile_rules(rules)
        self.state = state
        self.history = history

    @classmethod
    def from_board(cls, board: Board, *, extra_plies: int = SEARCH_PLIES) -> Position:
        """The board's position with its history: its start position, then every move (and
        pass) replayed, with room for ``extra_plies`` more."""
        root = board.copy()
        played = [root.pop() for _ in range(len(root.move_stack))][::-1]
        state = new_state(
            root.pieces(), root.turn, root.halfmove_clock, root.fullmove_number, root.rules.first
        )
        history = np.zeros((len(played) + extra_plies, HISTORY_FIELDS), dtype=np.int64)
        for move in played:
            if move:
                make_move(state, history, encode_move(move))
            else:
                make_pass(state, history)
        return cls(board.rules, state, history)

    @property
    def turn(self) -> int:
        return int(self.state[S_TURN])

    @property
    def ply(self) -> int:
        return int(self.state[S_PLY])

    def legal_moves(self) -> list[int]:
        """The legal moves as engine ints, in the library's order."""
        capacity = MAX_MOVES
        while True:
            buffer = np.zeros(capacity, dtype=np.int64)
            count = int(generate_moves(self.state, self.compiled_rules, buffer, 0, capacity))
            if count <= capacity:
                return [int(m) for m in buffer[:count]]
            capacity = count

    def has_legal_move(self) -> bool:
        return bool(has_legal_move(self.state, self.compiled_rules))

    def perft(self, depth: int) -> int:
        """The number of move sequences ``depth`` plies long (the compiled generator's)."""
        if depth < 1:
            return 1
        capacity = MAX_MOVES
        while True:
            buffer = np.zeros(depth * capacity, dtype=np.int64)
            history = np.zeros((self.ply + depth + 1, HISTORY_FIELDS), dtype=np.int64)
            history[: self.ply] = self.history[: self.ply]
            total = int(_perft(self.state, history, self.compiled_rules, buffer, capacity, depth))
            if total >= 0:
                return total
            capacity *= 4  # a multi-jump position with more chains than room: again, larger

    def perft_divide(self, depth: int) -> dict[str, int]:
        """The perft count below each legal move (``depth`` ≥ 1), by move string."""
        counts: dict[str, int] = {}
        for code in self.legal_moves():
            history = np.zeros((self.ply + depth + 1, HISTORY_FIELDS), dtype=np.int64)
            history[: self.ply] = self.history[: self.ply]
            child = Position(self.rules, self.state.copy(), history)
            make_move(child.state, child.history, code)
            counts[str(decode_move(code))] = child.perft(depth - 1)
        return counts

"""The Python face of the engine core: :class:`Position` wraps the compiled arrays.

A :class:`Position` is built from a rules-library :class:`~doushouqi.jungle.board.Board` (its
starting
position plus its move history, which the move restrictions look back at), so the library stays
the one parser of position strings. Search code takes ``position.state``,
``position.history`` and ``position.compiled_rules`` and calls the compiled functions of
:mod:`.state`, :mod:`.movegen` and :mod:`.perft` directly.

>>> position = Position(rules="international")
>>> position.perft(3)
12240
>>> position.push(20, 27)  # g3g4
>>> len(position.legal_moves())
24
>>> position.zobrist_hash() == position.to_board().zobrist_hash()
True
>>> position.pop()
(20, 27)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from doushouqi.jungle.ai.movegen import (
    MAX_MOVES,
    count_legal_moves,
    generate_legal_moves,
    is_draw_by_rule,
    is_game_over_on_board,
    is_square_attacked,
    repetition_count,
)
from doushouqi.jungle.ai.perft import new_move_buffers, new_stop_flag, perft, perft_divide
from doushouqi.jungle.ai.state import (
    H_CODE,
    H_FROM,
    H_TO,
    HISTORY_FIELDS,
    S_BOARD,
    S_HALFMOVE,
    S_HASH,
    S_PLY,
    S_TURN,
    make_move,
    make_pass,
    new_state,
    unmake_move,
)
from doushouqi.jungle.ai.tables import compile_rules
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import RuleSet

__all__ = ["DEFAULT_SEARCH_PLIES", "Position"]

#: Free history rows a new position keeps beyond its game history, for search and perft.
DEFAULT_SEARCH_PLIES = 256


class Position:
    """A position for the fast engine core: board arrays, game history and compiled rules.

    ``Position(fen, rules)`` mirrors ``Board(fen, rules)``; :meth:`from_board` also imports the
    board's moves since its starting position.
    """

    __slots__ = ("compiled_rules", "history", "rules", "starting_fen", "state")

    def __init__(
        self,
        fen: str | None = None,
        rules: RuleSet | str = "wango",
        *,
        search_plies: int = DEFAULT_SEARCH_PLIES,
    ) -> None:
        board = Board(fen, rules)
        self.rules: RuleSet = board.rules
        #: The rule set as the int64 array that the compiled functions read.
        self.compiled_rules: NDArray[np.int64] = compile_rules(board.rules)
        self.starting_fen: str = board.fen()
        self.state: NDArray[np.int64] = new_state(
            board.piece_codes(), board.turn, board.halfmove_clock
        )
        self.history: NDArray[np.int64] = np.zeros((search_plies, HISTORY_FIELDS), dtype=np.int64)

    @classmethod
    def from_board(cls, board: Board, *, search_plies: int = DEFAULT_SEARCH_PLIES) -> Position:
        """The board's position with its history (moves and passes since its starting FEN)."""
        position = cls(
            board.starting_fen, board.rules, search_plies=len(board.move_stack) + search_plies
        )
        for move in board.move_stack:
            if move:
                make_move(
                    position.state, position.history, move.from_square | (move.to_square << 6)
                )
            else:
                make_pass(position.state, position.history)
        if position.zobrist_hash() != board.zobrist_hash():
            raise ValueError("the board's move history does not lead to its position")
        return position

    def copy(self) -> Position:
        position = Position.__new__(Position)
        position.rules = self.rules
        position.compiled_rules = self.compiled_rules
        position.starting_fen = self.starting_fen
        position.state = self.state.copy()
        position.history = self.history.copy()
        return position

    # ----------------------------------------------------------------------- queries

    @property
    def turn(self) -> int:
        """0 = Red to move, 1 = Blue."""
        return int(self.state[S_TURN])

    @property
    def halfmove_clock(self) -> int:
        return int(self.state[S_HALFMOVE])

    @property
    def ply(self) -> int:
        """Plies (moves and passes) played since the starting position."""
        return int(self.state[S_PLY])

    def piece_codes(self) -> list[int]:
        return [int(code) for code in self.state[S_BOARD : S_BOARD + 63]]

    def zobrist_hash(self) -> int:
        """The hash as an unsigned 64-bit number, equal to ``Board.zobrist_hash()``."""
        return int(self.state[S_HASH]) & 0xFFFF_FFFF_FFFF_FFFF

    def history_moves(self) -> list[tuple[int, int, int]]:
        """(moved code, from, to) of every ply played; a pass has code 0 (like the library)."""
        rows = self.history[: self.ply]
        return [(int(r[H_CODE]), int(r[H_FROM]), int(r[H_TO])) for r in rows]

    def is_game_over_on_board(self) -> bool:
        return bool(is_game_over_on_board(self.state))

    def is_draw_by_rule(self) -> bool:
        """No-capture limit reached, or a third repetition under ``threefold_draw``."""
        return bool(is_draw_by_rule(self.state, self.history, self.compiled_rules))

    def is_attacked(self, square: int) -> bool:
        """Whether the animal on ``square`` could be captured by the other side now."""
        return bool(is_square_attacked(self.state, self.compiled_rules, square))

    def repetition_count(self) -> int:
        """How many times the current position (board and side to move) has stood."""
        return int(repetition_count(self.state, self.history))

    def legal_move_codes(self) -> NDArray[np.int64]:
        """The legal moves as encoded ints ``from | to << 6``."""
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        count = generate_legal_moves(self.state, self.history, self.compiled_rules, moves)
        return moves[:count]

    def legal_moves(self) -> list[tuple[int, int]]:
        """The legal moves as (from square, to square) pairs."""
        return [(int(m) & 63, int(m) >> 6) for m in self.legal_move_codes()]

    def legal_move_count(self) -> int:
        return int(count_legal_moves(self.state, self.history, self.compiled_rules))

    def to_board(self) -> Board:
        """A rules-library board with the same starting position and history."""
        board = Board(self.starting_fen, self.rules)
        for code, frm, to in self.history_moves():
            board.push(Move(frm, to) if code else Move.null())
        return board

    # -------------------------------------------------------------------- making moves

    def _reserve(self, plies: int) -> None:
        """Make room in the history for ``plies`` more plies (compiled code never checks)."""
        needed = self.ply + plies
        if needed > len(self.history):
            grown = np.zeros((max(needed, 2 * len(self.history)), HISTORY_FIELDS), np.int64)
            grown[: len(self.history)] = self.history
            self.history = grown

    def push(self, from_square: int, to_square: int) -> None:
        """Play a legal move; raises ValueError for an illegal one."""
        move = from_square | (to_square << 6)
        if move not in self.legal_move_codes():
            raise ValueError(f"illegal move {Move(from_square, to_square)} in this position")
        self._reserve(1)
        make_move(self.state, self.history, move)

    def push_pass(self) -> None:
        """The side to move loses its turn (per-move timeout)."""
        self._reserve(1)
        make_pass(self.state, self.history)

    def pop(self) -> tuple[int, int] | None:
        """Take back the last ply; returns its (from, to), or None for a pass."""
        if self.ply == 0:
            raise IndexError("no move to take back")
        row = self.history[self.ply - 1]
        move = (int(row[H_FROM]), int(row[H_TO])) if row[H_CODE] else None
        unmake_move(self.state, self.history)
        return move

    # ------------------------------------------------------------------------- perft

    def perft(self, depth: int, stop: NDArray[np.int64] | None = None) -> int:
        """Leaf positions ``depth`` plies ahead (as ``Board.perft``). ``stop``
        (:func:`~.perft.new_stop_flag`): set from another thread, it ends the walk early with
        an incomplete count."""
        self._reserve(depth)
        flag = stop if stop is not None else new_stop_flag()
        buffers = new_move_buffers(depth)
        return int(perft(self.state, self.history, self.compiled_rules, depth, buffers, flag))

    def perft_divide(self, depth: int, stop: NDArray[np.int64] | None = None) -> dict[str, int]:
        """Perft per first move, keyed by move string (``"g3g4"``). Stopped early through
        ``stop``, it holds only the moves counted to the end."""
        if depth < 1:
            raise ValueError("perft_divide needs depth >= 1")
        self._reserve(depth)
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        counts = np.empty(MAX_MOVES, dtype=np.int64)
        n = perft_divide(
            self.state,
            self.history,
            self.compiled_rules,
            depth,
            new_move_buffers(depth),
            moves,
            counts,
            stop if stop is not None else new_stop_flag(),
        )
        return {
            str(Move(int(m) & 63, int(m) >> 6)): int(c)
            for m, c in zip(moves[:n], counts[:n], strict=True)
            if c >= 0
        }

    def __repr__(self) -> str:
        return f"<Position ply={self.ply} after {self.starting_fen!r}, rules={self.rules.name!r}>"

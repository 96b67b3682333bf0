"""The move restrictions (违例) that depend on the game's history (docs/rules.md section 6).

- ``rule_7_3`` (无赖长杀): within the side's last 7 moves one animal entered one square 3 times
  → it may not enter that square now; not if it entered a trap in those moves, nor if it stands
  attacked now (it is being chased).
- ``rule_17_5`` (武松长杀): the side's last 17 moves all moved one animal, which stayed within at
  most 5 squares (its start square counted) → it may not enter any of them now; not if it entered
  a trap in those moves.
- ``repetition = initiator_must_vary``: once a position stands for the third time, the side to
  move may not play into a position that has already stood twice.

Choices the rule texts leave open (docs/rules.md marks them as the project's): passes
(timeouts) are not moves, so the windows skip them; the windows only see moves played since the
board's starting position; "a trap" is any of the six.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Protocol

from doushouqi.jungle.rules import Repetition, RuleSet
from doushouqi.jungle.squares import CAPTURED, TRAPS_ALL, code_color
from doushouqi.jungle.zobrist import PIECE_SQUARE_KEYS, TURN_KEY

__all__ = ["forbidden_by_restrictions"]


class RestrictionsBoard(Protocol):
    """What the restrictions read of a board: :class:`doushouqi.jungle.board.Board` has it (and
    calls :func:`forbidden_by_restrictions`; this module does not import the board)."""

    rules: RuleSet
    turn: int
    _sq: list[int]
    _where: list[int]
    _hash: int
    # One record per ply, (from, to, moved code, ...): doushouqi.jungle.board.UndoRecord.
    _undo: list[tuple[int, int, int, int, int, int, int]]

    def is_attacked(self, square: int) -> bool: ...
    def repetition_count(self) -> int: ...
    def position_counts(self) -> Counter[int]: ...
    def _generate_basic(self) -> Iterator[tuple[int, int]]: ...


# The fewest own moves with which each window can forbid anything (enter, leave, enter, leave,
# enter for 7-3), used to skip the work in short games and perft.
_MIN_MOVES_7_3 = 5
_WINDOW_7_3 = 7
_WINDOW_17_5 = 17


def forbidden_by_restrictions(board: RestrictionsBoard) -> set[tuple[int, int]] | None:
    """(from, to) pairs the restrictions forbid now, or None when no restriction is active.
    The board calls it (:meth:`doushouqi.jungle.board.Board.is_legal`).

    >>> from doushouqi.jungle.board import Board
    >>> board = Board(rules="classic")  # rule 7-3
    >>> forbidden_by_restrictions(board) is None
    True
    >>> board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)  # the rat entered g4 twice
    >>> forbidden_by_restrictions(board)  # g3 to g4 (squares 20, 27)
    {(20, 27)}
    """
    rules = board.rules
    undo = board._undo
    forbidden: set[tuple[int, int]] | None = None
    if rules.rule_7_3 or rules.rule_17_5:
        recent = _own_recent_moves(board, _WINDOW_17_5 if rules.rule_17_5 else _WINDOW_7_3)
        if rules.rule_7_3 and len(recent) >= _MIN_MOVES_7_3:
            forbidden = _add(forbidden, _forbidden_7_3(board, recent[:_WINDOW_7_3]))
        if rules.rule_17_5 and len(recent) >= _WINDOW_17_5:
            forbidden = _add(forbidden, _forbidden_17_5(board, recent))
    if (
        rules.repetition is Repetition.INITIATOR_MUST_VARY
        and len(undo) >= 8
        and board.repetition_count() >= 3
    ):
        forbidden = _add(forbidden, _forbidden_repeating(board))
    return forbidden


def _add(
    forbidden: set[tuple[int, int]] | None, more: set[tuple[int, int]]
) -> set[tuple[int, int]] | None:
    if not more:
        return forbidden
    return more if forbidden is None else forbidden | more


def _own_recent_moves(board: RestrictionsBoard, limit: int) -> list[tuple[int, int, int]]:
    """The side to move's last ``limit`` moves as (code, from, to), newest first."""
    moves = []
    turn = board.turn
    for frm, to, code, *_ in reversed(board._undo):
        if code and code_color(code) == turn:
            moves.append((code, frm, to))
            if len(moves) == limit:
                break
    return moves


def _forbidden_7_3(
    board: RestrictionsBoard, window: list[tuple[int, int, int]]
) -> set[tuple[int, int]]:
    entries: dict[tuple[int, int], int] = {}
    entered_trap: set[int] = set()
    for code, _frm, to in window:
        entries[code, to] = entries.get((code, to), 0) + 1
        if TRAPS_ALL >> to & 1:
            entered_trap.add(code)
    forbidden = set()
    for (code, to), count in entries.items():
        if count < 3 or code in entered_trap:
            continue
        square = board._where[code]
        if square == CAPTURED or board.is_attacked(square):
            continue
        forbidden.add((square, to))
    return forbidden


def _forbidden_17_5(
    board: RestrictionsBoard, window: list[tuple[int, int, int]]
) -> set[tuple[int, int]]:
    code = window[0][0]
    if any(c != code for c, _, _ in window):
        return set()
    squares = {to for _, _, to in window} | {window[-1][1]}
    if len(squares) > 5 or any(TRAPS_ALL >> s & 1 for _, _, s in window):
        return set()
    square = board._where[code]
    return {(square, to) for to in squares}


def _forbidden_repeating(board: RestrictionsBoard) -> set[tuple[int, int]]:
    counts = board.position_counts()
    sq = board._sq
    forbidden = set()
    for frm, to in board._generate_basic():
        code = sq[frm]
        keys = PIECE_SQUARE_KEYS[code]
        after = board._hash ^ TURN_KEY ^ keys[frm] ^ keys[to] ^ PIECE_SQUARE_KEYS[sq[to]][to]
        if counts[after] >= 2:
            forbidden.add((frm, to))
    return forbidden

"""Why a move is illegal on a 老虎棋 board, in words: :func:`explain_illegal`, which
:meth:`doushouqi.tiger.board.Board.explain_illegal` (and so ``is_legal``, ``parse_move`` and
``push_move``) calls.

>>> from doushouqi.tiger.board import Board
>>> from doushouqi.tiger.moves import Move
>>> reason = explain_illegal(Board(), Move.from_str("e10e8"))
>>> reason, reason.code, reason.details["piece"]
('no man on e9 to jump', 'no_man', 'tiger')
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Protocol

from doushouqi.core.game import IllegalReason
from doushouqi.tiger.fen import EMPTY, MAN, TIGER
from doushouqi.tiger.points import (
    BETWEEN,
    NEIGHBOURS,
    Diagonals,
    point_file,
    point_name,
    point_rank,
)

if TYPE_CHECKING:
    from doushouqi.tiger.moves import Move
    from doushouqi.tiger.rules import RuleSet

__all__ = ["explain_illegal"]

_SIDE_WORDS = ("the tiger side", "the men's side")
_PIECE_WORDS = {TIGER: "tiger", MAN: "man"}


class LegalityBoard(Protocol):
    """What :func:`explain_illegal` reads of a
    board (:class:`doushouqi.tiger.board.Board` has it)."""

    rules: RuleSet
    turn: int
    _pieces: list[int]
    _men: int
    _neighbours: tuple[tuple[int, ...], ...]

    def is_game_over_on_board(self) -> bool: ...
    def has_legal_move(self) -> bool: ...
    def _has_jump(self) -> bool: ...


def explain_illegal(
    board: LegalityBoard, move: Move, *, allow_pass: bool = False
) -> IllegalReason | None:
    """Why ``move`` is illegal on ``board``, or None when it is legal
    (:meth:`doushouqi.tiger.board.Board.explain_illegal` says more, with examples).

    >>> from doushouqi.tiger.board import Board
    >>> from doushouqi.tiger.moves import Move
    >>> board = Board("3/1T1/9/9/9/9/9/4M4/4M4/9/MM6M m")
    >>> explain_illegal(board, Move.from_str("e4e6"))
    'men never capture: only a tiger jumps, and a man moves one step'
    >>> explain_illegal(board, Move.null()).code, explain_illegal(board, Move.from_str("e4e5"))
    ('pass', None)
    """
    if board.is_game_over_on_board():
        below = board.rules.tiger_wins_below
        text = f"the game is over: {board._men} men are left, fewer than {below}"
        return IllegalReason("game_over", text, men=str(board._men), below=str(below))
    if not move:
        if not allow_pass:
            text = "a pass is no move a player may choose (a timeout makes it)"
            return IllegalReason("pass", text)
        if not board.has_legal_move():
            text = f"{_SIDE_WORDS[board.turn]} has no legal move: the game is over"
            return IllegalReason("no_move", text)
        return None
    path = move.path
    start = path[0]
    code = board._pieces[start]
    where = {"from": point_name(start), "to": point_name(path[1])}
    if code == EMPTY:
        return IllegalReason("empty", f"there is no piece on {where['from']}", **where)
    where["piece"] = _PIECE_WORDS[code]
    if code - 1 != board.turn:
        text = (
            f"the {_PIECE_WORDS[code]} on {where['from']} is not to move: it is "
            f"{_SIDE_WORDS[board.turn]}'s turn"
        )
        return IllegalReason("not_yours", text, **where)
    for a, b in pairwise(path):
        if a == b:
            text = f"a move cannot stay on {point_name(a)}"
            return IllegalReason("stay", text, **where)
    if code == MAN:
        return _explain_man(board, start, path, where)
    return _explain_tiger(board, start, path, where)


def _no_line(board: LegalityBoard, a: int, b: int, where: dict[str, str]) -> IllegalReason:
    """Why a and b are no step: not neighbours on a line (naming the option when they are
    diagonal neighbours that another ``diagonals`` would join)."""
    words = f"{point_name(a)} and {point_name(b)} are not joined by a line"
    if b in NEIGHBOURS[Diagonals.ALL][a]:  # a diagonal that "all" would draw
        words += f" (diagonals: {board.rules.diagonals.value})"
    return IllegalReason("no_line", words, **{**where, "from": point_name(a), "to": point_name(b)})


def _explain_man(
    board: LegalityBoard, start: int, path: tuple[int, ...], where: dict[str, str]
) -> IllegalReason | None:
    to = path[1]
    if len(path) > 2 or (to not in board._neighbours[start] and (start, to) in BETWEEN):
        text = "men never capture: only a tiger jumps, and a man moves one step"
        return IllegalReason("man_jumps", text, **where)
    if to not in board._neighbours[start]:
        return _no_line(board, start, to, where)
    if board._pieces[to] != EMPTY:
        return IllegalReason("occupied", f"{point_name(to)} is occupied", **where)
    if not board.rules.men_retreat and point_rank(to) < point_rank(start):
        text = (
            f"men may not retreat (men_retreat is off): {point_name(to)} is below "
            f"{point_name(start)}"
        )
        return IllegalReason("retreat", text, **where)
    return None


def _explain_tiger(
    board: LegalityBoard, start: int, path: tuple[int, ...], where: dict[str, str]
) -> IllegalReason | None:
    to = path[1]
    step_ends = "a step ends the move: only jumps follow one another"
    if to in board._neighbours[start]:
        if len(path) > 2:
            return IllegalReason("step_ends", step_ends, **where)
        if board._pieces[to] != EMPTY:
            return IllegalReason("occupied", f"{point_name(to)} is occupied", **where)
        if board.rules.capture_mandatory and board._has_jump():
            text = "a capture is mandatory (capture_mandatory is on) and a tiger can jump"
            return IllegalReason("must_capture", text, **where)
        return None
    if len(path) > 2 and not board.rules.multi_jump:
        return IllegalReason("one_jump", "one jump per move (multi_jump is off)", **where)
    pieces = board._pieces.copy()
    pieces[start] = EMPTY
    for a, b in pairwise(path):
        over = BETWEEN.get((a, b))
        jump = {**where, "from": point_name(a), "to": point_name(b)}
        if b in board._neighbours[a]:
            return IllegalReason("step_ends", step_ends, **jump)
        if over is None:
            if abs(point_file(a) - point_file(b)) == 1 == abs(point_rank(a) - point_rank(b)):
                return _no_line(board, a, b, where)  # diagonal neighbours, no line between
            text = (
                f"{point_name(a)} and {point_name(b)} are not joined by a line, nor two "
                f"points apart along one"
            )
            return IllegalReason("too_far", text, **jump)
        jump["over"] = point_name(over)
        if over not in board._neighbours[a] or b not in board._neighbours[over]:
            text = (
                f"no line runs from {point_name(a)} over {point_name(over)} to "
                f"{point_name(b)} (diagonals: {board.rules.diagonals.value})"
            )
            return IllegalReason("no_jump_line", text, **jump)
        if pieces[over] == TIGER:
            text = f"a tiger never jumps a tiger (on {point_name(over)})"
            return IllegalReason("jumps_tiger", text, **jump)
        if pieces[over] != MAN:
            text = f"no man on {point_name(over)} to jump" + (
                " (he is taken earlier in this move)" if board._pieces[over] == MAN else ""
            )
            return IllegalReason("no_man", text, **jump)
        if pieces[b] != EMPTY:
            text = f"the landing point {point_name(b)} is taken"
            return IllegalReason("landing_taken", text, **jump)
        pieces[over] = EMPTY
    return None

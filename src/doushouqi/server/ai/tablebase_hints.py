"""Hints from the endgame tables: a covered position's best move, at once, without the engine.

The tables' best move (the fastest win, a draw, the longest defence; :func:`probe_moves`'s
order) that does not make a third occurrence of a position in this game — the tables do not
read the history, so a won position could otherwise be "won" into a repetition draw. The
answer has the shape of ``POST /api/analysis``'s (``bestmove``, ``score``, ``lines``) plus
``source: "tablebase"`` and the chosen move's table value for the side that plays it
(``tablebase``: category and DTM in plies, counted from the position).
"""

from __future__ import annotations

from typing import Any

from doushouqi.jungle.board import Board
from doushouqi.jungle.notation import move_to_readable
from doushouqi.jungle.tablebase.file_format import out_of_scope_reason
from doushouqi.jungle.tablebase.probe import MoveValue, TablebaseError, probe, probe_moves

__all__ = ["table_hint"]


def _category(wdl: int) -> str:
    return "win" if wdl > 0 else "loss" if wdl < 0 else "draw"


def _best(board: Board, values: list[MoveValue]) -> MoveValue:
    """The first move as good as the best whose result is no third repetition; when every
    such move repeats, the first move that keeps the value's kind (win, draw, loss)."""
    best = values[0].value
    for item in values:
        if item.value != best:
            break
        board.push(item.move)
        try:
            repeats = board.is_repetition(3)
        finally:
            board.pop()
        if not repeats:
            return item
    return values[0]


def table_hint(board: Board) -> dict[str, Any] | None:
    """The hint for ``board`` (its move stack is the game so far) from the tables, or None when
    they do not cover it (a rule set out of scope, too many animals, a damaged file)."""
    if out_of_scope_reason(board.rules) or board.is_game_over():
        return None
    try:
        entry = probe(board)
        values = probe_moves(board) if entry is not None else None
    except TablebaseError:
        return None  # a damaged table: the engine answers instead
    if entry is None or not values:
        return None
    chosen = _best(board, values)
    move, value = chosen.move, chosen.value
    dtm = value.dtm
    if value.wdl > 0:
        score: dict[str, int] = {"den": ((dtm or 1) + 1) // 2}  # own moves, as the engine says
    elif value.wdl < 0:
        score = {"den": -max(1, (dtm or 0) // 2)}
    else:
        score = {"cp": 0}
    line = {
        "move": str(move),
        "readable_en": move_to_readable(board, move, "en"),
        "readable_zh": move_to_readable(board, move, "zh"),
        "score": score,
        "depth": 0,
        "pv": [str(move)],
    }
    return {
        "bestmove": str(move),
        **{key: item for key, item in line.items() if key != "move"},
        "lines": [line],
        "source": "tablebase",
        "tablebase": {"category": _category(value.wdl), "dtm": value.dtm},
    }

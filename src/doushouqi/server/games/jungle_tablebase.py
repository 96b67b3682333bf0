"""Jungle's endgame tables on the site: ``GET /api/tablebase``'s answer and table hints.

Both read :mod:`doushouqi.jungle.tablebase.probe` (files, the standard library) on the board
behind a position of the game interface; the registry lists them as Jungle's
:class:`~doushouqi.server.games.capabilities.Tablebase`.

The probe's answer is like lichess's tablebase API: the position's ``category`` (``win`` /
``draw`` / ``loss`` for the side to move, ``unknown`` when not covered, with ``reason``),
``dtm`` (plies to the end with perfect play, None for a draw), ``text`` (``"Red wins in 17"``)
and ``moves``: each legal move with its ``category`` and ``dtm`` *for the side that plays it*,
best first (fastest win, draws, longest defence).

A hint is the tables' best move (:func:`probe_moves`'s order) that does not make a third
occurrence of a position in this game: the tables do not read the history, so a won position
could otherwise be "won" into a repetition draw.
"""

from __future__ import annotations

from typing import Any

from doushouqi.core.game import Position
from doushouqi.jungle.board import Board
from doushouqi.jungle.moves import Move
from doushouqi.jungle.notation import move_to_readable
from doushouqi.jungle.tablebase.file_format import out_of_scope_reason
from doushouqi.jungle.tablebase.probe import (
    TablebaseError,
    probe,
    probe_moves,
)
from doushouqi.server.games.capabilities import Tablebase, TablesDamaged
from doushouqi.server.games.jungle import board_of
from doushouqi.server.games.tablebase_answers import (
    best_unrepeated,
    covered_answer,
    table_hint_answer,
    uncovered_answer,
)
from doushouqi.server.infra.refused import Refused

__all__ = ["TABLEBASE", "table_answer", "table_hint"]


def table_answer(position: Position) -> dict[str, Any]:
    """The tables' value of ``position`` and of each of its legal moves (the module
    docstring); Refused (``tablebase.bad_fen``) for a position that is not valid."""
    board = board_of(position).copy(stack=False)  # the tables read no history
    if not board.is_valid():
        raise Refused("tablebase.bad_fen", "the position is not valid")
    base: dict[str, Any] = {"fen": board.fen(), "rules": board.rules.name, "turn": board.turn}
    reason = out_of_scope_reason(board.rules)
    try:
        entry = None if reason else probe(board)
        values = probe_moves(board) if entry is not None else None
    except TablebaseError as exc:
        raise TablesDamaged(str(exc)) from None
    if entry is None:
        if reason is None:
            over = board.is_game_over()
            reason = "the game is over" if over else "no table covers this position"
        return uncovered_answer(base, reason)
    return covered_answer(
        base, board, entry, values or [],
        position_string=Board.fen, names=_names,
    )  # fmt: skip


def _names(board: Board, move: Move) -> tuple[str, str, str]:
    return (board.san(move), move_to_readable(board, move, "en"),
            move_to_readable(board, move, "zh"))  # fmt: skip


def table_hint(position: Position) -> dict[str, Any] | None:
    """The hint for ``position`` (its moves are the game so far) from the tables, or None when
    they do not cover it (a rule set out of scope, too many animals, a damaged file)."""
    board = board_of(position)
    if out_of_scope_reason(board.rules) or board.is_game_over():
        return None
    try:
        entry = probe(board)
        values = probe_moves(board) if entry is not None else None
    except TablebaseError:
        return None  # a damaged table: the engine answers instead
    if entry is None or not values:
        return None
    chosen = best_unrepeated(board, values)
    move, value = chosen.move, chosen.value
    readable = (move_to_readable(board, move, "en"), move_to_readable(board, move, "zh"))
    return table_hint_answer(str(move), value.wdl, value.dtm, readable, "den")


#: Jungle's tables, as the registry lists them.
TABLEBASE = Tablebase(probe=table_answer, hint=table_hint)

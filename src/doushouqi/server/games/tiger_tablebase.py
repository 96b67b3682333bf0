"""The Tiger's (老虎棋) endgame tables on the site: ``GET /api/tablebase``'s answer and hints.

Both read :mod:`doushouqi.tiger.tablebase.probe` (the tiger against four men, the standard
library: a few compressed blocks decompressed per probe) on the board behind a position of the
game interface; the registry lists them as the Tiger's
:class:`~doushouqi.server.games.capabilities.Tablebase`. The answer has the shape of Jungle's
(server/games/jungle_tablebase.py): the position's ``category`` for the side to move (``win`` /
``draw`` / ``loss``, ``unknown`` with a ``reason`` where no table covers it), ``dtm`` in
plies, ``text``, and ``moves``: each legal move's ``category`` and ``dtm`` for the side that
plays it, best first, with its notation (``readable_en``, ``readable_zh``).

A hint is the tables' best move that does not make a third occurrence of a position in this
game (the tables do not read the history), scored as the Tiger's engine scores a decided game
(``{"win": n}``, n of the side to move's own moves).
"""

from __future__ import annotations

from typing import Any

from doushouqi.core.game import Position
from doushouqi.core.tablebase_file import TablebaseError
from doushouqi.server.games.capabilities import Tablebase, TablesDamaged
from doushouqi.server.games.tablebase_answers import (
    best_unrepeated,
    covered_answer,
    table_hint_answer,
    uncovered_answer,
)
from doushouqi.server.games.tiger import DECIDED, board_of
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.san import move_to_san
from doushouqi.tiger.tablebase.file_format import out_of_scope_reason
from doushouqi.tiger.tablebase.probe import MoveValue, Probe, probe, probe_moves

__all__ = ["TABLEBASE", "table_answer", "table_hint"]


def _uncovered(board: Board) -> str:
    """Why no table answers for ``board`` (the probe gave none)."""
    if board.is_game_over():
        return "the game is over"
    tigers, men = len(board.tiger_points()), len(board.man_points())
    reason = "the tables hold one tiger" if tigers != 1 else out_of_scope_reason(board.rules, men)
    return reason or "no table covers this position"


def _probe(board: Board) -> tuple[Probe | None, list[MoveValue] | None]:
    try:
        entry = probe(board)
        return entry, probe_moves(board) if entry is not None else None
    except TablebaseError as exc:
        raise TablesDamaged(str(exc)) from None


def table_answer(position: Position) -> dict[str, Any]:
    """The tables' value of ``position`` and of each of its legal moves (the module
    docstring); TablesDamaged when a table file cannot be read."""
    board = board_of(position).copy()
    board.clear_stack()  # the tables read no history
    base: dict[str, Any] = {
        "fen": board.position_string(),
        "rules": board.rules.name,
        "turn": board.turn,
    }
    entry, values = _probe(board)
    if entry is None:
        return uncovered_answer(base, _uncovered(board))
    return covered_answer(
        base, board, entry, values or [],
        position_string=Board.position_string, names=_names,
    )  # fmt: skip


def _names(board: Board, move: Move) -> tuple[str, str, str]:
    english = move_to_san(board, move, "en")
    return english, english, move_to_san(board, move, "zh")


def table_hint(position: Position) -> dict[str, Any] | None:
    """The hint for ``position`` (its moves are the game so far) from the tables, or None when
    they do not cover it (the material, the rules, a game over, a damaged file)."""
    board = board_of(position).copy()
    if board.is_game_over():
        return None
    try:
        entry, values = _probe(board)
    except TablesDamaged:
        return None  # the engine answers instead
    if entry is None or not values:
        return None
    chosen = best_unrepeated(board, values)
    move, value = chosen.move, chosen.value
    readable = (move_to_san(board, move, "en"), move_to_san(board, move, "zh"))
    return table_hint_answer(str(move), value.wdl, value.dtm, readable, DECIDED)


#: The Tiger's tables, as the registry lists them.
TABLEBASE = Tablebase(probe=table_answer, hint=table_hint)

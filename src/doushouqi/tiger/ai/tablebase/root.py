"""The engine's use of the Tiger's tables at the root: a covered, decided position is played
from the tables (the fastest win, the longest defence) with an exact score, and not searched;
at a covered drawn position the search's move is kept unless it would lose.

Pure Python (the rules library's reader, :mod:`doushouqi.tiger.tablebase.probe`): nothing here
is compiled, and the search itself does not probe (the tables' material is reached only at
the end of a game, where the root's answer is what matters).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from doushouqi.core import tablebase_root
from doushouqi.tiger.analysis import PlayResult
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.tablebase.probe import probe, probe_moves

__all__ = ["keep_the_draw", "tablebase_root_move"]


def tablebase_root_move(
    board: Board, directories: Sequence[Path] | None = None
) -> PlayResult | None:
    """The tables' move for ``board`` when it is covered and won or lost, else None (draws
    are left to the search, which plays for the opponent's mistakes).

    The best move by the tables whose result is not a draw by repetition in this game's
    history (the tables do not know the history); ``score`` is ``win N`` in own moves
    (``win -N`` when lost), ``string`` says ``tablebase: the tiger wins in 3`` (plies). Tables
    are looked for in ``directories`` (by default the reader's). The logic is the core's
    (:func:`doushouqi.core.tablebase_root.root_move`) over this game's reader.
    """
    return tablebase_root.root_move(board, probe, probe_moves, directories)


def keep_the_draw(
    board: Board, move: Move, directories: Sequence[Path] | None = None
) -> Move | None:
    """At a drawn root the tables cover: a drawing move in place of ``move`` when ``move``
    would lose (the search's pick is kept whenever it holds the draw), else None."""
    drawing: Move | None = tablebase_root.keep_the_draw(
        board, move, probe, probe_moves, directories
    )
    return drawing

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

from doushouqi.tiger.analysis import Info, PlayResult, Score
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
    (``win -N`` when lost), ``string`` says ``tablebase: the tiger wins in 3`` (plies).
    """
    entry = probe(board, directories)
    if entry is None or entry.wdl == 0:
        return None
    values = probe_moves(board, directories)
    if not values:
        return None
    for item in values:
        if item.value != values[0].value:
            break  # only the moves as good as the best keep the value
        board.push(item.move)
        try:
            drawn = board.is_repetition(3)
        finally:
            board.pop()
        if drawn:
            continue
        dtm = entry.dtm or 0
        score = Score(mate=(dtm + 1) // 2) if entry.wdl > 0 else Score(mate=-max(1, dtm // 2))
        info = Info(
            depth=0,
            score=score,
            pv=[item.move],
            nodes=0,
            string=f"tablebase: {entry.describe(board.turn)}",
        )
        return PlayResult(item.move, info)
    return None


def keep_the_draw(
    board: Board, move: Move, directories: Sequence[Path] | None = None
) -> Move | None:
    """At a drawn root the tables cover: a drawing move in place of ``move`` when ``move``
    would lose (the search's pick is kept whenever it holds the draw), else None."""
    entry = probe(board, directories)
    if entry is None or entry.wdl != 0:
        return None
    values = probe_moves(board, directories)
    if not values:
        return None
    chosen = next((v for v in values if v.move == move), None)
    if chosen is None or chosen.value.wdl >= 0:
        return None
    return next((v.move for v in values if v.value.wdl == 0), None)

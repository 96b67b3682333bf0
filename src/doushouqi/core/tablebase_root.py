"""The engines' use of endgame tables at the root, for any game with tables: a covered,
decided position is played from the tables (the fastest win, the longest defence) with an
exact score, and not searched; at a covered drawn position the search's move is kept unless
it would lose.

Each game's engine binds its own reader (``probe`` and ``probe_moves`` of its
``tablebase.probe``) in its ``ai/tablebase/root.py``; what the tables answer is read through
the small protocols below, which both games' readers meet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from doushouqi.core.analysis import Info, PlayResult, Score

__all__ = ["keep_the_draw", "root_move"]


class _Board(Protocol):
    turn: int

    def push(self, move: Any) -> Any: ...

    def pop(self) -> Any: ...

    def is_repetition(self, count: int = 3) -> bool: ...


class _Entry(Protocol):
    @property
    def wdl(self) -> int: ...

    @property
    def dtm(self) -> int | None: ...

    def describe(self, turn: int) -> str: ...


class _MoveValue(Protocol):
    @property
    def move(self) -> Any: ...

    @property
    def value(self) -> Any: ...


Probe = Callable[[Any, "Sequence[Path] | None"], "_Entry | None"]
ProbeMoves = Callable[[Any, "Sequence[Path] | None"], "Sequence[_MoveValue] | None"]


def root_move(
    board: _Board,
    probe: Probe,
    probe_moves: ProbeMoves,
    directories: Sequence[Path] | None = None,
) -> PlayResult[Any] | None:
    """The tables' move for ``board`` when it is covered and won or lost, else None (draws
    are left to the search, which plays for the opponent's mistakes).

    The best move by the tables whose result is not a draw by repetition in this game's
    history (the tables do not know the history); ``score`` is the moves to the end in own
    moves (negative when lost), ``string`` says ``tablebase: `` and the entry's own words.
    Tables are looked for in ``directories`` (by default the reader's).

    >>> from doushouqi.tiger.board import Board
    >>> from doushouqi.tiger.tablebase.probe import probe, probe_moves
    >>> won = Board("3/3/9/9/9/9/9/4M4/1M1M5/9/T1M6 t")  # the tiger wins in 15 plies
    >>> found = root_move(won, probe, probe_moves)
    >>> found.info["string"], found.info["score"]
    ('tablebase: the tiger wins in 15', Score(mate=8))
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
        info: Info[Any] = Info(
            depth=0,
            score=score,
            pv=[item.move],
            nodes=0,
            string=f"tablebase: {entry.describe(board.turn)}",
        )
        return PlayResult(item.move, info)
    return None


def keep_the_draw(
    board: _Board,
    move: Any,
    probe: Probe,
    probe_moves: ProbeMoves,
    directories: Sequence[Path] | None = None,
) -> Any:
    """At a drawn root the tables cover: a drawing move in place of ``move`` when ``move``
    would lose (the search's pick is kept whenever it holds the draw), else None.

    >>> from doushouqi.jungle.board import Board, Move
    >>> from doushouqi.jungle.tablebase.probe import probe, probe_moves
    >>> drawn = Board("7/3e3/4L2/7/7/7/7/7/7 b")  # only d8e8 holds the draw
    >>> keep_the_draw(drawn, Move.from_uci("d8d7"), probe, probe_moves)
    Move.from_str('d8e8')
    >>> keep_the_draw(drawn, Move.from_uci("d8e8"), probe, probe_moves) is None
    True
    """
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

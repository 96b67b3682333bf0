"""The engines the game front ends share: :func:`best_move`, :func:`analyse`,
:func:`analyse_lines` (a pool of :class:`~.search_driver.Searcher` per rule set) and
:func:`analyse_fixed` (a fresh engine for each repeatable, fixed-budget search).

>>> from doushouqi.jungle.board import Board
>>> str(best_move(Board("7/3W3/r6/7/7/7/7/7/7 w"), movetime=0.2))
'd8d9'
"""

from __future__ import annotations

from doushouqi.core.analysis import LinesByDepth
from doushouqi.core.engine_pool import EnginePool
from doushouqi.jungle.ai.search_driver import Searcher
from doushouqi.jungle.analysis import Info, Limit, PlayResult
from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.rules import RuleSet

__all__ = [
    "FIXED_HASH_MB",
    "analyse",
    "analyse_fixed",
    "analyse_lines",
    "best_move",
    "compile_engine",
]

#: Engines kept per rule set: concurrent callers (web games) search in parallel.
_ENGINES: EnginePool[RuleSet, Searcher] = EnginePool(lambda rules: Searcher(rules, hash_mb=32))


def best_move(board: Board, *, level: int = 10, movetime: float | None = 1.0) -> Move:
    """The engine's move in ``board`` at ``level`` within ``movetime`` seconds (None: one
    second at level 10, less below, as the level decides). Raises ValueError when the game is
    over. Engines are shared per rule set, so repeated calls reuse what they learnt."""
    result = analyse(board, level=level, movetime=1.0 if movetime is None else movetime)
    if result.move is None:
        raise ValueError("no move: the game is over")
    return result.move


def analyse(
    board: Board, *, level: int = 10, movetime: float = 0.5, full_time: float | None = None
) -> PlayResult:
    """Search ``board`` within ``movetime`` seconds: the best move (None when the game is over)
    with the search's last info (score from the side to move's view, depth, pv). Uses the
    same shared engines as :func:`best_move`. ``full_time``: the seconds the search would
    have had but for the caller's load (:meth:`.Searcher.search`)."""
    with _ENGINES.engine(board.rules) as engine:
        limit = Limit(movetime=movetime)
        return engine.search(board, limit, level=level, full_time=full_time)


def analyse_lines(
    board: Board, *, level: int = 10, movetime: float = 0.5, multipv: int = 3
) -> list[Info]:
    """The best ``multipv`` lines of ``board`` within ``movetime`` seconds, best first, each
    starting with a different move: the lines of the deepest iteration that reported them
    all, so that their scores are comparable (a line of a deeper, unfinished iteration
    beside lines of the one before could look better or worse only for being deeper). Only
    when no iteration finished every line, the move the engine would play, alone. Fewer
    lines when there are fewer legal moves; none when the game is over. The shared engines
    of :func:`best_move` search."""
    lines: LinesByDepth[Move] = LinesByDepth()
    with _ENGINES.engine(board.rules) as engine:
        limit = Limit(movetime=movetime)
        result = engine.search(
            board, limit, level=level, on_info=lines.keep, multipv=max(1, multipv), whole_time=True
        )
    return lines.best(min(max(1, multipv), board.legal_moves.count()), result)


def compile_engine() -> None:
    """Compile (or load from numba's cache) all of the engine's code: what ``doushouqi
    compile`` runs ahead of a first start."""
    Searcher(hash_mb=1).warm_up()


# --------------------------------------------------------------------------- fixed budget

#: The transposition table of a fixed-budget search, in MiB: part of the budget, since a
#: table of another size keeps other entries and the same node count reaches other depths.
FIXED_HASH_MB = 16


def analyse_fixed(
    board: Board, *, nodes: int | None = None, depth: int | None = None
) -> PlayResult:
    """Search ``board`` within a budget of ``nodes`` and/or ``depth`` (no clock): the best move
    (None when the game is over) and the search's last info, at full strength.

    Repeatable: the same position and budget give the same answer on any machine under any
    load (game reviews depend on it). Time plays no part, and each call searches with an
    engine of its own, fresh (an empty table of :data:`FIXED_HASH_MB`, no killers, no
    history), so that nothing an earlier search learnt changes this one. ValueError without a
    budget."""
    if nodes is None and depth is None:
        raise ValueError("a fixed-budget search needs nodes or a depth")
    engine = Searcher(board.rules, hash_mb=FIXED_HASH_MB)
    return engine.search(board, Limit(depth=depth, nodes=nodes))

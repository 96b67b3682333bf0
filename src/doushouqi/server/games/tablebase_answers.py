"""What the games' endgame tables answer on the site, in the parts that know no game.

Jungle's and the Tiger's table modules (``jungle_tablebase.py``, ``tiger_tablebase.py``) probe
their own files and name their own moves; the shape of what they answer is one: a result's
``category`` for the side it belongs to, the hint's choice of move (the tables read no
history, so the best move must not make a third occurrence of a position in this game), and
the hint in the shape of ``POST /api/analysis``'s answer, scored as the game's engine scores
a decided game (own moves to the end, under the game's key: ``den`` for Jungle, ``win`` for
the Tiger).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

__all__ = [
    "best_unrepeated",
    "category",
    "covered_answer",
    "table_hint_answer",
    "uncovered_answer",
]


def category(wdl: int) -> str:
    """``win``, ``draw`` or ``loss`` for a win/draw/loss sign."""
    return "win" if wdl > 0 else "loss" if wdl < 0 else "draw"


class _Board(Protocol):
    turn: int

    def push(self, move: Any, /) -> Any: ...
    def pop(self) -> Any: ...
    def is_repetition(self, count: int = 3) -> bool: ...


class _Value(Protocol):
    """A table's value of a position: its result's sign, plies to the end, and its words."""

    @property
    def wdl(self) -> int: ...
    @property
    def dtm(self) -> int | None: ...
    def describe(self, turn: int, /) -> str: ...


class _MoveValue(Protocol):
    @property
    def move(self) -> Any: ...
    @property
    def value(self) -> Any: ...


V = TypeVar("V", bound=_MoveValue)


B = TypeVar("B", bound=_Board)


def uncovered_answer(base: dict[str, Any], reason: str) -> dict[str, Any]:
    """``GET /api/tablebase``'s answer where no table covers the position (``base``: its
    ``fen``, ``rules`` and ``turn``), saying why."""
    return {**base, "category": "unknown", "dtm": None, "text": None, "reason": reason,
            "moves": []}  # fmt: skip


def covered_answer(
    base: dict[str, Any],
    board: B,
    entry: _Value,
    values: Sequence[_MoveValue],
    *,
    position_string: Callable[[B], str],
    names: Callable[[B, Any], tuple[str, str, str]],
) -> dict[str, Any]:
    """``GET /api/tablebase``'s answer for a position the tables cover: its value ``entry``
    for the side to move on ``board`` and each legal move's (``values``, best first, each for
    the side that plays it), with the position after it and its names (``names``: the
    game's SAN, English and Chinese notation of a move on ``board``)."""
    moves = []
    for item in values:
        board.push(item.move)
        after = position_string(board)
        board.pop()
        san, english, chinese = names(board, item.move)
        value = item.value
        moves.append({"uci": str(item.move), "san": san, "readable_en": english,
                      "readable_zh": chinese, "category": category(value.wdl),
                      "dtm": value.dtm, "fen": after})  # fmt: skip
    return {
        **base,
        "category": category(entry.wdl),
        "dtm": entry.dtm,
        "text": f"Tablebase: {entry.describe(board.turn)}",
        "reason": None,
        "moves": moves,
    }


def best_unrepeated(board: _Board, values: Sequence[V]) -> V:
    """The first of ``values`` (best first) as good as the best whose move makes no third
    occurrence of a position on ``board``; the best when every such move repeats."""
    for item in values:
        if item.value != values[0].value:
            break
        board.push(item.move)
        try:
            repeats = board.is_repetition(3)
        finally:
            board.pop()
        if not repeats:
            return item
    return values[0]


def table_hint_answer(
    move: str, wdl: int, dtm: int | None, readable: tuple[str, str], decided_key: str
) -> dict[str, Any]:
    """The hint for playing ``move`` whose result is ``wdl`` in ``dtm`` plies (``readable``:
    its English and Chinese names), as ``POST /api/analysis`` answers one."""
    plies = dtm or 0
    if wdl > 0:  # own moves to the end, as the engine says: a win is at least one away
        score: dict[str, int] = {decided_key: max(1, (plies + 1) // 2)}
    elif wdl < 0:
        score = {decided_key: -max(1, plies // 2)}
    else:
        score = {"cp": 0}
    line = {
        "move": move,
        "readable_en": readable[0],
        "readable_zh": readable[1],
        "score": score,
        "depth": 0,
        "pv": [move],
    }
    return {
        "bestmove": move,
        **{key: item for key, item in line.items() if key != "move"},
        "lines": [line],
        "source": "tablebase",
        "tablebase": {"category": category(wdl), "dtm": dtm},
    }

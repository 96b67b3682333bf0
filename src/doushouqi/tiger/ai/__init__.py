"""The 老虎棋 engine (numba): position arrays, move generation, search, levels, protocol.

The compiled functions work on int64 arrays (:mod:`.state`: the position and its history;
:mod:`.tables`: the geometry and a compiled rule set), so a search runs with no Python object
in its loops and the GIL released. On top of them: :class:`Searcher` (iterative deepening,
levels 1-10, time management, MultiPV; :mod:`.search_driver`), :func:`best_move` (a hint),
:func:`analyse` and :func:`analyse_lines` for front ends, and the protocol loop
(:mod:`.protocol`, ``doushouqi engine --game tiger``). docs/engine-research.md, "老虎棋", describes
the search, the evaluation and the levels.

The names are loaded on first use (PEP 562): importing ``doushouqi.tiger.ai`` or one of its
pure Python modules (``protocol``, ``levels``, ``timeman``) compiles nothing, so the engine
answers ``uci`` at once while the compiled code loads in the background.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and import-linter; at run time see __getattr__
    from doushouqi.tiger.ai.core import Position, decode_move, encode_move
    from doushouqi.tiger.ai.search_driver import Searcher
    from doushouqi.tiger.ai.shared_engines import (
        analyse,
        analyse_fixed,
        analyse_lines,
        best_move,
    )

#: Where each public name lives.
_HOMES = {
    **dict.fromkeys(("Position", "decode_move", "encode_move"), "core"),
    "Searcher": "search_driver",
    **dict.fromkeys(("analyse", "analyse_fixed", "analyse_lines", "best_move"), "shared_engines"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


__all__ = [
    "Position",
    "Searcher",
    "analyse",
    "analyse_fixed",
    "analyse_lines",
    "best_move",
    "decode_move",
    "encode_move",
]

"""Fast engine core (numba): position arrays, move generation, make/unmake, Zobrist hash, perft.

The compiled functions work on three int64 arrays, so a search can call them with no Python
object in its inner loop:

* ``state`` (:mod:`.state` layout ``S_*``) and ``history`` (rows ``H_*``) — the position;
* ``rules`` — a :class:`~doushouqi.jungle.rules.RuleSet` compiled by :func:`compile_rules`.

:class:`Position` holds the three together and builds them from a library ``Board``.

On top of the core: :class:`Searcher` (search, levels 1-10, time management; :mod:`.search_driver`),
:func:`best_move` and :func:`analyse` for the game front ends, and the protocol loop
(:mod:`.protocol`).

The names are loaded on first use (PEP 562): importing ``doushouqi.jungle.ai`` or one of its pure
Python modules (``protocol``, ``levels``, ``timeman``) compiles nothing, so ``doushouqi
engine`` answers ``uci`` at once while the compiled code loads in the background.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for type checkers and import-linter; at run time see __getattr__
    from doushouqi.jungle.ai.core import DEFAULT_SEARCH_PLIES, Position
    from doushouqi.jungle.ai.movegen import (
        MAX_MOVES,
        can_capture,
        compute_restrictions,
        count_legal_moves,
        generate_legal_moves,
        is_draw_by_rule,
        is_game_over_on_board,
        is_square_attacked,
        piece_targets,
        position_count,
        repetition_count,
    )
    from doushouqi.jungle.ai.perft import new_move_buffers, new_stop_flag, perft, perft_divide
    from doushouqi.jungle.ai.search_driver import Searcher
    from doushouqi.jungle.ai.shared_engines import (
        analyse,
        analyse_fixed,
        analyse_lines,
        best_move,
    )
    from doushouqi.jungle.ai.state import (
        HISTORY_FIELDS,
        STATE_SIZE,
        compute_hash,
        encode_move,
        make_move,
        make_pass,
        move_from,
        move_to,
        new_state,
        unmake_move,
    )
    from doushouqi.jungle.ai.tables import compile_rules

#: Where each public name lives.
_HOMES = {
    **dict.fromkeys(("DEFAULT_SEARCH_PLIES", "Position"), "core"),
    "Searcher": "search_driver",
    **dict.fromkeys(("analyse", "analyse_fixed", "analyse_lines", "best_move"), "shared_engines"),
    **dict.fromkeys(
        (
            "MAX_MOVES",
            "can_capture",
            "compute_restrictions",
            "count_legal_moves",
            "generate_legal_moves",
            "is_draw_by_rule",
            "is_game_over_on_board",
            "is_square_attacked",
            "piece_targets",
            "position_count",
            "repetition_count",
        ),
        "movegen",
    ),
    **dict.fromkeys(("new_move_buffers", "new_stop_flag", "perft", "perft_divide"), "perft"),
    **dict.fromkeys(
        (
            "HISTORY_FIELDS",
            "STATE_SIZE",
            "compute_hash",
            "encode_move",
            "make_move",
            "make_pass",
            "move_from",
            "move_to",
            "new_state",
            "unmake_move",
        ),
        "state",
    ),
    "compile_rules": "tables",
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
    "DEFAULT_SEARCH_PLIES",
    "HISTORY_FIELDS",
    "MAX_MOVES",
    "STATE_SIZE",
    "Position",
    "Searcher",
    "analyse",
    "analyse_fixed",
    "analyse_lines",
    "best_move",
    "can_capture",
    "compile_rules",
    "compute_hash",
    "compute_restrictions",
    "count_legal_moves",
    "encode_move",
    "generate_legal_moves",
    "is_draw_by_rule",
    "is_game_over_on_board",
    "is_square_attacked",
    "make_move",
    "make_pass",
    "move_from",
    "move_to",
    "new_move_buffers",
    "new_state",
    "new_stop_flag",
    "perft",
    "perft_divide",
    "piece_targets",
    "position_count",
    "repetition_count",
    "unmake_move",
]

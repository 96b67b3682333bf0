"""Fast engine core (numba): position arrays, move generation, make/unmake, Zobrist hash, perft.

The compiled functions work on three int64 arrays, so a search can call them with no Python
object in its inner loop:

* ``state`` (:mod:`.state` layout ``S_*``) and ``history`` (rows ``H_*``) — the position;
* ``rules`` — a :class:`~doushouqi.rules.RuleSet` compiled by :func:`compile_rules`.

:class:`Position` holds the three together and builds them from a library ``Board``.

On top of the core: :class:`Engine` (search, levels 1-10, time management; :mod:`.engine`),
:func:`best_move` and :func:`analyse` for the game front ends, and the protocol loop
(:mod:`.protocol`).
"""

from .core import DEFAULT_SEARCH_PLIES, Position
from .engine import Engine, analyse, best_move
from .movegen import (
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
from .perft import new_move_buffers, perft, perft_divide
from .state import (
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
from .tables import compile_rules

__all__ = [
    "DEFAULT_SEARCH_PLIES",
    "HISTORY_FIELDS",
    "MAX_MOVES",
    "STATE_SIZE",
    "Engine",
    "Position",
    "analyse",
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
    "perft",
    "perft_divide",
    "piece_targets",
    "position_count",
    "repetition_count",
    "unmake_move",
]

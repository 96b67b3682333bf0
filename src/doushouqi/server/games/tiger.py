"""The Tiger's (老虎棋) entry on the site: its computer player, records and rule limits.

What the site has only for 老虎棋 and reaches through :mod:`doushouqi.server.games.registry`:
the engine (:mod:`doushouqi.tiger.ai`, imported inside the functions, so that numba loads in
the AI's worker processes only and never in the web server), its game records
(:mod:`doushouqi.tiger.record`; the adapter to the site's
:class:`~doushouqi.server.games.capabilities.Records` is ``tiger_records.py``) and what the
site refuses of its rule options.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import Position
from doushouqi.server.domain.model import Game
from doushouqi.server.games.engine_results import fixed_line, lines, move_and_nodes
from doushouqi.server.infra.refused import Refused
from doushouqi.tiger.board import Board
from doushouqi.tiger.game import TigerPosition
from doushouqi.tiger.record import TigerRecord
from doushouqi.tiger.rules import TIGER_SIDE, RuleSet

__all__ = [
    "analyse",
    "analyse_fixed",
    "best_move",
    "board_of",
    "game_to_record",
    "material_score",
    "rule_limits",
    "warm_up",
]


def board_of(position: Position) -> Board:
    """The Tiger's board behind a position of the interface; ValueError for another game's."""
    if not isinstance(position, TigerPosition):
        raise ValueError(f"not a 老虎棋 position: {position!r}")
    return position.board


# ---------------------------------------------------------------------- the computer player


#: How this engine's scores name a decided game on the site.
DECIDED = "win"


def best_move(
    position: Position, level: int, movetime: float, asked: float
) -> tuple[str | None, int]:
    """The engine's move (None: the game is over) and the nodes it searched, in ``movetime``
    seconds (this engine searches all of them: ``asked`` changes nothing)."""
    from doushouqi.tiger.ai import analyse as search  # in the worker only: numba

    return move_and_nodes(search(board_of(position), level=level, movetime=movetime))


def analyse(position: Position, level: int, movetime: float, multipv: int) -> list[dict[str, Any]]:
    """The best ``multipv`` lines, best first: ``score`` ({"cp": n} or {"win": n}: the side to
    move's view, or None), ``depth`` and ``pv`` (moves as text)."""
    from doushouqi.tiger.ai import analyse_lines

    board = board_of(position)
    return lines(analyse_lines(board, level=level, movetime=movetime, multipv=multipv), DECIDED)


def analyse_fixed(position: Position, budget: Mapping[str, int]) -> dict[str, Any]:
    """A repeatable search of the position within ``budget`` (``nodes`` and/or ``depth``; no
    clock, a fresh engine): its best line as :func:`analyse` gives one, and the nodes searched.
    The same position and budget give the same line on any machine under any load."""
    from doushouqi.tiger.ai import analyse_fixed as search

    board = board_of(position)
    return fixed_line(search(board, nodes=budget.get("nodes"), depth=budget.get("depth")), DECIDED)


def warm_up() -> None:
    """Load the compiled engine (numba's cache) before the first real request arrives."""
    from doushouqi.tiger.ai import best_move as engine_move

    engine_move(Board(), level=1, movetime=0.05)


def material_score(position: Position) -> dict[str, int]:
    """A search-free score for the side to move: a hundred for each man the tiger has taken,
    the tiger's gain and the men's loss."""
    board = board_of(position)
    taken = 100 * board.men_taken
    return {"cp": taken if board.turn == TIGER_SIDE else -taken}


# ---------------------------------------------------------------------- records


def game_to_record(game: Game, **tags: str) -> TigerRecord:
    """The game as a record: its moves (passes as ``0000``), result and termination (the
    ending's key: a board ending or the platform's), the sides' players, the mode and the time
    control; ``tags`` add to or override those. ValueError for another game's game."""
    board = board_of(game.position())
    names = [p.name if p is not None else "?" for p in game.players]
    base = {"Tiger": names[0], "Men": names[1], "Mode": game.mode.value}
    if game.time_control is not None:
        base["TimeControl"] = str(game.time_control)
    record = TigerRecord.from_board(board)
    if game.outcome is not None:
        record = dataclasses.replace(record, result=game.result, termination=game.termination_key)
    record.tags.update(base | tags)
    return record


# ---------------------------------------------------------------------- rule choices


def rule_limits(rules: Any) -> Refused | None:
    """What the site refuses of a 老虎棋 rule set it could otherwise play: multi-jumps.

    Why refused rather than offered: the web board sends a move as two points (from, to),
    and a multi-jump is a chain of landings; two chains may end on the same point taking
    different men, so the board would need a way to tap each landing in turn, and the server
    would need to list whole chains. None of the named sets has multi-jumps (TIGER_RULES.md
    makes them an option), so until the board can take a chain, a custom set that asks for
    them is refused with a code the client translates, rather than played with moves the
    player cannot give.
    """
    if isinstance(rules, RuleSet) and rules.multi_jump:
        return Refused(
            "rules.multi_jump",
            "multi-jumps (multi_jump: true) cannot be played on this site yet: the board "
            "takes one jump per move",
            option="multi_jump",
        )
    return None

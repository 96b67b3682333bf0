"""Jungle's entry on the site: its computer player for the AI service, game records, puzzles.

What the site has only for Jungle and reaches through :mod:`doushouqi.server.games.registry`:
the engine (:mod:`doushouqi.jungle.ai`, imported inside the functions, so that numba loads in
the AI's worker processes only and never in the web server) and records (PGN-like,
:mod:`doushouqi.jungle.record`; the domain keeps a game as moves through the game interface,
a record is Jungle's own format; the format's adapter is ``jungle_records.py``), and what
puzzles need of its moves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from doushouqi.core.game import Lang, Position
from doushouqi.jungle.board import Board
from doushouqi.jungle.game import JUNGLE, JunglePosition, outcome_from_core
from doushouqi.jungle.moves import Move
from doushouqi.jungle.record import GameRecord
from doushouqi.jungle.squares import parse_square, square_name
from doushouqi.jungle.terms import animal_name
from doushouqi.server.domain.model import Game
from doushouqi.server.games.engine_results import fixed_line, lines, move_and_nodes
from doushouqi.server.infra.refused import Refused

__all__ = [
    "analyse",
    "analyse_fixed",
    "best_move",
    "board_of",
    "game_to_record",
    "material_score",
    "move_origin",
    "piece_name",
    "rule_limits",
    "warm_up",
]


#: Longest "draw without a capture" limit the site plays (the rules library allows more; no game
#: within the site's time controls lasts longer).
MAX_NO_CAPTURE_ROUNDS = 1000


def board_of(position: Position) -> Board:
    """The Jungle board behind a position of the interface; ValueError for another game's."""
    if not isinstance(position, JunglePosition):
        raise ValueError(f"not a Jungle position: {position!r}")
    return position.board


# ---------------------------------------------------------------------- the computer player


#: How this engine's scores name a decided game on the site.
DECIDED = "den"


def best_move(
    position: Position, level: int, movetime: float, asked: float
) -> tuple[str | None, int]:
    """The engine's move (None: the game is over) and the nodes it searched, in ``movetime``
    of the ``asked`` seconds (level 10's easy stop counts its share of those: a search the
    load gave less still stops where a full one would have)."""
    from doushouqi.jungle.ai import analyse as search  # in the worker only: numba

    board = board_of(position)
    return move_and_nodes(search(board, level=level, movetime=movetime, full_time=asked))


def analyse(position: Position, level: int, movetime: float, multipv: int) -> list[dict[str, Any]]:
    """The best ``multipv`` lines, best first: ``score`` ({"cp": n}, or {"den": n}: enters the
    den in n; the side to move's view, or None), ``depth`` and ``pv`` (moves as text)."""
    from doushouqi.jungle.ai import analyse_lines

    board = board_of(position)
    return lines(analyse_lines(board, level=level, movetime=movetime, multipv=multipv), DECIDED)


def analyse_fixed(position: Position, budget: Mapping[str, int]) -> dict[str, Any]:
    """A repeatable search of the position within ``budget`` (``nodes`` and/or ``depth``; no
    clock, a fresh engine): its best line as :func:`analyse` gives one, and the nodes searched.
    The same position and budget give the same line on any machine under any load."""
    from doushouqi.jungle.ai import analyse_fixed as search

    board = board_of(position)
    return fixed_line(search(board, nodes=budget.get("nodes"), depth=budget.get("depth")), DECIDED)


def warm_up() -> None:
    """Load the compiled engine (numba's cache) before the first real request arrives."""
    from doushouqi.jungle.ai import best_move as engine_move

    rules = JUNGLE.parse_rules(JUNGLE.default_rule_set)
    engine_move(Board(rules=rules), level=1, movetime=0.05)


def material_score(position: Position) -> dict[str, int]:
    """The material balance for the side to move, in centipawns of the engine's kind (a
    stand-in's score: no search)."""
    board = board_of(position)
    pieces = [board.piece_at(square) for square in range(63)]
    balance = sum(
        100 * board.rank_of(piece) * (1 if piece.color == board.turn else -1)
        for piece in pieces
        if piece is not None
    )
    return {"cp": balance}


# ---------------------------------------------------------------------- records


def game_to_record(game: Game, **tags: str) -> GameRecord:
    """The game as a record: its moves (passes as ``0000``), result and termination, the
    players' names, the mode and the time control; ``tags`` add to or override those.

    ValueError for a game of another game than Jungle (records are Jungle's format)."""
    board = board_of(game.position())
    names = [p.name if p is not None else "?" for p in game.players]
    base = {"Red": names[0], "Blue": names[1], "Mode": game.mode.value}
    if game.time_control is not None:
        base["TimeControl"] = str(game.time_control)
    if game.outcome is None:
        record = GameRecord.from_board(board)
    else:
        termination = outcome_from_core(game.outcome).termination
        record = GameRecord.from_board(board, result=game.result, termination=termination)
    # replace() runs the record's own checks on the tags.
    return dataclasses.replace(record, tags=record.tags | base | tags)


# ---------------------------------------------------------------------- puzzles


def move_origin(move: str) -> str:
    """The square a move starts from (``"a3"`` of ``"a3a4"``); ValueError for no move.

    >>> move_origin("a4d4")
    'a4'
    """
    return square_name(Move.from_str(move).from_square)


def piece_name(position: Position, place: str, lang: Lang) -> str:
    """The animal on a square, named as the rule set names it (a fox where the wolf is one);
    ValueError for an empty square or no square.

    >>> from doushouqi.jungle.game import JUNGLE
    >>> rules = JUNGLE.parse_rules("wango")
    >>> position = JUNGLE.new_position(rules, JUNGLE.start_position(rules))
    >>> piece_name(position, "a3", "en"), piece_name(position, "g1", "zh-Hant")
    ('elephant', '獅')
    """
    board = board_of(position)
    piece = board.piece_at(parse_square(place))
    if piece is None:
        raise ValueError(f"no animal on {place}")
    return animal_name(piece.animal, lang, board.rules)


# ---------------------------------------------------------------------- rule choices


def rule_limits(rules: Any) -> Refused | None:
    """What the site refuses of a custom Jungle rule set: a draw rule longer than
    :data:`MAX_NO_CAPTURE_ROUNDS`."""
    rounds = getattr(rules, "no_capture_draw_rounds", None) or 0
    if rounds > MAX_NO_CAPTURE_ROUNDS:
        return Refused(
            "rules.bad",
            f"bad rule options: no_capture_draw_rounds: at most {MAX_NO_CAPTURE_ROUNDS}, "
            f"got {rounds}",
        )
    return None

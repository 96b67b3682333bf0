"""The Tiger's (老虎棋) entry on the site: its records and the limits of its rule choices.

What the site has only for 老虎棋 and reaches through :mod:`doushouqi.server.games.registry`:
its game records (:mod:`doushouqi.tiger.record`; the adapter to the site's
:class:`~doushouqi.server.games.capabilities.Records` is ``tiger_records.py``) and what the
site refuses of its rule options. No computer player yet: the registry's entry has
``engine=None`` until the engine (``doushouqi.tiger.ai``) is ready, and the web client hides
play against the computer for it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from doushouqi.core.game import Position
from doushouqi.server.domain.model import Game
from doushouqi.server.infra.refused import Refused
from doushouqi.tiger.board import Board
from doushouqi.tiger.game import TigerPosition
from doushouqi.tiger.record import TigerRecord
from doushouqi.tiger.rules import RuleSet

__all__ = ["board_of", "game_to_record", "rule_limits"]


def board_of(position: Position) -> Board:
    """The Tiger's board behind a position of the interface; ValueError for another game's."""
    if not isinstance(position, TigerPosition):
        raise ValueError(f"not a 老虎棋 position: {position!r}")
    return position.board


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

"""Game records (PGN-like, :mod:`doushouqi.jungle.record`) from server games."""

from __future__ import annotations

import dataclasses

from doushouqi.jungle.record import GameRecord
from doushouqi.server.domain.model import Game

__all__ = ["game_to_record"]


def game_to_record(game: Game, **tags: str) -> GameRecord:
    """The game as a record: its moves (passes as ``0000``), result and termination, the
    players' names, the mode and the time control; ``tags`` add to or override those."""
    names = [p.name if p is not None else "?" for p in game.players]
    base = {"Red": names[0], "Blue": names[1], "Mode": game.mode.value}
    if game.time_control is not None:
        base["TimeControl"] = str(game.time_control)
    board = game.board()
    if game.outcome is None:
        record = GameRecord.from_board(board)
    else:
        record = GameRecord.from_board(
            board, result=game.result, termination=game.outcome.termination
        )
    # replace() runs the record's own checks on the tags.
    return dataclasses.replace(record, tags=record.tags | base | tags)

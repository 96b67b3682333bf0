"""Jungle's records on the site (:class:`~doushouqi.server.games.capabilities.Records`):
its PGN-like format (:mod:`doushouqi.jungle.record`) read from an upload, written from a game.

The format's reader checks every move with the rules library; what leaves this module is
plain (:class:`~doushouqi.server.games.capabilities.RecordData`), so the routers replay it
through the game interface and never hold a :class:`~doushouqi.jungle.record.GameRecord`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from doushouqi.jungle.game import JUNGLE
from doushouqi.jungle.record import GameRecord, RecordError, format_date, read_record, write_record
from doushouqi.server.domain.model import Game
from doushouqi.server.games.capabilities import RecordData, RecordReadError, Records
from doushouqi.server.games.jungle import game_to_record

__all__ = ["JUNGLE_RECORDS", "data_of", "read", "record_of", "write"]


def data_of(record: GameRecord) -> RecordData:
    """A record of the format as plain values (its side lines and NAGs are not shown)."""
    return RecordData(
        game_key=JUNGLE.key,
        rules=record.rules,
        start=record.start_fen,
        moves=tuple(str(move) for move in record.moves),
        result=record.result,
        termination=None if record.termination is None else record.termination.value,
        tags=dict(record.tags),
        comments=dict(record.comments),
    )


def read(text: str) -> RecordData:
    """An uploaded record; :class:`RecordReadError` (the format's line and reason) otherwise."""
    try:
        return data_of(read_record(text))
    except RecordError as exc:
        raise RecordReadError(str(exc), reason=exc.reason, line=exc.line) from exc


def record_of(game: Game, date: datetime.date, tags: Mapping[str, str]) -> GameRecord:
    """A game of the site as a record of the format, dated ``date`` (its ``Date`` tag)."""
    return game_to_record(game, **{"Date": format_date(date), **tags})


def write(game: Game, date: datetime.date, tags: Mapping[str, str]) -> str:
    """A game of the site as record text."""
    return write_record(record_of(game, date, tags))


JUNGLE_RECORDS = Records(
    read=read,
    from_game=lambda game, date, tags: data_of(record_of(game, date, tags)),
    write=write,
)

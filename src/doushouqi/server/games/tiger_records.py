"""The Tiger's records on the site (:class:`~doushouqi.server.games.capabilities.Records`):
its PGN-like format (:mod:`doushouqi.tiger.record`, told apart from Jungle's by its ``Game``
tag) read from an upload, written from a game.

As for Jungle's (``jungle_records.py``): the format's reader checks every move with the rules
library, and what leaves this module is plain
(:class:`~doushouqi.server.games.capabilities.RecordData`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from doushouqi.server.domain.model import Game
from doushouqi.server.games.capabilities import RecordData, RecordReadError, Records
from doushouqi.server.games.tiger import game_to_record
from doushouqi.tiger.game import TIGER
from doushouqi.tiger.record import RecordError, TigerRecord, read_record, write_record

__all__ = ["TIGER_RECORDS", "data_of", "read", "record_of", "write"]


def data_of(record: TigerRecord) -> RecordData:
    """A record of the format as plain values (its NAGs are not shown)."""
    return RecordData(
        game_key=TIGER.key,
        rules=record.rules,
        start=record.start,
        moves=tuple(str(move) for move in record.moves),
        result=record.result,
        termination=record.termination,
        tags=dict(record.tags),
        comments=dict(record.comments),
    )


def read(text: str) -> RecordData:
    """An uploaded record; :class:`RecordReadError` (the format's line and reason) otherwise."""
    try:
        return data_of(read_record(text))
    except RecordError as exc:
        raise RecordReadError(str(exc), reason=exc.reason, line=exc.line) from exc


def record_of(game: Game, date: datetime.date, tags: Mapping[str, str]) -> TigerRecord:
    """A game of the site as a record of the format, dated ``date`` (its ``Date`` tag)."""
    day = f"{date.year:04d}.{date.month:02d}.{date.day:02d}"
    return game_to_record(game, **{"Date": day, **tags})


def write(game: Game, date: datetime.date, tags: Mapping[str, str]) -> str:
    """A game of the site as record text."""
    return write_record(record_of(game, date, tags))


TIGER_RECORDS = Records(
    read=read,
    from_game=lambda game, date, tags: data_of(record_of(game, date, tags)),
    write=write,
)

"""What the site may have for a game beside its engine, as values a :class:`SiteGame` holds.

Game records (:class:`Records`) and puzzles (:class:`Puzzles`): the parts of those features
that only the game knows. This module knows no game (the implementations are beside it:
``jungle.py``, ``jungle_records.py``); :mod:`doushouqi.server.games.registry` puts them on a
game's entry.

A record (Jungle's is PGN-like) is a game's own file format, not part of the game interface:
a game may have none. The site needs three things of one: read an uploaded text, write a
game played on the site, and the same game as the record reads back (for the replay view).
Both directions meet in :class:`RecordData`: plain values (move and position strings, the
game's rule set value, tags) that the routers replay through :mod:`doushouqi.core.game`, so
that they know no format.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from doushouqi.server.domain.model import Game

__all__ = ["Puzzles", "RecordData", "RecordReadError", "Records"]


class RecordReadError(ValueError):
    """A record text that cannot be read, or replayed under its rules.

    ``reason`` is the format's own explanation (``"ply 3: illegal move a3a5: …"``), ``line``
    the 1-based line where it went wrong, when known; ``str()`` is the full message. Apart from
    the formats' own errors so that a router answers every game's alike (a 422 with the line).
    """

    def __init__(self, message: str, *, reason: str, line: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.line = line


@dataclass(frozen=True)
class RecordData:
    """One game of a record, as the site shows it: everything checked by the game's rules.

    ``rules`` is the game's rule set value (:meth:`~doushouqi.core.game.Game.parse_rules`),
    ``start`` the position string it starts from (None: the rule set's start position),
    ``moves`` the game's move strings (a timeout pass as the game's ``pass_move``),
    ``comments`` by ply (1-based), ``termination`` the key of the ending when the record
    names one.
    """

    game_key: str
    rules: Any
    start: str | None
    moves: tuple[str, ...]
    result: str
    termination: str | None = None
    tags: Mapping[str, str] = field(default_factory=dict)
    comments: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Records:
    """A game's record format, as the site uses it."""

    #: The record in ``text`` (one game); :class:`RecordReadError` when it cannot be read or
    #: a move is not legal.
    read: Callable[[str], RecordData]
    #: ``(game, date, tags) -> data``: a game of the site as its record reads back (its moves,
    #: result, players, mode, time control; ``date`` the day it was created; ``tags`` add to
    #: or override the format's own). ValueError for a game of another game.
    from_game: Callable[[Game, datetime.date, Mapping[str, str]], RecordData]
    #: ``(game, date, tags) -> text``: the same record written out, for download.
    write: Callable[[Game, datetime.date, Mapping[str, str]], str]
    #: How a downloaded record's file name ends (``txt``).
    extension: str = "txt"


@dataclass(frozen=True)
class Puzzles:
    """What the puzzles feature needs of a game beyond the game interface."""

    #: The place a move string starts from (Jungle: ``"a3"`` of ``"a3a4"``): a hint's first
    #: level shows it. Only the game knows how its moves split into places.
    move_origin: Callable[[str], str]

"""What the site may have for a game beside its rules and its engine, as values a
:class:`~doushouqi.server.games.registry.SiteGame` holds: endgame tables (:class:`Tablebase`),
a position editor (:class:`PositionEditor`), game records (:class:`Records`) and puzzles
(:class:`Puzzles`): the parts of those features that only the game knows.

This module knows no game (the implementations are beside it: ``jungle.py``,
``jungle_records.py``, ``jungle_tablebase.py``, ``jungle_editor.py``). Why functions over the
interface's :class:`~doushouqi.core.game.Position` with plain JSON-ready answers: the routers
then know no game, and a game without one of these simply has none (None in its entry), which
the routers answer with a 404 and a code. Refusals of the input are
:class:`~doushouqi.server.infra.errors.Refused` (a 422 with a code the web client translates).

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

from doushouqi.core.game import Lang, Position
from doushouqi.server.domain.model import Game

__all__ = [
    "PositionEditor",
    "Puzzles",
    "RecordData",
    "RecordReadError",
    "Records",
    "Tablebase",
    "TablesDamaged",
]


class TablesDamaged(Exception):
    """A table file cannot be read (answered 503: the site's fault, not the request's)."""


@dataclass(frozen=True)
class Tablebase:
    """A game's endgame tables."""

    #: ``position -> answer``: the tables' value of the position and of each legal move, as
    #: ``GET /api/tablebase`` sends it (``category``, ``dtm``, ``text``, ``reason``, ``moves``;
    #: ``category: "unknown"`` with a ``reason`` where no table covers it). Refused for a
    #: position no table could hold (not a valid position); :class:`TablesDamaged`. Reads
    #: files: callers run it in a thread.
    probe: Callable[[Position], dict[str, Any]]
    #: ``position -> hint or None``: the tables' best move for a hint in the shape of
    #: ``POST /api/analysis``'s answer (``bestmove``, ``score``, ``lines``, ``source``,
    #: ``tablebase``); None where the tables do not cover the position. The position's moves
    #: are the game so far (a hint must not walk into a repetition). Reads files.
    hint: Callable[[Position], dict[str, Any] | None]


@dataclass(frozen=True)
class PositionEditor:
    """A game's position editor: whether a set-up position is one the rules accept."""

    #: ``(rules, pieces, seat to move, position string or None) -> answer``: ``pieces`` maps
    #: the game's place names to its piece letters; a position string, when given, is checked
    #: instead. The answer: ``valid``, ``problems`` (codes the client translates), ``fen``,
    #: ``turn``, ``dests`` and ``outcome`` (None, ``{}`` and None for an invalid position).
    #: Refused for input that is no position at all (an unknown place or letter).
    check: Callable[[Any, Mapping[str, str], int, str | None], dict[str, Any]]


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
    #: ``(position, place, lang) -> name``: the piece on a place as a reader calls it in
    #: ``lang`` (Jungle: "elephant", "象"): a hint's first level names the piece to move, as
    #: the rest of the site's move texts do, rather than its bare coordinates.
    piece_name: Callable[[Position, str, Lang], str]

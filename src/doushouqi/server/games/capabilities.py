"""What the site can do for a game beyond its rules and its engine: endgame tables and a
position editor, as plain functions the site's registry lists per game.

Why functions over the interface's :class:`~doushouqi.core.game.Position` and plain JSON-ready
answers: the routers (``/api/tablebase``, ``/api/analysis``'s hints, ``/api/positions/check``)
then know no game, and a game without tables or an editor simply has none (None in its
:class:`~doushouqi.server.games.registry.SiteGame`), which the routers answer with a 404.
Refusals of the input are :class:`~doushouqi.server.infra.errors.Refused` (a 422 with a code),
so that the answers stay the codes the web client translates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from doushouqi.core.game import Position

__all__ = ["PositionEditor", "Tablebase", "TablesDamaged"]


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

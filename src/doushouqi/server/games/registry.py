"""The games this site offers, each with what the site can do for it.

The game interface (:mod:`doushouqi.core.game`) is what every game *is*: rules, positions,
words. What the site *has* for a game differs from game to game: a computer player, a
tablebase, puzzles, lessons, records. Those are listed here, one :class:`SiteGame` per game, so
that platform code asks ``site_game(key).engine`` instead of importing a game (scalachess's
one list of variants; pychess-variants' per-game board family). This module and the game's
own entry modules beside it (``jungle*.py``, ``tiger*.py``) are where the server meets a game's
code; the domain, the live games, the database and the AI service go through them or the
interface. A game's other entries (``jungle_tablebase.py``, ``jungle_editor.py``,
``tiger_editor.py``, ``tiger_tablebase.py``) implement the capabilities of
:mod:`~doushouqi.server.games.capabilities` that the routers ask for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from doushouqi.core.game import Position, UnknownGameError
from doushouqi.server.games import (
    jungle,
    jungle_editor,
    jungle_tablebase,
    tiger,
    tiger_editor,
    tiger_tablebase,
)
from doushouqi.server.games.capabilities import PositionEditor, Puzzles, Records, Tablebase
from doushouqi.server.games.jungle_records import JUNGLE_RECORDS
from doushouqi.server.games.tiger_records import TIGER_RECORDS
from doushouqi.server.infra.refused import Refused

__all__ = ["SITE_GAMES", "ComputerPlayer", "SiteGame", "engine_of", "site_game"]


@dataclass(frozen=True)
class ComputerPlayer:
    """A game's computer player, as the AI service runs it in its worker processes.

    Plain functions of a position through the interface and plain results, so the AI service
    (process pool or Redis workers) needs to know no game: a job names its game by key and
    the worker looks the engine up here.
    """

    #: ``(position, level, seconds, asked) -> (move string or None when the game is over,
    #: nodes)``: ``seconds`` the search may take, ``asked`` those it would have had but for
    #: the AI's load (an engine that ends early may measure its progress against them).
    best_move: Callable[[Position, int, float, float], tuple[str | None, int]]
    #: ``(position, level, seconds, lines) -> lines``, best first, each a mapping with
    #: ``score`` (JSON-ready or None), ``depth`` and ``pv`` (move strings).
    analyse: Callable[[Position, int, float, int], list[dict[str, Any]]]
    #: ``(position, budget) -> line``: a repeatable search within ``budget`` (``{"nodes": n}``
    #: and/or ``{"depth": d}``, no clock, nothing kept from an earlier search): the best line
    #: (``score``, ``depth``, ``pv``; no score and no moves when the game is over) and the
    #: ``nodes`` searched. Game reviews are made of these: the same game gives the same
    #: review on any worker under any load.
    analyse_fixed: Callable[[Position, Mapping[str, int]], dict[str, Any]]
    #: Loads the engine (compiles, reads caches) before the first real job arrives.
    warm_up: Callable[[], None]
    #: A cheap score of the position for the side to move, in the engine's score units: what
    #: the search-free stand-in (``RandomAi``, tests and benchmarks) reports.
    static_score: Callable[[Position], dict[str, int]]


@dataclass(frozen=True)
class SiteGame:
    """One game the site offers and the features it has for it (the client hides the rest)."""

    key: str
    engine: ComputerPlayer | None
    #: The endgame tables (``/api/tablebase``, hints in covered endgames), or None.
    tablebase: Tablebase | None = None
    #: The analysis board's position editor (``/api/positions/check``), or None.
    editor: PositionEditor | None = None
    #: ``position -> threats`` for the threat view of ``/api/position`` (Jungle: the side to
    #: move's animals under attack and the enemies beside its den), or None.
    threats: Callable[[Position], dict[str, list[str]]] | None = None
    #: What the puzzles need of the game's moves; None: the site has no puzzles for it.
    puzzles: Puzzles | None = None
    lessons: bool = False
    #: The game's record format (upload, replay, download); None: the game has none.
    records: Records | None = None
    #: ``rules -> refusal or None``: what the site refuses of a custom rule set the game's
    #: rules library accepts (a limit of the site's, such as a longest draw rule, or an option
    #: its board cannot play yet), as a 422 with the refusal's code; None: nothing more.
    rule_limits: Callable[[Any], Refused | None] | None = None


#: Every game the site offers, by key (the keys of :data:`doushouqi.core.game.GAMES`).
SITE_GAMES: Mapping[str, SiteGame] = {
    "jungle": SiteGame(
        key="jungle",
        engine=ComputerPlayer(
            best_move=jungle.best_move,
            analyse=jungle.analyse,
            analyse_fixed=jungle.analyse_fixed,
            warm_up=jungle.warm_up,
            static_score=jungle.material_score,
        ),
        tablebase=jungle_tablebase.TABLEBASE,
        editor=jungle_editor.EDITOR,
        threats=jungle_editor.threats,
        puzzles=Puzzles(move_origin=jungle.move_origin, piece_name=jungle.piece_name),
        lessons=True,
        records=JUNGLE_RECORDS,
        rule_limits=jungle.rule_limits,
    ),
    "tiger": SiteGame(
        key="tiger",
        engine=ComputerPlayer(
            best_move=tiger.best_move,
            analyse=tiger.analyse,
            analyse_fixed=tiger.analyse_fixed,
            warm_up=tiger.warm_up,
            static_score=tiger.material_score,
        ),
        tablebase=tiger_tablebase.TABLEBASE,
        editor=tiger_editor.EDITOR,
        lessons=True,
        records=TIGER_RECORDS,
        rule_limits=tiger.rule_limits,
    ),
}


def site_game(key: str) -> SiteGame:
    """The site's entry for the game ``key``; :class:`UnknownGameError` when it offers none."""
    try:
        return SITE_GAMES[key]
    except KeyError:
        known = ", ".join(sorted(SITE_GAMES))
        raise UnknownGameError(f"this site offers no game {key!r} (offered: {known})") from None


def engine_of(key: str) -> ComputerPlayer:
    """The computer player of the game ``key``; LookupError when it has none."""
    engine = site_game(key).engine
    if engine is None:
        raise LookupError(f"there is no computer player for {key!r}")
    return engine

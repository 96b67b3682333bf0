"""The installed games: the one list that fills :data:`doushouqi.core.game.GAMES`.

Why here, a module at the top of the package: ``core`` sits below every game and imports none
(a game imports ``core`` to implement its interface, so the reverse would be an import circle),
and a game registering itself when its module happens to be imported would leave the registry's
content up to import order. This module is above both; the package's ``__init__`` imports it, so
importing anything from ``doushouqi`` fills the registry before the importer runs a line. Adding
a game is one line here (scalachess keeps its variants in one list the same way).

>>> from doushouqi.core.game import get_game
>>> get_game("jungle").name("zh"), get_game("tiger").name("zh")
('斗兽棋', '老虎棋')
>>> [game.key for game in INSTALLED], all(GAMES[game.key] is game for game in INSTALLED)
(['jungle', 'tiger'], True)
"""

from __future__ import annotations

from typing import Any

from doushouqi.core.game import GAMES, Game, register
from doushouqi.jungle.game import JUNGLE
from doushouqi.tiger.game import TIGER

__all__ = ["GAMES", "INSTALLED"]

#: Every game the package offers, in the order a site lists them.
INSTALLED: tuple[Game[Any], ...] = (JUNGLE, TIGER)

for _game in INSTALLED:
    register(_game)

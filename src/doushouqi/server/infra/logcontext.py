"""Every log line says which game it is about: the game id travels with the code handling it
(a context variable, copied into the tasks a game's actor starts), and a logging filter puts
it on each record as ``%(game)s`` ("-" when no game is concerned)."""

from __future__ import annotations

import logging
from contextvars import ContextVar

__all__ = ["FORMAT", "GameIdFilter", "current_game", "install"]

current_game: ContextVar[str] = ContextVar("current_game", default="-")

FORMAT = "%(levelname)s %(name)s [game %(game)s]: %(message)s"


class GameIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.game = current_game.get()
        return True


def install(level: str) -> None:
    """Log to stderr at ``level``, every line with its game id."""
    logging.basicConfig(level=level.upper(), format=FORMAT)
    for handler in logging.getLogger().handlers:
        handler.addFilter(GameIdFilter())

"""Each installed game's engine, as the ``engine`` and ``match`` commands reach it: a table,
so that a new game's engine is one more entry here and never an ``if game == …``.

Entries name their functions as ``module:function`` strings and are imported only when the
command runs: the engines need numpy and numba, which the other commands do not.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any, cast

__all__ = ["ENGINES", "GameEngine", "load"]


@dataclasses.dataclass(frozen=True)
class GameEngine:
    """Where a game's engine commands live."""

    #: The game's registry key (``doushouqi.core.game.GAMES``).
    game: str
    #: ``run_protocol() -> int``: the engine on stdin/stdout (``doushouqi engine``).
    protocol: str
    #: ``run_match_command(args) -> int``: ``doushouqi match`` between this game's engines.
    match: str
    #: The rule set a match plays when ``--rules`` is not given.
    default_rules: str
    #: ``compile_engine() -> None``: compiles all of the engine's code into numba's cache
    #: (``doushouqi compile``).
    compile: str


#: The games with an engine, by registry key; the first is the commands' default.
ENGINES: dict[str, GameEngine] = {
    engine.game: engine
    for engine in (
        GameEngine(
            "jungle",
            "doushouqi.jungle.ai.protocol:run_protocol",
            "doushouqi.jungle.engine.match:run_match_command",
            "wango",
            "doushouqi.jungle.ai.shared_engines:compile_engine",
        ),
        GameEngine(
            "tiger",
            "doushouqi.tiger.ai.protocol:run_protocol",
            "doushouqi.tiger.engine.match:run_match_command",
            "laohuqi",
            "doushouqi.tiger.ai.shared_engines:compile_engine",
        ),
    )
}


def load(entry: str) -> Callable[..., int]:
    """The function a ``module:function`` entry names (imported now)."""
    module, _, name = entry.partition(":")
    return cast(Callable[..., Any], getattr(importlib.import_module(module), name))

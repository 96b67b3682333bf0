"""The analysis board's position editor: is a set-up position one the rules accept?

``POST /api/positions/check`` takes the pieces on their places and the side to move (or a
position string) and answers with what is wrong as codes that the web client translates, or,
for a valid position, its position string, legal destinations and outcome. The check is the
game's (its :class:`~doushouqi.server.games.capabilities.PositionEditor` in the site's
registry; Jungle's in server/games/jungle_editor.py); a game without an editor is a 404. A
position the rules reject is an answer (``valid: false``), not an error; input that is no
position at all (an unknown square or letter) is a 422 with a code.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from doushouqi.server.api.deps import offered_game
from doushouqi.server.db.repo import DEFAULT_GAME
from doushouqi.server.games.choices import chosen_rules
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["analysis"])


class PositionSetup(BaseModel):
    game: str = Field(default=DEFAULT_GAME, max_length=16, description="the game's key")
    rules: str | dict[str, Any] | None = Field(default=None, description="none: the default")
    #: Place name → the game's piece letter (Jungle's: upper case Red, lower case Blue,
    #: ``{"a1": "L"}``; 老虎棋's: ``{"e10": "T", "d2": "M"}``); at most the largest board's
    #: places (老虎棋's 87 points).
    pieces: dict[str, str] | None = Field(default=None, max_length=87)
    turn: Literal["red", "blue"] = "red"
    #: Instead of ``pieces`` and ``turn``: a position string.
    fen: str | None = Field(default=None, max_length=200)


@router.post("/positions/check")
async def check_position(setup: PositionSetup) -> dict[str, Any]:
    """What is wrong with a set-up position, or what a board needs to play from it."""
    game, site = offered_game(setup.game)
    if site.editor is None:
        raise Problem(
            404, "editor.none", f"there is no position editor for {game.key}", game=game.key
        )
    rules = chosen_rules(setup.rules, game.key)
    seat = int(setup.turn == "blue")  # the web client names the seats by Jungle's colours
    return site.editor.check(rules, setup.pieces or {}, seat, setup.fen)

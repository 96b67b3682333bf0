"""What the site offers, read only: its games with what it has for each (``/api/site-games``),
and each game's named rule sets with their options (``/api/rules?game=``; Jungle's are
docs/rules.md sections 6 and 7, the Tiger's docs/tiger.md), for clients that explain the rules
or offer a choice of game and rule set."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from doushouqi.core.game import LANGUAGES, RulesError
from doushouqi.server.api.deps import offered_game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.registry import SITE_GAMES
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api", tags=["rules"])

GameKey = Query(DEFAULT_GAME_KEY, max_length=16, description="the game's key")


@router.get("/site-games")
async def site_games() -> dict[str, Any]:
    """Every game the site offers, in the order to list them, with its names and what the site
    has for it (a client shows only those: no play against the computer for a game without
    an engine)."""
    games = []
    for key, site in SITE_GAMES.items():
        game, _ = offered_game(key)
        games.append(
            {
                "key": key,
                "names": {lang: game.name(lang) for lang in LANGUAGES},
                "default_rules": game.default_rule_set,
                "rule_sets": list(game.rule_set_names),
                "engine": site.engine is not None,
                "tablebase": site.tablebase is not None,
                "editor": site.editor is not None,
                "threats": site.threats is not None,
                "puzzles": site.puzzles is not None,
                "lessons": site.lessons,
                "records": site.records is not None,
            }
        )
    return {"games": games, "default": DEFAULT_GAME_KEY}


@router.get("/rules")
async def list_rule_sets(game: str = GameKey) -> dict[str, Any]:
    """Every named rule set of the game with its options (the game's ``rules_to_mapping``), the
    default first."""
    played, _ = offered_game(game)
    return {
        "game": played.key,
        "rule_sets": [
            played.rules_to_mapping(played.parse_rules(name)) for name in played.rule_set_names
        ],
    }


@router.get("/rules/{name}")
async def get_rule_set(name: str, game: str = GameKey) -> dict[str, Any]:
    """One named rule set's options."""
    played, _ = offered_game(game)
    try:
        rules = played.parse_rules(name)
    except RulesError:
        known = ", ".join(played.rule_set_names)
        raise Problem(404, "rules.unknown", f"unknown rule set; known: {known}") from None
    return played.rules_to_mapping(rules)

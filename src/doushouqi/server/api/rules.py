"""Read-only rule sets: the named rule sets' options (docs/rules.md sections 6 and 7), for clients
that explain the rules or offer a choice of rule set."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from doushouqi.core.game import RulesError, get_game
from doushouqi.server.db.repo import DEFAULT_GAME
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api/rules", tags=["rules"])


@router.get("")
async def list_rule_sets() -> dict[str, Any]:
    """Every named rule set with its options (the game's ``rules_to_mapping``), the default
    first."""
    game = get_game(DEFAULT_GAME)
    return {
        "rule_sets": [game.rules_to_mapping(game.parse_rules(name)) for name in game.rule_set_names]
    }


@router.get("/{name}")
async def get_rule_set(name: str) -> dict[str, Any]:
    """One named rule set's options."""
    game = get_game(DEFAULT_GAME)
    try:
        rules = game.parse_rules(name)
    except RulesError:
        known = ", ".join(game.rule_set_names)
        raise Problem(404, "rules.unknown", f"unknown rule set; known: {known}") from None
    return game.rules_to_mapping(rules)

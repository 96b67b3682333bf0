"""Read-only rule sets: the named rule sets' options (docs/rules.md sections 6 and 7), for clients
that explain the rules or offer a choice of rule set."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.infra.errors import Problem

router = APIRouter(prefix="/api/rules", tags=["rules"])


@router.get("")
async def list_rule_sets() -> dict[str, Any]:
    """Every named rule set with its options (``RuleSet.to_mapping()``), the default first."""
    return {"rule_sets": [rules.to_mapping() for rules in BUILTIN_RULE_SETS.values()]}


@router.get("/{name}")
async def get_rule_set(name: str) -> dict[str, Any]:
    """One named rule set's options."""
    rules = BUILTIN_RULE_SETS.get(name.strip().lower())
    if rules is None:
        raise Problem(
            404, "rules.unknown", f"unknown rule set; known: {', '.join(BUILTIN_RULE_SETS)}"
        )
    return rules.to_mapping()

"""What a player chooses when a game starts, checked against the site's limits: the rule set (a
named one, or options over one) and the time control.

Every place that starts games (a game, a seek, a challenge, a tournament, the analysis board)
takes the choice through here, so that each is refused alike: a :class:`Refused` with a code
that the web client translates, answered 422.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from doushouqi.core.clock import TimeControl, TimeControlError
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, InvalidRulesError, RuleSet, rules_from_mapping
from doushouqi.server.infra.refused import Refused

__all__ = [
    "CUSTOM_SUFFIX",
    "MAX_BASE_SECONDS",
    "MAX_CORRESPONDENCE_DAYS",
    "MAX_PER_MOVE_SECONDS",
    "checked_time_control",
    "chosen_rules",
    "rule_changes",
    "rules_parent",
]

#: Longest time controls accepted (a game should end within a day).
MAX_BASE_SECONDS = 3 * 3600.0
MAX_PER_MOVE_SECONDS = 3600.0
#: Correspondence games: whole days per move, at most two weeks (docs/server.md).
MAX_CORRESPONDENCE_DAYS = 14

#: A custom rule set is named after the named set it changes: "classic (custom)".
CUSTOM_SUFFIX = " (custom)"
#: Keys a rule options object may carry besides the options: the set it changes, and the name
#: and description a ``/api/rules`` entry has (ignored: the server names a custom set itself).
_LABELS = ("name", "description")
_NOT_OPTIONS = ("parent", *_LABELS)
#: Longest "draw without a capture" limit (the engine keeps it as a 64-bit ply count, and no
#: game within the time controls above lasts longer).
MAX_NO_CAPTURE_ROUNDS = 1000
#: More keys than this cannot be rule options (there are 11); refused before reading them.
MAX_RULE_KEYS = 32


def checked_time_control(text: str | None) -> TimeControl | None:
    """The time control a player asked for (None: untimed), within the site's limits, or a
    422 with the code ``time.bad``, ``time.days`` or ``time.too_long``. Every place that takes
    a time control from a player (games, seeks, challenges, tournaments) checks it here."""
    if text is None or not text.strip():
        return None
    try:
        control = TimeControl.parse(text)
    except TimeControlError as exc:
        raise Refused("time.bad", str(exc), text=text[:40]) from None
    if control.days is not None:
        if not control.days.is_integer() or control.days > MAX_CORRESPONDENCE_DAYS:
            raise Refused("time.days", "correspondence: 1 to 14 whole days per move", most=14)
        return control
    if control.base > MAX_BASE_SECONDS or (control.per_move or 0) > MAX_PER_MOVE_SECONDS:
        raise Refused("time.too_long", "time control too long (at most 3 hours, 1 hour per move)")
    return control


def rules_parent(rules: RuleSet) -> str:
    """The named set a game's rules are or change: "classic" for "classic (custom)" (and for
    "classic" with Blue moving first, which keeps its name)."""
    parent = rules.name.removesuffix(CUSTOM_SUFFIX)
    return parent if parent in BUILTIN_RULE_SETS else "wango"


def rule_changes(rules: RuleSet) -> dict[str, Any]:
    """The options in which ``rules`` differ from its parent set (values as ``/api/rules``)."""
    base = BUILTIN_RULE_SETS[rules_parent(rules)].to_mapping()
    return {
        key: value
        for key, value in rules.to_mapping().items()
        if key not in _NOT_OPTIONS and base[key] != value
    }


def chosen_rules(choice: str | dict[str, Any]) -> RuleSet:
    """The rule set a new game asked for: a named set, or options over a named parent.

    Only named sets are ever looked up (never a file). Bad options are a 422 that names every
    bad key.
    """
    if not isinstance(choice, str):
        return _custom_rules(choice)
    named = BUILTIN_RULE_SETS.get(choice.strip().lower())
    if named is None:
        known = ", ".join(BUILTIN_RULE_SETS)
        raise Refused("rules.unknown", f"unknown rule set; known: {known}", name=choice[:40])
    return named


def _custom_rules(options: dict[str, Any]) -> RuleSet:
    """``options`` over their ``parent`` (default wango), named "PARENT (custom)". Options that
    leave the parent as it is (the first player aside) give the parent itself, so that a game
    is called custom only when it is."""
    if len(options) > MAX_RULE_KEYS:
        raise Refused("rules.bad", f"bad rule options: more than {MAX_RULE_KEYS} keys")
    table = {key: value for key, value in options.items() if key not in _LABELS}
    parent = table.get("parent", "wango")
    if isinstance(parent, str):
        table["parent"] = parent = parent.strip().lower()
    problems = []
    rounds = table.get("no_capture_draw_rounds")
    if type(rounds) is int and rounds > MAX_NO_CAPTURE_ROUNDS:
        problems.append(f"no_capture_draw_rounds: at most {MAX_NO_CAPTURE_ROUNDS}, got {rounds}")
    try:
        rules = rules_from_mapping(f"{parent}{CUSTOM_SUFFIX}", table)
    except InvalidRulesError as exc:
        problems.insert(0, str(exc))
    if problems:
        raise Refused("rules.bad", "bad rule options: " + "; ".join(problems))
    base = dataclasses.replace(BUILTIN_RULE_SETS[parent], first_player=rules.first_player)
    if dataclasses.replace(rules, name=base.name, description=base.description) == base:
        return base
    return rules

"""What a player chooses when a game starts, checked against the site's limits: the game, its
rule set (a named one, or options over one) and the time control.

Every place that starts games (a game, a seek, a challenge, a tournament, the analysis board)
takes the choice through here, so that each is refused alike: a :class:`Refused` with a code
that the web client translates, answered 422. Rule sets are read through the game interface
(:meth:`~doushouqi.core.game.Game.parse_rules`: a name, or a mapping with a ``parent``), and
what the site refuses beyond the game's own rules is the game's site entry's
(:attr:`~doushouqi.server.games.registry.SiteGame.rule_limits`), so nothing here knows a game.
"""

from __future__ import annotations

from typing import Any

from doushouqi.core.clock import TimeControl, TimeControlError
from doushouqi.core.game import Game, RulesError, get_game
from doushouqi.server.domain.model import DEFAULT_GAME_KEY
from doushouqi.server.games.registry import site_game
from doushouqi.server.infra.refused import Refused

__all__ = [
    "CUSTOM_SUFFIX",
    "MAX_BASE_SECONDS",
    "MAX_CORRESPONDENCE_DAYS",
    "MAX_PER_MOVE_SECONDS",
    "checked_time_control",
    "chosen_rules",
    "offered",
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
#: More keys than this cannot be rule options (Jungle has 11, the Tiger 9); refused before
#: reading them.
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


def offered(game_key: str) -> Game[Any]:
    """The game ``game_key`` names, if the site offers it; a 422 ``game.unknown`` otherwise."""
    try:
        site_game(game_key)
        return get_game(game_key)
    except LookupError:
        raise Refused("game.unknown", f"this site offers no game {game_key[:16]!r}") from None


def rules_parent(rules: Any, game_key: str = DEFAULT_GAME_KEY) -> str:
    """The named set a game's rules are or change: "classic" for "classic (custom)" (and for
    "classic" with Blue moving first, which keeps its name); the game's default set for a name
    that is neither."""
    game = get_game(game_key)
    parent = str(game.rules_to_mapping(rules)["name"]).removesuffix(CUSTOM_SUFFIX)
    return parent if parent in game.rule_set_names else game.default_rule_set


def _options(game: Game[Any], rules: Any) -> dict[str, Any]:
    return {k: v for k, v in game.rules_to_mapping(rules).items() if k not in _NOT_OPTIONS}


def rule_changes(rules: Any, game_key: str = DEFAULT_GAME_KEY) -> dict[str, Any]:
    """The options in which ``rules`` differ from its parent (values as ``/api/rules``)."""
    game = get_game(game_key)
    base = _options(game, game.parse_rules(rules_parent(rules, game_key)))
    return {key: value for key, value in _options(game, rules).items() if base.get(key) != value}


def chosen_rules(choice: str | dict[str, Any] | None, game_key: str = DEFAULT_GAME_KEY) -> Any:
    """The rule set a new game of ``game_key`` asked for: a named set, or options over a named
    parent (the game's rule set value); None: the game's default set.

    Only named sets are ever looked up (never a file). Bad options are a 422 that names every
    bad key; options the site does not play are the game's refusal (its ``rule_limits``).
    """
    game = offered(game_key)
    if choice is None:
        return game.parse_rules(game.default_rule_set)
    if not isinstance(choice, str):
        return _custom_rules(game, choice)
    name = choice.strip().lower()
    if name not in game.rule_set_names:
        known = ", ".join(game.rule_set_names)
        raise Refused("rules.unknown", f"unknown rule set; known: {known}", name=choice[:40])
    return game.parse_rules(name)


def _custom_rules(game: Game[Any], options: dict[str, Any]) -> Any:
    """``options`` over their ``parent`` (default: the game's default set), named
    "PARENT (custom)". Options that leave the parent as it is (the first player aside) give the
    parent itself, so that a game is called custom only when it is."""
    if not isinstance(options, dict):
        raise Refused("rules.bad", "bad rule options: a rule set is a name or an object")
    if len(options) > MAX_RULE_KEYS:
        raise Refused("rules.bad", f"bad rule options: more than {MAX_RULE_KEYS} keys")
    table = {key: value for key, value in options.items() if key not in _LABELS}
    parent = table.get("parent", game.default_rule_set)
    if isinstance(parent, str):
        table["parent"] = parent = parent.strip().lower()
    try:
        rules = game.parse_rules({**table, "name": f"{parent}{CUSTOM_SUFFIX}"})
    except RulesError as exc:
        raise Refused("rules.bad", f"bad rule options: {exc}") from None
    limits = site_game(game.key).rule_limits
    refusal = None if limits is None else limits(rules)
    if refusal is not None:
        raise refusal
    base = game.with_first_seat(game.parse_rules(parent), game.first_seat(rules))
    if _options(game, rules) == _options(game, base):
        return base
    return rules

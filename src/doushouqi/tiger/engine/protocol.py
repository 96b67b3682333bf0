"""The 老虎棋 side of the engine protocol's text: its rule options and its ``info`` lines.

The protocol is Jungle's UCI-like one (docs/engine.md) with this game's moves and rule set.
The rule set travels as ``setoption name Rules value <name>`` for a named set, or as one
``setoption`` per rule option (:data:`RULE_OPTIONS`, named as the rule set's fields) on top of
``Rules laohuqi``. What every game shares (the errors, ``option`` lines) is
:mod:`doushouqi.core.engine_protocol`, re-exported here. Scores are ``cp N`` or ``mate N``
(the moves of the side to move to a win, negative to a loss).

>>> info = parse_info("depth 4 score mate 2 nodes 90 time 3 pv e10e9 d2d3", Board())
>>> info["score"], info["time"], [str(m) for m in info["pv"]]
(Score(mate=2), 0.003, ['e10e9', 'd2d3'])
>>> rule_option_values(BUILTIN_RULE_SETS["laohuqi-south"])["tigers"]
'2'
>>> len(RULE_OPTIONS), RULE_OPTIONS[:3]
(9, ('diagonals', 'men', 'tigers'))
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from doushouqi.core.engine_protocol import (
    EngineError,
    EngineMoveError,
    EngineNoMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    is_int,
    parse_option,
    read_info,
)
from doushouqi.tiger.analysis import Info
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move, MoveError
from doushouqi.tiger.rules import (
    BUILTIN_RULE_SETS,
    MAX_ROUNDS,
    Diagonals,
    RuleSet,
)

__all__ = [
    "RULE_OPTIONS",
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "named_rule_set",
    "parse_info",
    "parse_option",
    "rule_option_line",
    "rule_option_values",
    "with_rule_option",
]

LOGGER = logging.getLogger(__name__)

#: The rule options (``setoption name multi_jump value true`` …): every :class:`RuleSet`
#: field that changes play (``name`` and ``description`` change nothing an engine needs).
RULE_OPTIONS = (
    "diagonals",
    "men",
    "tigers",
    "first",
    "men_retreat",
    "multi_jump",
    "capture_mandatory",
    "tiger_wins_below",
    "max_rounds",
)
_FLAGS = ("men_retreat", "multi_jump", "capture_mandatory")
_SIDES = ("tiger", "men")


def rule_option_values(rules: RuleSet) -> dict[str, str]:
    """Each rule option's value as protocol text (``true``, ``nest``, ``men``, ``0`` for no
    round limit), keyed by :data:`RULE_OPTIONS`.

    >>> values = rule_option_values(BUILTIN_RULE_SETS["laohuqi"])
    >>> values["men"], values["men_retreat"], values["max_rounds"]
    ('12', 'true', '0')
    """
    mapping = rules.to_mapping()
    values = {}
    for field in RULE_OPTIONS:
        value = mapping[field]
        values[field] = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return values


def rule_option_line(field: str, rules: RuleSet) -> str:
    """The ``option`` line an engine announces for a rule option, defaulting to ``rules``.

    >>> rule_option_line("multi_jump", BUILTIN_RULE_SETS["laohuqi"])
    'option name multi_jump type check default false'
    >>> rule_option_line("men", BUILTIN_RULE_SETS["laohuqi-18"])
    'option name men type combo default 18 var 12 var 18'
    """
    value = rule_option_values(rules)[field]
    if field in _FLAGS:
        return f"option name {field} type check default {value}"
    if field == "diagonals":
        choices = " ".join(f"var {d.value}" for d in Diagonals)
        return f"option name {field} type combo default {value} {choices}"
    if field == "men":
        return f"option name {field} type combo default {value} var 12 var 18"
    if field == "tigers":
        return f"option name {field} type combo default {value} var 1 var 2"
    if field == "first":
        return f"option name {field} type combo default {value} var tiger var men"
    if field == "tiger_wins_below":
        return f"option name {field} type spin default {value} min 0 max 18"
    return f"option name {field} type spin default {value} min 0 max {MAX_ROUNDS}"


def with_rule_option(rules: RuleSet, field: str, text: str) -> RuleSet:
    """``rules`` with one rule option set from protocol text (named ``custom`` when that
    changes anything); ValueError (a RulesError) saying what is wrong.

    >>> chains = with_rule_option(BUILTIN_RULE_SETS["laohuqi"], "multi_jump", "true")
    >>> chains.name, chains.multi_jump
    ('custom', True)
    >>> with_rule_option(BUILTIN_RULE_SETS["laohuqi"], "men", "many")
    Traceback (most recent call last):
    ...
    ValueError: men: expected a whole number, got 'many'
    """
    if field not in RULE_OPTIONS:
        raise ValueError(f"unknown rule option {field!r}")
    text = text.strip()
    value: Any
    if field in _FLAGS:
        lowered = text.lower()
        if lowered not in ("true", "false"):
            raise ValueError(f"{field}: expected true or false, got {text!r}")
        value = lowered == "true"
    elif field == "diagonals":
        try:
            value = Diagonals(text.lower())
        except ValueError:
            raise ValueError(f"diagonals: expected none, nest or all, got {text!r}") from None
    elif field == "first":
        if text.lower() not in _SIDES:
            raise ValueError(f"first: expected tiger or men, got {text!r}")
        value = _SIDES.index(text.lower())
    else:
        if not is_int(text):
            raise ValueError(f"{field}: expected a whole number, got {text!r}")
        value = int(text)
        if field == "max_rounds":
            value = value or None
    changed = dataclasses.replace(rules, **{field: value})  # RuleSet checks the values
    if changed != rules:
        changed = dataclasses.replace(changed, name="custom")
    return changed


def named_rule_set(rules: RuleSet) -> str | None:
    """The name of the named rule set that plays exactly as ``rules`` (its own name first),
    or None for custom rules.

    >>> named_rule_set(BUILTIN_RULE_SETS["laohuqi-18"])
    'laohuqi-18'
    """
    values = rule_option_values(rules)
    for name in [rules.name, *BUILTIN_RULE_SETS]:
        named = BUILTIN_RULE_SETS.get(name)
        if named is not None and rule_option_values(named) == values:
            return name
    return None


# ------------------------------------------------------------------------------ info


def parse_info(text: str, board: Board | None = None) -> Info:
    """Parse what follows ``info``; unknown tokens are skipped. With a board, the principal
    variation is checked move by move and cut before the first move that is not legal.

    >>> parse_info("string searching hard")
    {'string': 'searching hard'}
    """
    return read_info(text, read_move=Move.from_str, read_pv=lambda tokens: _parse_pv(tokens, board))


def _parse_pv(tokens: Sequence[str], board: Board | None) -> list[Move]:
    pv: list[Move] = []
    position = board.copy() if board is not None else None
    for token in tokens:
        try:
            move = Move.from_str(token)
        except MoveError:
            break
        if position is not None:
            if not move or position.outcome() is not None or not position.is_legal(move):
                LOGGER.debug("pv cut before illegal move %s", token)
                break
            position.push(move)
        pv.append(move)
    return pv

"""The text of the engine protocol as engines write it: errors, ``option`` and ``info`` lines.

Used by the engine client (:mod:`doushouqi.jungle.engine`), which re-exports everything here.
The errors and the ``option`` lines are every game's (:mod:`doushouqi.core.engine_protocol`);
the rule options and the ``info`` lines, with their moves, are Jungle's.

>>> parse_option("name Level type spin default 3 min 0 max 20")
Option(name='Level', type='spin', default='3', min=0, max=20, var=())
>>> parse_info("depth 2 hashfull 7 score cp -12 lowerbound pv g3g4")["score"]
Score(cp=-12)

A rule set the engine does not offer by name travels as one ``setoption`` per rule option
(the last two of classic's here):

>>> from doushouqi.jungle.rules import BUILTIN_RULE_SETS
>>> values = rule_option_values(BUILTIN_RULE_SETS["classic"])
>>> [f"setoption name {name} value {values[name]}" for name in RULE_OPTIONS[-2:]]
['setoption name ranks value wolf>dog', 'setoption name first_player value red']
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from doushouqi.core.engine_protocol import (
    EngineError,
    EngineMoveError,
    EngineNoMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    parse_option,
    read_info,
)
from doushouqi.jungle.analysis import Info, PovScore
from doushouqi.jungle.board import Board, InvalidMoveError, Move
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet

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
    "rule_option_values",
]

LOGGER = logging.getLogger(__name__)


# ------------------------------------------------------------------------------ rules

#: The rule options (``setoption name rule_7_3 value true`` …): every :class:`RuleSet` field
#: that changes play, named as in the rule files (``name``, ``description`` and ``wolf_name``
#: change nothing an engine needs).
RULE_OPTIONS = (
    "own_rat_blocks_jump",
    "rat_captures_across_water",
    "trapped_can_capture",
    "repetition",
    "no_capture_draw_rounds",
    "rule_7_3",
    "rule_17_5",
    "ranks",
    "first_player",
)


def rule_option_values(rules: RuleSet) -> dict[str, str]:
    """Each rule option's value as protocol text (``true``, ``threefold_draw``, ``0`` for no
    no-capture limit, ``red``/``blue`` for the first player).

    >>> rule_option_values(BUILTIN_RULE_SETS["classic"])["no_capture_draw_rounds"]
    '100'
    """
    values = {}
    for field in RULE_OPTIONS:
        value = getattr(rules, field)
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif field == "first_player":
            text = "blue" if value else "red"
        elif field == "no_capture_draw_rounds":
            text = str(value or 0)
        else:
            text = str(value.value)
        values[field] = text
    return values


def named_rule_set(rules: RuleSet) -> str | None:
    """The name of the built-in rule set that plays exactly as ``rules`` (its own name first,
    then any), or None for custom rules.

    >>> import dataclasses
    >>> classic = BUILTIN_RULE_SETS["classic"]
    >>> named_rule_set(classic), named_rule_set(dataclasses.replace(classic, rule_7_3=False))
    ('classic', None)
    """
    values = rule_option_values(rules)
    names = [rules.name, *BUILTIN_RULE_SETS]
    for name in names:
        named = BUILTIN_RULE_SETS.get(name)
        if named is not None and rule_option_values(named) == values:
            return name
    return None


# ------------------------------------------------------------------------------ info


def parse_info(text: str, board: Board | None = None) -> Info:
    """Parse what follows ``info``; unknown tokens are skipped.

    With a board, the principal variation is checked move by move and cut before the first
    move that is not legal, and the score is a :class:`~doushouqi.jungle.analysis.PovScore` (it
    knows that the side to move of ``board`` reported it).

    >>> parse_info("depth 2 wibble 9 score den -3 upperbound pv zz99")["score"]
    Score(mate=-3)
    >>> parse_info("string searching hard")
    {'string': 'searching hard'}
    """
    return read_info(
        text,
        read_move=Move.from_str,
        read_pv=lambda tokens: _parse_pv(tokens, board),
        mate_words=("den", "mate"),
        as_seen=None if board is None else lambda score: PovScore.of(score, board.turn),
    )


def _parse_pv(tokens: Sequence[str], board: Board | None) -> list[Move]:
    pv: list[Move] = []
    position = board.copy() if board is not None else None
    for token in tokens:
        try:
            move = Move.from_str(token)
        except InvalidMoveError:
            break
        if position is not None:
            if not position.is_legal(move):
                LOGGER.debug("pv cut before illegal move %s", token)
                break
            position.push(move)
        pv.append(move)
    return pv

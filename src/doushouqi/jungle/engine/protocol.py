"""The text of the engine protocol as engines write it: errors, ``option`` and ``info`` lines.

Used by the engine client (:mod:`doushouqi.jungle.engine`), which re-exports everything here.
The errors and the ``option`` lines are every game's (:mod:`doushouqi.core.engine_protocol`);
the rule options and the ``info`` lines, with their moves, are Jungle's.

>>> parse_option("name Level type spin default 3 min 0 max 20")
Option(name='Level', type='spin', default='3', min=0, max=20, var=())
>>> parse_info("depth 2 hashfull 7 score cp -12 lowerbound pv g3g4")["score"]
Score(cp=-12)
"""

from __future__ import annotations

import contextlib
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
)
from doushouqi.core.engine_protocol import is_int as _is_int
from doushouqi.jungle.analysis import Info, PovScore, Score
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

_INFO_INTS = frozenset(
    {"depth", "seldepth", "nodes", "nps", "multipv", "hashfull", "tbhits", "currmovenumber"}
)
_INFO_KEYWORDS = frozenset(
    {
        *_INFO_INTS,
        "time",
        "score",
        "pv",
        "string",
        "multipv",
        "currmove",
        "currmovenumber",
        "hashfull",
        "tbhits",
        "sbhits",
        "cpuload",
        "refutation",
        "currline",
    }
)


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
    info = Info()
    tokens = text.split()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "string":
            info["string"] = " ".join(tokens[i:])
            break
        if token in _INFO_INTS or token == "time":
            if i < len(tokens) and _is_int(tokens[i]):
                value = int(tokens[i])
                i += 1
                if token == "time":
                    info["time"] = value / 1000
                elif token == "depth":
                    info["depth"] = value
                elif token == "seldepth":
                    info["seldepth"] = value
                elif token == "nodes":
                    info["nodes"] = value
                elif token == "multipv":
                    info["multipv"] = value
                elif token == "hashfull":
                    info["hashfull"] = value
                elif token == "currmovenumber":
                    info["currmovenumber"] = value
                elif token == "tbhits":
                    info["tbhits"] = value
                else:
                    info["nps"] = value
        elif token == "score":
            while i + 1 < len(tokens) and tokens[i] in ("cp", "den", "mate"):
                kind, value_text = tokens[i], tokens[i + 1]
                if not _is_int(value_text):
                    break
                i += 2
                number = int(value_text)
                score = Score(cp=number) if kind == "cp" else Score(mate=number)
                info["score"] = score if board is None else PovScore.of(score, board.turn)
            while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                i += 1
        elif token == "pv":
            start = i
            while i < len(tokens) and tokens[i] not in _INFO_KEYWORDS:
                i += 1
            info["pv"] = _parse_pv(tokens[start:i], board)
        elif token == "currmove" and i < len(tokens):
            with contextlib.suppress(InvalidMoveError):
                info["currmove"] = Move.from_str(tokens[i])
            i += 1
        elif token in ("refutation", "currline"):
            while i < len(tokens) and tokens[i] not in _INFO_KEYWORDS:
                i += 1
        elif token in _INFO_KEYWORDS and i < len(tokens):
            i += 1  # a known keyword with one value that Info has no place for
    return info


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

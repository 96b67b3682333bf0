"""Clients of 老虎棋 engines: the protocol's text (:mod:`.protocol`), an asyncio client for an
engine process (:mod:`.client`) and engine matches (:mod:`.match`, ``doushouqi match --game
tiger``). Pure Python: the engine itself is :mod:`doushouqi.tiger.ai`."""

from __future__ import annotations

from doushouqi.tiger.engine.client import Engine, game_start
from doushouqi.tiger.engine.protocol import (
    RULE_OPTIONS,
    EngineError,
    EngineMoveError,
    EngineNoMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Option,
    named_rule_set,
    parse_info,
    parse_option,
    rule_option_values,
)

__all__ = [
    "RULE_OPTIONS",
    "Engine",
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Option",
    "game_start",
    "named_rule_set",
    "parse_info",
    "parse_option",
    "rule_option_values",
]

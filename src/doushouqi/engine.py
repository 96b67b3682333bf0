"""The engine client's public path, ``doushouqi.engine`` (python-chess's ``chess.engine``).

The client is Jungle's and lives in :mod:`doushouqi.jungle.engine`; this module keeps the name
users type (``doushouqi.engine.SimpleEngine.popen_engine(...)``, ``doushouqi.engine.Limit``).
"""

from __future__ import annotations

from doushouqi.jungle.engine import (
    AUTO_HANDSHAKE_WAIT,
    LOGGER,
    READY_TIMEOUT,
    RULE_OPTIONS,
    Analysis,
    Board,
    Engine,
    EngineError,
    EngineMoveError,
    EngineNoMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    Info,
    InfoCallback,
    InvalidMoveError,
    Limit,
    Move,
    Option,
    PlayResult,
    SimpleAnalysis,
    SimpleEngine,
    named_rule_set,
    parse_info,
    parse_option,
    popen_engine,
    rule_option_values,
)

__all__ = [
    "AUTO_HANDSHAKE_WAIT",
    "LOGGER",
    "READY_TIMEOUT",
    "RULE_OPTIONS",
    "Analysis",
    "Board",
    "Engine",
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Info",
    "InfoCallback",
    "InvalidMoveError",
    "Limit",
    "Move",
    "Option",
    "PlayResult",
    "SimpleAnalysis",
    "SimpleEngine",
    "named_rule_set",
    "parse_info",
    "parse_option",
    "popen_engine",
    "rule_option_values",
]

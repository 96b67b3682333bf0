"""Client for any engine that speaks the Jungle protocol (UCI-like), in-process or external.

One asyncio core, :class:`Engine`, and a blocking facade, :class:`SimpleEngine`, that runs the
core's event loop in a background thread (the shape of python-chess's ``chess.engine``).

The protocol, as this client speaks it:

* handshake ``uci`` (some Jungle engines use ``jcei``; the word is configurable, and
  ``handshake="auto"`` sends ``uci`` and, when the engine says nothing for
  :data:`AUTO_HANDSHAKE_WAIT` seconds, ``jcei``) answered by ``id name …``, ``id author …``,
  ``option name … type …`` lines and ``uciok`` (or ``jceiok``);
* ``isready`` → ``readyok``; ``setoption name X [value Y]``; ``ucinewgame``;
* ``position fen <starting position> [moves m1 m2 …]`` (a pass is ``0000``);
* ``go depth N | nodes N | movetime MS | wtime MS btime MS winc MS binc MS | infinite``,
  answered by ``info …`` lines and ``bestmove <move> [ponder <move>]`` (``(none)`` or ``0000``
  when there is no move); ``stop``; ``quit``.

The rule set travels as ``setoption name Rules value <name>`` when it is a built-in one the
engine offers, and otherwise (a rule file, ``dataclasses.replace(classic, …)``) as one
``setoption`` per rule field (``own_rat_blocks_jump``, ``rule_7_3`` …, :data:`RULE_OPTIONS`)
after ``Rules wango``. Every move an engine returns is checked against the board: an illegal one
raises :class:`EngineMoveError`. An engine that does not answer in time is killed and
:class:`EngineTimeoutError` is raised; one that exits raises :class:`EngineTerminatedError`.
All three are kinds of :class:`EngineError`. Reading the engine's own lines (``option``,
``info``) is :mod:`doushouqi.jungle.engine.protocol`, re-exported here.

The client lives in four modules, all re-exported here (import from ``doushouqi.jungle.engine``):
the asyncio core ``async_client``, a search in progress ``analysis_stream``, the blocking
facade ``blocking`` and the protocol's lines ``protocol``.

>>> info = parse_info("depth 3 score cp 25 nodes 800 time 12 pv g3g4 a7a6", Board())
>>> info["depth"], info["score"], info["time"], [str(m) for m in info["pv"]]
(3, PovScore(cp=25, turn=0), 0.012, ['g3g4', 'a7a6'])
"""

from __future__ import annotations

# The board and search types the client's signatures use, importable from here as before.
from doushouqi.jungle.analysis import Info as Info
from doushouqi.jungle.analysis import Limit as Limit
from doushouqi.jungle.analysis import PlayResult as PlayResult
from doushouqi.jungle.board import Board as Board
from doushouqi.jungle.engine.analysis_stream import LOGGER, Analysis, InfoCallback
from doushouqi.jungle.engine.async_client import (
    AUTO_HANDSHAKE_WAIT,
    READY_TIMEOUT,
    Engine,
    popen_engine,
)
from doushouqi.jungle.engine.blocking import SimpleAnalysis, SimpleEngine
from doushouqi.jungle.engine.protocol import (
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
from doushouqi.jungle.moves import InvalidMoveError as InvalidMoveError
from doushouqi.jungle.moves import Move as Move

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

"""``doushouqi engine``: the engine over stdin/stdout in the UCI-like Jungle protocol.

Commands (one a line; every answer line is flushed at once):

* ``uci`` / ``jcei`` → ``id name``, ``id author``, one ``option`` line per option,
  ``uciok`` / ``jceiok``;
* ``isready`` → ``readyok`` once the compiled code is loaded. The compiled modules are
  imported (numba compiles them, or loads them from its cache) in a background thread started
  at launch, so ``uci`` is answered at once and only the first ``isready``, ``go`` or
  ``perft`` waits for them (seconds on a warm cache, about a minute on a cold one);
* ``setoption name <name> [value <value>]``: ``Rules`` (a rule set name or a rule file path),
  ``Level`` (1-10), ``Hash`` (MB), ``Contempt`` (centipawns a draw is worth less than an equal
  position, to the engine), ``MultiPV`` (lines reported, 1-64), ``Ponder`` (accepted; pondering
  is asked for with ``go ponder``), ``Tablebases`` (true: the endgame tables play a covered
  root and score covered positions in the search; false: no table is used),
  ``TablebasePath`` (directories searched for tables first, ``os.pathsep``-separated; empty
  or ``<empty>``: only ``$DOUSHOUQI_TABLEBASES`` and the package's own), ``Evaluation``
  (``auto``, the learned network at level 10 and the hand-tuned terms below; ``classic``,
  the hand-tuned terms; ``nnue``, the learned network at every level), ``EvalFile`` (the
  network's weight file, checked when set; empty or ``<empty>``: the shipped one),
  ``EasyStop`` (0-100: a timed search at level 10 whose best move has stood for three depths
  stops once it has used this % of its time, sooner as the move keeps standing; 0: ``go
  movetime`` and the clocks' shares are always used whole), and one option per rule field
  (``rule_7_3`` ...);
* ``ucinewgame``; ``position startpos|fen <position string> [moves m1 m2 …]`` (``0000`` is a
  pass), checked with the rules library: a bad position or move leaves *no* position, so the
  next ``go``, ``perft`` or ``d`` answers an error instead of working on a stale one, until a
  ``position`` command succeeds;
* ``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
  [movestogo N] [mate N] [searchmoves M …] [infinite] [ponder]`` (read by :mod:`.go_command`:
  a ``go`` with an error in it starts nothing) → ``info …`` after each depth (with MultiPV N,
  ``info … multipv 1`` … ``multipv N`` per depth, best score first), then a last ``info`` for
  the move played (depth, score, the whole search's nodes and time, pv starting with it;
  before it an ``info string …`` when the engine has something to say: ``tablebase: Red
  wins in 17`` for a root played from the tables, ``game over``) and ``bestmove <move>
  [ponder <reply>]`` (``bestmove 0000`` when the game is over); the search runs in a thread,
  so ``stop``, ``ponderhit``, ``isready`` and ``quit`` are answered while it thinks;
* ``go ponder …`` searches the position (the expected reply already played) without end;
  ``ponderhit`` (the reply was played) turns it into the normal search of the ``go`` limit,
  its time counted from the ``ponderhit``; ``stop`` ends it (bestmove follows, to be ignored);
* ``perft N [divide]`` (N up to :data:`MAX_PERFT_DEPTH`; prints the leaf count, with
  ``divide`` first a ``move: count`` line per legal move, from the compiled move generator)
  runs in a thread like a search: ``isready`` is answered meanwhile, and ``stop`` or ``quit``
  ends it with ``info string perft stopped: …`` (with ``divide``, after the moves counted to
  the end);
* ``stop``, ``quit``, ``d`` (prints board and position string). The end of the input is a
  ``quit`` that first lets a running search or perft finish, when it ends by itself (``printf
  'position startpos\\ngo depth 8\\n' | doushouqi engine`` prints the whole search); an
  infinite or pondering one is stopped.

Anything malformed is answered with ``info string error …`` (repeating at most 80 characters
of what it got) and the engine carries on.

The loop, the loader thread and the commands every engine has are
:class:`doushouqi.compiled.protocol_loop.EngineLoop`'s; this module adds Jungle's board, rules,
options (the tables, the rule fields), scores (``den N``) and its stoppable ``perft``.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from doushouqi.compiled.protocol_loop import (
    CONTEMPT_RANGE,
    DEFAULT_HASH_MB,
    EngineLoop,
    Job,
    clipped_error,
    parse_bool,
    parse_int,
)
from doushouqi.core.analysis import Score
from doushouqi.jungle.ai.go_command import parse_go
from doushouqi.jungle.ai.levels import MAX_LEVEL, MIN_LEVEL
from doushouqi.jungle.analysis import Limit, score_text
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.protocol import RULE_OPTIONS
from doushouqi.jungle.rules import Ranks, Repetition, RuleSet, find_rules

if TYPE_CHECKING:  # imported in the loader thread: importing it compiles
    import numpy as np
    from numpy.typing import NDArray

    from doushouqi.jungle.ai.search_driver import Searcher

# CONTEMPT_RANGE and DEFAULT_HASH_MB are every engine's (doushouqi.compiled.protocol_loop),
# named here too for the callers that start this engine.
__all__ = ["CONTEMPT_RANGE", "DEFAULT_HASH_MB", "EngineProtocol", "run_protocol"]
NAMED_RULE_SETS = ("wango", "classic", "classic-dog", "international")
#: ``engine.DEFAULT_TUNING["contempt"]``, repeated here so that the handshake needs no
#: compiled module (a test checks that they agree).
DEFAULT_CONTEMPT = 50
#: ``engine.DEFAULT_TUNING["easy_stop"]`` (the ``EasyStop`` option's default), likewise.
DEFAULT_EASY_STOP = 50
#: ``search_driver.EVALUATIONS`` (the ``Evaluation`` option's values), repeated here for the
#: same reason (a test checks that they agree).
EVALUATIONS = ("auto", "classic", "nnue")
#: How a string option's empty value is written (as UCI engines do).
EMPTY = "<empty>"
#: Deepest ``perft``. Each ply multiplies the count about 20 times from the start position
#: (perft 7: 2 × 10^9 leaves, seconds; perft 8: minutes), while a sparse ending (two animals,
#: 3-4 moves a ply) counts 15 plies in about a second. Deeper walks would never end.
MAX_PERFT_DEPTH = 15
#: What ``d``, ``go`` and ``perft`` say while a failed ``position`` has left none.
NO_POSITION = "no position: the last position command failed (send a new one)"


def _parse_directories(text: str) -> str:
    """A ``TablebasePath`` value: ``os.pathsep``-separated directories that must exist."""
    text = text.strip()
    if text == EMPTY:
        return ""
    for part in text.split(os.pathsep):
        if part and not os.path.isdir(part):
            raise ValueError(f"TablebasePath: no such directory {part!r}")
    return text


def _rule_field(name: str, text: str) -> object:
    """The RuleSet value of a rule option given as protocol text."""
    if name in (
        "own_rat_blocks_jump",
        "rat_captures_across_water",
        "trapped_can_capture",
        "rule_7_3",
        "rule_17_5",
    ):
        return parse_bool(text)
    if name == "repetition":
        return Repetition(text.strip())
    if name == "ranks":
        return Ranks(text.strip())
    if name == "first_player":
        colors = {"red": 0, "blue": 1}
        if text.strip().lower() not in colors:
            raise ValueError(f"first_player: expected red or blue, got {text!r}")
        return colors[text.strip().lower()]
    if name == "no_capture_draw_rounds":
        rounds = parse_int(text, 0, 10_000, name)
        return rounds or None
    raise ValueError(f"unknown option {name!r}")


def _rule_option_line(field: str, rules: RuleSet) -> str:
    value = getattr(rules, field)
    if isinstance(value, bool):
        return f"option name {field} type check default {str(value).lower()}"
    if field == "repetition":
        options = " ".join(f"var {r.value}" for r in Repetition)
        return f"option name {field} type combo default {value.value} {options}"
    if field == "ranks":
        options = " ".join(f"var {r.value}" for r in Ranks)
        return f"option name {field} type combo default {value.value} {options}"
    if field == "first_player":
        default = "blue" if value else "red"
        return f"option name {field} type combo default {default} var red var blue"
    return f"option name {field} type spin default {value or 0} min 0 max 10000"


class EngineProtocol(EngineLoop[Board, RuleSet, "Searcher"]):
    """One protocol session: reads command lines, writes answers to ``out``."""

    ENGINE_NAME = "doushouqi"
    HANDSHAKES = (("uci", "uciok"), ("jcei", "jceiok"))
    MIN_LEVEL = MIN_LEVEL
    MAX_LEVEL = MAX_LEVEL
    DEFAULT_CONTEMPT = DEFAULT_CONTEMPT
    INFO_COUNTS = ("nodes", "nps", "tbhits")
    FORGETS_FAILED_POSITION = True

    def __init__(self, out: TextIO | None = None, engine: Searcher | None = None) -> None:
        self.tablebases = engine.use_tablebase if engine is not None else True
        self.tablebase_path = os.pathsep.join(engine.tablebase_paths) if engine is not None else ""
        self.evaluation = engine.evaluation if engine is not None else "auto"
        self.eval_file = engine.network_file if engine is not None else ""
        self.easy_stop = engine.tuning["easy_stop"] if engine is not None else DEFAULT_EASY_STOP
        super().__init__(out, engine, find_rules("wango"))

    # ------------------------------------------------------------------ Jungle's part

    def _new_engine(self) -> Searcher:
        from doushouqi.jungle.ai.search_driver import Searcher

        return Searcher(self.rules, hash_mb=self.hash_mb)

    def _configure(self, engine: Searcher) -> None:
        super()._configure(engine)
        engine.use_tablebase = self.tablebases
        engine.tablebase_paths = [p for p in self.tablebase_path.split(os.pathsep) if p]
        engine.network_file = self.eval_file
        engine.evaluation = self.evaluation
        engine.tuning["easy_stop"] = self.easy_stop

    def _new_board(self, fen: str | None) -> Board:
        return Board(fen, self.rules)

    def _rules_named(self, name: str) -> RuleSet:
        return find_rules(name)

    def _rule_set_names(self) -> Iterable[str]:
        return NAMED_RULE_SETS

    def _own_option_lines(self) -> Iterable[str]:
        yield f"option name Tablebases type check default {str(self.tablebases).lower()}"
        yield f"option name TablebasePath type string default {self.tablebase_path or EMPTY}"
        choices = " ".join(f"var {name}" for name in EVALUATIONS)
        yield f"option name Evaluation type combo default {self.evaluation} {choices}"
        yield f"option name EvalFile type string default {self.eval_file or EMPTY}"
        yield f"option name EasyStop type spin default {self.easy_stop} min 0 max 100"

    def _rule_option_lines(self) -> Iterable[str]:
        return (_rule_option_line(field, self.rules) for field in RULE_OPTIONS)

    def _set_own_option(self, key: str, value: str) -> bool:
        if key == "tablebases":
            self.tablebases = parse_bool(value)
        elif key == "tablebasepath":
            self.tablebase_path = _parse_directories(value)
        elif key == "evaluation":
            if value.lower() not in EVALUATIONS:
                raise ValueError(f"Evaluation must be one of {', '.join(EVALUATIONS)}")
            self.evaluation = value.lower()
        elif key == "evalfile":
            path = "" if value in ("", EMPTY) else value
            if path:
                from doushouqi.jungle.ai.nnue import load_network

                load_network(path)  # a bad file is answered now, not at the next go
            self.eval_file = path
        elif key == "easystop":
            self.easy_stop = parse_int(value, 0, 100, "EasyStop")
        elif key in RULE_OPTIONS:
            # The field is named at run time: its value's type is the field's (_rule_field).
            field: dict[str, Any] = {key: _rule_field(key, value)}
            changed = dataclasses.replace(self.rules, **field)
            if changed != self.rules:
                changed = dataclasses.replace(changed, name="custom")
            self._set_rules(changed)
        else:
            return False
        return True

    def _read_go(self, args: list[str], board: Board) -> tuple[Limit, bool, Sequence[Any] | None]:
        request = parse_go(args, board)
        return request.limit, request.ponder, request.root_moves

    def _time_share(self, level: int) -> float:
        from doushouqi.jungle.ai.levels import settings_for

        return settings_for(level).time_share

    def _score_text(self, score: Score) -> str:
        return score_text(score)

    def _position_text(self, board: Board) -> str:
        return board.fen()

    # ---------------------------------------------------------------------- perft

    def _perft(self, args: list[str]) -> None:
        depth, divide = self._perft_request(args, MAX_PERFT_DEPTH)
        board = self._position_board().copy()
        from doushouqi.jungle.ai.perft import new_stop_flag

        flag = new_stop_flag()

        def stop() -> None:
            flag[0] = 1

        thread = threading.Thread(
            target=self._run_perft, args=(board, depth, divide, flag), daemon=True
        )
        self._job = Job("perft", thread, stop, ends_by_itself=True, turn=board.turn)
        thread.start()

    def _run_perft(self, board: Board, depth: int, divide: bool, flag: NDArray[np.int64]) -> None:
        """The perft thread: the count (per move with ``divide``), or what it has when
        stopped."""
        job = self._job
        lines: list[str] = []
        try:
            self._wait_warm()
            from doushouqi.jungle.ai.core import Position

            position = Position.from_board(board)
            if divide:
                counts = position.perft_divide(depth, flag)
                lines = [f"{move}: {count}" for move, count in counts.items()]
                moves = board.legal_moves.count()
                if len(counts) < moves:
                    last = f"info string perft stopped: {len(counts)} of {moves} moves counted"
                else:
                    last = str(sum(counts.values()))
            else:
                leaves = position.perft(depth, flag)
                last = str(leaves)
                if flag[0] != 0 and depth >= 2:  # depth 0 and 1 are counted at once
                    last = f"info string perft stopped: depth {depth} not finished"
        except Exception as exc:  # the loop must hear the end of it
            last = f"info string error perft: {clipped_error(str(exc))}"
        for line in lines:
            self.send(line)
        if job is not None:
            job.answered.set()
        self.send(last)


def run_protocol(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout (the ``doushouqi engine`` command)."""
    source = stdin if stdin is not None else sys.stdin
    return EngineProtocol(stdout).run(iter(source.readline, ""))

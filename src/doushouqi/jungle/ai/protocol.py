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
  or ``<empty>``: only ``$DOUSHOUQI_TABLEBASES`` and the package's own), and one option per
  rule field (``rule_7_3`` ...);
* ``ucinewgame``; ``position startpos|fen <position string> [moves m1 m2 …]`` (``0000`` is a
  pass), checked with the rules library: a bad position or move leaves *no* position, so the
  next ``go``, ``perft`` or ``d`` answers an error instead of working on a stale one, until a
  ``position`` command succeeds;
* ``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
  [movestogo N] [mate N] [searchmoves M …] [infinite] [ponder]`` (read by :mod:`.go_command`:
  a ``go`` with an error in it starts nothing) → ``info …`` after each depth (with MultiPV N,
  ``info … multipv 1`` … ``multipv N`` per depth), then a last ``info`` for the move played
  (depth, score, the whole search's nodes and time, pv starting with it; before it an ``info
  string …`` when the engine has something to say: ``tablebase: Red wins in 17`` for a root
  played from the tables, ``game over``) and ``bestmove <move> [ponder <reply>]``
  (``bestmove 0000`` when the game is over); the search runs in a thread, so ``stop``,
  ``ponderhit``, ``isready`` and ``quit`` are answered while it thinks;
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
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import TYPE_CHECKING, Any, TextIO

from doushouqi.jungle.ai.go_command import GoRequest, clip, parse_go
from doushouqi.jungle.ai.levels import MAX_LEVEL, MIN_LEVEL
from doushouqi.jungle.ai.timeman import plan_time, searches_until_stopped
from doushouqi.jungle.analysis import Info, Limit, score_text
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.protocol import RULE_OPTIONS
from doushouqi.jungle.rules import Ranks, Repetition, RuleSet, find_rules

if TYPE_CHECKING:  # imported in the loader thread: importing it compiles
    import numpy as np
    from numpy.typing import NDArray

    from doushouqi.jungle.ai.search_driver import Searcher

__all__ = ["EngineProtocol", "run_protocol"]

AUTHOR = "the doushouqi authors"
NAMED_RULE_SETS = ("wango", "classic", "classic-dog", "international")
DEFAULT_HASH_MB = 64
#: ``engine.DEFAULT_TUNING["contempt"]`` and its range, repeated here so that the handshake
#: needs no compiled module (a test checks that they agree).
DEFAULT_CONTEMPT = 50
CONTEMPT_RANGE = (-1000, 1000)
#: Most lines a MultiPV search reports.
MAX_MULTIPV = 64
#: How a string option's empty value is written (as UCI engines do).
EMPTY = "<empty>"
#: Deepest ``perft``. Each ply multiplies the count about 20 times from the start position
#: (perft 7: 2 × 10^9 leaves, seconds; perft 8: minutes), while a sparse ending (two animals,
#: 3-4 moves a ply) counts 15 plies in about a second. Deeper walks would never end.
MAX_PERFT_DEPTH = 15
#: The longest error line: the quoted pieces of input in it are clipped first (:func:`clip`).
MAX_ERROR_LENGTH = 400
#: A quoted piece of an error message (Python's repr of some input) longer than :func:`clip`
#: keeps: its first 80 characters are group 1.
_LONG_QUOTES = (re.compile(r"'([^']{80})[^']+'"), re.compile(r'"([^"]{80})[^"]+"'))
#: What ``d``, ``go`` and ``perft`` say while a failed ``position`` has left none.
NO_POSITION = "no position: the last position command failed (send a new one)"


def _version() -> str:
    try:
        return metadata.version("doushouqi")
    except metadata.PackageNotFoundError:
        return "dev"


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _parse_int(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what}: expected an integer, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{what}: expected {low}..{high}, got {value}")
    return value


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
        return _parse_bool(text)
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
        rounds = _parse_int(text, 0, 10_000, name)
        return rounds or None
    raise ValueError(f"unknown option {name!r}")


@dataclasses.dataclass
class _Job:
    """What runs in the background while the loop reads commands: a search or a perft."""

    #: "search" or "perft" (for messages).
    kind: str
    thread: threading.Thread
    #: Ends the job soon (thread-safe); it answers (bestmove, the perft line) all the same.
    stop: Callable[[], None]
    #: Whether it ends without ``stop`` (at the end of the input the loop waits for it then).
    ends_by_itself: bool
    #: The position it works on.
    board: Board
    #: Set right before its last line: from then on it is finishing, not busy.
    answered: threading.Event = dataclasses.field(default_factory=threading.Event)


def _clipped_error(message: str) -> str:
    """An error message fit for one protocol line: no line breaks, every long quoted piece of
    input clipped, the whole at most :data:`MAX_ERROR_LENGTH` characters."""
    text = " ".join(message.split())
    for pattern in _LONG_QUOTES:
        text = pattern.sub(
            lambda match: match.group(0)[0] + match.group(1) + "…" + match.group(0)[0], text
        )
    return clip(text, MAX_ERROR_LENGTH)


class EngineProtocol:
    """One protocol session: reads command lines, writes answers to ``out``."""

    def __init__(self, out: TextIO | None = None, engine: Searcher | None = None) -> None:
        self._out = out if out is not None else sys.stdout
        self._write_lock = threading.Lock()
        self._engine = engine
        # The settings live here and are handed to the engine before it searches, so that
        # options can be set while the compiled code is still loading.
        self.rules: RuleSet = engine.rules if engine is not None else find_rules("wango")
        self.level = MAX_LEVEL
        self.hash_mb = engine.hash_mb if engine is not None else DEFAULT_HASH_MB
        self.contempt = int(engine.tuning["contempt"]) if engine is not None else DEFAULT_CONTEMPT
        self.multipv = 1
        self.tablebases = engine.use_tablebase if engine is not None else True
        self.tablebase_path = os.pathsep.join(engine.tablebase_paths) if engine is not None else ""
        self._ponder_limit: Limit | None = None
        #: The position ``go``, ``perft`` and ``d`` work on; None after a failed ``position``.
        self.board: Board | None = Board(rules=self.rules)
        self._position_args: tuple[str | None, list[str]] | None = (None, [])
        self._job: _Job | None = None
        self._warm = threading.Thread(target=self._warm_up, name="engine-loader", daemon=True)
        self._warm_error: str | None = None
        self._warm.start()
        self._commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": lambda _: self._handshake("uciok"),
            "jcei": lambda _: self._handshake("jceiok"),
            "isready": self._isready,
            "setoption": self._setoption,
            "ucinewgame": self._ucinewgame,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "ponderhit": self._ponderhit,
            "quit": self._quit,
            "perft": self._perft,
            "d": self._display,
        }

    # ------------------------------------------------------------------------ output

    def send(self, line: str) -> None:
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error {_clipped_error(message)}")

    # ------------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> int:
        """Handle every line until ``quit`` or the end of input: then a running search or perft
        that ends by itself is waited for (a piped ``go depth 8`` prints the whole search),
        one that would not (``go infinite``, pondering) is stopped."""
        for line in lines:
            if not self.handle(line):
                return 0
        job = self._job
        if job is not None and job.ends_by_itself:
            job.thread.join()
        self._quit([])
        return 0

    def handle(self, line: str) -> bool:
        """Handle one command line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command = self._commands.get(tokens[0])
        if command is None:
            self.error(f"unknown command {clip(tokens[0])!r}")
            return True
        try:
            return command(tokens[1:]) is not False
        except Exception as exc:  # keep running whatever a command hits
            self.error(f"{tokens[0]}: {exc}")
            return True

    # ---------------------------------------------------------------------- commands

    def _warm_up(self) -> None:
        """The loader thread: import the compiled modules, make the engine, run a tiny search."""
        try:
            from doushouqi.compiled.progress import CompileWatch, protocol_report

            with CompileWatch(protocol_report(self.send)):  # says so while code compiles
                engine = self._engine
                if engine is None:
                    from doushouqi.jungle.ai.search_driver import Searcher

                    engine = Searcher(self.rules, hash_mb=self.hash_mb)
                engine.warm_up()
            self._engine = engine
        except Exception as exc:  # reported at isready; the loop must keep running
            self._warm_error = f"{type(exc).__name__}: {exc}"

    def _wait_warm(self) -> None:
        self._warm.join()
        if self._warm_error is not None:
            self.error(f"engine failed to load: {self._warm_error}")
            self._warm_error = None

    @property
    def engine(self) -> Searcher:
        """The engine, with this session's settings (waits until it has loaded)."""
        self._wait_warm()
        engine = self._engine
        if engine is None:
            raise RuntimeError("the engine could not be loaded")
        engine.rules = self.rules
        if engine.hash_mb != self.hash_mb:
            engine.hash_mb = self.hash_mb
        engine.tuning["contempt"] = self.contempt
        engine.use_tablebase = self.tablebases
        engine.tablebase_paths = [p for p in self.tablebase_path.split(os.pathsep) if p]
        return engine

    @property
    def loaded(self) -> bool:
        """Whether the compiled code has loaded (the engine answers ``go`` without delay)."""
        return self._engine is not None and not self._warm.is_alive()

    def _handshake(self, ok: str) -> None:
        self.send(f"id name doushouqi {_version()}")
        self.send(f"id author {AUTHOR}")
        rules = self.rules
        named = " ".join(f"var {name}" for name in NAMED_RULE_SETS)
        self.send(f"option name Rules type combo default {rules.name} {named}")
        self.send(
            f"option name Level type spin default {self.level} min {MIN_LEVEL} max {MAX_LEVEL}"
        )
        self.send(f"option name Hash type spin default {self.hash_mb} min 1 max 4096")
        self.send(f"option name MultiPV type spin default {self.multipv} min 1 max {MAX_MULTIPV}")
        self.send("option name Ponder type check default false")
        self.send(f"option name Tablebases type check default {str(self.tablebases).lower()}")
        self.send(f"option name TablebasePath type string default {self.tablebase_path or EMPTY}")
        low, high = CONTEMPT_RANGE
        self.send(f"option name Contempt type spin default {self.contempt} min {low} max {high}")
        for field in RULE_OPTIONS:
            self.send(self._rule_option_line(field, rules))
        self.send(ok)

    @staticmethod
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

    def _isready(self, _: list[str]) -> None:
        # Waits for the loader only, never for a running search or perft (a search started
        # after the loader; a perft may still wait for it in its thread).
        self._wait_warm()
        self.send("readyok")

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise ValueError("expected: setoption name <name> [value <value>]")
        if "value" in args:
            split = args.index("value")
            name, value = " ".join(args[1:split]), " ".join(args[split + 1 :])
        else:
            name, value = " ".join(args[1:]), ""
        key = name.lower()
        self._refuse_while_busy("change options")
        if key == "rules":
            self._set_rules(find_rules(value))
        elif key == "level":
            self.level = _parse_int(value, MIN_LEVEL, MAX_LEVEL, "Level")
        elif key == "hash":
            self.hash_mb = _parse_int(value, 1, 4096, "Hash")
        elif key == "contempt":
            self.contempt = _parse_int(value, *CONTEMPT_RANGE, "Contempt")
        elif key == "multipv":
            self.multipv = _parse_int(value, 1, MAX_MULTIPV, "MultiPV")
        elif key == "ponder":
            _parse_bool(value)  # the GUI says whether it will ask to ponder; nothing to set
        elif key == "tablebases":
            self.tablebases = _parse_bool(value)
        elif key == "tablebasepath":
            self.tablebase_path = _parse_directories(value)
        elif key in RULE_OPTIONS:
            # The field is named at run time: its value's type is the field's (_rule_field).
            field: dict[str, Any] = {key: _rule_field(key, value)}
            changed = dataclasses.replace(self.rules, **field)
            if changed != self.rules:
                changed = dataclasses.replace(changed, name="custom")
            self._set_rules(changed)
        else:
            raise ValueError(f"unknown option {clip(name)!r}")

    def _set_rules(self, rules: RuleSet) -> None:
        self.rules = rules
        if self._position_args is None:
            return  # no position to set up again under the new rules
        fen, moves = self._position_args
        try:
            self.board = self._build_board(fen, moves)
        except ValueError as exc:
            self.board = Board(rules=rules)
            self._position_args = (None, [])
            self.error(f"position reset to the start: {exc}")

    def _build_board(self, fen: str | None, moves: list[str]) -> Board:
        board = Board(fen, self.rules)
        for text in moves:
            if text == "0000":
                board.push_pass()
            else:
                board.push_move(text)
        return board

    def _ucinewgame(self, _: list[str]) -> None:
        self._refuse_while_busy("start a new game")
        if self.loaded:  # before that the engine has learnt nothing (warm-up clears it)
            self.engine.new_game()

    def _position(self, args: list[str]) -> None:
        # A failed position leaves none (not the previous one): the next `go` answers an error
        # instead of searching a position the GUI no longer means.
        self.board = None
        self._position_args = None
        if not args:
            raise ValueError("expected: position startpos|fen <position> [moves ...]")
        split = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:split], args[split + 1 :]
        if head == ["startpos"]:
            fen = None
        elif head[:1] == ["fen"] and len(head) > 1:
            fen = " ".join(head[1:])
        else:
            raise ValueError(f"expected startpos or fen <position>, got {clip(' '.join(head))!r}")
        self.board = self._build_board(fen, moves)
        self._position_args = (fen, moves)

    def _position_board(self) -> Board:
        """The current position (ValueError when a failed ``position`` has left none)."""
        if self.board is None:
            raise ValueError(NO_POSITION)
        return self.board

    def _go(self, args: list[str]) -> None:
        self._refuse_while_busy("search")
        board = self._position_board().copy()
        request = parse_go(args, board)  # a go with an error starts nothing
        engine = self.engine
        level = self.level
        limit = request.limit
        # Pondering searches without end; `ponderhit` then gives it the limit's time.
        self._ponder_limit = limit if request.ponder else None
        search_limit = Limit(infinite=True) if request.ponder else limit
        thread = threading.Thread(
            target=self._run_search,
            args=(engine, board, search_limit, level, self.multipv, request),
            daemon=True,
        )
        job = _Job(
            "search",
            thread,
            engine.stop,
            ends_by_itself=not searches_until_stopped(search_limit, board.turn),
            board=board,
        )
        self._job = job
        thread.start()
        # Until the search has armed its stop flag, a `stop` read now could be lost.
        while thread.is_alive() and not engine.searching:
            time.sleep(0.0002)

    def _ponderhit(self, _: list[str]) -> None:
        """The expected reply was played: the ponder search goes on as a normal one, stopped
        after the time its ``go`` limit plans, counted from now."""
        limit = self._ponder_limit
        job = self._job
        if job is None or not self._busy() or limit is None:
            raise ValueError("ponderhit: not pondering")
        self._ponder_limit = None
        if limit.infinite:
            return
        from doushouqi.jungle.ai.levels import settings_for

        job.ends_by_itself = True  # from now on the limit's time (or depth) ends it
        plan = plan_time(limit, job.board.turn).scaled(settings_for(self.level).time_share)
        if plan.soft is None or plan.hard is None:
            self._stop_job(job)  # a depth or node limit: the ponder search has had its go
            return
        # A clock: about as long as a normal search would start new depths; a move time: all.
        delay = plan.soft if plan.soft >= plan.hard else 0.55 * plan.soft
        timer = threading.Timer(delay, self._stop_job, (job,))
        timer.daemon = True
        timer.start()

    def _stop_job(self, job: _Job) -> None:
        """Stop ``job`` if it is still the running one (a late timer stops nothing else)."""
        if job is self._job and self._busy():
            job.stop()

    def _run_search(
        self,
        engine: Searcher,
        board: Board,
        limit: Limit,
        level: int,
        multipv: int,
        request: GoRequest,
    ) -> None:
        ponder = ""
        job = self._job
        try:
            result = engine.search(
                board,
                limit,
                level=level,
                on_info=self._send_info,
                multipv=multipv,
                root_moves=request.root_moves,
            )
            move = str(result.move) if result.move is not None else "0000"
            if result.info.get("string"):
                # Why the answer is what it is: a root played from the tables, a game over.
                self.send(f"info string {result.info['string']}")
            if result.move is not None:
                # As UCI engines do: the last info is about the move played (its pv starts
                # with it; the whole search's nodes and time), so a GUI shows what was played.
                self._send_info(result.info)
                pv = result.info.get("pv") or []
                if len(pv) > 1:
                    ponder = f" ponder {pv[1]}"
        except Exception as exc:  # never leave the GUI without a bestmove
            self.error(f"search failed: {exc}")
            move = "0000"
        # Answered from here on: the GUI may send the next command as soon as it reads this.
        if job is not None:
            job.answered.set()
        self.send(f"bestmove {move}{ponder}")

    def _send_info(self, info: Info) -> None:
        parts = ["info"]
        for key in ("depth", "seldepth", "multipv"):
            if key in info:
                parts += [key, str(info.get(key))]
        if "score" in info:
            parts += ["score", score_text(info["score"])]
        for key in ("nodes", "nps", "tbhits"):
            if key in info:
                parts += [key, str(info.get(key))]
        if "time" in info:
            parts += ["time", str(round(info["time"] * 1000))]
        if info.get("pv"):
            parts += ["pv", *(str(move) for move in info["pv"])]
        self.send(" ".join(parts))

    def _busy(self) -> bool:
        """Whether a search or perft is running and has not yet answered (a thread that has
        sent its last line is only finishing: it is waited for, not reported as busy)."""
        job = self._job
        if job is None or not job.thread.is_alive():
            return False
        if job.answered.is_set():
            job.thread.join()
            return False
        return True

    def _refuse_while_busy(self, what: str) -> None:
        job = self._job
        if job is not None and self._busy():
            running = "searching" if job.kind == "search" else "perft is running"
            raise ValueError(f"cannot {what} while {running} (stop ends it)")

    def _stop(self, _: list[str]) -> None:
        self._ponder_limit = None
        job = self._job
        if job is None:
            return
        if self._busy():
            job.stop()
        job.thread.join()

    def _quit(self, _: list[str]) -> bool:
        self._stop([])
        return False

    def _perft(self, args: list[str]) -> None:
        if len(args) not in (1, 2) or args[1:] not in ([], ["divide"]):
            raise ValueError("expected: perft <depth> [divide]")
        divide = bool(args[1:])
        depth = _parse_int(args[0], 1 if divide else 0, MAX_PERFT_DEPTH, "depth")
        self._refuse_while_busy("run perft")
        board = self._position_board().copy()
        from doushouqi.jungle.ai.perft import new_stop_flag

        flag = new_stop_flag()

        def stop() -> None:
            flag[0] = 1

        thread = threading.Thread(
            target=self._run_perft, args=(board, depth, divide, flag), daemon=True
        )
        self._job = _Job("perft", thread, stop, ends_by_itself=True, board=board)
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
            last = f"info string error perft: {_clipped_error(str(exc))}"
        for line in lines:
            self.send(line)
        if job is not None:
            job.answered.set()
        self.send(last)

    def _display(self, _: list[str]) -> None:
        board = self._position_board()
        for row in str(board).splitlines():
            self.send(row)
        self.send(f"Rules: {self.rules.name}")
        self.send(f"Fen: {board.fen()}")


def run_protocol(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout (the ``doushouqi engine`` command)."""
    source = stdin if stdin is not None else sys.stdin
    return EngineProtocol(stdout).run(iter(source.readline, ""))

"""The engine side of the UCI-like protocol, the part every compiled engine shares: the loop
over command lines, the command table, the loader thread that imports the compiled code while
``uci`` is already answered, the settings every engine has (``Rules``, ``Level``, ``Hash``,
``MultiPV``, ``Ponder``, ``Contempt``), ``position``, ``go`` in a thread with ``stop`` and
``ponderhit``, and the ``info`` and ``bestmove`` lines.

Each game's ``ai.protocol`` subclasses :class:`EngineLoop` with what is its own: its board,
rules and engine, its rule options and any options of its own, how it reads ``go``'s
``searchmoves``, how it writes a score, and its ``perft``. The commands and their answers are
described in docs/engine.md.

Pure Python, and no numba until the loader thread runs: ``doushouqi engine`` answers ``uci``
before any compiled code has loaded.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from typing import Any, ClassVar, Generic, Protocol, Self, TextIO, TypeVar

from doushouqi.core.analysis import Info, Limit, PlayResult, Score
from doushouqi.core.go_command import clip
from doushouqi.core.time_plan import Overhead, plan_time, searches_until_stopped

__all__ = [
    "AUTHOR",
    "CONTEMPT_RANGE",
    "DEFAULT_HASH_MB",
    "MAX_ERROR_LENGTH",
    "MAX_HASH_MB",
    "MAX_MOVE_OVERHEAD_MS",
    "MAX_MULTIPV",
    "EngineLoop",
    "Job",
    "LoopBoard",
    "LoopEngine",
    "LoopRules",
    "clipped_error",
    "parse_bool",
    "parse_int",
    "version",
]

AUTHOR = "the doushouqi authors"
DEFAULT_HASH_MB = 64
MAX_HASH_MB = 4096
#: The ``Contempt`` option's range (centipawns a draw is worth less than an equal position).
CONTEMPT_RANGE = (-1000, 1000)
#: Most lines a MultiPV search reports.
MAX_MULTIPV = 64
#: The ``MoveOverhead`` option's most (milliseconds kept back from every deadline).
MAX_MOVE_OVERHEAD_MS = 5000
#: The longest error line: the quoted pieces of input in it are clipped first (:func:`clip`).
MAX_ERROR_LENGTH = 400
#: A quoted piece of an error message (Python's repr of some input) longer than :func:`clip`
#: keeps: its first 80 characters are group 1.
_LONG_QUOTES = (re.compile(r"'([^']{80})[^']+'"), re.compile(r'"([^"]{80})[^"]+"'))


def version() -> str:
    """The package's version for ``id name`` ("dev" when it is not installed)."""
    try:
        return metadata.version("doushouqi")
    except metadata.PackageNotFoundError:
        return "dev"


def parse_bool(text: str) -> bool:
    """A ``check`` option's value (true/false, 1/0, yes/no, on/off); ValueError otherwise."""
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def parse_int(text: str, low: int, high: int, what: str) -> int:
    """An integer from ``low`` to ``high``; ValueError naming ``what`` otherwise."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what}: expected an integer, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{what}: expected {low}..{high}, got {value}")
    return value


def clipped_error(message: str) -> str:
    """An error message fit for one protocol line: no line breaks, every long quoted piece of
    input clipped, the whole at most :data:`MAX_ERROR_LENGTH` characters."""
    text = " ".join(message.split())
    for pattern in _LONG_QUOTES:
        text = pattern.sub(
            lambda match: match.group(0)[0] + match.group(1) + "…" + match.group(0)[0], text
        )
    return clip(text, MAX_ERROR_LENGTH)


class LoopBoard(Protocol):
    """What the loop asks of a game's board: whose turn, a copy, moves pushed by their text."""

    @property
    def turn(self) -> int:
        """The seat to move (0 or 1: whose clock counts)."""

    def copy(self) -> Self:
        """A copy, with its history, that a search may play on."""

    def push_pass(self) -> object:
        """Play a pass (``0000``)."""

    def push_move(self, text: str) -> object:
        """Play the legal move written ``text``; ValueError if it is none."""


class LoopEngine(Protocol):
    """What the loop asks of a game's compiled engine (its ``Searcher``)."""

    #: The engine's knobs by name (the loop sets ``contempt``).
    tuning: dict[str, int]
    rules: Any
    hash_mb: int

    @property
    def searching(self) -> bool:
        """Whether a search has armed its stop flag and not yet ended."""

    def warm_up(self) -> None:
        """Load the compiled code and search a little (the loader thread)."""

    def new_game(self) -> None:
        """Forget what earlier games taught it (``ucinewgame``)."""

    def stop(self) -> None:
        """End the running search soon (thread-safe)."""

    #: What its timed searches keep back for stopping and answering (``MoveOverhead``).
    overhead: Overhead

    def search(self, *args: Any, **kwargs: Any) -> PlayResult[Any]:
        """Search a board within a limit (``level``, ``on_info``, ``multipv``,
        ``root_moves``, ``since``: when the move's time began)."""


class LoopRules(Protocol):
    """What the loop asks of a game's rule set: its name."""

    @property
    def name(self) -> str:
        """The rule set's name (``custom`` once an option has changed it)."""


BoardT = TypeVar("BoardT", bound=LoopBoard)
RulesT = TypeVar("RulesT", bound=LoopRules)
EngineT = TypeVar("EngineT", bound=LoopEngine)


@dataclasses.dataclass
class Job:
    """What runs in the background while the loop reads commands: a search or a perft."""

    #: "search" or "perft" (for messages).
    kind: str
    thread: threading.Thread
    #: Ends the job soon (thread-safe); it answers (bestmove, the perft line) all the same.
    stop: Callable[[], None]
    #: Whether it ends without ``stop`` (at the end of the input the loop waits for it then).
    ends_by_itself: bool
    #: The seat to move in the position it works on.
    turn: int
    #: Set right before its last line: from then on it is finishing, not busy.
    answered: threading.Event = dataclasses.field(default_factory=threading.Event)


class EngineLoop(ABC, Generic[BoardT, RulesT, EngineT]):
    """One protocol session: reads command lines, writes answers to ``out``.

    A game's subclass names its engine (:attr:`ENGINE_NAME`), its levels and its default
    contempt, and fills in the abstract methods; the settings live here and are handed to the
    engine before it searches, so that options can be set while the compiled code is still
    loading.
    """

    #: The first word of ``id name`` (the version follows).
    ENGINE_NAME: ClassVar[str]
    #: The handshake commands and their last answer line.
    HANDSHAKES: ClassVar[tuple[tuple[str, str], ...]] = (("uci", "uciok"),)
    MIN_LEVEL: ClassVar[int] = 1
    MAX_LEVEL: ClassVar[int] = 10
    #: ``Contempt``'s default: the engine's own tuning, repeated here so that the handshake
    #: needs no compiled module (each game's test checks that they agree).
    DEFAULT_CONTEMPT: ClassVar[int]
    #: The counts an ``info`` line carries, in order, after its score.
    INFO_COUNTS: ClassVar[tuple[str, ...]] = ("nodes", "nps")
    #: Whether a failed ``position`` leaves no position (the next ``go`` answers an error)
    #: rather than the previous one.
    FORGETS_FAILED_POSITION: ClassVar[bool] = False

    def __init__(self, out: TextIO | None, engine: EngineT | None, rules: RulesT) -> None:
        self._out = out if out is not None else sys.stdout
        self._write_lock = threading.Lock()
        self._engine = engine
        self.rules: RulesT = engine.rules if engine is not None else rules
        self.level = self.MAX_LEVEL
        self.hash_mb = engine.hash_mb if engine is not None else DEFAULT_HASH_MB
        contempt = engine.tuning["contempt"] if engine is not None else self.DEFAULT_CONTEMPT
        self.contempt = int(contempt)
        self.multipv = 1
        #: ``MoveOverhead`` in milliseconds; 0: learnt from the engine's own searches.
        self.move_overhead = 0
        self._ponder_limit: Limit | None = None
        #: The position ``go``, ``perft`` and ``d`` work on; None after a failed ``position``
        #: (where :attr:`FORGETS_FAILED_POSITION`).
        self.board: BoardT | None = self._new_board(None)
        self._position_args: tuple[str | None, list[str]] | None = (None, [])
        self._job: Job | None = None
        self._commands: dict[str, Callable[[list[str]], bool | None]] = {
            command: self._handshake_answering(ok) for command, ok in self.HANDSHAKES
        }
        self._commands.update(
            {
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
        )
        self._warm = threading.Thread(target=self._warm_up, name="engine-loader", daemon=True)
        self._warm_error: str | None = None
        self._warm.start()

    # ------------------------------------------------------------------ the game's part

    @abstractmethod
    def _new_engine(self) -> EngineT:
        """A new engine for :attr:`rules` and :attr:`hash_mb` (in the loader thread: the
        game's compiled modules are imported here, never at the module's top)."""

    @abstractmethod
    def _new_board(self, fen: str | None) -> BoardT:
        """The board of position string ``fen`` (None: the start) under :attr:`rules`."""

    @abstractmethod
    def _rules_named(self, name: str) -> RulesT:
        """The rule set ``name`` (``setoption name Rules``)."""

    @abstractmethod
    def _rule_set_names(self) -> Iterable[str]:
        """The ``Rules`` option's choices."""

    @abstractmethod
    def _rule_option_lines(self) -> Iterable[str]:
        """The ``option`` lines of the rule fields, defaulting to :attr:`rules`."""

    def _own_option_lines(self) -> Iterable[str]:
        """The game's own ``option`` lines, announced before ``Contempt``."""
        return ()

    @abstractmethod
    def _set_own_option(self, key: str, value: str) -> bool:
        """Set the game's option ``key`` (lower case; a rule field or one of its own) to
        ``value``; False when it has none of that name."""

    @abstractmethod
    def _read_go(self, args: list[str], board: BoardT) -> tuple[Limit, bool, Sequence[Any] | None]:
        """``go``'s words read in ``board``: the limit, whether it ponders, the root moves
        (None: all); ValueError when anything in it is wrong."""

    @abstractmethod
    def _time_share(self, level: int) -> float:
        """The share of a planned time a search at ``level`` uses."""

    @abstractmethod
    def _score_text(self, score: Score) -> str:
        """A score as the game's protocol writes it (``cp 35``, ``mate 3`` …)."""

    @abstractmethod
    def _position_text(self, board: BoardT) -> str:
        """``board``'s position string (``d``'s ``Fen:`` line)."""

    @abstractmethod
    def _perft(self, args: list[str]) -> None:
        """``perft N [divide]``: the compiled move generator's leaf counts."""

    def _configure(self, engine: EngineT) -> None:
        """Hand the session's settings to ``engine`` before it searches."""
        engine.rules = self.rules
        if engine.hash_mb != self.hash_mb:
            engine.hash_mb = self.hash_mb
        engine.tuning["contempt"] = self.contempt
        engine.overhead.fixed = self.move_overhead / 1000 if self.move_overhead else None

    # ------------------------------------------------------------------------ output

    def send(self, line: str) -> None:
        """Write one answer line and flush it (thread-safe)."""
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()

    def error(self, message: str) -> None:
        """Answer ``info string error …`` with ``message`` fit for one line."""
        self.send(f"info string error {clipped_error(message)}")

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

    # ---------------------------------------------------------------------- the engine

    def _warm_up(self) -> None:
        """The loader thread: import the compiled modules, make the engine, search a little."""
        try:
            from doushouqi.compiled.progress import CompileWatch, protocol_report

            with CompileWatch(protocol_report(self.send)):  # says so while code compiles
                engine = self._engine
                if engine is None:
                    engine = self._new_engine()
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
    def engine(self) -> EngineT:
        """The engine, with this session's settings (waits until it has loaded)."""
        self._wait_warm()
        engine = self._engine
        if engine is None:
            raise RuntimeError("the engine could not be loaded")
        self._configure(engine)
        return engine

    @property
    def loaded(self) -> bool:
        """Whether the compiled code has loaded (the engine answers ``go`` without delay)."""
        return self._engine is not None and not self._warm.is_alive()

    # ---------------------------------------------------------------------- commands

    def _handshake_answering(self, ok: str) -> Callable[[list[str]], None]:
        return lambda _: self._handshake(ok)

    def _handshake(self, ok: str) -> None:
        self.send(f"id name {self.ENGINE_NAME} {version()}")
        self.send(f"id author {AUTHOR}")
        named = " ".join(f"var {name}" for name in self._rule_set_names())
        self.send(f"option name Rules type combo default {self.rules.name} {named}")
        low, high = self.MIN_LEVEL, self.MAX_LEVEL
        self.send(f"option name Level type spin default {self.level} min {low} max {high}")
        self.send(f"option name Hash type spin default {self.hash_mb} min 1 max {MAX_HASH_MB}")
        self.send(f"option name MultiPV type spin default {self.multipv} min 1 max {MAX_MULTIPV}")
        self.send("option name Ponder type check default false")
        overhead = f"default {self.move_overhead} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        self.send(f"option name MoveOverhead type spin {overhead}")
        for line in self._own_option_lines():
            self.send(line)
        low, high = CONTEMPT_RANGE
        self.send(f"option name Contempt type spin default {self.contempt} min {low} max {high}")
        for line in self._rule_option_lines():
            self.send(line)
        self.send(ok)

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
            self._set_rules(self._rules_named(value))
        elif key == "level":
            self.level = parse_int(value, self.MIN_LEVEL, self.MAX_LEVEL, "Level")
        elif key == "hash":
            self.hash_mb = parse_int(value, 1, MAX_HASH_MB, "Hash")
        elif key == "contempt":
            self.contempt = parse_int(value, *CONTEMPT_RANGE, "Contempt")
        elif key == "multipv":
            self.multipv = parse_int(value, 1, MAX_MULTIPV, "MultiPV")
        elif key == "moveoverhead":
            self.move_overhead = parse_int(value, 0, MAX_MOVE_OVERHEAD_MS, "MoveOverhead")
        elif key == "ponder":
            parse_bool(value)  # the GUI says whether it will ask to ponder; nothing to set
        elif not self._set_own_option(key, value):
            raise ValueError(f"unknown option {clip(name)!r}")

    def _set_rules(self, rules: RulesT) -> None:
        """Play under ``rules`` from now on: the position is set up again under them (the
        start position, with an error line, when it cannot be)."""
        self.rules = rules
        if self._position_args is None:
            return  # no position to set up again under the new rules
        fen, moves = self._position_args
        try:
            self.board = self._build_board(fen, moves)
        except ValueError as exc:
            self.board = self._new_board(None)
            self._position_args = (None, [])
            self.error(f"position reset to the start: {exc}")

    def _build_board(self, fen: str | None, moves: list[str]) -> BoardT:
        board = self._new_board(fen)
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
        if self.FORGETS_FAILED_POSITION:
            # The next `go` answers an error instead of searching a position the GUI no
            # longer means.
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

    def _position_board(self) -> BoardT:
        """The current position (ValueError when a failed ``position`` has left none)."""
        if self.board is None:
            raise ValueError("no position: the last position command failed (send a new one)")
        return self.board

    def _go(self, args: list[str]) -> None:
        received = time.perf_counter()  # the move's time counts from here
        self._refuse_while_busy("search")
        board = self._position_board().copy()
        limit, ponder, root_moves = self._read_go(args, board)  # an error starts nothing
        engine = self.engine
        # Pondering searches without end; `ponderhit` then gives it the limit's time.
        self._ponder_limit = limit if ponder else None
        search_limit = type(limit)(infinite=True) if ponder else limit
        thread = threading.Thread(
            target=self._run_search,
            args=(engine, board, search_limit, self.level, self.multipv, root_moves, received),
            daemon=True,
        )
        ends_by_itself = not searches_until_stopped(search_limit, board.turn)
        job = Job("search", thread, engine.stop, ends_by_itself, board.turn)
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
        job.ends_by_itself = True  # from now on the limit's time (or depth) ends it
        overhead = self.engine.overhead.seconds
        plan = plan_time(limit, job.turn, overhead=overhead).scaled(self._time_share(self.level))
        if plan.soft is None or plan.hard is None:
            self._stop_job(job)  # a depth or node limit: the ponder search has had its go
            return
        # A clock: about as long as a normal search would start new depths; a move time: all.
        delay = plan.soft if plan.soft >= plan.hard else 0.55 * plan.soft
        timer = threading.Timer(delay, self._stop_job, (job,))
        timer.daemon = True
        timer.start()

    def _stop_job(self, job: Job) -> None:
        """Stop ``job`` if it is still the running one (a late timer stops nothing else)."""
        if job is self._job and self._busy():
            job.stop()

    def _run_search(
        self,
        engine: EngineT,
        board: BoardT,
        limit: Limit,
        level: int,
        multipv: int,
        root_moves: Sequence[Any] | None,
        since: float,
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
                root_moves=root_moves,
                since=since,
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

    def _send_info(self, info: Info[Any]) -> None:
        parts = ["info"]
        for key in ("depth", "seldepth", "multipv"):
            if key in info:
                parts += [key, str(info.get(key))]
        if "score" in info:
            parts += ["score", self._score_text(info["score"])]
        for key in self.INFO_COUNTS:
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

    def _perft_request(self, args: list[str], max_depth: int) -> tuple[int, bool]:
        """``perft``'s words read (the depth, whether to ``divide``), refused while busy."""
        if len(args) not in (1, 2) or args[1:] not in ([], ["divide"]):
            raise ValueError("expected: perft <depth> [divide]")
        divide = bool(args[1:])
        depth = parse_int(args[0], 1 if divide else 0, max_depth, "depth")
        self._refuse_while_busy("run perft")
        return depth, divide

    def _display(self, _: list[str]) -> None:
        board = self._position_board()
        for row in str(board).splitlines():
            self.send(row)
        self.send(f"Rules: {self.rules.name}")
        self.send(f"Fen: {self._position_text(board)}")

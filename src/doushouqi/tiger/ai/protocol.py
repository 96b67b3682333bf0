"""``doushouqi engine --game tiger``: the 老虎棋 engine over stdin/stdout, in the UCI-like
protocol of Jungle's engine (docs/engine.md) with this game's moves and rules.

Commands (one a line; every answer line is flushed at once):

* ``uci`` → ``id name``, ``id author``, one ``option`` line per option, ``uciok``;
* ``isready`` → ``readyok`` once the compiled code is loaded (imported in a background thread
  started at launch, so ``uci`` is answered at once);
* ``setoption name <name> [value <value>]``: ``Rules`` (a named rule set), ``Level`` (1-10),
  ``Hash`` (MB), ``Contempt`` (centipawns), ``MultiPV`` (1-64), ``Ponder`` (accepted), and one
  option per rule field (``multi_jump``, ``diagonals`` …, on top of the rule set in use);
* ``ucinewgame``; ``position startpos|fen <position string> [moves m1 m2 …]`` (``0000`` is a
  timeout's pass), checked with the rules library: a bad position or move leaves the old
  one in place;
* ``go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
  [movestogo N] [mate N] [searchmoves M …] [infinite] [ponder]`` (``wtime`` is seat 0's
  clock, the tiger side's; ``btime`` the men's), read and checked as Jungle's engine reads it
  (:mod:`doushouqi.core.go_command`: a ``go`` with an error in it starts nothing; ``depth 0``
  and ``nodes 0`` are the one-ply search; ``mate N`` stops once a win in N own moves is
  proven; ``searchmoves`` searches only those legal moves) → ``info …`` after each depth
  (``multipv`` 1 … N with MultiPV N), a last ``info`` for the move played, and ``bestmove
  <move> [ponder <reply>]`` (``bestmove 0000`` when the game is over); ``stop``,
  ``ponderhit``, ``isready`` and ``quit`` are answered while it thinks;
* ``perft N [divide]`` (the compiled move generator's counts), ``d`` (board and position
  string), ``quit``. The end of the input is a ``quit`` that first lets a running search
  finish when it ends by itself (``printf 'position startpos\\ngo depth 8\\n' | doushouqi
  engine --game tiger`` prints the whole search), as Jungle's engine does; an infinite or
  pondering one is stopped.

Scores are ``cp N`` or ``mate N`` (moves of the side to move to a win; negative: to a loss).
Anything malformed is answered with ``info string error …`` (repeating at most 80 characters
of any word it got) and the engine carries on.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import TYPE_CHECKING, TextIO

from doushouqi.core.go_command import check_root_moves, clip, read_go
from doushouqi.tiger.ai.levels import MAX_LEVEL, MIN_LEVEL, settings_for
from doushouqi.tiger.ai.timeman import plan_time, searches_until_stopped
from doushouqi.tiger.analysis import Info, Limit
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.protocol import RULE_OPTIONS, rule_option_line, with_rule_option
from doushouqi.tiger.moves import Move, MoveError
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_by_name

if TYPE_CHECKING:  # imported in the loader thread: importing it loads the compiled code
    from doushouqi.tiger.ai.search_driver import Searcher

__all__ = ["EngineProtocol", "parse_go", "run_protocol"]

AUTHOR = "the doushouqi authors"
DEFAULT_HASH_MB = 64
#: ``search_driver.DEFAULT_TUNING["contempt"]`` and its range, repeated here so that the
#: handshake needs no compiled module (a test checks that they agree).
DEFAULT_CONTEMPT = 40
CONTEMPT_RANGE = (-1000, 1000)
MAX_MULTIPV = 64
#: The longest error line (a 1 MB command is not echoed back whole).
MAX_ERROR_LENGTH = 400


def _version() -> str:
    try:
        return metadata.version("doushouqi")
    except metadata.PackageNotFoundError:
        return "dev"


def _parse_int(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what}: expected an integer, got {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{what}: expected {low}..{high}, got {value}")
    return value


def _parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    raise ValueError(f"expected true or false, got {text!r}")


class EngineProtocol:
    """One protocol session: reads command lines, writes answers to ``out``."""

    def __init__(self, out: TextIO | None = None, engine: Searcher | None = None) -> None:
        self._out = out if out is not None else sys.stdout
        self._write_lock = threading.Lock()
        self._engine = engine
        # The settings live here and are handed to the engine before it searches, so that
        # options can be set while the compiled code is still loading.
        self.rules: RuleSet = engine.rules if engine is not None else rules_by_name("laohuqi")
        self.level = MAX_LEVEL
        self.hash_mb = engine.hash_mb if engine is not None else DEFAULT_HASH_MB
        self.contempt = int(engine.tuning["contempt"]) if engine is not None else DEFAULT_CONTEMPT
        self.multipv = 1
        self._ponder_limit: Limit | None = None
        self.board = Board(rules=self.rules)
        self._position_args: tuple[str | None, list[str]] = (None, [])
        self._search: threading.Thread | None = None
        # Whether the running search ends without `stop` (the end of the input waits for it).
        self._ends_by_itself = False
        self._answered = threading.Event()
        self._warm = threading.Thread(target=self._warm_up, name="engine-loader", daemon=True)
        self._warm_error: str | None = None
        self._warm.start()
        self._commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self._handshake,
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
        self.send(f"info string error {clip(' '.join(message.split()), MAX_ERROR_LENGTH)}")

    # ------------------------------------------------------------------------ the loop

    def run(self, lines: Iterable[str]) -> int:
        """Handle every line until ``quit`` or the end of input: then a running search that
        ends by itself is waited for (a piped ``go depth 8`` prints the whole search), one that
        would not (``go infinite``, pondering) is stopped."""
        for line in lines:
            if not self.handle(line):
                return 0
        search = self._search
        if search is not None and self._ends_by_itself:
            search.join()
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
                    from doushouqi.tiger.ai.search_driver import Searcher

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
        return engine

    @property
    def loaded(self) -> bool:
        return self._engine is not None and not self._warm.is_alive()

    # ---------------------------------------------------------------------- commands

    def _handshake(self, _: list[str]) -> None:
        self.send(f"id name doushouqi-tiger {_version()}")
        self.send(f"id author {AUTHOR}")
        named = " ".join(f"var {name}" for name in BUILTIN_RULE_SETS)
        self.send(f"option name Rules type combo default {self.rules.name} {named}")
        self.send(
            f"option name Level type spin default {self.level} min {MIN_LEVEL} max {MAX_LEVEL}"
        )
        self.send(f"option name Hash type spin default {self.hash_mb} min 1 max 4096")
        self.send(f"option name MultiPV type spin default {self.multipv} min 1 max {MAX_MULTIPV}")
        self.send("option name Ponder type check default false")
        low, high = CONTEMPT_RANGE
        self.send(f"option name Contempt type spin default {self.contempt} min {low} max {high}")
        for field in RULE_OPTIONS:
            self.send(rule_option_line(field, self.rules))
        self.send("uciok")

    def _isready(self, _: list[str]) -> None:
        if not self._searching():
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
        if self._searching():
            raise ValueError("cannot change options while searching")
        if key == "rules":
            self._set_rules(rules_by_name(value))
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
        elif key in RULE_OPTIONS:
            self._set_rules(with_rule_option(self.rules, key, value))
        else:
            raise ValueError(f"unknown option {name[:40]!r}")

    def _set_rules(self, rules: RuleSet) -> None:
        self.rules = rules
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
        if self._searching():
            raise ValueError("cannot start a new game while searching")
        if self.loaded:  # before that the engine has learnt nothing (warm-up clears it)
            self.engine.new_game()

    def _position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected: position startpos|fen <position> [moves ...]")
        split = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:split], args[split + 1 :]
        if head[0] == "startpos" and len(head) == 1:
            fen = None
        elif head[0] == "fen" and len(head) > 1:
            fen = " ".join(head[1:])
        else:
            raise ValueError(f"expected startpos or fen <position>, got {' '.join(head)[:80]!r}")
        self.board = self._build_board(fen, moves)
        self._position_args = (fen, moves)

    def _go(self, args: list[str]) -> None:
        if self._searching():
            raise ValueError("already searching")
        board = self.board.copy()
        limit, ponder, root_moves = parse_go(args, board)  # a go with an error starts nothing
        engine = self.engine
        # Pondering searches without end; `ponderhit` then gives it the limit's time.
        self._ponder_limit = limit if ponder else None
        search_limit = Limit(infinite=True) if ponder else limit
        self._ends_by_itself = not searches_until_stopped(search_limit, board.turn)
        thread = threading.Thread(
            target=self._run_search,
            args=(engine, board, search_limit, self.level, self.multipv, root_moves),
            daemon=True,
        )
        self._answered.clear()
        self._search = thread
        thread.start()
        # Until the search has armed its stop flag, a `stop` read now could be lost.
        while thread.is_alive() and not engine.searching:
            time.sleep(0.0002)

    def _ponderhit(self, _: list[str]) -> None:
        """The expected reply was played: the ponder search goes on as a normal one, stopped
        after the time its ``go`` limit plans, counted from now."""
        limit = self._ponder_limit
        if not self._searching() or limit is None:
            raise ValueError("ponderhit: not pondering")
        self._ponder_limit = None
        if limit.infinite:
            return
        self._ends_by_itself = True  # from now on the limit's time (or depth) ends it
        plan = plan_time(limit, self.board.turn).scaled(settings_for(self.level).time_share)
        if plan.soft is None or plan.hard is None:
            self._stop_search()  # a depth or node limit: the ponder search has had its go
            return
        delay = plan.soft if plan.soft >= plan.hard else 0.55 * plan.soft
        timer = threading.Timer(delay, self._stop_search, (self._search,))
        timer.daemon = True
        timer.start()

    def _stop_search(self, search: threading.Thread | None = None) -> None:
        current = search is None or search is self._search
        if current and self._searching() and self._engine is not None:
            self._engine.stop()

    def _run_search(
        self,
        engine: Searcher,
        board: Board,
        limit: Limit,
        level: int,
        multipv: int,
        root_moves: tuple[Move, ...] | None,
    ) -> None:
        ponder = ""
        try:
            result = engine.search(
                board,
                limit,
                level=level,
                on_info=self._send_info,
                multipv=multipv,
                root_moves=root_moves,
            )
            move = str(result.move) if result.move is not None else "0000"
            if result.move is not None:
                # As UCI engines do: the last info is about the move played.
                self._send_info(result.info)
                pv = result.info.get("pv") or []
                if len(pv) > 1:
                    ponder = f" ponder {pv[1]}"
        except Exception as exc:  # never leave the GUI without a bestmove
            self.error(f"search failed: {exc}")
            move = "0000"
        self._answered.set()
        self.send(f"bestmove {move}{ponder}")

    def _send_info(self, info: Info) -> None:
        parts = ["info"]
        for key in ("depth", "seldepth", "multipv"):
            if key in info:
                parts += [key, str(info.get(key))]
        if "score" in info:
            parts += ["score", str(info["score"])]
        for key in ("nodes", "nps", "hashfull"):
            if key in info:
                parts += [key, str(info.get(key))]
        if "time" in info:
            parts += ["time", str(round(info["time"] * 1000))]
        if info.get("pv"):
            parts += ["pv", *(str(move) for move in info["pv"])]
        self.send(" ".join(parts))

    def _searching(self) -> bool:
        """Whether a search is running and has not yet answered."""
        if self._search is None or not self._search.is_alive():
            return False
        if self._answered.is_set():
            self._search.join()
            return False
        return True

    def _stop(self, _: list[str]) -> None:
        self._ponder_limit = None
        if self._searching() and self._engine is not None:
            self._engine.stop()
        if self._search is not None:
            self._search.join()

    def _quit(self, _: list[str]) -> bool:
        self._stop([])
        return False

    def _perft(self, args: list[str]) -> None:
        if len(args) not in (1, 2) or args[1:] not in ([], ["divide"]):
            raise ValueError("expected: perft <depth> [divide]")
        depth = _parse_int(args[0], 1 if args[1:] else 0, 12, "depth")
        if self._searching():
            raise ValueError("cannot run perft while searching")
        self._wait_warm()
        from doushouqi.tiger.ai.core import Position

        position = Position.from_board(self.board)
        if args[1:]:
            counts = position.perft_divide(depth)
            for move, count in counts.items():
                self.send(f"{move}: {count}")
            self.send(str(sum(counts.values())))
        else:
            self.send(str(position.perft(depth)))

    def _display(self, _: list[str]) -> None:
        for row in str(self.board).splitlines():
            self.send(row)
        self.send(f"Rules: {self.rules.name}")
        self.send(f"Fen: {self.board.position_string()}")


def parse_go(args: list[str], board: Board) -> tuple[Limit, bool, tuple[Move, ...] | None]:
    """The search ``go`` with the words ``args`` asks for in ``board``: its limit, whether it
    ponders, and the only root moves it may play (None: all); ValueError when anything in it
    is wrong (:func:`doushouqi.core.go_command.read_go`) or a ``searchmoves`` move is not
    legal in ``board``.

    >>> limit, ponder, moves = parse_go("depth 3 searchmoves e10e9 e10d10".split(), Board())
    >>> limit.depth, ponder, [str(move) for move in moves or ()]
    (3, False, ['e10e9', 'e10d10'])
    >>> parse_go("mate 2 searchmoves e10e8".split(), Board())
    Traceback (most recent call last):
    ValueError: searchmoves: not legal in this position: e10e8
    """
    command = read_go(args)
    root_moves = None
    if command.searchmoves is not None:
        root_moves = check_root_moves(command.searchmoves, lambda text: _legal_move(board, text))
    return command.limit(Limit), command.ponder, root_moves


def _legal_move(board: Board, text: str) -> Move | None:
    """The move ``text`` if it is legal in ``board`` (a pass is no root move)."""
    try:
        move = Move.from_str(text)
    except MoveError:
        return None
    return move if move and board.outcome() is None and board.is_legal(move) else None


def run_protocol(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout (``doushouqi engine --game tiger``)."""
    source = stdin if stdin is not None else sys.stdin
    return EngineProtocol(stdout).run(iter(source.readline, ""))

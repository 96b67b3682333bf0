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
``info``) is :mod:`doushouqi.engine_protocol`, re-exported here.

>>> info = parse_info("depth 3 score cp 25 nodes 800 time 12 pv g3g4 a7a6", Board())
>>> info["depth"], info["score"], info["time"], [str(m) for m in info["pv"]]
(3, PovScore(cp=25, turn=0), 0.012, ['g3g4', 'a7a6'])
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import os
import shlex
import threading
import typing
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from .analysis import Info, Limit, PlayResult
from .board import Board, InvalidMoveError, Move
from .engine_protocol import (
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
from .rules import BUILTIN_RULE_SETS, RuleSet
from .squares import RED

__all__ = [
    "RULE_OPTIONS",
    "Analysis",
    "Engine",
    "EngineError",
    "EngineMoveError",
    "EngineNoMoveError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "InfoCallback",
    "Option",
    "SimpleAnalysis",
    "SimpleEngine",
    "named_rule_set",
    "parse_info",
    "parse_option",
    "popen_engine",
    "rule_option_values",
]

LOGGER = logging.getLogger(__name__)

T = TypeVar("T")

#: Called with every ``info`` line an engine sends during a search, parsed.
InfoCallback = Callable[[Info], object]

#: How long the first ``readyok`` may take, seconds (by default): our engine compiles first.
READY_TIMEOUT = 300.0

#: With ``handshake="auto"``: seconds of silence after ``uci`` before ``jcei`` is tried.
AUTO_HANDSHAKE_WAIT = 3.0

#: How an engine says it has no move.
_NO_MOVE = frozenset({"(none)", "none", "0000", "(null)", "null"})


# ---------------------------------------------------------------------------- engine


class Engine:
    """An engine process, driven over its standard input and output.

    ``timeout`` bounds the wait for ``uciok``, ``readyok`` and the exit after ``quit``, except
    the first ``readyok`` after the handshake, which may take ``ready_timeout``: an engine may
    load or compile before it is ready (``doushouqi engine`` answers ``uci`` at once and
    compiles its search for 10-70 s on a fresh install, depending on the load; see
    docs/engine.md).
    ``move_grace`` is added to a search's time budget (move time, or the side's clock plus
    increment) before the engine counts as not answering. A search with no time budget (depth
    or nodes only) waits for as long as it takes unless ``play(..., timeout=…)`` says otherwise.

    Use ``await engine.start()`` (or :func:`popen_engine`) before anything else.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        handshake: str = "uci",
        timeout: float | None = 10.0,
        ready_timeout: float | None = READY_TIMEOUT,
        move_grace: float = 2.0,
        **popen_args: Any,
    ) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("empty engine command")
        self.handshake = handshake
        #: The dialect the engine answered in: ``uci`` or ``jcei`` (None before the handshake).
        self.protocol: str | None = None
        self.timeout = timeout
        self.ready_timeout = ready_timeout
        self.move_grace = move_grace
        self.popen_args = popen_args
        #: What the engine said about itself (``id name``, ``id author``, …).
        self.id: dict[str, str] = {}
        #: The engine's options by name, as it announced them.
        self.options: dict[str, Option] = {}
        #: The values set with :meth:`configure`, in protocol form.
        self.config: dict[str, str | None] = {}
        self._process: asyncio.subprocess.Process | None = None
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._readers: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()
        self._dead = False
        self._timeout_reason: str | None = None
        self._rules_sent: tuple[str, tuple[str, ...]] | None = None
        self._game: object = _NO_GAME
        self._analysis: Analysis | None = None
        #: The pondering search and its game, while the engine thinks in the opponent's time.
        self._pondering: tuple[Analysis, object] | None = None
        #: Values of the managed options (MultiPV, Ponder) last sent, by lower-case name.
        self._managed_sent: dict[str, str | None] = {}

    # ------------------------------------------------------------------ life cycle

    @property
    def name(self) -> str:
        """The engine's ``id name``, or its program name before the handshake."""
        return self.id.get("name") or os.path.basename(self.command[0])

    @property
    def returncode(self) -> int | None:
        return None if self._process is None else self._process.returncode

    @property
    def alive(self) -> bool:
        """Started, and neither exited nor killed."""
        return self._process is not None and not self._dead and self._process.returncode is None

    async def start(self) -> None:
        """Start the process and do the handshake (``uci`` … ``uciok``, ``isready``)."""
        if self._process is not None:
            raise EngineError("engine already started")
        popen_args = dict(self.popen_args)
        popen_args.setdefault("stderr", asyncio.subprocess.PIPE)
        self._process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 20,
            **popen_args,
        )
        self._readers.append(asyncio.create_task(self._read_stdout()))
        if self._process.stderr is not None:
            self._readers.append(asyncio.create_task(self._read_stderr()))
        try:
            async with self._lock:
                await self._handshake()
                await self._ping(first=True)
        except BaseException:
            await self._shut_down(kill=True)
            raise

    async def _handshake(self) -> None:
        words = ["uci", "jcei"] if self.handshake == "auto" else [self.handshake]
        answers = {f"{word}ok" for word in words} | {"uciok"}
        with self._watchdog(self.timeout, " or ".join(f"{word}ok" for word in words)):
            await self._send(words[0])
            if len(words) == 1:
                await self._read_handshake(answers)
                return
            # Auto: an engine that says nothing to `uci` for a while (no id, no option, no
            # uciok) is asked `jcei`; whichever ok comes first decides.
            try:
                await asyncio.wait_for(
                    self._read_handshake(answers, first_line=True), AUTO_HANDSHAKE_WAIT
                )
            except TimeoutError:
                LOGGER.info("%s: no answer to uci; trying jcei", self.name)
                await self._send("jcei")
                await self._read_handshake(answers)
                return
            if self.protocol is None:
                await self._read_handshake(answers)

    async def _read_handshake(self, answers: set[str], *, first_line: bool = False) -> None:
        """Read id and option lines up to an ok (sets :attr:`protocol`); with ``first_line``
        return after the first id, option or ok line."""
        while True:
            line = await self._next_line()
            word, _, rest = line.strip().partition(" ")
            if word in answers:
                self.protocol = word.removesuffix("ok")
                return
            if word == "id":
                key, _, value = rest.strip().partition(" ")
                if key:
                    self.id[key] = value.strip()
            elif word == "option":
                try:
                    option = parse_option(rest)
                except EngineError as exc:
                    LOGGER.warning("%s: %s", self.name, exc)
                    continue
                self.options[option.name] = option
            else:
                continue
            if first_line:
                return

    async def quit(self) -> None:
        """Ask the engine to quit (``stop`` first if it is searching); kill it if it lingers."""
        if self._process is None:
            return
        self._pondering = None
        if self._analysis is not None and not self._analysis.done:
            self._analysis.stop()
        if self.alive:
            with contextlib.suppress(EngineError):
                await self._send("quit")
        await self._shut_down(kill=False)

    async def _shut_down(self, *, kill: bool) -> None:
        process = self._process
        assert process is not None
        if process.returncode is None:
            if kill:
                _kill(process)
            try:
                await asyncio.wait_for(process.wait(), self.timeout)
            except TimeoutError:
                _kill(process)
                await process.wait()
        self._dead = True
        if process.stdin is not None:
            process.stdin.close()
        for reader in self._readers:
            try:
                await asyncio.wait_for(reader, 1.0)
            except TimeoutError:
                reader.cancel()
        self._lines.put_nowait(None)

    async def __aenter__(self) -> Engine:
        if self._process is None:
            await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.quit()

    # -------------------------------------------------------------------- commands

    async def ping(self) -> None:
        """``isready`` → ``readyok``: the engine has done everything sent so far."""
        await self._end_ponder()
        async with self._lock:
            await self._ping()

    async def configure(self, options: Mapping[str, object]) -> None:
        """Set engine options (``setoption``); names are matched case-insensitively.

        The ``Rules`` option and the rule options are not set here: each search sends the
        board's rules; nor ``MultiPV``, which ``analyse(multipv=…)`` manages (``Ponder`` is
        set to true by ``play(ponder=True)`` when not yet so).
        """
        await self._end_ponder()
        async with self._lock:
            for name, value in options.items():
                option = self._find_option(name)
                if option is None:
                    known = ", ".join(self.options) or "none"
                    raise EngineError(f"{self.name} has no option {name!r} (options: {known})")
                if option.name.lower() == "rules" or option.name.lower() in RULE_OPTIONS:
                    raise EngineError(f"the {option.name} option is set from the board's rule set")
                if option.name.lower() in _MANAGED:
                    raise EngineError(
                        f"the {option.name} option is managed: use analyse(multipv=…)"
                    )
                text = option.protocol_value(value)
                await self._send(f"setoption name {option.name}" + _value_part(text))
                self.config[option.name] = text
            await self._ping()

    async def new_game(self) -> None:
        """Tell the engine that the next search belongs to a new game (``ucinewgame``)."""
        await self._end_ponder()
        async with self._lock:
            await self._send("ucinewgame")
            self._game = _NO_GAME
            await self._ping()

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
        ponder: bool = False,
    ) -> PlayResult:
        """The engine's move in ``board`` (checked to be legal) and its last search info.

        ``game``: any value naming the game; ``ucinewgame`` is sent when it changes (and before
        the first search). ``timeout`` overrides the time the engine has to answer
        (``math.inf``: no limit).

        ``ponder=True``: after its move the engine thinks on in the opponent's time, on the
        reply it expects (``go ponder``, when it named one). The next ``play`` sends
        ``ponderhit`` when that reply was played (the search goes on, now for this move) and
        ``stop`` otherwise; any other command stops pondering first.
        """
        if limit.infinite:
            raise ValueError("play() needs a limit that ends the search; use analysis()")
        result = await self._ponder_hit(board, limit, game, info_callback, timeout)
        if result is None:
            analysis = await self.analysis(
                board, limit, game=game, info_callback=info_callback, timeout=timeout
            )
            result = await analysis.wait()
        if ponder and result.move is not None and result.ponder is not None:
            await self._start_ponder(board, result, limit, game)
        return result

    async def _ponder_hit(
        self,
        board: Board,
        limit: Limit,
        game: object,
        info_callback: InfoCallback | None,
        timeout: float | None,
    ) -> PlayResult | None:
        """The pondering search's result when ``board`` is the position it pondered (after a
        ``ponderhit``); None (pondering stopped) otherwise."""
        pondering = self._pondering
        if pondering is None:
            return None
        analysis, pondered_game = pondering
        if (
            analysis.done
            or pondered_game != game
            or board.starting_fen != analysis.board.starting_fen
            or board.move_stack != analysis.board.move_stack
        ):
            await self._end_ponder()
            return None
        self._pondering = None
        budget = timeout if timeout is not None else self._time_budget(board, limit)
        analysis._ponderhit(budget, info_callback)
        self._send_nowait("ponderhit")
        return await analysis.wait()

    async def _start_ponder(
        self, board: Board, result: PlayResult, limit: Limit, game: object
    ) -> None:
        assert result.move is not None and result.ponder is not None
        pondered = board.copy()
        pondered.push(result.move)
        if pondered.is_game_over() or not pondered.is_legal(result.ponder):
            return
        pondered.push(result.ponder)
        if pondered.is_game_over():
            return
        analysis = await self.analysis(pondered, limit, game=game, _ponder=True)
        self._pondering = (analysis, game)

    async def _end_ponder(self) -> None:
        """Stop a pondering search and wait for its (ignored) bestmove."""
        pondering, self._pondering = self._pondering, None
        if pondering is None:
            return
        analysis = pondering[0]
        analysis.stop()
        with contextlib.suppress(EngineMoveError):
            await analysis.wait()

    @typing.overload
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: None = None,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> Info: ...

    @typing.overload
    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> list[Info]: ...

    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> Info | list[Info]:
        """Search ``board`` within ``limit`` and return what the engine last reported; with
        ``multipv`` N, the N best lines (``setoption name MultiPV``), best first, each the
        latest info of its line."""
        if limit.infinite:
            raise ValueError("analyse() needs a limit that ends the search; use analysis()")
        analysis = await self.analysis(
            board,
            limit,
            multipv=multipv,
            game=game,
            info_callback=info_callback,
            timeout=timeout,
        )
        result = await analysis.wait()
        return result.info if multipv is None else analysis.multipv

    async def analysis(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
        _ponder: bool = False,
    ) -> Analysis:
        """Start a search and return at once; iterate the result for info, ``stop()`` it, and
        ``await .wait()`` for the move. Without a limit the search is infinite (``stop()``
        ends it). ``multipv`` N: the engine reports N lines (``.multipv``)."""
        limit = limit if limit is not None else Limit(infinite=True)
        if multipv is not None and multipv < 1:
            raise ValueError("multipv must be at least 1")
        if not _ponder:
            await self._end_ponder()
        await self._lock.acquire()
        try:
            await self._set_managed("MultiPV", multipv or 1, needed=(multipv or 1) > 1)
            if _ponder:
                await self._set_managed("Ponder", True, needed=False)
            await self._prepare(board, game)
            budget = timeout if timeout is not None else self._time_budget(board, limit)
            go = f"go {'ponder ' if _ponder else ''}{limit}".rstrip()
            analysis = Analysis(self, board.copy(), None if _ponder else budget, info_callback)
            await self._send(go)
        except BaseException:
            self._lock.release()
            raise
        self._analysis = analysis
        analysis._start()
        return analysis

    async def _set_managed(self, name: str, value: object, *, needed: bool) -> None:
        """Send a managed option (MultiPV, Ponder) when it changes; an engine without it is
        an error only when ``needed``. The lock is held."""
        option = self._find_option(name)
        if option is None:
            if needed:
                raise EngineError(f"{self.name} has no {name} option")
            return
        text = option.protocol_value(value)
        key = name.lower()
        current = self.config.get(option.name, self._managed_sent.get(key, option.default))
        if text is not None and current is not None and text.lower() == current.lower():
            return
        await self._send(f"setoption name {option.name}" + _value_part(text))
        self._managed_sent[key] = text

    def _time_budget(self, board: Board, limit: Limit) -> float | None:
        if limit.infinite:
            return None
        budgets = []
        if limit.movetime is not None:
            budgets.append(limit.movetime)
        clock, inc = (
            (limit.red_clock, limit.red_inc)
            if board.turn == RED
            else (limit.blue_clock, limit.blue_inc)
        )
        if clock is not None:
            budgets.append(clock + (inc or 0.0))
        if limit.per_move is not None:
            budgets.append(limit.per_move)
        return min(budgets) + self.move_grace if budgets else None

    async def _prepare(self, board: Board, game: object) -> None:
        """Rules, new game and position, then ``isready``; the lock is held."""
        await self._send_rules(board.rules)
        if game is not self._game and game != self._game:
            await self._send("ucinewgame")
            self._game = game
        command = f"position fen {board.starting_fen}"
        if board.move_stack:
            command += " moves " + " ".join(str(move) for move in board.move_stack)
        await self._send(command)
        await self._ping()

    async def _send_rules(self, rules: RuleSet) -> None:
        """Tell the engine the rules, when they differ from the last ones sent: ``Rules <name>``
        for a built-in rule set (or rules that play exactly as one), otherwise every rule
        option (``rule_7_3`` …) on top of ``Rules wango``. An engine with no rule option at
        all is assumed to play WANGO rules (a warning for others); one that lacks an option
        these rules need raises EngineError."""
        values = rule_option_values(rules)
        key = (rules.name, tuple(values.values()))
        if key == self._rules_sent:
            return
        rules_option = self._find_option("Rules")
        fields = {
            field: option
            for field in RULE_OPTIONS
            if (option := self._find_option(field)) is not None
        }
        name = named_rule_set(rules)
        commands: list[str] = []
        named_text = _offered(rules_option, name)
        if rules_option is not None and named_text is not None:
            commands.append(f"setoption name {rules_option.name} value {named_text}")
        elif rules_option is None and not fields:
            if name != "wango":
                LOGGER.warning("%s has no rule options; it may not play %s", self.name, rules.name)
        else:
            base_text = _offered(rules_option, "wango")
            base = None if rules_option is not None and base_text is None else "wango"
            base_values = rule_option_values(BUILTIN_RULE_SETS["wango"])
            missing = [
                field
                for field in RULE_OPTIONS
                if field not in fields and (base is None or values[field] != base_values[field])
            ]
            if missing:
                offered = f"Rules: {', '.join(rules_option.var)}; " if rules_option else ""
                raise EngineError(
                    f"{self.name} does not offer the rule set {rules.name!r} "
                    f"({offered}no option {', '.join(missing)})"
                )
            if rules_option is not None:
                commands.append(f"setoption name {rules_option.name} value {base_text}")
            for field, option in fields.items():
                text = option.protocol_value(values[field])
                commands.append(f"setoption name {option.name}" + _value_part(text))
        self._rules_sent = None
        for command in commands:
            await self._send(command)
        self._rules_sent = key

    def _find_option(self, name: str) -> Option | None:
        folded = name.lower()
        for option_name, option in self.options.items():
            if option_name.lower() == folded:
                return option
        return None

    async def _ping(self, *, first: bool = False) -> None:
        seconds = self.timeout
        if first and seconds is not None:
            seconds = None if self.ready_timeout is None else max(seconds, self.ready_timeout)
        with self._watchdog(seconds, "readyok"):
            await self._send("isready")
            while True:
                line = await self._next_line()
                if line.strip() == "readyok":
                    return
                LOGGER.debug("%s: unexpected line while waiting for readyok: %s", self.name, line)

    # --------------------------------------------------------------------- plumbing

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None:
            raise EngineError("engine not started")
        if self._dead or process.stdin is None:
            raise self._terminated_error()
        LOGGER.debug("%s << %s", self.name, line)
        process.stdin.write(line.encode() + b"\n")
        try:
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self._dead = True
            await self._wait_exit()
            raise self._terminated_error() from None

    def _send_nowait(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None or not self.alive:
            return
        LOGGER.debug("%s << %s", self.name, line)
        with contextlib.suppress(OSError, RuntimeError):
            process.stdin.write(line.encode() + b"\n")

    async def _next_line(self) -> str:
        if self._dead:
            raise self._terminated_error()
        line = await self._lines.get()
        if line is None:
            self._dead = True
            await self._wait_exit()
            raise self._terminated_error()
        return line

    async def _wait_exit(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 2.0)
            except TimeoutError:
                _kill(process)

    def _terminated_error(self) -> EngineTerminatedError:
        if self._timeout_reason is not None:
            return EngineTimeoutError(self._timeout_reason)
        message = f"engine {self.name} has exited"
        if self.returncode is not None:
            message += f" (exit code {self.returncode})"
        if self._stderr_tail:
            message += "; last error output: " + " | ".join(self._stderr_tail)
        return EngineTerminatedError(message)

    @contextlib.contextmanager
    def _watchdog(self, seconds: float | None, what: str) -> Iterator[None]:
        """Kill the engine if the block has not finished within ``seconds``."""
        if seconds is None or math.isinf(seconds):
            yield
            return
        handle = asyncio.get_running_loop().call_later(
            max(seconds, 0.0), self._expire, what, seconds
        )
        try:
            yield
        finally:
            handle.cancel()

    def _expire(self, what: str, seconds: float) -> None:
        if self._timeout_reason is None and not self._dead:
            self._timeout_reason = (
                f"engine {self.name} did not send {what} within {seconds:g} s and was killed"
            )
            LOGGER.info("%s", self._timeout_reason)
        self._dead = True
        if self._process is not None:
            _kill(self._process)
        self._lines.put_nowait(None)

    async def _read_stdout(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None
        try:
            while True:
                try:
                    raw = await process.stdout.readline()
                except ValueError:  # a line over the limit: drop it
                    LOGGER.warning("%s: overlong output line dropped", self.name)
                    continue
                if not raw:
                    break
                line = raw.decode(errors="replace").rstrip("\r\n")
                LOGGER.debug("%s >> %s", self.name, line)
                self._lines.put_nowait(line)
        finally:
            self._lines.put_nowait(None)

    async def _read_stderr(self) -> None:
        process = self._process
        assert process is not None and process.stderr is not None
        while True:
            try:
                raw = await process.stderr.readline()
            except ValueError:
                continue
            if not raw:
                return
            line = raw.decode(errors="replace").rstrip()
            if line:
                LOGGER.debug("%s (stderr) %s", self.name, line)
                self._stderr_tail.append(line)


_NO_GAME = object()
#: Options the client sets itself (lower case), refused by configure().
_MANAGED = frozenset({"multipv"})


def _offered(option: Option | None, value: str | None) -> str | None:
    """``value`` as ``option`` spells it, or None when the option does not offer it."""
    if option is None or value is None:
        return None
    try:
        return option.protocol_value(value)
    except EngineError:
        return None


def _value_part(text: str | None) -> str:
    return "" if text is None else f" value {text}"


def _kill(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        if process.returncode is None:
            process.kill()


class Analysis:
    """A search in progress: ``async for info in analysis``, ``stop()``, ``await wait()``.

    The engine is busy (other commands wait) until the engine has sent its ``bestmove``.
    """

    def __init__(
        self,
        engine: Engine,
        board: Board,
        budget: float | None,
        info_callback: InfoCallback | None,
    ) -> None:
        self.engine = engine
        self.board = board
        #: Everything reported so far, later lines overriding earlier ones (MultiPV: line 1).
        self.info = Info()
        self._lines: dict[int, Info] = {}
        self._budget = budget
        self._info_callback = info_callback
        self._queue: asyncio.Queue[Info | None] = asyncio.Queue()
        self._result: asyncio.Future[PlayResult] = asyncio.get_running_loop().create_future()
        self._stopped = False
        self._stop_watchdog: asyncio.TimerHandle | None = None
        self._ponder_watchdog: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def _start(self) -> None:
        self._task = asyncio.create_task(self._run())

    @property
    def done(self) -> bool:
        return self._result.done()

    @property
    def multipv(self) -> list[Info]:
        """The latest info of each line (``multipv`` 1, 2, …), best first."""
        return [self._lines[index] for index in sorted(self._lines)]

    def _ponderhit(self, budget: float | None, info_callback: InfoCallback | None) -> None:
        """The pondered reply was played: from now the search has ``budget`` seconds."""
        self._info_callback = info_callback
        if budget is not None and not math.isinf(budget):
            self._ponder_watchdog = asyncio.get_running_loop().call_later(
                budget, self.engine._expire, "bestmove", budget
            )

    def stop(self) -> None:
        """Ask the engine to stop now (``stop``); it must answer ``bestmove`` promptly."""
        if self._stopped or self.done:
            return
        self._stopped = True
        self.engine._send_nowait("stop")
        timeout = self.engine.timeout
        if timeout is not None:
            self._stop_watchdog = asyncio.get_running_loop().call_later(
                timeout, self.engine._expire, "bestmove after stop", timeout
            )

    async def wait(self) -> PlayResult:
        """The move and final info; a cancelled wait stops the search."""
        try:
            return await asyncio.shield(self._result)
        except asyncio.CancelledError:
            self.stop()
            raise

    def __aiter__(self) -> Analysis:
        return self

    async def __anext__(self) -> Info:
        info = await self._queue.get()
        if info is None:
            self._queue.put_nowait(None)
            raise StopAsyncIteration
        return info

    async def _run(self) -> None:
        engine = self.engine
        callback_error: Exception | None = None
        try:
            with engine._watchdog(self._budget, "bestmove"):
                while True:
                    line = await engine._next_line()
                    word, _, rest = line.strip().partition(" ")
                    if word == "info":
                        info = parse_info(rest, self.board)
                        line_number = info.get("multipv", 1)
                        if line_number == 1:
                            self.info.update(info)
                        if "pv" in info or "score" in info:
                            self._lines.setdefault(line_number, Info()).update(info)
                        self._queue.put_nowait(info)
                        if self._info_callback is not None and callback_error is None:
                            try:
                                self._info_callback(info)
                            except Exception as exc:  # finish the search, then re-raise
                                callback_error = exc
                                self.stop()
                    elif word == "bestmove":
                        if callback_error is not None:
                            raise callback_error
                        move, ponder = self._bestmove(rest)
                        self._result.set_result(PlayResult(move, self.info, ponder))
                        return
                    else:
                        LOGGER.debug("%s: ignored while searching: %s", engine.name, line)
        except asyncio.CancelledError:
            self._result.cancel()
            raise
        except Exception as exc:
            self._result.set_exception(exc)
            self._result.exception()  # mark it retrieved: a caller need not wait
        finally:
            for handle in (self._stop_watchdog, self._ponder_watchdog):
                if handle is not None:
                    handle.cancel()
            self._queue.put_nowait(None)
            if engine._analysis is self:
                engine._analysis = None
            engine._lock.release()

    def _bestmove(self, rest: str) -> tuple[Move | None, Move | None]:
        """The move (checked) and the expected reply (None unless legal after it)."""
        tokens = rest.split()
        move = self._checked_move(tokens[0] if tokens else "(none)")
        ponder = None
        if move is not None and len(tokens) >= 3 and tokens[1] == "ponder":
            with contextlib.suppress(InvalidMoveError):
                reply = Move.from_str(tokens[2])
                after = self.board.copy()
                after.push(move)
                if reply and after.is_legal(reply):
                    ponder = reply
        return move, ponder

    def _checked_move(self, text: str) -> Move | None:
        board = self.board
        name = self.engine.name
        if text in _NO_MOVE:
            if board.legal_moves:
                raise EngineNoMoveError(
                    f"{name} returned no move (bestmove {text}) in {board.fen()} but it has "
                    f"{len(list(board.legal_moves))} legal moves"
                )
            return None
        try:
            move = Move.from_str(text)
        except InvalidMoveError as exc:
            raise EngineMoveError(f"{name} returned an unreadable move: {exc}") from None
        if not board.is_legal(move):
            reason = board.explain_illegal(move)
            raise EngineMoveError(
                f"{name} returned the illegal move {text} in {board.fen()}: {reason}"
            )
        return move


async def popen_engine(
    command: str | Sequence[str],
    *,
    handshake: str = "uci",
    timeout: float | None = 10.0,
    ready_timeout: float | None = READY_TIMEOUT,
    move_grace: float = 2.0,
    **popen_args: Any,
) -> Engine:
    """Start an engine process and do the handshake (see :class:`Engine` for the timeouts)."""
    engine = Engine(
        command,
        handshake=handshake,
        timeout=timeout,
        ready_timeout=ready_timeout,
        move_grace=move_grace,
        **popen_args,
    )
    await engine.start()
    return engine


# ------------------------------------------------------------------- blocking facade


class SimpleEngine:
    """A blocking wrapper: the engine's event loop runs in a background thread.

    >>> # with SimpleEngine.popen("doushouqi engine") as engine:
    >>> #     engine.play(Board(), Limit(movetime=0.5)).move
    """

    def __init__(
        self, engine: Engine, loop: asyncio.AbstractEventLoop, thread: threading.Thread
    ) -> None:
        self.engine = engine
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        handshake: str = "uci",
        timeout: float | None = 10.0,
        ready_timeout: float | None = READY_TIMEOUT,
        move_grace: float = 2.0,
        **popen_args: Any,
    ) -> SimpleEngine:
        """Start an engine process and do the handshake (see :class:`Engine`)."""
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="doushouqi-engine", daemon=True)
        thread.start()

        async def create() -> Engine:
            return await popen_engine(
                command,
                handshake=handshake,
                timeout=timeout,
                ready_timeout=ready_timeout,
                move_grace=move_grace,
                **popen_args,
            )

        try:
            engine = asyncio.run_coroutine_threadsafe(create(), loop).result()
        except BaseException:
            _stop_loop(loop, thread)
            raise
        return cls(engine, loop, thread)

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coroutine.close()
            raise EngineTerminatedError("the engine has been closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    @property
    def id(self) -> dict[str, str]:
        return self.engine.id

    @property
    def options(self) -> dict[str, Option]:
        return self.engine.options

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def alive(self) -> bool:
        return self.engine.alive

    def ping(self) -> None:
        self._run(self.engine.ping())

    def configure(self, options: Mapping[str, object]) -> None:
        self._run(self.engine.configure(options))

    def new_game(self) -> None:
        self._run(self.engine.new_game())

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
        ponder: bool = False,
    ) -> PlayResult:
        """The engine's move (see :meth:`Engine.play`); ``info_callback`` runs in the engine's
        thread."""
        return self._run(
            self.engine.play(
                board,
                limit,
                game=game,
                info_callback=info_callback,
                timeout=timeout,
                ponder=ponder,
            )
        )

    @typing.overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: None = None,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> Info: ...

    @typing.overload
    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> list[Info]: ...

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int | None = None,
        game: object = None,
        info_callback: InfoCallback | None = None,
        timeout: float | None = None,
    ) -> Info | list[Info]:
        """What the engine reports within ``limit`` (a list of lines with ``multipv``)."""
        engine = self.engine
        if multipv is None:
            return self._run(
                engine.analyse(
                    board, limit, game=game, info_callback=info_callback, timeout=timeout
                )
            )
        return self._run(
            engine.analyse(
                board,
                limit,
                multipv=multipv,
                game=game,
                info_callback=info_callback,
                timeout=timeout,
            )
        )

    def analysis(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        game: object = None,
        timeout: float | None = None,
    ) -> SimpleAnalysis:
        """Start a search (infinite without a limit) and return at once: iterate it for the
        engine's infos (blocking), ``stop()`` it, ``wait()`` for the move; leaving a ``with``
        block stops it.

        >>> # with engine.analysis(board) as analysis:
        >>> #     for info in analysis:
        >>> #         if info.get("depth", 0) >= 12: break
        """
        analysis = self._run(
            self.engine.analysis(board, limit, multipv=multipv, game=game, timeout=timeout)
        )
        return SimpleAnalysis(analysis, self._loop)

    def quit(self) -> None:
        """Quit the engine and stop the background thread (safe to call twice)."""
        if self._closed:
            return
        try:
            self._run(self.engine.quit())
        finally:
            self._closed = True
            _stop_loop(self._loop, self._thread)

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} alive={self.alive}>"


class SimpleAnalysis:
    """A search in progress, for blocking code (see :meth:`SimpleEngine.analysis`)."""

    def __init__(self, analysis: Analysis, loop: asyncio.AbstractEventLoop) -> None:
        self._analysis = analysis
        self._loop = loop

    @property
    def info(self) -> Info:
        """Everything reported so far (MultiPV: line 1)."""
        return self._analysis.info

    @property
    def multipv(self) -> list[Info]:
        return self._analysis.multipv

    @property
    def done(self) -> bool:
        return self._analysis.done

    def stop(self) -> None:
        """Ask the engine to stop now; ``wait()`` then gives its move."""
        self._loop.call_soon_threadsafe(self._analysis.stop)

    def wait(self) -> PlayResult:
        async def wait() -> PlayResult:
            return await self._analysis.wait()

        return asyncio.run_coroutine_threadsafe(wait(), self._loop).result()

    def next(self) -> Info | None:
        """The next info (blocking), None once the search has ended."""

        async def next_info() -> Info | None:
            try:
                return await self._analysis.__anext__()
            except StopAsyncIteration:
                return None

        return asyncio.run_coroutine_threadsafe(next_info(), self._loop).result()

    def __iter__(self) -> Iterator[Info]:
        while (info := self.next()) is not None:
            yield info

    def __enter__(self) -> SimpleAnalysis:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
        with contextlib.suppress(EngineError):
            self.wait()


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()

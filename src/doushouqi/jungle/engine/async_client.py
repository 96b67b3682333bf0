"""The asyncio engine client: :class:`Engine`, one engine process driven over its standard input
and output, and :func:`popen_engine`. Public path: :mod:`doushouqi.jungle.engine`, which describes
the protocol; a search in progress is :mod:`doushouqi.jungle.engine.analysis_stream`, the blocking
facade
:mod:`doushouqi.jungle.engine.blocking`.

The default waits, in seconds: the first ``readyok`` (our engine may compile first) and the
silence after ``uci`` before ``handshake="auto"`` tries ``jcei``:

>>> READY_TIMEOUT, AUTO_HANDSHAKE_WAIT
(300.0, 3.0)
>>> Engine(["my-engine"], handshake="auto").ready_timeout == READY_TIMEOUT
True
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import shlex
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from doushouqi.core.engine_protocol import (
    SearchOptions,
    checked_options,
    searchmoves_text,
    setoption_line,
)
from doushouqi.jungle.analysis import Info, InfoSelection, Limit, PlayResult, select_info
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine._process_io import ProcessIO, kill_process
from doushouqi.jungle.engine.analysis_stream import LOGGER, Analysis, InfoCallback
from doushouqi.jungle.engine.protocol import (
    RULE_OPTIONS,
    EngineError,
    EngineMoveError,
    Option,
    named_rule_set,
    parse_option,
    rule_option_values,
)
from doushouqi.jungle.moves import Move
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet
from doushouqi.jungle.squares import RED

__all__ = ["AUTO_HANDSHAKE_WAIT", "READY_TIMEOUT", "Engine", "popen_engine"]

#: How long the first ``readyok`` may take, seconds (by default): our engine compiles first.
READY_TIMEOUT = 300.0

#: With ``handshake="auto"``: seconds of silence after ``uci`` before ``jcei`` is tried.
AUTO_HANDSHAKE_WAIT = 3.0


class Engine(ProcessIO):
    """An engine process, driven over its standard input and output.

    ``timeout`` bounds the wait for ``uciok``, ``readyok`` and the exit after ``quit``, except
    the first ``readyok`` after the handshake, which may take ``ready_timeout``: an engine may
    load or compile before it is ready (``doushouqi engine`` answers ``uci`` at once and
    compiles its search for 10-70 s on a fresh install, depending on the load; see
    docs/engine.md).
    ``move_grace`` is added to a search's time budget (move time, or the side's clock plus
    increment) before the engine counts as not answering. A search with no time budget (depth
    or nodes only) waits for as long as it takes unless ``play(..., timeout=…)`` says otherwise.

    Use ``await engine.start()`` (or :func:`popen_engine`) before anything else. The lines to
    and from the process go through ``ProcessIO`` (``_process_io.py``, the pipes' plumbing).

    One example drives a real engine process through the methods (each would start its own):

    >>> import asyncio, sys
    >>> from pathlib import Path
    >>> async def session() -> None:
    ...     engine = Engine([sys.executable, "-m", "doushouqi", "engine"])
    ...     # Not started yet: named after its command (here the interpreter) until it says.
    ...     print(engine.name == Path(sys.executable).name, engine.alive, engine.returncode)
    ...     await engine.start()  # uci ... uciok, isready ... readyok
    ...     await engine.configure({"Level": 3})  # setoption name Level value 3
    ...     await engine.ping()  # isready: the engine has taken the option
    ...     await engine.new_game()  # ucinewgame
    ...     played = await engine.play(Board(), Limit(depth=3))
    ...     lines = await engine.analyse(Board(), Limit(depth=3), multipv=2)
    ...     analysis = await engine.analysis(Board(), Limit(depth=3))
    ...     best = await analysis.wait()
    ...     print(engine.name.split()[0], engine.protocol, engine.alive, engine.returncode)
    ...     print(played.move in Board().legal_moves, [line["multipv"] for line in lines],
    ...           best.move in Board().legal_moves)
    ...     await engine.quit()  # quit, and wait for the process to exit
    ...     print(engine.alive, engine.returncode)
    >>> asyncio.run(session())
    True False None
    doushouqi uci True None
    True [1, 2] True
    False 0
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
        #: Options a search's ``options=`` changed: put back before the next command (the
        #: configured value, else the engine's default).
        self._search_options = SearchOptions()

    # ------------------------------------------------------------------ life cycle

    @property
    def name(self) -> str:
        """The engine's ``id name``, or its program name before the handshake."""
        return self.id.get("name") or os.path.basename(self.command[0])

    @property
    def returncode(self) -> int | None:
        """The process's exit status once it has exited (negative: killed by that signal),
        None before that or before the start."""
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
                kill_process(process)
            try:
                await asyncio.wait_for(process.wait(), self.timeout)
            except TimeoutError:
                kill_process(process)
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
            await self._restore_options()
            for option, text in self._checked_options(options):
                await self._send(setoption_line(option.name, text))
                self.config[option.name] = text
            await self._ping()

    def _checked_options(self, options: Mapping[str, object]) -> list[tuple[Option, str | None]]:
        """Each option the engine offers with its value as protocol text; EngineError for
        an unknown one, the rule options (set from the board) and the managed ones."""
        return checked_options(
            self.name, self.options.values(), options, from_board=RULE_OPTIONS, managed=_MANAGED
        )

    async def _set_search_options(self, options: Mapping[str, object]) -> None:
        """Set a search's own ``options=`` (as python-chess: they hold for this search and
        are put back before the next command). The lock is held."""
        for line in self._search_options.apply(self._checked_options(options), self.config):
            await self._send(line)

    async def _restore_options(self, keep: frozenset[str] | set[str] = frozenset()) -> None:
        """Put back what the last search's ``options=`` changed (but those in ``keep``,
        which the coming search sets again). The lock is held."""
        for line in self._search_options.restore(keep):
            await self._send(line)

    async def new_game(self) -> None:
        """Tell the engine that the next search belongs to a new game (``ucinewgame``)."""
        await self._end_ponder()
        async with self._lock:
            await self._restore_options()
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
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
    ) -> PlayResult:
        """The engine's move in ``board`` (checked to be legal) and its last search info.

        As python-chess: ``root_moves`` limits the search to those moves (``go … searchmoves``;
        ValueError when one is not legal), ``options`` sets engine options for this search
        only, ``info`` selects what the result's info keeps (:class:`InfoSelection`; all by
        default, where python-chess keeps none).

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
        result = None
        if root_moves is None and not options:  # a ponder hit searched without either
            result = await self._ponder_hit(board, limit, game, info_callback, timeout)
        if result is None:
            analysis = await self.analysis(
                board,
                limit,
                game=game,
                info_callback=info_callback,
                timeout=timeout,
                root_moves=root_moves,
                options=options,
                info=info,
            )
            result = await analysis.wait()
        elif info != InfoSelection.ALL:
            result = PlayResult(result.move, select_info(result.info, info), result.ponder)
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
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
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
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
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
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
    ) -> Info | list[Info]:
        """Search ``board`` within ``limit`` and return what the engine last reported; with
        ``multipv`` N, the N best lines (``setoption name MultiPV``), best first, each the
        latest info of its line. ``root_moves``, ``options`` and ``info`` as in
        :meth:`play`."""
        if limit.infinite:
            raise ValueError("analyse() needs a limit that ends the search; use analysis()")
        analysis = await self.analysis(
            board,
            limit,
            multipv=multipv,
            game=game,
            info_callback=info_callback,
            timeout=timeout,
            root_moves=root_moves,
            options=options,
            info=info,
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
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
        _ponder: bool = False,
    ) -> Analysis:
        """Start a search and return at once; iterate the result for info, ``stop()`` it, and
        ``await .wait()`` for the move. Without a limit the search is infinite (``stop()``
        ends it). ``multipv`` N: the engine reports N lines (``.multipv``). ``root_moves``,
        ``options`` and ``info`` as in :meth:`play`."""
        limit = limit if limit is not None else Limit(infinite=True)
        if multipv is not None and multipv < 1:
            raise ValueError("multipv must be at least 1")
        searchmoves = _searchmoves(board, root_moves)
        if not _ponder:
            await self._end_ponder()
        await self._lock.acquire()
        try:
            await self._set_managed("MultiPV", multipv or 1, needed=(multipv or 1) > 1)
            if _ponder:
                await self._set_managed("Ponder", True, needed=False)
            if options:
                await self._set_search_options(options)
            else:
                await self._restore_options()
            await self._prepare(board, game)
            budget = timeout if timeout is not None else self._time_budget(board, limit)
            go = f"go {'ponder ' if _ponder else ''}{limit}{searchmoves}".rstrip()
            analysis = Analysis(
                self, board.copy(), None if _ponder else budget, info_callback, info
            )
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
        await self._send(setoption_line(option.name, text))
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
                commands.append(setoption_line(option.name, text))
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


def _searchmoves(board: Board, root_moves: Iterable[Move] | None) -> str:
    """`` searchmoves m1 m2 …`` for ``go`` (empty without root moves); ValueError when one is
    not a legal move of ``board`` or there are none."""

    def is_legal(move: Move) -> bool:
        return bool(move) and board.is_legal(move)  # a pass is no root move

    return searchmoves_text(root_moves, is_legal, board.fen())


async def popen_engine(
    command: str | Sequence[str],
    *,
    handshake: str = "uci",
    timeout: float | None = 10.0,
    ready_timeout: float | None = READY_TIMEOUT,
    move_grace: float = 2.0,
    **popen_args: Any,
) -> Engine:
    """Start an engine process and do the handshake (see :class:`Engine` for the timeouts).

    >>> import asyncio, sys
    >>> async def identify() -> str:
    ...     async with await popen_engine([sys.executable, "-m", "doushouqi", "engine"]) as engine:
    ...         return engine.id["name"].split()[0]  # id name doushouqi <version>
    >>> asyncio.run(identify())
    'doushouqi'
    """
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

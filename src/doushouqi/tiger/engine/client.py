"""An asyncio client for any engine that speaks the 老虎棋 protocol (ours:
``doushouqi engine --game tiger``), as an external process: what engine matches need.

The protocol as this client speaks it: ``uci`` answered by ``id``/``option`` lines and
``uciok``; ``isready``/``readyok``; ``setoption name X [value Y]``; ``ucinewgame``;
``position fen <the game's start> [moves m1 m2 …]`` (``0000`` a pass); ``go movetime MS``
or ``go wtime MS btime MS winc MS binc MS`` (``wtime``: the tiger side's clock) or ``go depth
N`` / ``nodes N`` / ``mate N``, with ``searchmoves m1 m2 …`` for a search's ``root_moves``,
answered by ``info`` lines and ``bestmove <move>``; ``quit``.

As python-chess's ``engine.play``/``analyse``: ``root_moves=`` limits a search to those
moves, ``options=`` sets engine options for that search only (put back after it: the
configured value, else the engine's default), ``info=`` selects what the result's info keeps
(:class:`~doushouqi.core.analysis.InfoSelection`; all by default).

The rule set travels with each search: ``setoption name Rules value <name>`` for a named set
the engine offers, else ``Rules laohuqi`` and one ``setoption`` per rule option
(:data:`~doushouqi.tiger.engine.protocol.RULE_OPTIONS`). Every move an engine returns is
checked against the board: an illegal one raises :class:`EngineMoveError`, ``bestmove 0000``
while moves exist :class:`EngineNoMoveError`. An engine that does not answer in time is
killed (:class:`EngineTimeoutError`); one that exits raises :class:`EngineTerminatedError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence

from doushouqi.core.engine_protocol import (
    SearchOptions,
    checked_options,
    searchmoves_text,
    setoption_line,
)
from doushouqi.tiger.analysis import Info, InfoSelection, Limit, PlayResult, select_info
from doushouqi.tiger.board import Board
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
from doushouqi.tiger.moves import Move, MoveError
from doushouqi.tiger.rules import RuleSet

__all__ = ["Engine", "game_start"]


def game_start(board: Board) -> tuple[str, list[str]]:
    """The position a board's game started from and its moves since, as protocol text (what
    ``position fen … moves …`` sends).

    >>> board = Board()
    >>> for move in ("e10e9", "d2d3"):
    ...     _ = board.push_move(move)
    >>> game_start(board)
    ('3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1', ['e10e9', 'd2d3'])
    """
    start = board.copy()
    moves = [str(start.pop()) for _ in range(start.ply())][::-1]
    return start.position_string(), moves


class Engine:
    """One engine process. ``timeout``: seconds for any answer but the first ``readyok``
    (``ready_timeout``: our engine loads its compiled code first) and a search (its budget
    plus ``move_grace``).

    One example drives a real engine process through the methods (each would start its own):

    >>> import asyncio, sys
    >>> from pathlib import Path
    >>> from doushouqi.tiger.analysis import Limit
    >>> async def session() -> None:
    ...     engine = Engine([sys.executable, "-m", "doushouqi", "engine", "--game", "tiger"])
    ...     # Not started yet: named after its command (here the interpreter) until it says.
    ...     print(engine.name == Path(sys.executable).name, engine.alive)
    ...     await engine.start()  # uci ... uciok, isready ... readyok
    ...     await engine.configure({"Level": 2})  # setoption name Level value 2
    ...     await engine.new_game()  # ucinewgame
    ...     played = await engine.play(Board(), Limit(depth=2))
    ...     south = Board(rules="laohuqi-south")  # the rules travel with the search
    ...     reply = await engine.play(south, Limit(depth=1))
    ...     print(engine.name.split()[0], engine.alive, played.info["depth"])
    ...     print(played.move in Board().legal_moves, reply.move in south.legal_moves)
    ...     await engine.quit()
    ...     print(engine.alive)
    >>> asyncio.run(session())
    True False
    doushouqi-tiger True 2
    True True
    False
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = 10.0,
        ready_timeout: float = 300.0,
        move_grace: float = 1.0,
    ) -> None:
        self.command = tuple(command)
        self.name = os.path.basename(self.command[0]) if self.command else "?"
        self.options: dict[str, Option] = {}
        #: The values :meth:`configure` set, by the option's name (what a search's own
        #: ``options=`` put back afterwards).
        self.config: dict[str, str | None] = {}
        self._search_options = SearchOptions()
        self.timeout = timeout
        self.ready_timeout = ready_timeout
        self.move_grace = move_grace
        self._process: asyncio.subprocess.Process | None = None
        self._rules_sent: tuple[str, ...] | None = None

    @property
    def alive(self) -> bool:
        """Started, and not exited (nor killed)."""
        return self._process is not None and self._process.returncode is None

    # ------------------------------------------------------------------------ lines

    async def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None or not self.alive:
            raise EngineTerminatedError(f"{self.name} is not running")
        try:
            process.stdin.write((line + "\n").encode())
            await process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            raise EngineTerminatedError(f"{self.name} has exited") from None

    async def _read(self, timeout: float | None) -> str:
        process = self._process
        assert process is not None and process.stdout is not None
        try:
            raw = await asyncio.wait_for(process.stdout.readline(), timeout)
        except TimeoutError:
            await self._kill()
            raise EngineTimeoutError(f"{self.name} did not answer within {timeout:g} s") from None
        if not raw:
            await self._kill()
            raise EngineTerminatedError(f"{self.name} has exited")
        return raw.decode(errors="replace").strip()

    async def _expect(self, word: str, timeout: float) -> None:
        while (await self._read(timeout)).split()[:1] != [word]:
            pass

    async def _kill(self) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()

    # --------------------------------------------------------------------- commands

    async def start(self) -> None:
        """Start the process, read its options (``uci``) and wait for ``readyok``."""
        if self._process is not None:
            raise EngineError("engine already started")
        try:
            self._process = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            raise EngineTerminatedError(f"cannot start {self.name}: {exc}") from None
        await self._send("uci")
        while True:
            line = await self._read(self.timeout)
            word, _, rest = line.partition(" ")
            if word == "uciok":
                break
            if word == "id" and rest.startswith("name "):
                self.name = rest[5:].strip() or self.name
            elif word == "option":
                with contextlib.suppress(EngineError):
                    option = parse_option(rest)
                    self.options[option.name.lower()] = option
        await self._send("isready")
        await self._expect("readyok", self.ready_timeout)

    async def configure(self, options: Mapping[str, object]) -> None:
        """Set options by name (checked against what the engine offers); not the rules,
        which each search sets from its board."""
        for option, text in self._checked_options(options):
            await self._send(setoption_line(option.name, text))
            self.config[option.name] = text
        await self._send("isready")
        await self._expect("readyok", self.timeout)

    def _checked_options(self, options: Mapping[str, object]) -> list[tuple[Option, str | None]]:
        """Each option the engine offers with its value as protocol text; EngineError for an
        unknown one and for the rules (set from the board)."""
        return checked_options(self.name, self.options.values(), options, from_board=RULE_OPTIONS)

    async def new_game(self) -> None:
        """Tell the engine that the next search belongs to a new game (``ucinewgame``) and
        wait until it is ready."""
        await self._send("ucinewgame")
        await self._send("isready")
        await self._expect("readyok", self.timeout)

    async def _send_rules(self, rules: RuleSet) -> None:
        values = rule_option_values(rules)
        key = (rules.name, *values.values())
        if key == self._rules_sent:
            return
        rules_option = self.options.get("rules")
        offered = [v.lower() for v in rules_option.var] if rules_option is not None else []
        name = named_rule_set(rules)
        if name is not None and name in offered:
            await self._send(f"setoption name Rules value {name}")
        else:
            if "laohuqi" in offered:
                await self._send("setoption name Rules value laohuqi")
            for field, text in values.items():
                if field not in self.options:
                    raise EngineError(f"{self.name} has no {field} option for these rules")
                await self._send(f"setoption name {field} value {text}")
        self._rules_sent = key

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
    ) -> PlayResult:
        """The engine's move in ``board`` (checked) with its last info.

        ``root_moves``: the only moves it may choose among (``go … searchmoves``; ValueError
        when there are none or one is not legal, before anything is sent); ``options``: engine
        options for this search only; ``info``: what the result's info keeps."""
        words, last = await self._search(board, limit, root_moves, options)
        return PlayResult(self._checked(board, words[:1]), select_info(last, info))

    async def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        root_moves: Iterable[Move] | None = None,
        options: Mapping[str, object] | None = None,
        info: InfoSelection = InfoSelection.ALL,
    ) -> Info:
        """What the engine last reported about ``board`` when its search within ``limit``
        ended (the move it would play is ``info["pv"][0]``; an empty info when the game is
        over). ``root_moves``, ``options`` and ``info`` as in :meth:`play`.

        >>> import asyncio, sys
        >>> async def only_down() -> Info:
        ...     engine = Engine([sys.executable, "-m", "doushouqi", "engine", "--game", "tiger"])
        ...     await engine.start()
        ...     try:
        ...         down = [Move.from_str("e10e11")]
        ...         return await engine.analyse(
        ...             Board(), Limit(depth=2), root_moves=down, info=InfoSelection.PV
        ...         )
        ...     finally:
        ...         await engine.quit()
        >>> info = asyncio.run(only_down())
        >>> list(info), str(info["pv"][0])
        (['pv'], 'e10e11')
        """
        _, last = await self._search(board, limit, root_moves, options)
        return select_info(last, info)

    async def _search(
        self,
        board: Board,
        limit: Limit,
        root_moves: Iterable[Move] | None,
        options: Mapping[str, object] | None,
    ) -> tuple[list[str], Info]:
        """Run one search: the words after ``bestmove`` and the last info (not a string)."""
        if limit.infinite:
            raise ValueError("a search of this client needs a limit that ends it")

        def is_legal(move: Move) -> bool:
            return bool(move) and board.is_legal(move)  # a pass is no root move

        searchmoves = searchmoves_text(root_moves, is_legal, board.position_string())
        checked = self._checked_options(options or {})  # refused before anything is sent
        await self._send_rules(board.rules)
        for line in self._search_options.apply(checked, self.config):
            await self._send(line)
        start, moves = game_start(board)
        await self._send(f"position fen {start}" + (f" moves {' '.join(moves)}" if moves else ""))
        await self._send("isready")
        await self._expect("readyok", self.timeout)
        await self._send(f"go {limit}{searchmoves}".rstrip())
        info = Info()
        budget = self._budget(board, limit)
        while True:
            line = await self._read(None if budget is None else budget + self.move_grace)
            word, _, rest = line.partition(" ")
            if word == "info":
                latest = parse_info(rest, board)
                if "string" not in latest:
                    info = latest
            elif word == "bestmove":
                break
        # This search's own options hold for it alone: the next command finds them put back.
        for line in self._search_options.restore():
            await self._send(line)
        return rest.split(), info

    def _budget(self, board: Board, limit: Limit) -> float | None:
        if limit.movetime is not None:
            return limit.movetime
        clock, _ = limit.clock(board.turn)
        return clock

    def _checked(self, board: Board, words: list[str]) -> Move:
        text = words[0] if words else "0000"
        if text in ("0000", "(none)"):
            raise EngineNoMoveError(f"{self.name} answered no move ({text}) with moves to play")
        try:
            move = Move.from_str(text)
        except MoveError as exc:
            raise EngineMoveError(f"{self.name} returned an unreadable move: {exc}") from None
        reason = board.explain_illegal(move)
        if reason is not None:
            raise EngineMoveError(f"{self.name} returned an illegal move {move}: {reason}")
        return move

    async def quit(self) -> None:
        """Ask the engine to quit; kill it if it does not within the timeout."""
        process = self._process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(EngineError):
            await self._send("quit")
        try:
            await asyncio.wait_for(process.wait(), self.timeout)
        except TimeoutError:
            await self._kill()

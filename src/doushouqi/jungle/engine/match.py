"""Engine-versus-engine matches (``doushouqi match A B …``) and their statistics.

Each opening is played twice with the colours swapped. Games are adjudicated by the rules
library (:meth:`Board.outcome`) and a maximum number of plies (a draw); an engine that crashes,
returns an illegal move or runs out of time loses that game, with the reason recorded; any other
engine error (a missing option, a rule set the engine does not offer) stops the match.

The statistics are small pure functions. With ``s`` the score fraction and ``N`` the number
of games, ``elo(s) = -400·log10(1/s - 1)``; the error bar is the 95% interval of ``s`` with the
trinomial (win/draw/loss) variance ``σ² = (W(1-s)² + D(½-s)² + L·s²)/N``, mapped to Elo.
The SPRT uses the GSPRT normal approximation of the log-likelihood ratio,
``LLR = N·(s1-s0)·(2s-s0-s1) / (2σ²)``, with ``s0``/``s1`` the scores of ``elo0``/``elo1``.

>>> round(elo_from_score(0.75), 1)
190.8
>>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)]
[-2.944, 2.944]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import math
import os
import random
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from doushouqi.core.match_clocks import MatchClocks, MatchTimeControl
from doushouqi.core.match_runner import MatchRunner
from doushouqi.core.match_stats import (
    Z95,
    MatchScore,
    Sprt,
    elo_estimate,
    elo_from_score,
    score_from_elo,
    sprt_bounds,
    sprt_llr,
)
from doushouqi.jungle.analysis import Info, Limit, Score
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine import (
    Engine,
    EngineError,
    EngineMoveError,
    EngineNoMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from doushouqi.jungle.notation import termination_label
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.rules import RuleSet, find_rules
from doushouqi.jungle.squares import BLUE, COLOR_NAMES, RED

__all__ = [
    "Z95",
    "EngineSpec",
    "GameResult",
    "Match",
    "MatchConfig",
    "MatchScore",
    "MatchTimeControl",
    "Opening",
    "Sprt",
    "default_openings",
    "elo_estimate",
    "elo_from_score",
    "play_game",
    "read_openings",
    "run_match_command",
    "score_from_elo",
    "sprt_bounds",
    "sprt_llr",
]


# ------------------------------------------------------------- engines, time, openings


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start one side's engine: ``ai:LEVEL``, or a command line with its dialect:
    ``uci:PROGRAM ARGS``, ``jcei:PROGRAM ARGS`` or ``cmd:PROGRAM ARGS`` (detect: ``uci``
    first, ``jcei`` when the engine stays silent;
    :data:`doushouqi.jungle.engine.AUTO_HANDSHAKE_WAIT`).
    ``options`` are set with ``setoption`` after the handshake.

    >>> spec = EngineSpec.parse("ai:3")
    >>> spec.name, spec.command[1:], spec.options, spec.handshake
    ('ai:3', ('-m', 'doushouqi', 'engine'), (('Level', '3'),), 'uci')
    """

    name: str
    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    #: ``uci``, ``jcei`` or ``auto``.
    handshake: str = "auto"

    @classmethod
    def parse(cls, text: str, options: Sequence[str] = ()) -> EngineSpec:
        """``ai:3`` is our engine at level 3; ``cmd:…`` (or a bare command line) any other.
        ``options``: ``NAME=VALUE`` texts (``--option-a``), set after the spec's own.

        >>> EngineSpec.parse("ai:3", ["Hash=128"]).options
        (('Level', '3'), ('Hash', '128'))
        >>> spec = EngineSpec.parse("jcei:/opt/jungle/engine --threads 1")
        >>> spec.name, spec.handshake
        ('engine --threads 1', 'jcei')
        """
        extra = tuple(_option_pair(option) for option in options)
        if text.startswith("ai:"):
            level = text[3:].strip()
            if not level.lstrip("-").isdigit():
                raise ValueError(f"invalid engine {text!r}: expected ai:LEVEL, e.g. ai:3")
            # doushouqi.jungle.ai.levels.MIN_LEVEL/MAX_LEVEL (this module imports no engine code)
            if not 1 <= int(level) <= 10:
                raise ValueError(f"invalid engine {text!r}: levels are 1 to 10")
            command = (sys.executable, "-m", "doushouqi", "engine")
            own: tuple[tuple[str, str], ...] = (("Level", str(int(level))), *extra)
            return cls(f"ai:{int(level)}", command, own, "uci")
        handshake, colon, line = text.partition(":")
        if not colon or handshake not in ("cmd", "uci", "jcei"):
            handshake, line = "cmd", text
        try:
            argv = shlex.split(line)
        except ValueError as exc:
            raise ValueError(f"invalid engine command {line!r}: {exc}") from None
        if not argv:
            raise ValueError(f"invalid engine {text!r}: empty command")
        name = " ".join([os.path.basename(argv[0]), *argv[1:]])
        return cls(name, tuple(argv), extra, "auto" if handshake == "cmd" else handshake)


def _option_pair(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"invalid engine option {text!r}: expected NAME=VALUE, e.g. Hash=128")
    return name.strip(), value.strip()


@dataclasses.dataclass(frozen=True)
class Opening:
    """A start for a pair of games: a position (None: the standard start) and moves.

    >>> opening = Opening(moves=("g3g4", "a7a6"))
    >>> str(opening), str(Opening("l5t/3L3/7/7/7/7/7/7/T6 w 0 1"))
    ('g3g4 a7a6', 'l5t/3L3/7/7/7/7/7/7/T6 w 0 1 moves start')
    """

    fen: str | None = None
    moves: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str, rules: RuleSet | str = "wango") -> Opening:
        """A position string, a move list, or ``<position string> moves m1 m2 …``; checked.

        >>> Opening.parse("g3g4 a7a6")
        Opening(fen=None, moves=('g3g4', 'a7a6'))
        """
        tokens = text.split()
        if tokens[:1] == ["startpos"]:
            tokens = tokens[1:]
        fen: str | None = None
        if tokens and "/" in tokens[0]:
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen, tokens = " ".join(tokens[:end]), tokens[end + 1 :]
        elif tokens[:1] == ["moves"]:
            tokens = tokens[1:]
        opening = cls(fen, tuple(tokens))
        board = opening.board(rules)
        if board.outcome() is not None:
            raise ValueError(f"the game is already over after the opening {text.strip()!r}")
        return opening

    def board(self, rules: RuleSet | str) -> Board:
        """A board with the opening played (each move checked).

        >>> board = Opening.parse("g3g4 a7a6").board("wango")
        >>> board.fen(), board.rules.name
        ('l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L w 2 2', 'wango')
        """
        board = Board(self.fen, rules)
        for text in self.moves:
            if text == "0000":
                board.push_pass()
            else:
                board.push_move(text)
        return board

    def __str__(self) -> str:
        text = " ".join(self.moves) or "start"
        return f"{self.fen} moves {text}" if self.fen else text


def read_openings(path: str | Path, rules: RuleSet | str = "wango") -> list[Opening]:
    """One opening per line; blank lines and lines starting with ``#`` are skipped.

    A line may go on with EPD-like ``;``-separated operations after the position (the suites
    in ``tests/jungle/ai/data``: ``FEN;rules=wango;score=+912``, or ``FEN ; rules wango ; id "x"``):
    they are ignored, except ``rules``, which must name the match's rule set (a position for
    other rules is an error, not a game under the wrong rules).

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "openings.txt")
    ...     lines = ["# two openings", "g3g4 a7a6", "l5t/3L3/7/7/7/7/7/7/T6 w 0 1;rules=wango"]
    ...     _ = path.write_text("\\n".join(lines), encoding="utf-8")
    ...     openings = read_openings(path, "wango")
    >>> [str(opening) for opening in openings]
    ['g3g4 a7a6', 'l5t/3L3/7/7/7/7/7/7/T6 w 0 1 moves start']
    """
    wanted = find_rules(rules).name
    openings = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        text, _, operations = line.partition(";")
        try:
            named = _rules_operation(operations)
            if named is not None and find_rules(named).name != wanted:
                raise ValueError(f"the position is for the {named} rules, the match plays {wanted}")
            openings.append(Opening.parse(text, rules))
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def _rules_operation(operations: str) -> str | None:
    """The rule set an opening line's operations name (``rules=NAME`` or ``rules NAME``)."""
    for operation in operations.split(";"):
        key, _, value = operation.strip().replace("=", " ", 1).partition(" ")
        if key == "rules" and value.strip():
            return value.strip().strip('"')
    return None


def default_openings(rules: RuleSet | str = "wango", seed: int = 2024) -> list[Opening]:
    """Every two-ply opening from the start position, shuffled with a fixed seed.

    A move of each side keeps the openings short and, by the start's symmetry, balanced.

    >>> len(default_openings("international"))
    576
    """
    board = Board(rules=rules)
    openings = []
    for first in list(board.legal_moves):
        board.push(first)
        for second in list(board.legal_moves):
            openings.append(Opening(None, (str(first), str(second))))
        board.pop()
    random.Random(seed).shuffle(openings)
    return openings


# ------------------------------------------------------------------------------ games


@dataclasses.dataclass(frozen=True)
class GameResult:
    """How one game of a match ended.

    >>> result = GameResult(1, "ai:3", "ai:1", "0-1", Termination.DEN_ENTERED, "den entered",
    ...                     41, Opening())
    >>> result.winner == BLUE, result.points_for("ai:1"), result.points_for("ai:3")
    (True, 1.0, 0.0)
    """

    number: int
    red: str
    blue: str
    result: str  # "1-0", "0-1" or "1/2-1/2"
    termination: Termination | None
    reason: str
    plies: int
    opening: Opening
    #: Every move of the game from the opening's position (the opening's own moves first).
    moves: tuple[str, ...] = ()

    @property
    def winner(self) -> int | None:
        """The winner's colour (``RED`` 0, ``BLUE`` 1), or None for a draw.

        >>> GameResult(2, "a", "b", "1-0", None, "b crashed", 9, Opening()).winner
        0
        >>> GameResult(3, "a", "b", "1/2-1/2", None, "draw after 400 plies", 400, Opening()).winner
        """
        return {"1-0": RED, "0-1": BLUE}.get(self.result)

    def points_for(self, name: str) -> float:
        """1, ½ or 0 for the engine called ``name``.

        >>> result = GameResult(1, "a", "b", "1/2-1/2", None, "400 plies", 400, Opening())
        >>> result.points_for("a"), result.points_for("b")
        (0.5, 0.5)
        """
        if self.winner is None:
            return 0.5
        return 1.0 if (self.red, self.blue)[self.winner] == name else 0.0


@dataclasses.dataclass(frozen=True)
class _Ending:
    result: str
    termination: Termination | None
    reason: str


@dataclasses.dataclass(frozen=True)
class MoveTime:
    """One engine move of a game: its ply (1 = the game's first), side, seconds from ``go``
    to ``bestmove`` (as the match saw it), and the engine's last info."""

    ply: int
    side: int
    seconds: float
    info: Info

    def comment(self) -> str:
        """The record comment: ``+0.35/9 0.102s`` (score for the mover, in pawns, or
        ``+D3`` / ``-D3`` for a den in 3 moves; the depth; the time), parts the engine did
        not report left out."""
        parts = []
        score = self.info.get("score")
        depth = self.info.get("depth")
        if score is not None:
            text = _score_text(score)
            parts.append(f"{text}/{depth}" if depth is not None else text)
        parts.append(f"{self.seconds:.3f}s")
        return " ".join(parts)


def _score_text(score: Score) -> str:
    if score.moves is not None:
        return f"{'+' if score.moves > 0 else '-'}D{abs(score.moves)}"
    return f"{(score.cp or 0) / 100:+.2f}"


def default_max_plies(rules: RuleSet) -> int:
    """The ply limit of a match game: 400 under rules without a no-capture limit (WANGO:
    repetitions alone end nothing), else 1000, a safety net only — the rule's own limit
    (``no_capture_draw_rounds``, 100 rounds in classic and international) ends those games."""
    return 400 if rules.no_capture_draw_rounds is None else 1000


def _loss(side: int, termination: Termination | None, reason: str) -> _Ending:
    return _Ending("0-1" if side == RED else "1-0", termination, reason)


async def play_game(
    red: Engine,
    blue: Engine,
    board: Board,
    control: MatchTimeControl,
    *,
    blue_control: MatchTimeControl | None = None,
    max_plies: int = 400,
    game: object = None,
    time_margin: float = 0.1,
    move_times: list[MoveTime] | None = None,
) -> tuple[str, Termination | None, str]:
    """Play ``board`` to its end; the result, the Termination (None for a max-plies draw or an
    illegal move) and the reason in words. The board holds the game afterwards. Blue plays
    at ``blue_control`` when given (a time-odds game), else both at ``control``. Each move's
    time and info are appended to ``move_times`` when given.

    One engine process may play both sides:

    >>> import asyncio
    >>> board, times = Board(rules="wango"), []
    >>> async def selfplay() -> tuple[str, Termination | None, str]:
    ...     async with Engine(EngineSpec.parse("ai:1").command, move_grace=10.0) as engine:
    ...         return await play_game(engine, engine, board, MatchTimeControl(movetime=0.01),
    ...                                max_plies=6, move_times=times)
    >>> asyncio.run(selfplay())
    ('1/2-1/2', None, 'draw after 6 plies (adjudicated)')
    >>> board.ply(), [move.side for move in times]
    (6, [0, 1, 0, 1, 0, 1])
    """
    names = (red.name, blue.name)
    controls = (control, blue_control or control)
    log = move_times if move_times is not None else []
    ending = await _play(red, blue, names, board, controls, max_plies, game, time_margin, log)
    return ending.result, ending.termination, ending.reason


async def _play(
    red: Engine,
    blue: Engine,
    names: tuple[str, str],
    board: Board,
    controls: tuple[MatchTimeControl, MatchTimeControl],
    max_plies: int,
    game: object,
    time_margin: float,
    move_times: list[MoveTime],
) -> _Ending:
    engines = (red, blue)
    clocks = MatchClocks(controls)
    loop = asyncio.get_running_loop()
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return _Ending(
                outcome.result(), outcome.termination, termination_label(outcome.termination)
            )
        if board.ply() >= max_plies:
            return _Ending("1/2-1/2", None, f"draw after {max_plies} plies (adjudicated)")
        side = board.turn
        engine = engines[side]
        who = f"{names[side]} ({COLOR_NAMES[side]})"
        limit = clocks.limit(side, Limit)
        started = loop.time()
        try:
            played = await engine.play(board, limit, game=game)
        except EngineTimeoutError:
            return _loss(side, Termination.TIME_FORFEIT, f"{who} did not answer in time")
        except EngineTerminatedError as exc:
            return _loss(side, Termination.ABANDONMENT, f"{who} crashed: {exc}")
        except EngineNoMoveError as exc:
            return _loss(side, None, f"{who} answered no move and loses: {exc}")
        except EngineMoveError as exc:
            return _loss(side, None, f"{who} lost by a bad move: {exc}")
        move = played.move
        ply = len(board.move_stack) + 1
        spent = loop.time() - started
        move_times.append(MoveTime(ply, side, spent, played.info))
        if not clocks.spend(side, spent, time_margin):
            return _loss(side, Termination.TIME_FORFEIT, f"{who} ran out of time")
        assert move is not None  # the engine client refuses "no move" while moves exist
        board.push(move)


# ------------------------------------------------------------------------------ match


@dataclasses.dataclass(frozen=True)
class MatchConfig:
    """What a match plays: the two engines, the games, the time control(s), the openings and
    the rules, how many games at once, where the records go, an SPRT, and the timeouts.
    ValueError for fewer than one game, worker or ply, or no openings.

    >>> config = MatchConfig(
    ...     EngineSpec.parse("ai:3"), EngineSpec.parse("ai:1"), games=100,
    ...     control=MatchTimeControl(movetime=0.1), openings=default_openings("classic"),
    ...     rules=find_rules("classic"), concurrency=2,
    ... )
    >>> config.plies_limit, [str(control) for control in config.controls]
    (1000, ['0.1s/move', '0.1s/move'])
    """

    first: EngineSpec
    second: EngineSpec
    games: int
    control: MatchTimeControl
    openings: Sequence[Opening]
    rules: RuleSet
    concurrency: int = 1
    records: Path | None = None
    sprt: Sprt | None = None
    #: Adjudicate a draw after this many plies (None: :func:`default_max_plies` of the rules).
    max_plies: int | None = None
    #: The second engine's time control where it differs from ``control`` (time odds).
    second_control: MatchTimeControl | None = None
    #: Time to start an engine and get its first ``readyok`` (our engine compiles first).
    startup_timeout: float = 300.0
    #: Time an engine has for any later ``readyok`` (and to stop or quit).
    reply_timeout: float = 10.0
    #: Extra time after the move time (or clock) before a silent engine is killed.
    move_grace: float = 1.0
    #: How far past its clock an engine may go before it loses on time.
    time_margin: float = 0.1

    def __post_init__(self) -> None:
        if self.games < 1 or self.concurrency < 1 or self.plies_limit < 1:
            raise ValueError("games, concurrency and max plies must be at least 1")
        if not self.openings:
            raise ValueError("no openings")

    @property
    def plies_limit(self) -> int:
        """The ply limit of each game: ``max_plies``, else :func:`default_max_plies` of the
        rules.

        >>> config = MatchConfig(EngineSpec.parse("ai:3"), EngineSpec.parse("ai:1"), games=2,
        ...                      control=MatchTimeControl(movetime=0.1), openings=[Opening()],
        ...                      rules=find_rules("wango"))
        >>> config.plies_limit, dataclasses.replace(config, max_plies=60).plies_limit
        (400, 60)
        """
        return self.max_plies if self.max_plies is not None else default_max_plies(self.rules)

    @property
    def controls(self) -> tuple[MatchTimeControl, MatchTimeControl]:
        """The first and the second engine's time controls.

        >>> config = MatchConfig(EngineSpec.parse("ai:3"), EngineSpec.parse("ai:1"), games=2,
        ...                      control=MatchTimeControl(movetime=0.1), openings=[Opening()],
        ...                      rules=find_rules("wango"),
        ...                      second_control=MatchTimeControl(movetime=1.0))  # time odds
        >>> [str(control) for control in config.controls]
        ['0.1s/move', '1s/move']
        """
        return self.control, self.second_control or self.control


class Match(MatchRunner[Engine, GameResult]):
    """Plays the games of a match, ``concurrency`` at a time, and keeps the score.

    ``out`` receives each game's line and the running score (default: print). One short match
    of real engine processes, each game adjudicated a draw after 8 plies (the move grace is
    generous so that a loaded machine does not forfeit a game on time):

    >>> import asyncio
    >>> config = MatchConfig(
    ...     EngineSpec.parse("ai:1"), EngineSpec.parse("ai:2"), games=2,
    ...     control=MatchTimeControl(movetime=0.01), openings=[Opening.parse("e3d3 e7d7")],
    ...     rules=find_rules("wango"), max_plies=8, move_grace=10.0,
    ... )
    >>> lines: list[str] = []
    >>> match = Match(config, out=lines.append)
    >>> score = asyncio.run(match.run())
    >>> print(lines[0])
    Game 1/2: ai:1 (red) vs ai:2 (blue), opening e3d3 e7d7: 1/2-1/2 draw after 8 plies (adjudicated)
    >>> [(result.red, result.result, result.plies) for result in match.results]
    [('ai:1', '1/2-1/2', 8), ('ai:2', '1/2-1/2', 8)]
    >>> print(*match.summary(), sep="\\n")
    Final score of ai:1 vs ai:2: W/D/L 0/2/0, 50.0% (2 games)
    Elo difference: +0.0 +/- 0.0 (95%)
    Move time of ai:1: average ... s, max ... s (6 moves), ... over the 0.01 s move time
    Move time of ai:2: average ... s, max ... s (6 moves), ... over the 0.01 s move time
    """

    def __init__(self, config: MatchConfig, *, out: Callable[[str], None] | None = None) -> None:
        first, second = config.first.name, config.second.name
        if config.controls[0] != config.controls[1]:
            first, second = f"{first}@{config.controls[0]}", f"{second}@{config.controls[1]}"
        names = (first, second if second != first else f"{second} (2)")
        super().__init__(
            names, games=config.games, concurrency=config.concurrency, sprt=config.sprt, out=out
        )
        self.config = config
        #: Seconds of every move each engine played (``names`` order).
        self.move_times: tuple[list[float], list[float]] = ([], [])

    def _new_engine(self, which: int) -> tuple[Engine, dict[str, str]]:
        spec = (self.config.first, self.config.second)[which]
        # The handshake gets the short reply timeout (a silent engine fails at once); the
        # first readyok the long one (our engine compiles on a fresh install).
        engine = Engine(
            spec.command,
            handshake=spec.handshake,
            timeout=self.config.reply_timeout,
            ready_timeout=self.config.startup_timeout,
            move_grace=self.config.move_grace,
        )
        return engine, dict(spec.options)

    async def _play(self, index: int, first: Engine, second: Engine) -> GameResult:
        config = self.config
        opening = config.openings[(index // 2) % len(config.openings)]
        first_is_red = index % 2 == 0
        red, blue = (first, second) if first_is_red else (second, first)
        red_name, blue_name = self.names if first_is_red else self.names[::-1]
        controls = config.controls if first_is_red else config.controls[::-1]
        board = opening.board(config.rules)
        moves: list[MoveTime] = []
        ending = await _play(
            red,
            blue,
            (red_name, blue_name),
            board,
            controls,
            config.plies_limit,
            index,
            config.time_margin,
            moves,
        )
        for move in moves:
            which = 0 if (move.side == RED) == first_is_red else 1
            self.move_times[which].append(move.seconds)
        result = GameResult(
            index + 1,
            red_name,
            blue_name,
            ending.result,
            ending.termination,
            ending.reason,
            board.ply(),
            opening,
            tuple(move.uci() for move in board.move_stack),
        )
        if config.records is not None:
            self._write_record(result, board, moves)
        return result

    def _write_record(self, result: GameResult, board: Board, moves: Sequence[MoveTime]) -> None:
        from doushouqi.jungle.record import GameRecord, format_date, write_record

        assert self.config.records is not None
        record = GameRecord.from_board(
            board,
            result=result.result,
            termination=result.termination,
            comments={move.ply: move.comment() for move in moves},
            Event=f"{self.names[0]} vs {self.names[1]}",
            Date=format_date(datetime.date.today()),
            Round=str(result.number),
            Red=result.red,
            Blue=result.blue,
            TimeControl=self._time_control_tag(result),
            Reason=" ".join(result.reason.split()),
        )
        self.config.records.mkdir(parents=True, exist_ok=True)
        path = self.config.records / f"game-{result.number:04d}.jgn"
        path.write_text(write_record(record), encoding="utf-8")

    def _time_control_tag(self, result: GameResult) -> str:
        """One control, or red's and blue's (``1s/move:0.1s/move``) in a time-odds game."""
        first, second = (str(control) for control in self.config.controls)
        if first == second:
            return first
        return f"{first}:{second}" if result.red == self.names[0] else f"{second}:{first}"

    def _game_line(self, result: GameResult) -> str:
        return (
            f"Game {result.number}/{self.config.games}: {result.red} (red) vs {result.blue} "
            f"(blue), opening {result.opening}: {result.result} {result.reason}"
        )

    def summary(self, *, stopped: bool = False) -> list[str]:
        """The final score, Elo difference, each engine's move times and, with an SPRT, its
        state; nothing when no game was played. ``stopped``: the match ended early (an
        error), so the score is of the games played so far."""
        score = self.score
        if score.games == 0:
            return []
        elo, error = elo_estimate(score.wins, score.draws, score.losses)
        title = "Score after the games played" if stopped else "Final score"
        lines = [
            f"{title} of {self.names[0]} vs {self.names[1]}: {score}",
            f"Elo difference: {_signed(elo)} +/- {_number(error)} (95%)",
        ]
        lines += self._move_time_lines()
        sprt = self.config.sprt
        if sprt is not None:
            lower, upper = sprt.bounds
            state = f"{self.decision} accepted" if self.decision else "no decision yet"
            lines.append(
                f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} "
                f"beta={sprt.beta:g}: LLR {sprt.llr(score):.2f} "
                f"(bounds {lower:.2f}, {upper:.2f}), {state}"
            )
        return lines

    def _move_time_lines(self) -> list[str]:
        lines = []
        for name, times, control in zip(
            self.names, self.move_times, self.config.controls, strict=True
        ):
            if not times:
                continue
            line = (
                f"Move time of {name}: average {sum(times) / len(times):.3f} s, "
                f"max {max(times):.3f} s ({len(times)} moves)"
            )
            if control.movetime is not None:
                over = sum(1 for seconds in times if seconds > control.movetime)
                line += f", {over} over the {control.movetime:g} s move time"
            lines.append(line)
        return lines


def _number(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.1f}"


def _signed(value: float) -> str:
    return ("+" if value >= 0 else "-") + _number(abs(value))


# -------------------------------------------------------------------------------- CLI


def config_from_args(args: argparse.Namespace) -> MatchConfig:
    """The match described by the ``doushouqi match`` arguments."""
    rules = find_rules(args.rules or "wango")  # a parser without the CLI's default
    openings = (
        read_openings(args.openings, rules) if args.openings else default_openings(rules, args.seed)
    )
    return MatchConfig(
        first=EngineSpec.parse(args.first, getattr(args, "option_a", None) or ()),
        second=EngineSpec.parse(args.second, getattr(args, "option_b", None) or ()),
        games=args.games,
        control=MatchTimeControl.parse(args.tc),
        openings=openings,
        rules=rules,
        concurrency=args.concurrency,
        records=Path(args.records) if args.records else None,
        sprt=Sprt.parse(args.sprt) if args.sprt else None,
        max_plies=args.max_plies,
        second_control=MatchTimeControl.parse(args.tc_b) if args.tc_b else None,
    )


def run_match_command(args: argparse.Namespace) -> int:
    """``doushouqi match``: run the match, print each game and the final statistics; the exit
    status (0, 2 after an engine error, 130 when interrupted).

    >>> from doushouqi.cli.main import build_parser
    >>> args = build_parser().parse_args(
    ...     ["match", "ai:1", "ai:1", "--games", "2", "--tc", "0.01", "--max-plies", "4",
    ...      "--rules", "wango"]
    ... )
    >>> run_match_command(args)
    Match ai:1 vs ai:1 (2): 2 games, 0.01s/move, rules wango, concurrency 1
    Game 1/2: ai:1 (red) vs ai:1 (2) (blue), opening ...: 1/2-1/2 draw after 4 plies (adjudicated)
    Score of ai:1 vs ai:1 (2): W/D/L 0/1/0, 50.0% (1 game)
    Game 2/2: ai:1 (2) (red) vs ai:1 (blue), opening ...: 1/2-1/2 draw after 4 plies (adjudicated)
    Score of ai:1 vs ai:1 (2): W/D/L 0/2/0, 50.0% (2 games)
    Final score of ai:1 vs ai:1 (2): W/D/L 0/2/0, 50.0% (2 games)
    Elo difference: +0.0 +/- 0.0 (95%)
    Move time of ai:1: ...
    Move time of ai:1 (2): ...
    0
    """
    match = Match(config_from_args(args))
    config = match.config
    first, second = config.controls
    time_control = str(first) if first == second else f"{first} against {second}"
    print(
        f"Match {match.names[0]} vs {match.names[1]}: {config.games} games, "
        f"{time_control}, rules {config.rules.name}, concurrency {config.concurrency}",
        flush=True,
    )
    status = 0
    try:
        asyncio.run(match.run())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        status = 130
    except EngineError as exc:
        print(f"doushouqi match: engine error: {exc}", file=sys.stderr)
        status = 2
    # No score at all when no game was played (an engine that does not start, say).
    for line in match.summary(stopped=status != 0):
        print(line)
    return status

"""Tiger engine against Tiger engine: ``doushouqi match --game tiger A B …``.

Each opening is played twice, the engines changing sides (the tiger side, then the men), so
that a side's advantage cancels out. Games are decided by the rules library
(:meth:`Board.outcome`) and a ply limit (adjudicated a draw); an engine that crashes, returns
an illegal move or runs out of time loses that game, with the reason; any other engine error
(a missing option) stops the match. The statistics (score, Elo with its 95% error bar, SPRT)
are :mod:`doushouqi.core.match_stats`, as for Jungle's matches.

>>> EngineSpec.parse("ai:3").options
(('Level', '3'),)
>>> len(default_openings("laohuqi"))
44
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from doushouqi.core.match_clocks import MatchClocks, MatchTimeControl
from doushouqi.core.match_runner import MatchRunner
from doushouqi.core.match_stats import Sprt, elo_estimate
from doushouqi.tiger.analysis import Limit, Score
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.client import Engine
from doushouqi.tiger.engine.protocol import (
    EngineError,
    EngineMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from doushouqi.tiger.rules import TIGER_SIDE, RuleSet, rules_by_name
from doushouqi.tiger.terms import Termination, ending_label

__all__ = [
    "EngineSpec",
    "GameResult",
    "Match",
    "MatchConfig",
    "TimeControl",
    "default_openings",
    "play_game",
    "random_openings",
    "run_match_command",
]

#: A draw is adjudicated after this many plies by default (repetitions end most games
#: first).
DEFAULT_MAX_PLIES = 400
_SEATS = ("tiger", "men")


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start one engine: ``ai:LEVEL`` (ours at a level) or ``cmd:PROGRAM ARGS`` (any
    engine speaking this protocol; ``uci:`` is the same), with ``setoption`` values.

    >>> spec = EngineSpec.parse("ai:3")
    >>> spec.name, spec.command[1:], spec.options
    ('ai:3', ('-m', 'doushouqi', 'engine', '--game', 'tiger'), (('Level', '3'),))
    """

    name: str
    command: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str, options: Sequence[str] = ()) -> EngineSpec:
        """``ai:3`` is our engine at level 3; ``cmd:…`` (or a bare command line) any other.
        ``options``: ``NAME=VALUE`` texts (``--option-a``), set after the spec's own.
        ValueError for a bad level, option or command.

        >>> EngineSpec.parse("ai:3", ["Hash=64"]).options
        (('Level', '3'), ('Hash', '64'))
        >>> spec = EngineSpec.parse("cmd:/opt/tiger/engine --threads 1")
        >>> spec.name, spec.command
        ('/opt/tiger/engine --threads 1', ('/opt/tiger/engine', '--threads', '1'))
        >>> EngineSpec.parse("ai:11")
        Traceback (most recent call last):
        ...
        ValueError: invalid engine 'ai:11': expected ai:LEVEL, levels 1 to 10
        """
        extra = []
        for option in options:
            name, equals, value = option.partition("=")
            if not equals or not name.strip():
                raise ValueError(f"invalid engine option {option!r}: expected NAME=VALUE")
            extra.append((name.strip(), value.strip()))
        if text.startswith("ai:"):
            level = text[3:].strip()
            if not level.isdigit() or not 1 <= int(level) <= 10:
                raise ValueError(f"invalid engine {text!r}: expected ai:LEVEL, levels 1 to 10")
            command = (sys.executable, "-m", "doushouqi", "engine", "--game", "tiger")
            return cls(f"ai:{int(level)}", command, (("Level", str(int(level))), *extra))
        kind, colon, line = text.partition(":")
        if not colon or kind not in ("cmd", "uci"):
            line = text
        try:
            argv = tuple(shlex.split(line))
        except ValueError as exc:
            raise ValueError(f"invalid engine command {line!r}: {exc}") from None
        if not argv:
            raise ValueError(f"invalid engine {text!r}: empty command")
        return cls(" ".join(argv), argv, tuple(extra))


#: Seconds per move or a clock with its increment (``--tc``): every game's
#: :class:`~doushouqi.core.match_clocks.MatchTimeControl`.
TimeControl = MatchTimeControl


def default_openings(rules: RuleSet | str = "laohuqi", seed: int = 2024) -> list[list[str]]:
    """Every two-ply opening from the start (as move lists), shuffled with a fixed seed.

    >>> openings = default_openings("laohuqi")
    >>> len(openings), sorted(openings)[0]
    (44, ['e10d10', 'a1a2'])
    >>> openings == default_openings("laohuqi", seed=2024) != default_openings(seed=1)
    True
    """
    board = Board(rules=rules)
    openings = []
    for first in list(board.generate_legal_moves()):
        board.push(first)
        for second in list(board.generate_legal_moves()):
            openings.append([str(first), str(second)])
        board.pop()
    random.Random(seed).shuffle(openings)
    return openings


def random_openings(
    count: int, plies: int, rules: RuleSet | str = "laohuqi", seed: int = 2024
) -> list[list[str]]:
    """``count`` distinct openings of ``plies`` random moves from the start (as move lists),
    none of them a finished game: the benches' openings, longer than
    :func:`default_openings`' two plies. Fewer when ``100 * count`` tries find no more (rules
    with few distinct openings).

    >>> openings = random_openings(3, 6, seed=1)
    >>> len(openings), {len(moves) for moves in openings}, openings == random_openings(3, 6, seed=1)
    (3, {6}, True)
    """
    rng = random.Random(seed)
    found: list[list[str]] = []
    seen: set[str] = set()
    for _ in range(100 * count):
        if len(found) == count:
            break
        board = Board(rules=rules)
        for _ in range(plies):
            board.push(rng.choice(list(board.generate_legal_moves())))
        if board.outcome() is None and board.position_string() not in seen:
            seen.add(board.position_string())
            found.append([str(move) for move in board.move_stack])
    return found


def read_openings(path: str | Path, rules: RuleSet) -> list[list[str]]:
    """Move lists from the start, one a line (``#`` comments); each checked."""
    openings = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            _opening_board(rules, words)
        except ValueError as exc:
            raise ValueError(f"{path}:{number}: {exc}") from None
        openings.append(words)
    if not openings:
        raise ValueError(f"{path}: no openings")
    return openings


def _opening_board(rules: RuleSet, moves: Sequence[str]) -> Board:
    board = Board(rules=rules)
    for text in moves:
        board.push_move(text)
    if board.outcome() is not None:
        raise ValueError(f"the game is over after the opening {' '.join(moves)}")
    return board


@dataclasses.dataclass(frozen=True)
class GameResult:
    """How one game of a match ended: its number, who played the tiger side and the men, the
    result (``"1-0"``: the tiger side won), the reason, the plies and the opening.

    >>> result = GameResult(1, "ai:3", "ai:1", "0-1", "tiger trapped", 57, ("e10e9", "d2d3"))
    >>> result.points_for("ai:1"), result.points_for("ai:3")
    (1.0, 0.0)
    """

    number: int
    tiger: str
    men: str
    result: str  # "1-0" (the tiger side won), "0-1" or "1/2-1/2"
    reason: str
    plies: int
    opening: tuple[str, ...]

    def points_for(self, name: str) -> float:
        """1, ½ or 0 for the engine called ``name``.

        >>> result = GameResult(2, "a", "b", "1/2-1/2", "draw after 400 plies", 400, ())
        >>> result.points_for("a"), result.points_for("b")
        (0.5, 0.5)
        """
        winner = {"1-0": self.tiger, "0-1": self.men}.get(self.result)
        return 0.5 if winner is None else float(winner == name)


def _loss(seat: int, reason: str) -> tuple[str, str]:
    return ("0-1" if seat == TIGER_SIDE else "1-0"), reason


async def play_game(
    engines: tuple[Engine, Engine],
    board: Board,
    controls: tuple[TimeControl, TimeControl],
    *,
    max_plies: int = DEFAULT_MAX_PLIES,
    time_margin: float = 0.1,
    comments: dict[int, str] | None = None,
) -> tuple[str, str]:
    """Play ``board`` to its end, ``engines`` and ``controls`` by seat (the tiger side's
    first): the result and the reason in words. The board holds the game afterwards; each
    move's score, depth and time go into ``comments`` by ply, when given.

    One engine process may play both seats:

    >>> import asyncio
    >>> board, comments = Board(), {}
    >>> async def selfplay() -> tuple[str, str]:
    ...     engine = Engine(EngineSpec.parse("ai:1").command, move_grace=10.0)
    ...     await engine.start()
    ...     try:
    ...         control = TimeControl(movetime=0.01)
    ...         return await play_game((engine, engine), board, (control, control),
    ...                                max_plies=6, comments=comments)
    ...     finally:
    ...         await engine.quit()
    >>> asyncio.run(selfplay())
    ('1/2-1/2', 'draw after 6 plies (adjudicated)')
    >>> board.ply(), sorted(comments)
    (6, [1, 2, 3, 4, 5, 6])
    """
    clocks = MatchClocks(controls)
    loop = asyncio.get_running_loop()
    while True:
        outcome = board.outcome()
        if outcome is not None:
            return outcome.result(), ending_label(Termination(outcome.key), "en")
        if board.ply() >= max_plies:
            return "1/2-1/2", f"draw after {max_plies} plies (adjudicated)"
        seat = board.turn
        who = f"{engines[seat].name} ({_SEATS[seat]})"
        limit = clocks.limit(seat, Limit)
        started = loop.time()
        try:
            played = await engines[seat].play(board, limit)
        except EngineTimeoutError:
            return _loss(seat, f"{who} did not answer in time")
        except EngineTerminatedError as exc:
            return _loss(seat, f"{who} crashed: {exc}")
        except EngineMoveError as exc:
            return _loss(seat, f"{who} lost by a bad move: {exc}")
        spent = loop.time() - started
        if not clocks.spend(seat, spent, time_margin):
            return _loss(seat, f"{who} ran out of time")
        assert played.move is not None
        board.push(played.move)
        if comments is not None:
            comments[board.ply()] = _comment(played.info.get("score"),
                                           played.info.get("depth"), spent)  # fmt: skip


def _comment(score: Score | None, depth: int | None, seconds: float) -> str:
    parts = []
    if score is not None:
        text = (
            f"{'+' if score.moves > 0 else '-'}M{abs(score.moves)}"
            if score.moves is not None
            else f"{(score.cp or 0) / 100:+.2f}"
        )
        parts.append(f"{text}/{depth}" if depth is not None else text)
    parts.append(f"{seconds:.3f}s")
    return " ".join(parts)


@dataclasses.dataclass(frozen=True)
class MatchConfig:
    """What a match plays: the two engines, the games, the time control(s), the openings (move
    lists) and the rules, how many games at once, where the records go, an SPRT, the ply
    limit and the timeouts. ValueError for fewer than one game, worker or ply, or no openings.

    >>> config = MatchConfig(
    ...     EngineSpec.parse("ai:3"), EngineSpec.parse("ai:1"), games=100,
    ...     control=TimeControl(movetime=0.1), openings=default_openings(),
    ...     rules=rules_by_name("laohuqi"), concurrency=2,
    ... )
    >>> config.max_plies, len(config.openings)
    (400, 44)
    """

    first: EngineSpec
    second: EngineSpec
    games: int
    control: TimeControl
    openings: Sequence[Sequence[str]]
    rules: RuleSet
    concurrency: int = 1
    records: Path | None = None
    sprt: Sprt | None = None
    max_plies: int = DEFAULT_MAX_PLIES
    second_control: TimeControl | None = None
    startup_timeout: float = 300.0
    reply_timeout: float = 10.0
    move_grace: float = 1.0

    def __post_init__(self) -> None:
        if self.games < 1 or self.concurrency < 1 or self.max_plies < 1:
            raise ValueError("games, concurrency and max plies must be at least 1")
        if not self.openings:
            raise ValueError("no openings")


class Match(MatchRunner[Engine, GameResult]):
    """Plays the games of a match, ``concurrency`` at a time, and keeps the score of the
    first engine.

    ``out`` receives each game's line and the running score (default: print). One short match
    of real engine processes, each game adjudicated a draw after 8 plies (the move grace is
    generous so that a loaded machine does not forfeit a game on time):

    >>> import asyncio
    >>> config = MatchConfig(
    ...     EngineSpec.parse("ai:1"), EngineSpec.parse("ai:2"), games=2,
    ...     control=TimeControl(movetime=0.01), openings=[["e10e9", "a1a2"]],
    ...     rules=rules_by_name("laohuqi"), max_plies=8, move_grace=10.0,
    ... )
    >>> lines: list[str] = []
    >>> match = Match(config, out=lines.append)
    >>> score = asyncio.run(match.run())
    >>> print(lines[0])
    Game 1/2: ai:1 (tiger) vs ai:2 (men), opening e10e9 a1a2: 1/2-1/2 draw after 8 plies ...
    >>> [(game.tiger, game.result, game.plies) for game in match.results]
    [('ai:1', '1/2-1/2', 8), ('ai:2', '1/2-1/2', 8)]
    >>> print(*match.summary(), sep="\\n")
    Final score of ai:1 vs ai:2: W/D/L 0/2/0, 50.0% (2 games)
    Elo difference: +0.0 +/- 0.0 (95%)
    The tiger side scored 50.0% of its games
    """

    def __init__(self, config: MatchConfig, *, out: Callable[[str], None] | None = None) -> None:
        first, second = config.first.name, config.second.name
        names = (first, second if second != first else f"{second} (2)")
        super().__init__(
            names, games=config.games, concurrency=config.concurrency, sprt=config.sprt, out=out
        )
        self.config = config

    def _new_engine(self, which: int) -> tuple[Engine, dict[str, str]]:
        spec = (self.config.first, self.config.second)[which]
        engine = Engine(
            spec.command,
            timeout=self.config.reply_timeout,
            ready_timeout=self.config.startup_timeout,
            move_grace=self.config.move_grace,
        )
        return engine, dict(spec.options)

    async def _play(self, index: int, first: Engine, second: Engine) -> GameResult:
        config = self.config
        opening = tuple(config.openings[(index // 2) % len(config.openings)])
        first_is_tiger = index % 2 == 0
        engines = (first, second) if first_is_tiger else (second, first)
        names = self.names if first_is_tiger else self.names[::-1]
        own = (config.control, config.second_control or config.control)
        controls = own if first_is_tiger else own[::-1]
        for engine in engines:
            await engine.new_game()
        board = _opening_board(config.rules, opening)
        comments: dict[int, str] = {}
        result, reason = await play_game(
            engines, board, controls, max_plies=config.max_plies, comments=comments
        )
        game = GameResult(index + 1, names[0], names[1], result, reason, board.ply(), opening)
        if config.records is not None:
            self._write_record(game, board, comments)
        return game

    def _write_record(self, game: GameResult, board: Board, comments: dict[int, str]) -> None:
        from doushouqi.tiger.record import TigerRecord, write_record

        assert self.config.records is not None
        record = TigerRecord.from_board(
            board,
            Event=f"{self.names[0]} vs {self.names[1]}",
            Round=str(game.number),
            Tiger=game.tiger,
            Men=game.men,
            Reason=" ".join(game.reason.split()),
        )
        record.result = game.result
        record.comments.update(comments)
        self.config.records.mkdir(parents=True, exist_ok=True)
        path = self.config.records / f"game-{game.number:04d}.tgn"
        path.write_text(write_record(record), encoding="utf-8")

    def _game_line(self, game: GameResult) -> str:
        return (
            f"Game {game.number}/{self.config.games}: {game.tiger} (tiger) vs {game.men} "
            f"(men), opening {' '.join(game.opening) or 'start'}: {game.result} {game.reason}"
        )

    def summary(self) -> list[str]:
        """The final score, the Elo difference with its 95% error bar, and the tiger side's
        share of the points (how the sides fare, whoever plays them)."""
        score = self.score
        if score.games == 0:
            return []
        elo, error = elo_estimate(score.wins, score.draws, score.losses)
        tiger = sum({"1-0": 1.0, "1/2-1/2": 0.5}.get(g.result, 0.0) for g in self.results)
        return [
            f"Final score of {self.names[0]} vs {self.names[1]}: {score}",
            f"Elo difference: {elo:+.1f} +/- {error:.1f} (95%)",
            f"The tiger side scored {100 * tiger / len(self.results):.1f}% of its games",
        ]


def config_from_args(args: argparse.Namespace) -> MatchConfig:
    """The match the ``doushouqi match --game tiger`` arguments describe."""
    rules = rules_by_name(args.rules or "laohuqi")
    openings = (
        read_openings(args.openings, rules) if args.openings else default_openings(rules, args.seed)
    )
    return MatchConfig(
        first=EngineSpec.parse(args.first, getattr(args, "option_a", None) or ()),
        second=EngineSpec.parse(args.second, getattr(args, "option_b", None) or ()),
        games=args.games,
        control=TimeControl.parse(args.tc),
        openings=openings,
        rules=rules,
        concurrency=args.concurrency,
        records=Path(args.records) if args.records else None,
        sprt=Sprt.parse(args.sprt) if args.sprt else None,
        max_plies=args.max_plies or DEFAULT_MAX_PLIES,
        second_control=TimeControl.parse(args.tc_b) if args.tc_b else None,
    )


def run_match_command(args: argparse.Namespace) -> int:
    """``doushouqi match --game tiger``: run the match, print each game and the statistics;
    the exit status (0, 2 after an engine error, 130 when interrupted).

    >>> from doushouqi.cli.main import build_parser
    >>> args = build_parser().parse_args(
    ...     ["match", "--game", "tiger", "ai:1", "ai:2", "--games", "2", "--tc", "0.01",
    ...      "--max-plies", "4", "--rules", "laohuqi"]
    ... )
    >>> run_match_command(args)
    Match ai:1 vs ai:2 (老虎棋): 2 games, 0.01s/move, rules laohuqi, concurrency 1
    Game 1/2: ai:1 (tiger) vs ai:2 (men), opening ...: 1/2-1/2 draw after 4 plies (adjudicated)
    Score of ai:1 vs ai:2: W/D/L 0/1/0, 50.0% (1 game)
    Game 2/2: ai:2 (tiger) vs ai:1 (men), opening ...: 1/2-1/2 draw after 4 plies (adjudicated)
    Score of ai:1 vs ai:2: W/D/L 0/2/0, 50.0% (2 games)
    Final score of ai:1 vs ai:2: W/D/L 0/2/0, 50.0% (2 games)
    Elo difference: +0.0 +/- 0.0 (95%)
    The tiger side scored 50.0% of its games
    0
    """
    match = Match(config_from_args(args))
    config = match.config
    print(
        f"Match {match.names[0]} vs {match.names[1]} (老虎棋): {config.games} games, "
        f"{config.control}, rules {config.rules.name}, concurrency {config.concurrency}",
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
    for line in match.summary():
        print(line)
    return status

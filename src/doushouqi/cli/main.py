"""The ``doushouqi`` command: ``perft``, ``rules`` (and later ``play``, ``engine``, ``serve``).

Each subcommand is a small function registered in :data:`COMMANDS`, so other packages can add
theirs without touching the parser code.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path

from doushouqi.cli.tablebase import add_tablebase
from doushouqi.jungle.board import STARTING_FEN, Board
from doushouqi.jungle.rules import BUILTIN_RULE_SETS, RuleSet, check_rules_file, find_rules

__all__ = ["COMMANDS", "EXTRAS", "MissingExtraError", "main"]

#: The optional dependency group (``pip install 'doushouqi[EXTRA]'``) of each third-party
#: module a command may need (pyproject.toml's ``[project.optional-dependencies]``).
EXTRAS = {
    "rich": "tui",
    "numpy": "ai",
    "numba": "ai",
    "llvmlite": "ai",
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "websockets": "server",
    "sqlalchemy": "server",
    "alembic": "server",
    "argon2": "server",
    "psycopg": "server",
    "pydantic": "server",
    "httpx": "server",
    "prometheus_client": "server",
    "redis": "server",
    "gymnasium": "rl",
    "pettingzoo": "rl",
}


#: Where a command's own extra brings a module too (a worker machine installs ``worker``).
_COMMAND_EXTRAS = {
    "worker": {"numpy": "worker", "numba": "worker", "llvmlite": "worker", "redis": "worker"},
    "match": {"numpy": "ai", "numba": "ai"},
}


class MissingExtraError(RuntimeError):
    """A command needs a third-party module that is not installed."""

    def __init__(self, module: str, command: str) -> None:
        extra = _COMMAND_EXTRAS.get(command, {}).get(module) or EXTRAS.get(module, "")
        hint = f": pip install 'doushouqi[{extra}]'" if extra else ""
        super().__init__(
            f"doushouqi {command} needs {module}, which is not installed{hint}"
            + (f" (the '{extra}' extra)" if extra else "")
        )


def _require(command: str, *modules: str) -> None:
    """Raise MissingExtraError unless every module can be imported (checked without importing)."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(module, command)


def _version() -> str:
    try:
        return metadata.version("doushouqi")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def _position(text: str) -> str:
    return STARTING_FEN if text in ("startpos", "start") else text


def cmd_perft(args: argparse.Namespace) -> int:
    board = Board(_position(args.fen), args.rules)
    started = time.perf_counter()
    if args.divide:
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            count = board.perft(args.depth - 1)
            board.pop()
            total += count
            print(f"{move}: {count}")
        print()
    else:
        total = board.perft(args.depth)
    elapsed = time.perf_counter() - started
    print(total)
    if args.verbose:
        print(f"{elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} leaves/s", file=sys.stderr)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.check:
        problems = check_rules_file(args.check)
        for problem in problems:
            print(problem)
        if not problems:
            print(f"{args.check}: ok ({find_rules(args.check).name})")
        return 1 if problems else 0
    if args.name is None:
        for name, rules in BUILTIN_RULE_SETS.items():
            print(f"{name:15} {rules.description}")
        return 0
    rules = find_rules(args.name)
    print(f"# {rules.name}: {rules.description}")
    for key, value in rules.to_mapping().items():
        if key not in ("name", "description"):
            print(f"{key} = {_toml_value(value)}")
    return 0


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return f'"{value}"'


def _add_perft(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count leaf positions (move generator check)")
    p.add_argument("fen", help="position string, or 'startpos'")
    p.add_argument("depth", type=_non_negative, help="plies (0 or more)")
    p.add_argument("--rules", default="wango", help="rule set name or rule file")
    p.add_argument("--divide", action="store_true", help="print the count below each move")
    p.add_argument("-v", "--verbose", action="store_true", help="print time and speed")
    p.set_defaults(func=cmd_perft)


def _add_rules(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rules", help="list rule sets, show one, or check a rule file")
    p.add_argument("name", nargs="?", help="rule set name or rule file to show")
    p.add_argument("--check", metavar="FILE", help="validate a rule file, reporting each bad key")
    p.set_defaults(func=cmd_rules)


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # The terminal game needs rich: imported only when `play` runs, not for every command.
    p = sub.add_parser("play", help="play in the terminal, against the computer or hot-seat")

    def play(args: argparse.Namespace) -> int:
        _require("play", "rich")
        args.rules = _play_rules(args)
        from doushouqi.jungle.tui.play import run

        return run(args)

    from doushouqi.jungle.tui.options import add_play_arguments

    add_play_arguments(p)
    # None: not given, so that a loaded record's own rules apply without a warning.
    p.set_defaults(func=play, rules=None)


def _play_rules(args: argparse.Namespace) -> RuleSet:
    """The rules of ``doushouqi play``: a loaded record's own, else ``--rules`` (wango).

    A ``--rules`` that differs from the loaded record's rules is ignored with a warning; a
    record that cannot be read is an error that names the file."""
    given = find_rules(args.rules) if args.rules is not None else None
    if not args.load:
        return given or find_rules("wango")
    from doushouqi.jungle.record.model import read_record

    path = Path(args.load).expanduser()
    try:
        record = read_record(path.read_text(encoding="utf-8"))
        record.board()  # replays every move: an illegal one is reported here, with the file
    except OSError as exc:
        raise ValueError(f"--load {path}: cannot read it: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"--load {path}: not a text file") from None
    except ValueError as exc:
        raise ValueError(f"--load {path}: not a readable game record: {exc}") from None
    if given is not None and given != record.rules:
        print(
            f"doushouqi play: warning: --rules {args.rules} ignored: {path} is a game under "
            f"the {record.rules.name} rules, which it continues with",
            file=sys.stderr,
        )
    return record.rules


def _add_match(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # doushouqi.jungle.engine.match (asyncio, engine client) is imported only when `match` runs.
    p = sub.add_parser(
        "match",
        help="play two engines against each other and rate them",
        description=(
            "Engines: ai:LEVEL (ours, 1-10); 'uci:PROGRAM ARGS' or 'jcei:PROGRAM ARGS' (an "
            "engine speaking that dialect); 'cmd:PROGRAM ARGS' (detect: uci first, jcei "
            "when the engine stays silent for 3 s). Each move's score, depth and time go "
            "into the records as comments ({+0.35/9 0.102s}); the summary gives each "
            "engine's average and longest move time."
        ),
    )
    p.add_argument("first", metavar="A", help="engine: ai:LEVEL, 'uci|jcei|cmd:PROGRAM ARGS'")
    p.add_argument("second", metavar="B", help="the other engine, written the same way")
    p.add_argument(
        "--option-a",
        action="append",
        metavar="NAME=VALUE",
        help="setoption for A (repeatable), e.g. --option-a Hash=128",
    )
    p.add_argument("--option-b", action="append", metavar="NAME=VALUE", help="the same for B")
    p.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    p.add_argument(
        "--tc", default="0.1", help="seconds per move (0.1) or base+increment seconds (10+0.1)"
    )
    p.add_argument(
        "--tc-b", metavar="TC", help="B's time control where it differs from A's (time odds)"
    )
    p.add_argument("--concurrency", type=int, default=1, help="games played at once")
    p.add_argument("--openings", metavar="FILE", help="position strings or move lists, one a line")
    p.add_argument("--seed", type=int, default=2024, help="shuffle of the built-in openings")
    p.add_argument("--rules", default="wango", help="rule set name or rule file")
    p.add_argument("--records", metavar="DIR", help="write each game's record here")
    p.add_argument("--sprt", metavar="ELO0,ELO1,ALPHA,BETA", help="stop when the SPRT decides")
    p.add_argument(
        "--max-plies",
        type=int,
        default=None,
        help="adjudicate a draw after N plies (default: 400 under rules without a "
        "no-capture limit, such as wango; 1000 under those with one, whose own limit ends "
        "the games)",
    )

    def match(args: argparse.Namespace) -> int:
        from doushouqi.jungle.engine.match import run_match_command

        return run_match_command(args)

    p.set_defaults(func=match)


def _add_engine(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # The engine (numpy, numba) is imported only when `engine` runs.
    p = sub.add_parser(
        "engine",
        help="run the engine over stdin/stdout (UCI-like protocol)",
        description=ENGINE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    def engine(args: argparse.Namespace) -> int:
        _require("engine", "numpy", "numba")
        from doushouqi.jungle.ai.protocol import run_protocol

        return run_protocol()

    p.set_defaults(func=engine)


ENGINE_HELP = """\
The engine speaks a UCI-like protocol on stdin/stdout, one command a line (docs/engine.md):

  uci | jcei                  id, options, then uciok | jceiok (answered at once)
  isready                     readyok once the compiled search has loaded
  setoption name N value V    Rules (wango, classic, classic-dog, international or a rule
                              file), Level (1-10), Hash (MB), Contempt (cp), MultiPV, and
                              one option per rule field (rule_7_3, ranks, first_player ...)
  ucinewgame                  forget what was learnt
  position startpos|fen F [moves M ...]       0000 is a pass
  go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
     [movestogo N] [infinite] [ponder]      info lines, then bestmove M [ponder M]
  stop                        end the search now (bestmove follows)
  ponderhit                   the pondered reply was played: search on for the go limit
  perft N [divide]            leaf count (per move with divide)
  d                           the board, the rules and the position string
  quit

Example:  printf 'uci\\nisready\\nposition startpos\\ngo depth 8\\n' | doushouqi engine
"""


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # The web server (FastAPI, SQLAlchemy, uvicorn) is imported only when `serve` runs.
    p = sub.add_parser("serve", help="run the game server (web client, API, online play)")

    def serve(args: argparse.Namespace) -> int:
        from doushouqi.server.main import run_serve

        return run_serve(args)

    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument("--log-level", default="info", help="log level (info)")
    p.set_defaults(func=serve)


def _add_worker(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # AI worker processes taking search jobs from Redis (engine and redis-py, no web server).
    p = sub.add_parser("worker", help="search the game server's AI jobs, taken from Redis")

    def worker(args: argparse.Namespace) -> int:
        from doushouqi.server.ai.worker import run_worker_command

        return run_worker_command(args)

    from doushouqi.server.ai.worker import add_worker_arguments

    add_worker_arguments(p)
    p.set_defaults(func=worker)


def _add_explorer(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    # `doushouqi explorer rebuild`: the server's opening explorer (argparse only until it runs).
    from doushouqi.server.explorer.cli import add_command

    add_command(sub)


#: Subcommand registrars; each adds one subparser whose ``func`` runs it.
COMMANDS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    _add_perft,
    _add_rules,
    _add_play,
    _add_match,
    _add_engine,
    _add_serve,
    _add_worker,
    _add_explorer,
    add_tablebase,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="doushouqi", description="Jungle (斗兽棋) tools")
    parser.add_argument("--version", action="version", version=f"doushouqi {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except MissingExtraError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # A third-party module missing deeper down: name the extra that brings it.
        module = (exc.name or "").partition(".")[0]
        if module not in EXTRAS:
            raise
        print(f"error: {MissingExtraError(module, args.command)}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:  # bad positions, rule files, moves: a clear message
        print(f"doushouqi {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())

"""``doushouqi play``, ``match`` and ``engine``: the terminal game, engine matches, and the
engine on stdin/stdout. Each imports its heavy parts (rich, asyncio client, numba) only when it
runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from doushouqi.cli.engines import ENGINES, load
from doushouqi.cli.extras import Subcommands, require
from doushouqi.jungle.rules import RuleSet, find_rules

__all__ = ["add_engine", "add_match", "add_play", "play_rules"]


def add_play(sub: Subcommands) -> None:
    # The terminal game needs rich: imported only when `play` runs, not for every command.
    p = sub.add_parser("play", help="play in the terminal, against the computer or hot-seat")

    def play(args: argparse.Namespace) -> int:
        require("play", "rich")
        args.rules = play_rules(args)
        from doushouqi.jungle.tui.play import run

        return run(args)

    from doushouqi.jungle.tui.options import add_play_arguments

    add_play_arguments(p)
    # None: not given, so that a loaded record's own rules apply without a warning.
    p.set_defaults(func=play, rules=None)


def play_rules(args: argparse.Namespace) -> RuleSet:
    """The rules of ``doushouqi play``: a loaded record's own, else ``--rules`` (wango).

    A ``--rules`` that differs from the loaded record's rules is ignored with a warning; a
    record that cannot be read is an error that names the file."""
    given = find_rules(args.rules) if args.rules is not None else None
    if not args.load:
        return given or find_rules("wango")
    from doushouqi.jungle.record import read_record

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


def add_match(sub: Subcommands) -> None:
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
    p.add_argument(
        "--game",
        choices=tuple(ENGINES),
        default=next(iter(ENGINES)),
        help="the game the engines play (default jungle; ai:LEVEL is that game's engine)",
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
    p.add_argument(
        "--rules", default=None, help="rule set name or rule file (default: wango; laohuqi)"
    )
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
        engine = ENGINES[args.game]
        if args.rules is None:
            args.rules = engine.default_rules
        return load(engine.match)(args)

    p.set_defaults(func=match)


def add_engine(sub: Subcommands) -> None:
    # The engine (numpy, numba) is imported only when `engine` runs.
    p = sub.add_parser(
        "engine",
        help="run the engine over stdin/stdout (UCI-like protocol)",
        description=ENGINE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )

    p.add_argument(
        "--game",
        choices=tuple(ENGINES),
        default=next(iter(ENGINES)),
        help="the game to play: jungle (default) or tiger (老虎棋)",
    )

    def engine(args: argparse.Namespace) -> int:
        require("engine", "numpy", "numba")
        return load(ENGINES[args.game].protocol)()

    p.set_defaults(func=engine)


ENGINE_HELP = """\
The engine speaks a UCI-like protocol on stdin/stdout, one command a line (docs/engine.md):

  uci | jcei                  id, options, then uciok | jceiok (answered at once)
  isready                     readyok once the compiled search has loaded
  setoption name N value V    Rules (wango, classic, classic-dog, international or a rule
                              file), Level (1-10), Hash (MB), Contempt (cp), MultiPV, and
                              one option per rule field (rule_7_3, ranks, first_player ...)
  ucinewgame                  forget what was learnt
  position startpos|fen F [moves M ...]       0000 is a pass; a bad one leaves no position
  go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
     [movestogo N] [mate N] [searchmoves M ...] [infinite] [ponder]
                              info lines, then bestmove M [ponder M]; depth 0 or nodes 0:
                              one ply; a go with an error is refused (no bestmove)
  stop                        end the search or perft now (bestmove follows)
  ponderhit                   the pondered reply was played: search on for the go limit
  perft N [divide]            leaf count (per move with divide), N up to 15; in the
                              background like a search (isready answered, stop ends it)
  d                           the board, the rules and the position string
  quit

Example:  printf 'uci\\nisready\\nposition startpos\\ngo depth 8\\n' | doushouqi engine
prints every depth up to 8, then bestmove: the end of the input is a quit that first waits for
a search that ends by itself (depth, nodes, movetime or a clock); go infinite is stopped.

With --game tiger, the 老虎棋 engine (docs/engine.md, "老虎棋"): uci, isready, setoption,
ucinewgame, position, go (depth, nodes, movetime, wtime: the tiger side's clock, btime: the
men's, winc, binc, movestogo, mate, searchmoves, infinite, ponder: read and checked as
above), stop, ponderhit, perft, d and quit; its own
options (Rules laohuqi, laohuqi-18, laohuqi-strict, laohuqi-south; multi_jump, diagonals
...); moves such as e10e9 or e5e7e9. The example above works with --game tiger too.
"""

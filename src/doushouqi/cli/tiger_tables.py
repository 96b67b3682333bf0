"""``doushouqi tablebase tiger``: generate, check and probe the 老虎棋 endgame tables
(docs/engine-research.md, "The Tiger's endgame tables").

``generate`` needs the engine's extra (numpy, numba); ``check`` and ``probe`` run on the
standard library (``check`` uses the rules library's own moves).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from doushouqi.cli.extras import require
from doushouqi.tiger.board import Board
from doushouqi.tiger.points import Diagonals
from doushouqi.tiger.rules import RuleSet, rules_by_name
from doushouqi.tiger.tablebase.probe import (
    ENV_VAR,
    SUBFOLDER,
    probe,
    probe_moves,
    tablebase_directories,
)

__all__ = ["add_tiger_tables"]

DIAGONALS = [d.value for d in Diagonals]


def _default_out() -> Path:
    first = next((p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p), None)
    return (Path(first) if first else Path("tablebases")) / SUBFOLDER


def _directories(directory: str | None) -> list[Path]:
    """Where to look for tables: ``directory`` (a folder of family folders) first."""
    return tablebase_directories([directory] if directory else [])


def _rules(args: argparse.Namespace, diagonals: str | None = None) -> RuleSet:
    """The rule set named, with the table's men count as ``tiger_wins_below`` (a table is
    the game's when every capture wins) and the ``diagonals`` option asked for."""
    rules = rules_by_name(args.rules)
    changes: dict[str, Any] = {"tiger_wins_below": args.men}
    if diagonals is not None:
        changes["diagonals"] = Diagonals(diagonals)
    if getattr(args, "forward", False):
        changes["men_retreat"] = False
    return dataclasses.replace(rules, **changes)


def cmd_generate(args: argparse.Namespace) -> int:
    require("tablebase tiger generate", "numpy", "numba")
    from doushouqi.tiger.ai.tablebase.generate import generate_table

    out = Path(args.out) if args.out else _default_out()
    for diagonals in args.diagonals or [rules_by_name(args.rules).diagonals.value]:
        rules = _rules(args, diagonals)

        def level(n: int, decided: int) -> None:
            if args.levels:
                print(f"  ply {n}: {decided:,} decided", flush=True)

        started = time.perf_counter()
        report = generate_table(rules, args.men, out, progress=level)
        wall = time.perf_counter() - started
        header = report.header
        state = "kept" if report.resumed else f"solved in {report.seconds:.1f}s ({wall:.1f}s wall)"
        print(
            f"{report.path}: {report.positions:,} entries, {report.bytes:,} bytes, {state}; "
            f"longest distance {header.get('max_dtm')} plies"
        )
        for side in ("tiger_to_move", "men_to_move"):
            print(f"  {side.replace('_', ' ')}: {header.get(side)}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from doushouqi.tiger.tablebase.verify import (
        CheckReport,
        check_positions,
        decided_boards,
        random_board,
    )

    where = _directories(args.dir)
    rules = _rules(args, args.diagonals)
    rng = random.Random(args.seed)
    boards = [random_board(rng, rules, args.men) for _ in range(args.positions)]
    if args.decided:
        boards += decided_boards(rng, rules, args.men, args.decided, directories=where)
    started = time.perf_counter()
    report = CheckReport()
    try:
        check_positions(boards, args.depth, report, where)
    except ValueError as exc:  # a damaged table file
        print(f"doushouqi tablebase tiger check: {exc}", file=sys.stderr)
        return 2
    if report.positions == 0:
        print(f"no table of {args.men} men for {rules.name} (generate it first)", file=sys.stderr)
        return 2
    print(
        f"{report.positions} positions ({args.positions} random, the rest decided; "
        f"{rules.diagonals.value}, seed {args.seed}): {report.wins} wins, {report.draws} draws, "
        f"{report.losses} losses for the side to move; the search to {args.depth} plies "
        f"decided {report.search_decided}; {len(report.disagreements)} disagreements "
        f"({time.perf_counter() - started:.0f}s)"
    )
    for line in report.disagreements[:20]:
        print(f"  {line}")
    return 1 if report.disagreements else 0


def cmd_probe(args: argparse.Namespace) -> int:
    where = _directories(args.dir)
    rules = rules_by_name(args.rules)
    if args.diagonals:
        rules = dataclasses.replace(rules, diagonals=Diagonals(args.diagonals))
    board = Board(args.position, rules=rules)
    entry = probe(board, where)
    if entry is None:
        print("not covered (one tiger against as many men as tiger_wins_below, game on)")
        return 1
    print(f"Tablebase: {entry.describe(board.turn)}")
    for item in probe_moves(board, where) or []:
        value = item.value
        text = "draw" if value.wdl == 0 else f"{'win' if value.wdl > 0 else 'loss'} {value.dtm}"
        print(f"  {item.move}: {text}")
    return 0


def add_tiger_tables(actions: Any) -> None:
    """Register ``doushouqi tablebase tiger`` and its subcommands under ``actions`` (the
    ``tablebase`` command's subparsers)."""
    p = actions.add_parser("tiger", help="the 老虎棋 tables: generate, check, probe")
    tiger = p.add_subparsers(dest="tiger_action", required=True)

    g = tiger.add_parser("generate", help="solve and write the tiger against N men")
    g.add_argument("--men", type=int, default=4, help="men (4: the least the men win with)")
    g.add_argument("--rules", default="laohuqi", help="rule set (laohuqi)")
    g.add_argument(
        "--diagonals",
        nargs="+",
        choices=DIAGONALS,
        help="each diagonals option to solve (default: the rule set's)",
    )
    g.add_argument("--forward", action="store_true", help="men never step back")
    g.add_argument("--out", help=f"output folder (${ENV_VAR}'s first/tiger, else ./tablebases)")
    g.add_argument("--levels", action="store_true", help="a line per ply of the solve")
    g.set_defaults(func=cmd_generate)

    c = tiger.add_parser("check", help="compare a table with the rules library's moves")
    c.add_argument("--men", type=int, default=4, help="men (4)")
    c.add_argument("--rules", default="laohuqi", help="rule set (laohuqi)")
    c.add_argument("--diagonals", choices=DIAGONALS, help="diagonals option (the rule set's)")
    c.add_argument("--forward", action="store_true", help="men never step back")
    c.add_argument("--positions", type=int, default=1000, help="random positions (1000)")
    c.add_argument("--decided", type=int, default=200, help="and won or lost ones (200)")
    c.add_argument("--depth", type=int, default=3, help="search horizon in plies (3)")
    c.add_argument("--seed", type=int, default=1, help="random seed (1)")
    c.add_argument("--dir", help="table folder to check (first in the search path)")
    c.set_defaults(func=cmd_check)

    q = tiger.add_parser("probe", help="the table value of a position and its moves")
    q.add_argument("position", help="position string")
    q.add_argument("--rules", default="laohuqi", help="rule set (laohuqi)")
    q.add_argument("--diagonals", choices=DIAGONALS, help="diagonals option (the rule set's)")
    q.add_argument("--dir", help="table folder (first in the search path)")
    q.set_defaults(func=cmd_probe)

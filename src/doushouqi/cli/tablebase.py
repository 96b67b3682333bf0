"""``doushouqi tablebase``: generate, check and probe endgame tables (docs/engine.md); the
老虎棋 tables under ``doushouqi tablebase tiger`` (:mod:`doushouqi.cli.tiger_tables`).

``generate`` needs the engine's extra (numpy, numba); ``check`` and ``probe`` run on the
standard library (``check`` uses the rules library's own move generation).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from doushouqi.cli.extras import Subcommands, require
from doushouqi.cli.tiger_tables import add_tiger_tables
from doushouqi.jungle.board import Board
from doushouqi.jungle.tablebase.file_format import SUFFIX, out_of_scope_reason, parse_signature
from doushouqi.jungle.tablebase.probe import ENV_VAR, family_of, probe, probe_moves

__all__ = ["add_tablebase"]


def _default_out() -> Path:
    first = next((p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p), None)
    return Path(first) if first else Path("tablebases")


def _use_directory(directory: str | None) -> None:
    """Look for tables in ``directory`` first (for probe and check)."""
    if directory:
        os.environ[ENV_VAR] = os.pathsep.join(
            [directory, *[p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]]
        )


def _progress() -> Any:
    try:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        return None
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )


def cmd_generate(args: argparse.Namespace) -> int:
    require("tablebase generate", "numpy", "numba")
    from doushouqi.jungle.ai.tablebase.generate import JobReport, generate

    out = Path(args.out) if args.out else _default_out()
    progress = _progress()
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0, 0])
    task = None

    def on_report(report: JobReport, done: int, total: int) -> None:
        nonlocal task
        if not report.resumed:
            row = totals[report.animals]
            row[0] += 1
            row[1] += report.positions
            row[2] += report.seconds
            row[3] += report.bytes
        if progress is not None:
            if task is None:
                task = progress.add_task("tablebase", total=total)
            progress.update(task, total=total)
            label = "kept" if report.resumed else f"{report.seconds:.1f}s"
            progress.update(task, completed=done, description=f"{report.name} ({label})")
        elif not args.quiet:
            state = "kept" if report.resumed else f"{report.seconds:.2f}s {report.bytes} bytes"
            print(f"[{done}/{total}] {report.name}: {state}", flush=True)

    def on_level(job: str, level: int, changed: int) -> None:
        line = f"{job} (ply {level}: {changed:,} decided)"
        if progress is not None and task is not None:
            progress.update(task, description=line)
        if args.levels:
            (progress.console.print if progress is not None else print)(f"  {line}")

    started = time.perf_counter()
    only = args.only or ()
    low_memory = True if args.low_memory else None
    kwargs: dict[str, Any] = dict(
        jobs=args.jobs, only=only, cluster=args.cluster, reuse=not args.no_reuse,
        on_report=on_report, low_memory=low_memory, on_level=on_level,
    )  # fmt: skip
    if progress is not None:
        with progress:
            task = progress.add_task("tablebase", total=None)
            reports = generate(args.rules, args.animals, out, **kwargs)
    else:
        reports = generate(args.rules, args.animals, out, **kwargs)
    wall = time.perf_counter() - started
    kept = sum(r.resumed for r in reports)
    print(f"{len(reports)} jobs ({kept} already done) in {wall:.1f}s wall, into {out}")
    for animals, (jobs, positions, seconds, size, _) in sorted(totals.items()):
        print(
            f"  {animals} animals: {int(jobs)} jobs, {int(positions):,} positions, "
            f"{seconds:.1f}s job time, {int(size):,} bytes"
        )
    return 0


def _signatures(rules: str, max_animals: int) -> list[str]:
    from doushouqi.jungle.rules import find_rules
    from doushouqi.jungle.tablebase.probe import tablebase_directories

    family = family_of(find_rules(rules))
    found: set[str] = set()
    for directory in tablebase_directories():
        for path in (directory / str(family)).glob(f"*{SUFFIX}"):
            mover, opponent = parse_signature(path.stem)
            if len(mover) + len(opponent) <= max_animals:
                found.add(path.stem)
    return sorted(found)


def cmd_check(args: argparse.Namespace) -> int:
    from doushouqi.jungle.ai.tablebase.verify import CheckReport, check_positions, random_board
    from doushouqi.jungle.rules import find_rules

    _use_directory(args.dir)
    rules = find_rules(args.rules)
    reason = out_of_scope_reason(rules)
    if reason is not None or family_of(rules) is None:
        print(f"no tablebases for rules {rules.name!r}: {reason or 'no table folder'}")
        return 2
    signatures = _signatures(args.rules, args.animals)
    if args.tables:
        signatures = [s for s in signatures if s in set(args.tables)]
    if not signatures:
        print(f"no tables found for {rules.name} (generate them first)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    report = CheckReport()
    started = time.perf_counter()
    progress = _progress()
    step = 100
    if progress is not None:
        with progress:
            task = progress.add_task("check", total=args.positions)
            for start in range(0, args.positions, step):
                count = min(step, args.positions - start)
                boards = [random_board(rng, rng.choice(signatures), rules) for _ in range(count)]
                check_positions(boards, args.depth, report)
                progress.update(task, completed=report.positions)
    else:
        stream = (random_board(rng, rng.choice(signatures), rules) for _ in range(args.positions))
        check_positions(stream, args.depth, report)
    seconds = time.perf_counter() - started
    print(
        f"{report.positions} random positions of {len(signatures)} tables ({rules.name}, "
        f"seed {args.seed}): {report.wins} wins, {report.draws} draws, {report.losses} losses "
        f"for the side to move; the search to {args.depth} plies decided "
        f"{report.search_decided} (DTM compared); {len(report.disagreements)} disagreements "
        f"({seconds:.0f}s)"
    )
    for line in report.disagreements[:20]:
        print(f"  {line}")
    return 1 if report.disagreements else 0


def cmd_probe(args: argparse.Namespace) -> int:
    _use_directory(args.dir)
    board = Board(args.fen, rules=args.rules)
    entry = probe(board)
    if entry is None:
        reason = out_of_scope_reason(board.rules)
        print(f"not covered{f' ({reason})' if reason else ''}")
        return 1
    print(f"Tablebase: {entry.describe(board.turn)}")
    for item in probe_moves(board) or []:
        value = item.value
        text = "draw" if value.wdl == 0 else f"{'win' if value.wdl > 0 else 'loss'} {value.dtm}"
        print(f"  {item.move} {board.san(item.move)}: {text}")
    return 0


def add_tablebase(sub: Subcommands) -> None:
    """Register ``doushouqi tablebase`` and its subcommands."""
    p = sub.add_parser("tablebase", help="endgame tables: generate, check, probe")
    actions = p.add_subparsers(dest="action", required=True)

    g = actions.add_parser("generate", help="generate tables (resumable)")
    g.add_argument("--animals", type=int, default=3, help="largest animal count (3)")
    g.add_argument("--rules", default="wango", help="wango or international (wango)")
    g.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    g.add_argument("--out", help=f"output folder (${ENV_VAR}'s first, else ./tablebases)")
    g.add_argument("--only", nargs="+", metavar="SIG", help="just these jobs (e.g. ELvTP)")
    g.add_argument("--cluster", metavar="ADDRESS", help="run the jobs on this Ray cluster")
    g.add_argument("--quiet", action="store_true", help="no line per job without rich")
    g.add_argument(
        "--low-memory",
        action="store_true",
        help="solve every job by un-moves, 5 bytes an entry (default: the jobs above "
        "20 M entries, such as all of 5 animals)",
    )
    g.add_argument("--levels", action="store_true", help="a line per ply of each job")
    g.add_argument(
        "--no-reuse",
        action="store_true",
        help="make again the tables found in the search path (the shipped ones too)",
    )
    g.set_defaults(func=cmd_generate)

    c = actions.add_parser("check", help="compare tables with an independent search")
    c.add_argument("--rules", default="wango", help="rule set (wango)")
    c.add_argument("--positions", type=int, default=10000, help="random positions (10000)")
    c.add_argument("--depth", type=int, default=5, help="search horizon in plies, < 8 (5)")
    c.add_argument("--animals", type=int, default=4, help="largest animal count (4)")
    c.add_argument("--seed", type=int, default=1, help="random seed (1)")
    c.add_argument("--dir", help="table folder to check (first in the search path)")
    c.add_argument("--tables", nargs="+", metavar="SIG", help="only these tables (e.g. ELvEL)")
    c.set_defaults(func=cmd_check)

    q = actions.add_parser("probe", help="the table value of a position and its moves")
    q.add_argument("fen", help="position string")
    q.add_argument("--rules", default="wango", help="rule set (wango)")
    q.add_argument("--dir", help="table folder (first in the search path)")
    q.set_defaults(func=cmd_probe)

    add_tiger_tables(actions)

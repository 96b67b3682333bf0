"""Run the engine on the tactical test suite and report how many positions it solves.

    .venv/bin/python bench/tactics.py                     # 1 s per move, every position
    .venv/bin/python bench/tactics.py --movetime 0.2 --filter 'den[12]|trap' -v
    .venv/bin/python bench/tactics.py --tuning danger_moves=2,danger_guards=1

A position is solved when the engine's move is one of the suite's answers: a move of ``bm``
(every first move of the fastest forced win) or of ``sm`` (every move that avoids a forced
loss). The suite and its proofs: tests/jungle/ai/data/tactics.epd, tools/tactics/.

Time to solution: from the start of the search until the engine's reported best move (its
``on_info`` reports, when it takes that argument) became an answer and stayed one; without
reports, the wall time of the search. Each position starts with a fresh table. A win whose
reported score is a den distance other than the proven ``dm`` is listed as a mismatch.

Searcher interface: ``Searcher(rules)`` and ``engine.search(board, Limit(...), level=...)``
returning a :class:`doushouqi.jungle.analysis.PlayResult`.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import ModuleType

from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from load_tool import load_tool

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SUITE = ROOT / "tests" / "jungle" / "ai" / "data" / "tactics.epd"


def _load_suite_module() -> ModuleType:
    return load_tool("tactics", "suite")


def _engine_class() -> type:
    """``doushouqi.jungle.ai.Engine``, or exit with a message saying why it cannot be used."""
    try:
        from doushouqi.jungle.ai import Searcher  # type: ignore[attr-defined]
    except ImportError as exc:
        raise SystemExit(
            f"bench/tactics.py: the engine is not available yet "
            f"(from doushouqi.jungle.ai import Searcher failed: {exc}). "
            f"Install the 'ai' extra and make sure doushouqi.jungle.ai exports Searcher."
        ) from None
    return Searcher  # type: ignore[no-any-return]


class _SolutionClock:
    """Time to solution: since when the engine's reported best move has been an answer.

    Fed by the engine's ``on_info`` reports; without them the search's wall time is used.
    """

    def __init__(self, answers: tuple[str, ...]) -> None:
        self.answers = answers
        self.start = time.perf_counter()
        self.since: float | None = None

    def update(self, info: dict[str, object]) -> None:
        pv = info.get("pv")
        best = str(pv[0]) if isinstance(pv, list) and pv else None
        if best in self.answers:
            if self.since is None:
                self.since = time.perf_counter() - self.start
        else:
            self.since = None


def _takes_on_info(engine: object) -> bool:
    try:
        return "on_info" in inspect.signature(engine.search).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the engine on the tactical test suite.")
    parser.add_argument("--movetime", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--level", type=int, default=10, help="engine level (default 10)")
    parser.add_argument(
        "--filter", default=None, help="regular expression on ids, e.g. 'den3|defence'"
    )
    parser.add_argument("--suite", type=Path, default=DEFAULT_SUITE, help="the EPD file")
    parser.add_argument(
        "--evaluation", default=None, help="the engine's evaluation (classic, nnue)"
    )
    parser.add_argument(
        "--tuning",
        default="",
        help="search settings key=value,... of DEFAULT_TUNING (e.g. danger_moves=2)",
    )
    parser.add_argument(
        "--fail-under",
        type=float,
        default=None,
        metavar="PCT",
        help="exit with status 1 when fewer than PCT percent are solved",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list every position")
    args = parser.parse_args(argv)

    suite = _load_suite_module()
    entries = suite.read_suite(args.suite)
    if args.filter:
        pattern = re.compile(args.filter)
        entries = [e for e in entries if pattern.search(e.id)]
    if not entries:
        print("no positions match", file=sys.stderr)
        return 2

    engine_class = _engine_class()
    engines: dict[str, object] = {}
    limit = Limit(movetime=args.movetime)

    def engine_for(board: Board) -> object:
        name = board.rules.name
        if name not in engines:
            engine = engine_class(board.rules)
            if args.evaluation is not None:
                engine.evaluation = args.evaluation  # type: ignore[attr-defined]
            for item in args.tuning.split(","):
                if item.strip():
                    key, value = item.split("=", 1)
                    engine.tuning[key.strip()] = int(value)  # type: ignore[attr-defined]
            # Compile / warm up before timing anything.
            if hasattr(engine, "warm_up"):
                engine.warm_up()
            else:
                engine.search(Board(rules=board.rules), Limit(movetime=0.05), level=args.level)
            engines[name] = engine
        return engines[name]

    solved: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    solve_time: dict[str, float] = defaultdict(float)
    failures = []
    mismatches = []  # wins whose reported den distance differs from the proven dm
    for entry in entries:
        board = Board(entry.fen, entry.rules)
        engine = engine_for(board)
        if hasattr(engine, "new_game"):
            engine.new_game()  # positions are unrelated: no table carried over
        found = _SolutionClock(entry.moves)
        start = time.perf_counter()
        if _takes_on_info(engine):
            result = engine.search(board, limit, level=args.level, on_info=found.update)  # type: ignore[attr-defined]
        else:
            result = engine.search(board, limit, level=args.level)  # type: ignore[attr-defined]
        elapsed = time.perf_counter() - start
        move = str(result.move) if result.move is not None else "(none)"
        ok = move in entry.moves
        category = entry.category
        total[category] += 1
        if ok:
            solved[category] += 1
            solve_time[category] += found.since if found.since is not None else elapsed
        else:
            failures.append((entry, move))
        den = getattr((result.info or {}).get("score"), "den", None)
        if entry.kind == "win" and den is not None and den != entry.depth:
            mismatches.append((entry, den))
        if args.verbose:
            answer = ("bm " if entry.kind == "win" else "sm ") + " ".join(entry.moves)
            info = result.info or {}
            extra = f" score {info['score']}" if "score" in info else ""
            extra += f" depth {info['depth']}" if "depth" in info else ""
            print(
                f"{'ok  ' if ok else 'FAIL'} {entry.id:14s} {move:6s} ({answer})"
                f" {elapsed:5.2f} s{extra}",
                flush=True,
            )

    categories = [c for c in suite.CATEGORIES if total[c]] + sorted(
        c for c in total if c not in suite.CATEGORIES
    )
    print(f"\ntactical suite, movetime {args.movetime:g} s, level {args.level}")
    print(f"{'category':10s} {'solved':>9s} {'avg time':>9s}")
    for category in categories:
        avg = solve_time[category] / solved[category] if solved[category] else float("nan")
        print(f"{category:10s} {solved[category]:4d}/{total[category]:<4d} {avg:8.3f}s")
    all_solved, all_total = sum(solved.values()), sum(total.values())
    all_avg = sum(solve_time.values()) / all_solved if all_solved else float("nan")
    print(f"{'total':10s} {all_solved:4d}/{all_total:<4d} {all_avg:8.3f}s")
    if failures and not args.verbose:
        print("\nnot solved:")
        for entry, move in failures:
            answer = ("bm " if entry.kind == "win" else "sm ") + " ".join(entry.moves)
            print(f"  {entry.id:14s} played {move:6s} expected {answer}  [{entry.fen}]")
    if mismatches:
        print("\nreported den distance differs from the proven dm:")
        for entry, den in mismatches:
            print(f"  {entry.id:14s} engine den {den}, dm {entry.depth}  [{entry.fen}]")
    if args.fail_under is not None and 100 * all_solved < args.fail_under * all_total:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

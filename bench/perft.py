"""Perft speed: leaves per second of ``Board.perft`` (bulk counting at the last ply).

Usage: ``python bench/perft.py [--depth 5] [--rules international] [--fen START] [--runs 3]``.
From the start position under ``international`` the count is checked against the published
numbers of docs/rules.md section 6 (5,111,620 at depth 5).
"""

from __future__ import annotations

import argparse
import sys
import time

from doushouqi.jungle.board import STARTING_FEN, Board

#: Published start-position perft under ``international`` (docs/rules.md section 6).
KNOWN_START = {1: 24, 2: 576, 3: 12240, 4: 260099, 5: 5111620, 6: 100453636}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft speed of the doushouqi move generator.")
    parser.add_argument("--depth", type=int, default=5, help="plies to count (default 5)")
    parser.add_argument(
        "--rules",
        default="international",
        help="rule set name or .toml file (default international)",
    )
    parser.add_argument(
        "--fen",
        "--position",
        dest="fen",
        default=None,
        help="position string (default: the start position)",
    )
    parser.add_argument("--runs", type=int, default=3, help="timed runs; the best counts")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.runs < 1:
        parser.error("--depth and --runs must be at least 1")

    board = Board(args.fen, args.rules)
    is_start = board.board_fen() == Board(STARTING_FEN).board_fen() and board.turn == 0
    expected = KNOWN_START.get(args.depth) if is_start and args.rules == "international" else None
    best = float("inf")
    count = 0
    for _ in range(args.runs):
        start = time.perf_counter()
        count = board.perft(args.depth)
        best = min(best, time.perf_counter() - start)
    label = "start" if args.fen is None else args.fen
    print(
        f"perft {args.depth} {label} {board.rules.name}: {count} leaves in {best:.2f} s "
        f"= {count / best / 1e6:.2f} M leaves/s (best of {args.runs})"
    )
    if expected is not None and count != expected:
        print(f"WRONG COUNT: expected {expected}", file=sys.stderr)
        return 1
    if expected is not None:
        print(f"count checked against docs/rules.md: {expected}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

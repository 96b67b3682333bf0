"""How fast the opening explorer answers: fill its index from synthetic games, then time
queries of positions they reached.

    .venv/bin/python bench/explorer_query.py                      # 10,000 games, SQLite
    .venv/bin/python bench/explorer_query.py --games 2000 --queries 500
    DOUSHOUQI_DATABASE_URL=postgresql+psycopg://… .venv/bin/python bench/explorer_query.py

The games are random legal play with the rules library (the index keeps their first
explorer.MAX_PLIES plies, so that is all that is played), random results, players' average
ratings spread over 900-2500. The queries are ``explorer.query`` (what ``GET /api/explorer``
reads from the database) for positions the games reached: half from the first four plies,
where many games meet and a position has many moves, half deeper; each with a random minimum
rating. Printed: the time to fill the index, its rows, and the query time p50 / p99 / max
by kind of position (wall time, and the CPU time of the querying thread).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.db.database import Database
from doushouqi.server.explorer import service as explorer
from doushouqi.server.explorer.models import OpeningMoveRow


def random_game(rng: random.Random, rules_name: str) -> tuple[list[str], list[str]]:
    """A random opening: its moves and the position before each."""
    board = Board(None, BUILTIN_RULE_SETS[rules_name])
    moves, fens = [], []
    for _ in range(explorer.MAX_PLIES):
        legal = list(board.legal_moves)
        if not legal:  # 20 random plies from the start never reach a den; no move: over
            break
        move = rng.choice(legal)
        fens.append(board.fen())
        moves.append(str(move))
        board.push(move)
    return moves, fens


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    url = os.environ.get("DOUSHOUQI_DATABASE_URL")
    tmp = None
    if not url:
        tmp = tempfile.TemporaryDirectory()
        url = f"sqlite:///{Path(tmp.name) / 'explorer.sqlite3'}"
    db = Database(url)
    db.migrate()
    db.run_sync(lambda s: s.query(OpeningMoveRow).delete())

    started = time.perf_counter()
    reached: list[tuple[int, str]] = []
    pending: list[explorer.Entry] = []
    rules = BUILTIN_RULE_SETS["wango"]
    for n in range(args.games):
        moves, fens = random_game(rng, "wango")
        winner = rng.choice([0, 0, 1, 1, None])
        rating = rng.uniform(900, 2500)
        pending += explorer.game_entries(rules, moves, winner, rating)
        if fens:
            ply = rng.randrange(len(fens))
            reached.append((ply, fens[ply]))
        if len(pending) >= 20_000:
            db.run_sync(lambda s, batch=pending: explorer.store_entries(s, batch))
            pending = []
        if (n + 1) % 1000 == 0:
            print(f"\r{n + 1} games", end="", file=sys.stderr, flush=True)
    db.run_sync(lambda s: explorer.store_entries(s, pending))
    filled = time.perf_counter() - started
    rows = db.run_sync(lambda s: s.query(OpeningMoveRow).count())
    print(f"\rfilled the index from {args.games} games in {filled:.1f} s: {rows} rows")

    early = [fen for ply, fen in reached if ply < 4] or [Board().fen()]
    deep = [fen for ply, fen in reached if ply >= 4] or early
    times: dict[str, list[float]] = {"start": [], "plies 1-3": [], "plies 4-19": []}
    cpu: list[float] = []
    found = 0
    start = Board().fen()
    with db.sessions() as session:
        for i in range(args.queries):
            # One in ten: the start, where every game passes (the most moves and rows).
            kind = "start" if i % 10 == 0 else "plies 1-3" if i % 2 else "plies 4-19"
            fen = {"start": start, "plies 1-3": None, "plies 4-19": None}[kind]
            fen = fen or rng.choice(early if kind == "plies 1-3" else deep)
            floor = rng.choice(explorer.RATING_BANDS[:5])
            t0, c0 = time.perf_counter(), time.thread_time()
            moves = explorer.query(session, "wango", fen, floor)
            times[kind].append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            found += bool(moves)
    every = sorted(t for kind in times.values() for t in kind)
    print(f"{args.queries} queries ({found} with moves), {db.engine.dialect.name}:")
    # Wall time includes waits for the CPU on a busy machine; the thread's CPU time does not
    # (with SQLite the query runs in this thread; PostgreSQL's own work is not in it).
    for label, values in [*times.items(), ("all", every), ("all, CPU", cpu)]:
        values.sort()
        p = lambda q, v=values: v[min(len(v) - 1, int(q * len(v)))] * 1000  # noqa: E731
        print(
            f"  {label:>10}: {len(values):5} queries, p50 {p(0.5):6.2f} ms, p99 {p(0.99):6.2f} ms,"
            f" max {values[-1] * 1000:6.2f} ms, mean {statistics.fmean(values) * 1000:6.2f} ms"
        )
    db.close()
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())

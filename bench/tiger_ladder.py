"""The 老虎棋 engine's level ladder: each level against the one below it, in process.

    .venv/bin/python bench/tiger_ladder.py --games 24 --out tiger-ladder.jsonl
    .venv/bin/python bench/tiger_ladder.py --games 24 --out tiger-ladder.jsonl  # resumes

With ``--base N``, every level from ``--low`` to ``--high`` plays level N instead of the one
below it (how far each level is above a fixed opponent). Each pair plays ``--games`` games:
openings of a few random plies from the start, each played twice with the levels changing
sides (tiger, men). Levels 1-9 search at most their node budgets
(``doushouqi.tiger.ai.levels``), level 10 ``--nodes`` a move; ``--node-scale`` multiplies
every budget (the steps keep their ratios) to fit a slow or busy machine, and is printed
with the figures. Every finished game is appended to ``--out`` as a JSON line, and a run
with the same arguments skips the games already there, so a long ladder can be stopped and
resumed. Prints, per pair, the higher level's wins, draws and losses, its score and the Elo
difference with a 95% error bar, how the tiger side fared, and the average game length.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
from pathlib import Path

from doushouqi.core.match_stats import MatchScore, elo_estimate
from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.match import random_openings


def play(
    moves: list[str],
    engines: tuple[tuple[Searcher, int], tuple[Searcher, int]],
    limit: Limit,
    rules: str,
    max_plies: int,
) -> tuple[str, int, str]:
    """One game from an opening, ``engines`` by seat (tiger side first): the result (1-0:
    the tiger side won), the plies and how it ended."""
    board = Board(rules=rules)
    for text in moves:
        board.push_move(text)
    for engine, _ in engines:
        engine.new_game()
    while board.ply() < max_plies:
        outcome = board.outcome()
        if outcome is not None:
            return outcome.result(), board.ply(), outcome.key
        engine, level = engines[board.turn]
        result = engine.search(board, limit, level=level)
        assert result.move is not None
        board.push(result.move)
    return "1/2-1/2", board.ply(), "max_plies"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="games per pair (even)")
    parser.add_argument("--low", type=int, default=1)
    parser.add_argument("--high", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=400_000, help="level 10's nodes a move")
    parser.add_argument("--node-scale", type=float, default=1.0, help="times every budget")
    parser.add_argument("--rules", default="laohuqi")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300, help="a draw after N plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (threads)")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines, resumable")
    parser.add_argument("--base", type=int, default=None, help="every level against this one")
    args = parser.parse_args(argv)
    pairs = [(high, high - 1 if args.base is None else args.base)
             for high in range(args.low + (args.base is None), args.high + 1)
             if high != args.base]  # fmt: skip
    settings = {key: getattr(args, key) for key in
                ("nodes", "node_scale", "rules", "opening_plies", "max_plies", "seed")}  # fmt: skip
    limit = Limit(nodes=max(100, int(args.nodes * args.node_scale)))
    starts = random_openings((args.games + 1) // 2, args.opening_plies, args.rules, args.seed)
    done: dict[tuple[int, int, int], dict[str, object]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["settings"] == settings:
                low = row.get("low", row["high"] - 1)  # files of the first version
                done[(row["high"], low, row["game"])] = row
    jobs: queue.Queue[tuple[int, int, int]] = queue.Queue()
    for high, low in pairs:
        for game in range(args.games):
            if (high, low, game) not in done:
                jobs.put((high, low, game))
    print(f"tiger level ladder: {args.games} games per pair, {len(done)} already played, "
          f"level 10 at {limit.nodes} nodes, node scale {args.node_scale:g}, "
          f"rules {args.rules}", flush=True)  # fmt: skip
    lock = threading.Lock()
    started = time.perf_counter()

    def worker() -> None:
        engines: dict[int, Searcher] = {}
        while True:
            try:
                high, low, game = jobs.get_nowait()
            except queue.Empty:
                return
            for level in (high, low):
                if level not in engines:
                    engines[level] = Searcher(args.rules, hash_mb=16, seed=args.seed + level)
                    engines[level].node_scale = args.node_scale
            upper, lower = (engines[high], high), (engines[low], low)
            seats = (upper, lower) if game % 2 == 0 else (lower, upper)
            clock = time.perf_counter()
            result, plies, ending = play(starts[game // 2], seats, limit, args.rules,
                                         args.max_plies)  # fmt: skip
            row = {"settings": settings, "high": high, "low": low, "game": game, "upper_is_tiger":
                   game % 2 == 0, "result": result, "plies": plies, "ending": ending,
                   "seconds": round(time.perf_counter() - clock, 2)}  # fmt: skip
            with lock:
                done[(high, low, game)] = row
                if args.out is not None:
                    with args.out.open("a", encoding="utf-8") as file:
                        file.write(json.dumps(row) + "\n")

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.concurrency))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"{time.perf_counter() - started:.0f} s")
    for high, low in pairs:
        rows = [row for key, row in done.items() if key[:2] == (high, low)]
        if rows:
            print(f"L{high} vs L{low}: {summary(rows)}")
    return 0


def summary(rows: list[dict[str, object]]) -> str:
    score = MatchScore()
    tiger_points = 0.0
    for row in rows:
        tiger = {"1-0": 1.0, "0-1": 0.0}.get(str(row["result"]), 0.5)
        tiger_points += tiger
        score.add(tiger if row["upper_is_tiger"] else 1.0 - tiger)
    elo, margin = elo_estimate(score.wins, score.draws, score.losses)
    plies = sum(int(str(row["plies"])) for row in rows) / len(rows)
    return (f"+{score.wins} ={score.draws} -{score.losses}, score {100 * score.score:.1f}%, "
            f"Elo {elo:+.0f} ± {margin:.0f}; tiger side {100 * tiger_points / len(rows):.0f}%, "
            f"{plies:.0f} plies a game")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())

"""How many players against level 10 one core serves at full strength.

    .venv/bin/python bench/ai_capacity.py                          # 1 s a move, 10 s to think
    .venv/bin/python bench/ai_capacity.py --movetime 0.3 --players 10,20,30,40 --think 5

One embedded node (``doushouqi serve`` on SQLite) with **one** in-process AI worker (one engine
process: one core's worth of search) serves, one load after the other, N games against level
10 for each N of ``--players``. Each scripted human thinks ``--think`` seconds (±50 %) before
each move, as people do, then plays a random legal move; the server's AI answers with
``DOUSHOUQI_AI_MOVETIME = --movetime``. For each N it prints the AI's reply time (the human's
``move_made`` → the AI's), the time each search actually got (the server's
``doushouqi_ai_search_seconds``), how many searches were cut short (``ai_busy``: less than
90 % of the asked time) and the random fallbacks (always 0 while an engine runs).

A core serves N players at full strength while the searches keep their whole time: with
``t`` seconds a search and ``T`` to think, the engine is busy ``N·t / (T + t)`` of the time, so
about ``T/t + 1`` players fill it; the figures say where queueing starts to cut searches.
Admission control is raised out of the way (``DOUSHOUQI_AI_GAMES_PER_WORKER``), so that the
largest N is served and measured, not refused.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

from ai_load import AiLoad  # noqa: E402
from cluster_figures import Target, ms  # noqa: E402
from cluster_harness import Processes, bench_env, start_node, wait_ready  # noqa: E402
from cluster_load import _uvloop  # noqa: E402


def serve_one_load(args: argparse.Namespace, root: Path, players: int) -> dict[str, Any]:
    procs = Processes(root)
    try:
        env = bench_env(
            DOUSHOUQI_AI_WORKERS="1",
            DOUSHOUQI_AI_MOVETIME=str(args.movetime),
            DOUSHOUQI_AI_GAMES_PER_WORKER=str(10 * players),
        )
        url = start_node(procs, "node", env)
        wait_ready(procs, [url], args.setup_timeout)
        pids = {"node": [procs.started[0][1].pid]}
        target = Target("one core", url, [url], None, pids, [procs.root / "node.log"])
        print(f"\n{players} players, {args.think:g} s to think, AI {args.movetime:g} s a move")
        results = asyncio.run(AiLoad(args, target, players).run())
        procs.check_alive()
        return results
    finally:
        procs.stop_all()


def summary_row(players: int, args: argparse.Namespace, result: dict[str, Any]) -> str:
    replies = result["replies"]
    search = result["search"]
    searched = search["count"] or 1
    cut = result["reductions"] / searched
    full = search["mean"] / args.movetime if search["count"] else float("nan")
    return (
        f"| {players} | {len(replies)} | {ms(replies)} | {search['mean']:.3f} s "
        f"({full:.0%}) | {result['reductions']:.0f} ({cut:.0%}) | {result['fallbacks']:.0f} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="5,10,15,20", help="loads to try (5,10,15,20)")
    parser.add_argument("--movetime", type=float, default=1.0, help="the AI's seconds a move")
    parser.add_argument("--think", type=float, default=10.0, help="humans' mean seconds a move")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured a load")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--setup-timeout", type=float, default=120.0)
    args = parser.parse_args()
    loads = [int(n) for n in args.players.split(",")]
    if not all(1 <= n <= 200 for n in loads) or not 0.05 <= args.movetime <= 5:
        parser.error("--players must be 1-200 each and --movetime 0.05-5 s")
    if not 0.5 <= args.think <= 60 or not 1 <= args.duration <= 600:
        parser.error("--think must be 0.5-60 s and --duration 1-600 s")
    rows = []
    began = time.perf_counter()
    with _uvloop(), tempfile.TemporaryDirectory(prefix="doushouqi-ai-capacity-") as tmp:
        for players in loads:
            root = Path(tmp) / f"load-{players}"
            root.mkdir()
            rows.append(summary_row(players, args, serve_one_load(args, root, players)))
    print(
        f"\nOne engine process (one core), level 10 at {args.movetime:g} s a move, humans "
        f"thinking {args.think:g} s ±50 %, {args.duration:g} s measured a load:\n"
    )
    print("| players | AI replies | reply ms p50/p90/p99/max | search got (of asked) "
          "| cut short | random |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    print(f"\ntotal {time.perf_counter() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

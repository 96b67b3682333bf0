"""Two or more source trees' search speed, side by side: the same search, which one is faster.

    git archive main src | tar -x -C /tmp/before
    .venv/bin/python bench/search_pair.py before=/tmp/before/src after=src --rounds 10
    .venv/bin/python bench/search_pair.py before=/tmp/before/src after=src --rules classic
    .venv/bin/python bench/search_pair.py before=/tmp/before/src after=src --depth 9 \
        --evaluation nnue
    .venv/bin/python bench/search_pair.py before=/tmp/before/src after=src --game tiger --depth 14
    .venv/bin/python bench/search_pair.py before=/tmp/before/src after=src --history 60

Each tree gets a resident worker process (its own ``PYTHONPATH``, engine compiled and warmed
up first); each round, every position of ``bench/search.py`` (``--game tiger``:
``bench/tiger_search.py``, each under its own rule set) is searched to ``--depth`` by each
tree in turn, a fresh search each time, the order alternating from one search to the next, so a
change in the machine's load (other jobs on a shared machine) hits every tree alike. Printed:
each round's CPU seconds of the searching threads summed over the positions, then per tree the
nodes of the first round (a change that keeps the search the same keeps them), the median and
best round, and against the first tree the median of the per-round ratios and their range.
Single runs of ``bench/search.py`` one after the other vary by ±30 % on a loaded 2-core machine;
the per-round ratios here vary far less.

``--history N`` (Jungle) searches each position after N plies of random moves that capture
nothing (the same for every tree: a fixed seed per position), so that the search starts with a
game history since the last capture, as in a real game, which the repetition scan reads.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _with_history(board: Any, plies: int, seed: int) -> Any:
    """``board`` after ``plies`` random moves that capture nothing, enter no den and leave the
    game going (fewer where no such move is left)."""
    import random

    rng = random.Random(seed)
    for _ in range(plies):
        quiet = [
            move
            for move in board.legal_moves
            if not board.is_capture(move) and not board.gives_den_entry(move)
        ]
        rng.shuffle(quiet)
        for move in quiet:
            board.push(move)
            if not board.is_game_over():
                break
            board.pop()
        else:
            break
    return board


def _worker() -> None:
    """Read ``game index depth rules evaluation history`` lines; answer ``cpu_seconds nodes``
    each."""
    sys.path.insert(0, str(Path(__file__).parent))
    searchers: dict[tuple[str, str, str], Any] = {}
    for line in sys.stdin:
        game, index, depth, rules, evaluation, history = line.split()
        if game == "tiger":
            from doushouqi.tiger.ai import Searcher as TigerSearcher
            from doushouqi.tiger.analysis import Limit as TigerLimit
            from doushouqi.tiger.board import Board as TigerBoard
            from tiger_search import POSITIONS as TIGER_POSITIONS

            rules, text = TIGER_POSITIONS[int(index)]
            board: Any = TigerBoard(text, rules)
            limit: Any = TigerLimit(depth=int(depth))
            make: Any = TigerSearcher
        else:
            from doushouqi.jungle.ai import Searcher
            from doushouqi.jungle.analysis import Limit
            from doushouqi.jungle.board import Board
            from search import POSITIONS

            board, limit, make = (
                Board(POSITIONS[int(index)], rules),
                Limit(depth=int(depth)),
                Searcher,
            )
            board = _with_history(board, int(history), seed=int(index))
        searcher = searchers.get((game, rules, evaluation))
        if searcher is None:
            searcher = searchers[game, rules, evaluation] = make(rules, hash_mb=64)
            if game == "jungle":
                searcher.evaluation = evaluation
            searcher.warm_up()
        searcher.new_game()
        start = time.thread_time()
        result = searcher.search(board, limit)
        print(f"{time.thread_time() - start:.6f} {result.info['nodes']}", flush=True)


class _Tree:
    def __init__(self, label: str, src: str, nice: int) -> None:
        self.label = label
        env = dict(os.environ, PYTHONPATH=src)
        command = [sys.executable, __file__, "--worker"]
        if nice:
            command = ["nice", "-n", str(nice), *command]
        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.rounds: list[float] = []
        self.nodes = 0

    def search(self, request: str) -> tuple[float, int]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"{self.label}: the worker stopped (see its error above)")
        cpu, nodes = answer.split()
        return float(cpu), int(nodes)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        _worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", metavar="LABEL=SRC", help="a source tree to time")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--game", default="jungle", choices=("jungle", "tiger"))
    parser.add_argument("--rules", default="wango", help="Jungle's rule set")
    parser.add_argument("--evaluation", default="classic", choices=("classic", "nnue"))
    parser.add_argument("--nice", type=int, default=5, help="the workers' niceness (0: none)")
    parser.add_argument(
        "--history", type=int, default=0, help="Jungle: random plies without captures first"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    if args.game == "tiger":
        from tiger_search import POSITIONS
    else:
        from search import POSITIONS

    trees = []
    for spec in args.trees:
        label, sep, src = spec.partition("=")
        if not sep:
            parser.error(f"{spec!r}: expected LABEL=SRC")
        trees.append(_Tree(label, src, args.nice))
    try:
        for tree in trees:  # compile and warm up before anything is timed
            tree.search(f"{args.game} 0 1 {args.rules} {args.evaluation} {args.history}")
        for round_index in range(args.rounds):
            spent = dict.fromkeys((tree.label for tree in trees), 0.0)
            for index in range(len(POSITIONS)):
                order = trees if (round_index + index) % 2 == 0 else trees[::-1]
                for tree in order:
                    request = (
                        f"{args.game} {index} {args.depth} {args.rules} {args.evaluation}"
                        f" {args.history}"
                    )
                    cpu, nodes = tree.search(request)
                    spent[tree.label] += cpu
                    if round_index == 0:
                        tree.nodes += nodes
            for tree in trees:
                tree.rounds.append(spent[tree.label])
            shown = "  ".join(f"{label} {seconds:.2f}" for label, seconds in spent.items())
            print(f"round {round_index + 1}: {shown}  (load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        for tree in trees:
            tree.close()
    base = trees[0]
    for tree in trees:
        print(
            f"{tree.label}: nodes {tree.nodes:,}, CPU s median {statistics.median(tree.rounds):.3f}"
            f", best {min(tree.rounds):.3f}"
        )
    for tree in trees[1:]:
        ratios = [a / b for a, b in zip(base.rounds, tree.rounds, strict=True)]
        print(
            f"{base.label} / {tree.label}: {statistics.median(ratios):.3f}x (median of the rounds'"
            f" ratios; range {min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()

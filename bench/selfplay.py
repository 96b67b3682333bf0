"""In-process self-play: engine settings A against B, to measure a change or a level step.

    .venv/bin/python bench/selfplay.py --a level=10 --b level=9 --games 40 --movetime 0.05
    .venv/bin/python bench/selfplay.py --a lmr=0 --b lmr=1 --nodes 20000
    .venv/bin/python bench/selfplay.py --a params=tuned.json --b evaluation=classic --games 100

A side is a comma-separated list of ``key=value``: ``level`` (1-10), ``params`` (a JSON file
of evaluation weights, :mod:`doushouqi.jungle.ai.eval_params`), ``evaluation`` (the engine's
default ``auto``, the network at level 10 and the hand-tuned terms below; ``classic``;
``nnue``; a side given ``params`` searches with them, as ``classic``), ``evalfile`` (the
network's weight file), ``seed``, or any key of
``doushouqi.jungle.ai.tuning.DEFAULT_TUNING``, and ``nodes`` (that side's own budget a move,
whatever the match's limit). Each opening (the start position plus a few
random plies) is played twice, colours swapped. Games longer than ``--max-plies`` are drawn.
Prints A's wins/draws/losses, score and an Elo difference with a 95% error bar.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import threading
import time

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.eval_params import load_params
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.match import MatchScore, elo_estimate


def make_engine(spec: str, rules: str) -> tuple[Searcher, int]:
    """An engine and its level from a side's ``key=value,...`` description."""
    settings = dict(item.split("=", 1) for item in spec.split(",") if item.strip())
    params = load_params(settings.pop("params")) if "params" in settings else None
    seed = int(settings.pop("seed", "1"))
    level = int(settings.pop("level", "10"))
    engine = Searcher(rules, hash_mb=16, params=params, seed=seed)
    engine.network_file = settings.pop("evalfile", "")
    if "evaluation" in settings:  # else the engine's own: auto (classic when given params)
        engine.evaluation = settings.pop("evaluation")
    for key, value in settings.items():
        if key not in engine.tuning:
            raise SystemExit(f"unknown setting {key!r} (known: {', '.join(engine.tuning)})")
        engine.tuning[key] = int(value)
    return engine, level


def take_key(spec: str, key: str) -> tuple[str, str | None]:
    """A side's description without its ``key=…`` items, and the last one's value (None:
    none)."""
    items = [item for item in spec.split(",") if item.strip()]
    values = [i.split("=", 1)[1] for i in items if i.startswith(f"{key}=")]
    rest = ",".join(i for i in items if not i.startswith(f"{key}="))
    return rest, (values[-1] if values else None)


def own_limit(spec: str, limit: Limit) -> tuple[str, Limit]:
    """A side's description without its ``nodes=N`` (its own budget a move, whatever the
    match's limit: node odds), and the limit it plays with."""
    rest, nodes = take_key(spec, "nodes")
    return rest, (limit if nodes is None else Limit(nodes=int(nodes)))


def openings(count: int, plies: int, rules: str, seed: int) -> list[Board]:
    rng = random.Random(seed)
    found: list[Board] = []
    seen: set[str] = set()
    while len(found) < count:
        board = Board(rules=rules)
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over() and board.fen() not in seen:
            seen.add(board.fen())
            found.append(board)
    return found


@dataclasses.dataclass
class Effort:
    """What a side's searches took, summed over its moves: how much of a budget it used (an
    engine may stop early, e.g. ``easy_stop``)."""

    moves: int = 0
    nodes: int = 0
    seconds: float = 0.0

    def add(self, nodes: int, seconds: float) -> None:
        self.moves += 1
        self.nodes += nodes
        self.seconds += seconds

    def merge(self, other: Effort) -> None:
        self.moves += other.moves
        self.nodes += other.nodes
        self.seconds += other.seconds

    def __str__(self) -> str:
        moves = max(1, self.moves)
        return f"{self.nodes / moves:,.0f} nodes, {1000 * self.seconds / moves:.1f} ms a move"


def play(board: Board, red: tuple[Searcher, int], blue: tuple[Searcher, int],
         limit: Limit | tuple[Limit, Limit], max_plies: int,
         efforts: tuple[Effort, Effort] | None = None) -> float | None:  # fmt: skip
    """Red's score (1, 0.5, 0) of one game from ``board``, each side within ``limit`` (or
    Red's and Blue's own); with ``efforts``, each side's searches (Red's, Blue's) added to
    its own."""
    limits = limit if isinstance(limit, tuple) else (limit, limit)
    board = board.copy()
    for engine, _ in (red, blue):
        engine.new_game()
    while board.ply() < max_plies:
        outcome = board.outcome()
        if outcome is not None:
            return 0.5 if outcome.winner is None else 1.0 - outcome.winner
        engine, level = red if board.turn == 0 else blue
        started = time.perf_counter()
        result = engine.search(board, limits[board.turn], level=level)
        assert result.move is not None
        if efforts is not None:
            nodes = int(result.info.get("nodes", 0))
            efforts[board.turn].add(nodes, time.perf_counter() - started)
        board.push(result.move)
    return 0.5


def summary(score: MatchScore, seconds: float) -> str:
    """Wins, draws and losses, the score and the Elo difference with its 95% error bar (the
    match tool's estimate)."""
    difference, margin = elo_estimate(score.wins, score.draws, score.losses)
    return (
        f"+{score.wins} ={score.draws} -{score.losses}, score {100 * score.score:.1f}%, "
        f"Elo {difference:+.0f} ± {margin:.0f}, {seconds:.0f} s"
    )


def run_match(a: str, b: str, games: int, limit: Limit, *, rules: str = "wango",
              opening_plies: int = 4, max_plies: int = 300, seed: int = 1,
              concurrency: int = 1, verbose: bool = True,
              efforts: tuple[Effort, Effort] | None = None,
              ) -> tuple[MatchScore, float]:  # fmt: skip
    """Play ``games`` games of side A against side B (each opening twice, colours swapped):
    A's results and the seconds they took; with ``efforts``, A's and B's searches summed."""
    starts = openings((games + 1) // 2, opening_plies, rules, seed)
    jobs = [(board, a_red) for board in starts for a_red in (True, False)][:games]
    results = MatchScore()
    lock = threading.Lock()
    started = time.perf_counter()

    (a, a_limit), (b, b_limit) = own_limit(a, limit), own_limit(b, limit)

    def worker(worker_jobs: list[tuple[Board, bool]]) -> None:
        side_a = make_engine(a, rules)
        side_b = make_engine(b, rules)
        for board, a_red in worker_jobs:
            red, blue = (side_a, side_b) if a_red else (side_b, side_a)
            limits = (a_limit, b_limit) if a_red else (b_limit, a_limit)
            game_efforts = (Effort(), Effort())
            red_score = play(board, red, blue, limits, max_plies, game_efforts)
            assert red_score is not None
            with lock:
                results.add(red_score if a_red else 1 - red_score)
                if efforts is not None:
                    a_effort, b_effort = game_efforts if a_red else game_efforts[::-1]
                    efforts[0].merge(a_effort)
                    efforts[1].merge(b_effort)
                if verbose:
                    print(f"game {results.games:>3}: A {results.wins}-{results.draws}-"
                          f"{results.losses}", flush=True)  # fmt: skip

    threads = [
        threading.Thread(target=worker, args=(jobs[i::concurrency],))
        for i in range(max(1, concurrency))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - started


def limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every self-play benchmark shares: time control, rules, openings."""
    parser.add_argument("--games", type=int, default=20, help="games (even: pairs)")
    parser.add_argument("--movetime", type=float, default=None, help="seconds per move")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per move")
    parser.add_argument("--depth", type=int, default=None, help="depth per move")
    parser.add_argument("--rules", default="wango")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (threads)")


def limit_of(args: argparse.Namespace) -> Limit:
    if args.movetime is None and args.nodes is None and args.depth is None:
        args.movetime = 0.05
    return Limit(depth=args.depth, nodes=args.nodes, movetime=args.movetime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="", help="side A settings, e.g. level=10,lmr=0")
    parser.add_argument("--b", default="", help="side B settings")
    limit_arguments(parser)
    args = parser.parse_args(argv)
    limit = limit_of(args)
    efforts = (Effort(), Effort())
    result, seconds = run_match(
        args.a, args.b, args.games, limit, rules=args.rules, opening_plies=args.opening_plies,
        max_plies=args.max_plies, seed=args.seed, concurrency=args.concurrency, efforts=efforts,
    )  # fmt: skip
    print(f"A ({args.a or 'default'}) vs B ({args.b or 'default'}): {summary(result, seconds)}")
    print(f"A's searches: {efforts[0]}; B's: {efforts[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The learned evaluation against the hand-tuned one, side by side in one run: speed, then a
match at equal time.

    nice -n 10 .venv/bin/python bench/nnue.py --games 100 --movetime 0.05
    nice -n 10 .venv/bin/python bench/nnue.py --games 0            # speed only
    .venv/bin/python bench/nnue.py --evalfile /tmp/net.npz --games 40

Speed: the same positions (random openings of 6-16 plies) searched to a node budget by each
evaluation, each position by both one right after the other (so that the shared machine's
load weighs on both alike), each search with a fresh table, in several rounds: nodes per
second by round and the median ratio, and the static
evaluation's own cost (microseconds a call, the network from scratch, without the search's
incremental accumulators). Match: the level-10 engine with ``Evaluation=nnue`` (side A)
against the same engine with the classic evaluation (side B), each opening played with both
colours (bench/selfplay.py): A's wins, draws, losses, score and Elo with a 95% error bar.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from doushouqi.jungle.ai import Position, Searcher
from doushouqi.jungle.ai.eval_params import default_params
from doushouqi.jungle.ai.evaluate import evaluate
from doushouqi.jungle.ai.nnue import DEFAULT_NETWORK, evaluate_network, load_network, with_network
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board
from selfplay import limit_arguments, limit_of, run_match, summary


def positions(count: int, seed: int) -> list[Board]:
    """Random openings of 6-16 plies, none over."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board()
        for _ in range(rng.randint(6, 16)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            found.append(board)
    return found


def search_speeds(
    evalfile: str, boards: list[Board], nodes: int, rounds: int
) -> dict[str, list[float]]:
    """Nodes per second of level 10 with each evaluation, ``nodes`` a search: every round
    searches every board with both, one right after the other (the machine's load then
    weighs on both alike); one figure per round and evaluation."""
    engines = {}
    for evaluation in ("classic", "nnue"):
        engine = Searcher(hash_mb=16)
        engine.network_file = evalfile
        engine.evaluation = evaluation
        engine.warm_up()
        engines[evaluation] = engine
    speeds: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(rounds):
        totals = {name: [0, 0.0] for name in engines}
        for board in boards:
            for name, engine in engines.items():
                engine.new_game()
                started = time.perf_counter()
                result = engine.search(board, Limit(nodes=nodes))
                totals[name][1] += time.perf_counter() - started
                totals[name][0] += int(result.info["nodes"])
        for name, (count, seconds) in totals.items():
            speeds[name].append(count / seconds)
    return speeds


def eval_cost(evalfile: str, boards: list[Board], repeat: int) -> tuple[float, float]:
    """Microseconds a call of the classic evaluation and of the network from scratch."""
    classic = default_params()
    params = with_network(classic, load_network(evalfile or DEFAULT_NETWORK))
    states = [Position.from_board(b) for b in boards]
    evaluate(states[0].state, states[0].compiled_rules, classic)  # compiled before timing
    evaluate_network(states[0].state, params)
    started = time.perf_counter()
    for _ in range(repeat):
        for p in states:
            evaluate(p.state, p.compiled_rules, classic)
    classic_us = (time.perf_counter() - started) * 1e6 / (repeat * len(states))
    started = time.perf_counter()
    for _ in range(repeat):
        for p in states:
            evaluate_network(p.state, params)
    network_us = (time.perf_counter() - started) * 1e6 / (repeat * len(states))
    return classic_us, network_us


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit_arguments(parser)
    parser.add_argument("--evalfile", default="", help="network weight file (default: shipped)")
    parser.add_argument("--speed-positions", type=int, default=20)
    parser.add_argument("--speed-nodes", type=int, default=200_000)
    parser.add_argument("--speed-rounds", type=int, default=5)
    args = parser.parse_args(argv)
    boards = positions(args.speed_positions, args.seed)
    if args.speed_positions:
        speeds = search_speeds(args.evalfile, boards, args.speed_nodes, args.speed_rounds)
        for evaluation, figures in speeds.items():
            shown = " ".join(f"{nps / 1000:.0f}" for nps in figures)
            print(f"{evaluation:8s} knps by round: {shown} ({len(boards)} positions, "
                  f"{args.speed_nodes} nodes each)", flush=True)  # fmt: skip
        ratios = sorted(n / c for n, c in zip(speeds["nnue"], speeds["classic"], strict=True))
        print(
            f"nnue / classic nodes per second, median of {len(ratios)} rounds: "
            f"{ratios[len(ratios) // 2]:.2f} (range {ratios[0]:.2f}-{ratios[-1]:.2f})"
        )
        classic_us, network_us = eval_cost(args.evalfile, boards, 200)
        print(f"static evaluation: classic {classic_us:.2f} us, network from scratch "
              f"{network_us:.2f} us a call (Python call included)", flush=True)  # fmt: skip
    if args.games > 0:
        limit = limit_of(args)
        network = "evaluation=nnue" + (f",evalfile={args.evalfile}" if args.evalfile else "")
        score, seconds = run_match(
            network, "evaluation=classic", args.games, limit, rules=args.rules,
            opening_plies=args.opening_plies, max_plies=args.max_plies, seed=args.seed,
            concurrency=args.concurrency, verbose=False,
        )  # fmt: skip
        print(f"nnue (A) vs classic (B), {limit}: {summary(score, seconds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

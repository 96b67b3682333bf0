"""The learned evaluation against the hand-tuned one, side by side in one run: speed, then a
match at equal time.

    nice -n 10 .venv/bin/python bench/nnue.py --games 100 --movetime 0.05
    nice -n 10 .venv/bin/python bench/nnue.py --games 0            # speed only
    .venv/bin/python bench/nnue.py --evalfile /tmp/net.npz --games 40

Speed: the same positions (random openings of 6-16 plies) searched to a node budget by each
evaluation, one after the other, each with a fresh table: nodes per second, and the static
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


def search_speed(evaluation: str, evalfile: str, boards: list[Board], nodes: int) -> float:
    """Nodes per second of level 10 over ``boards``, ``nodes`` a search."""
    engine = Searcher(hash_mb=16)
    engine.network_file = evalfile
    engine.evaluation = evaluation
    engine.warm_up()
    total_nodes = 0
    total_time = 0.0
    for board in boards:
        engine.new_game()
        started = time.perf_counter()
        result = engine.search(board, Limit(nodes=nodes))
        total_time += time.perf_counter() - started
        total_nodes += int(result.info["nodes"])
    return total_nodes / total_time


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
    args = parser.parse_args(argv)
    boards = positions(args.speed_positions, args.seed)
    if args.speed_positions:
        for evaluation in ("classic", "nnue"):
            nps = search_speed(evaluation, args.evalfile, boards, args.speed_nodes)
            print(f"{evaluation:8s} {nps / 1000:7.0f} knps ({len(boards)} positions, "
                  f"{args.speed_nodes} nodes each)", flush=True)  # fmt: skip
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

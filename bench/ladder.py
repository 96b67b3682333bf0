"""The level ladder: each level 2-10 against the level below it, N games per pair.

    .venv/bin/python bench/ladder.py --games 100 --movetime 0.05

Levels are meant to be strict steps (``doushouqi.ai.levels``): each should beat the one below
it in a clear majority of games. Prints one line per pair (wins, draws, losses of the higher
level, its score and the Elo difference with a 95% error bar) and the smallest step's score.
"""

from __future__ import annotations

import argparse
import sys

from selfplay import limit_arguments, limit_of, run_match, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit_arguments(parser)
    parser.add_argument("--low", type=int, default=1, help="lowest level of the ladder")
    parser.add_argument("--high", type=int, default=10, help="highest level")
    args = parser.parse_args(argv)
    limit = limit_of(args)
    print(f"level ladder: {args.games} games per pair, go {limit}, rules {args.rules}", flush=True)
    scores = []
    for level in range(args.low + 1, args.high + 1):
        result, seconds = run_match(
            f"level={level}", f"level={level - 1}", args.games, limit, rules=args.rules,
            opening_plies=args.opening_plies, max_plies=args.max_plies, seed=args.seed,
            concurrency=args.concurrency, verbose=False,
        )  # fmt: skip
        scores.append(result.score)
        print(f"L{level} vs L{level - 1}: {summary(result, seconds)}", flush=True)
    print(f"smallest step: {100 * min(scores):.1f}% (all above 50%: {min(scores) > 0.5})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

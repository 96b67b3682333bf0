"""The level ladder: each level 2-10 against the level below it, N games per pair.

    .venv/bin/python bench/ladder.py --games 100 --concurrency 2

Levels are meant to be strict steps (``doushouqi.jungle.ai.levels``): each should beat the one below
it in a clear majority of games. Prints one line per pair (wins, draws, losses of the higher
level, its score and the Elo difference with a 95% error bar) and the smallest step's score.

Levels 1-9 search a fixed number of nodes, so they play the same on any machine at any load.
Level 10 uses all the time it gets; by default the ladder gives every move 2 million nodes,
less than level 10 searches in the server's 1 s a move on a free core (about 4 million), so
the level 10 step measured is a lower bound of the one players meet. ``--movetime`` or
``--depth`` replace that budget.
"""

from __future__ import annotations

import argparse
import sys

from selfplay import limit_arguments, limit_of, run_match, summary

#: Nodes a move at full strength by default: level 10 at about half of the server's 1 s.
FULL_STRENGTH_NODES = 2_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit_arguments(parser)
    parser.add_argument("--low", type=int, default=1, help="lowest level of the ladder")
    parser.add_argument("--high", type=int, default=10, help="highest level")
    args = parser.parse_args(argv)
    if args.movetime is None and args.depth is None and args.nodes is None:
        args.nodes = FULL_STRENGTH_NODES
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

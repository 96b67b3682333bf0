"""Training data of the learned evaluation: self-play positions with their search scores.

A thin, resumable wrapper around tools/tuning/generate.py (the same games, quiet positions and
result labels; ``scores=True`` adds each position's search score): games are played in chunks
of ``--chunk`` games, each chunk written to ``<output>/chunk-NNNN.txt.gz`` only once complete
(a temporary file renamed), so a run that is stopped goes on where it was when started again
with the same arguments. Chunk ``i`` holds games ``i * chunk`` on, and every game depends only
on ``--seed`` and its number: the data are the same however often the run was interrupted.

Defaults: level 10 (no evaluation noise: the score is the engine's own) at 8,000 nodes a move,
2-10 random first plies for variety, played with the engine's own weights (the tuned ones,
``--params``; the tuning tool's default, the hand-set weights it starts from, made a network
that lost to classic by 58 ± 44 Elo at equal nodes, where the same data played with the
tuned weights won by 108 ± 43). ``--random-rate`` replaces that share of the engine's moves
by random ones. ``--evaluation nnue`` plays with a network added to those weights (the
shipped one, or ``--evalfile``'s): its search scores are the labels of the next network
(docs/engine-research.md, third and fourth rounds: the network trained on the first two sets
below gained 23 ± 27 Elo at equal nodes from the third, 92 ± 28 from the third and fourth;
the shipped one, trained on the three sets of network games alone, beats that one by
67 ± 26). The sets, about 13 minutes a set of classic games and 36-60 of network games on
one core::

    G="nice -n 10 .venv/bin/python tools/nnue/generate.py --games 4000"
    $G --output /work/runs/nnue3/data
    $G --random-rate 0.1 --output /work/runs/nnue4/data
    $G --seed 32 --random-rate 0.05 --output /work/runs/nnue6/data
    N=src/doushouqi/jungle/ai/data/nnue.npz
    git show 1de0c77:$N > /tmp/net-1de0c77.npz
    git show 9d21517:$N > /tmp/net-9d21517.npz
    $G --seed 33 --random-rate 0.05 --evaluation nnue --evalfile /tmp/net-1de0c77.npz \\
        --output /work/runs/nnue7/data
    $G --seed 34 --random-rate 0.05 --evaluation nnue --evalfile /tmp/net-1de0c77.npz \\
        --output /work/runs/nnue8/data
    $G --seed 35 --random-rate 0.05 --evaluation nnue --evalfile /tmp/net-9d21517.npz \\
        --output /work/runs/nnue9/data

(``--evalfile`` names the network that plays, the one shipped before the set's network:
the labels are that network's, whatever the tree ships later.) ``train.py``, whose docstring
trains the shipped network from the last three sets, reads every ``chunk-*.txt.gz`` of a
folder it is given.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from load_tool import load_tool

from doushouqi.jungle.ai.eval_params import TUNED_PARAMS

generate = load_tool("tuning", "generate")


def chunk_path(output: Path, index: int) -> Path:
    """Where chunk ``index`` is written."""
    return output / f"chunk-{index:04d}.txt.gz"


def run(
    output: Path, settings: object, games: int, chunk: int, *, progress: bool = False
) -> dict[str, int]:
    """Play the chunks of ``games`` games not yet written to ``output``; returns counts of
    what this call played."""
    output.mkdir(parents=True, exist_ok=True)
    totals = {"chunks": 0, "games": 0, "positions": 0}
    started = time.perf_counter()
    for index in range((games + chunk - 1) // chunk):
        final = chunk_path(output, index)
        if final.exists():
            continue
        first = index * chunk
        partial = final.with_name(final.name + ".partial.gz")
        counts = generate.run(partial, settings, min(chunk, games - first), first=first)
        partial.rename(final)
        totals["chunks"] += 1
        totals["games"] += counts["games"]
        totals["positions"] += counts["positions"]
        if progress:
            elapsed = time.perf_counter() - started
            print(f"chunk {index}: {counts['positions']} positions "
                  f"({totals['games']} games this run, {elapsed:.0f} s)",
                  file=sys.stderr, flush=True)  # fmt: skip
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, required=True, help="folder of the chunks")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=25, help="games a chunk file")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--nodes", type=int, default=8000, help="nodes a move")
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--rules", default="wango")
    parser.add_argument("--min-random", type=int, default=2)
    parser.add_argument("--max-random", type=int, default=10)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument(
        "--params", default=str(TUNED_PARAMS), help="weights to play with (the engine's own)"
    )
    parser.add_argument("--random-rate", type=float, default=0.0, help="random moves' share")
    parser.add_argument(
        "--evaluation",
        choices=("classic", "nnue"),
        default="classic",
        help="what both sides search with (nnue: the network's scores as labels)",
    )
    parser.add_argument("--evalfile", default="", help="the network for nnue (default: shipped)")
    args = parser.parse_args(argv)
    settings = generate.GameSettings(
        rules=args.rules,
        seed=args.seed,
        nodes=args.nodes,
        level=args.level,
        min_random=args.min_random,
        max_random=args.max_random,
        max_plies=args.max_plies,
        params=args.params or None,
        scores=True,
        random_rate=args.random_rate,
        evaluation=args.evaluation,
        network_file=args.evalfile,
    )
    totals = run(args.output, settings, args.games, args.chunk, progress=True)
    print(f"{totals['chunks']} chunks, {totals['games']} games, "
          f"{totals['positions']} positions -> {args.output}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Why a won position was not converted: each failed game of a ``bench/conversion.py`` run,
judged move by move.

    .venv/bin/python bench/conversion.py --suite tests/jungle/ai/data/conversion_long.epd \\
        --positions 40 --workers 2 --json /tmp/long40.json
    .venv/bin/python bench/conversion_failures.py /tmp/long40.json --nodes 300000 --workers 2

A *judge* (level 10 at a fixed node budget, a fresh engine for every position: the same
answer on any machine under any load) scores the game's start and every position in which
the attacker (the side that was to convert) is to move, from the attacker's view. Each game
that was drawn or lost falls in one class:

* **not won by the judge**: the start scores below ``--won`` (default +600) — the suite's
  label is in doubt at this budget (a deeper search may still find the win);
* **blunder**: an attacker move, played at ``--won`` or more, loses at least ``--drop``
  (default 300) by the judge — the worst such move is printed (ply, move, the scores before
  and after; the judge is a shallow search, so a "blunder" may be a score it revised with
  the deeper look the next position gives);
* **slid away**: the score fell below ``--won`` with no single move losing ``--drop``;
* **no progress**: the judge still scores the attacker at ``--won`` or more where the game
  ended (by repetition, the no-capture limit or the ply cap): the attacker kept the win and
  did not make it happen — a search too shallow to see the way in, not a mistake it saw.

A mate score counts as ±100,000. Prints one line a game and the count per class; ``--json``
writes the classes and every judged score.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import sys
import time
from pathlib import Path

MATE = 100_000


def _cp(score: object) -> int:
    """A search score (``core.analysis.Score``) as centipawns, mates as ±:data:`MATE`."""
    mate = score.mate()  # type: ignore[attr-defined]
    if mate is not None:
        return MATE if mate > 0 else -MATE
    return int(score.score())  # type: ignore[attr-defined]


def judge_game(job: tuple[dict, int]) -> dict:
    """The judge's scores (attacker's view) at the start and before each attacker move."""
    from doushouqi.jungle.ai import analyse_fixed
    from doushouqi.jungle.board import Board

    game, nodes = job
    board = Board(game["fen"], rules=game["rules"])
    attacker = board.turn
    scores: list[tuple[int, str | None, int]] = []  # (ply from the start, move played, cp)
    moves = game["moves"].split()
    for ply, text in enumerate([*moves, None]):
        if board.turn == attacker and board.outcome() is None:
            result = analyse_fixed(board, nodes=nodes)
            score = result.info.get("score")
            if score is not None:
                scores.append((ply, text, _cp(score)))
        if text is None:
            break
        board.push_uci(text)
    return {**game, "judged": scores}


def classify(game: dict, won: int, drop: int) -> tuple[str, str]:
    """The class of a failed game and a few words on it."""
    scores = game["judged"]
    if not scores:
        return "not judged", "no position with the attacker to move"
    start = scores[0][2]
    if start < won:
        return "not won by the judge", f"start {start:+d}"
    drops = [
        (before - after, ply, move, before, after)
        for (ply, move, before), (_, _, after) in itertools.pairwise(scores)
        if before >= won
    ]
    worst = max(drops, default=None)
    if worst is not None and worst[0] >= drop:
        _, ply, move, before, after = worst
        return "blunder", f"ply {ply} {move}: {before:+d} -> {after:+d}"
    end = scores[-1][2]
    if end >= won:
        return "no progress", f"start {start:+d}, end {end:+d}"
    return "slid away", f"start {start:+d}, end {end:+d}, lowest {min(s for *_, s in scores):+d}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("results", type=Path, help="a conversion.py --json file")
    parser.add_argument("--nodes", type=int, default=300_000, help="the judge's budget")
    parser.add_argument("--won", type=int, default=600, help="a won score, centipawns")
    parser.add_argument("--drop", type=int, default=300, help="what a blunder loses at least")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="write the judged games")
    args = parser.parse_args(argv)

    games = [g for g in json.loads(args.results.read_text())["results"] if g["result"] != "won"]
    print(f"{len(games)} games not converted in {args.results}; judge {args.nodes} nodes")
    started = time.monotonic()
    judged: list[dict] = []
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers) as pool:
        for game in pool.imap_unordered(judge_game, [(g, args.nodes) for g in games]):
            judged.append(game)
            sys.stderr.write(f"\r{len(judged)}/{len(games)} judged   ")
            sys.stderr.flush()
    sys.stderr.write("\n")
    judged.sort(key=lambda g: g["index"])
    counts: dict[str, int] = {}
    for game in judged:
        kind, words = classify(game, args.won, args.drop)
        game["class"] = kind
        counts[kind] = counts.get(kind, 0) + 1
        print(f"{game['index']:4d} {game['result']:>5} by {game['reason']:<14} {kind}: {words}")
    print(", ".join(f"{kind} {n}" for kind, n in sorted(counts.items(), key=lambda kv: -kv[1])))
    print(f"{time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"results": str(args.results),
                                                               "json": str(args.json)},
                                         "games": judged}, indent=0))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Which side wins 老虎棋 with good play: level 10 against itself, per rule set and first mover.

    .venv/bin/python bench/tiger_balance.py --games 12 --nodes 100000 --out tiger-balance.jsonl
    .venv/bin/python bench/tiger_balance.py --cell laohuqi-south:men=18 --games 12  # one cell

A cell is a rule set (a name, or a name with options after a colon: ``laohuqi:first=men``,
``laohuqi-south:men=18``) played with each side moving first (``--first both``). Each game
starts from an opening of ``--opening-plies`` random moves (one list of openings per rule
set, so the two first movers share none: their starts differ) and goes on until the rules end
it — a trapped tiger, too few men, threefold repetition — or ``--max-plies``. Both sides are
level 10 at the same node budget a move (``--nodes``: the figures do not depend on the
machine's speed or load). Every game is appended to ``--out`` as a JSON line, and a run with
the same arguments skips the games already there.

Prints, per cell, the tiger side's wins, draws and the men's wins, the tiger side's score
with a 95 % error bar (the normal approximation over the games' points), the average game
length and how the games ended.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path
from typing import Any

from doushouqi.tiger.ai import Searcher
from doushouqi.tiger.analysis import Limit
from doushouqi.tiger.board import Board
from doushouqi.tiger.engine.match import random_openings
from doushouqi.tiger.rules import BUILTIN_RULE_SETS, RuleSet, rules_from_mapping

#: The tiger side's points by result (1-0: the tiger side won).
TIGER_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def parse_cell(text: str) -> RuleSet:
    """A rule set from ``name`` or ``name:option=value,option=value`` (whole numbers stay
    numbers); RulesError names a bad option."""
    name, _, options = text.partition(":")
    mapping: dict[str, Any] = {"parent": name}
    for item in filter(None, options.split(",")):
        key, _, value = item.partition("=")
        mapping[key.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return rules_from_mapping(text, mapping)


def play(rules: RuleSet, moves: list[str], engines: list[Searcher], limit: Limit,
         max_plies: int) -> tuple[str, int, str]:  # fmt: skip
    """One game of level 10 against itself (``engines`` by seat, the tiger side first): the
    result (1-0: the tiger side won), the plies and how it ended."""
    board = Board(rules=rules)
    for text in moves:
        board.push_move(text)
    for engine in engines:
        engine.new_game()
    while board.ply() < max_plies:
        outcome = board.outcome()
        if outcome is not None:
            return outcome.result(), board.ply(), outcome.key
        result = engines[board.turn].search(board, limit, level=10)
        assert result.move is not None
        board.push(result.move)
    return "1/2-1/2", board.ply(), "max_plies"


def summary(rows: list[dict[str, Any]]) -> str:
    """A cell's line: the tiger side's +wins =draws -losses, its score ± 95 %, plies, endings."""
    points = [TIGER_POINTS[row["result"]] for row in rows]
    count = len(points)
    mean = sum(points) / count
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / max(1, count - 1))
    margin = 1.96 * spread / math.sqrt(count)
    wins = points.count(1.0)
    losses = points.count(0.0)
    plies = sum(row["plies"] for row in rows) / count
    endings = ", ".join(f"{key} {n}" for key, n in Counter(r["ending"] for r in rows).items())
    score = f"{100 * mean:.1f}% ± {100 * margin:.1f}"
    draws = count - wins - losses
    return (
        f"tiger +{wins} ={draws} -{losses} of {count}: {score}; {plies:.0f} plies a game; {endings}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cell", action="append", default=None,
                        help="a rule set, with options after a colon (default: every named "
                        "set)")  # fmt: skip
    parser.add_argument("--first", choices=("both", "tiger", "men"), default="both")
    parser.add_argument("--games", type=int, default=12, help="games per cell and first mover")
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes a move, both sides")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=1000, help="a draw after N plies")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="JSON lines, resumable")
    args = parser.parse_args(argv)
    cells = args.cell or list(BUILTIN_RULE_SETS)
    firsts = ("tiger", "men") if args.first == "both" else (args.first,)
    settings = {key: getattr(args, key) for key in
                ("nodes", "opening_plies", "max_plies", "seed")}  # fmt: skip
    done: dict[tuple[str, str, int], dict[str, Any]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["settings"] == settings:
                done[(row["cell"], row["first"], row["game"])] = row
    limit = Limit(nodes=args.nodes)
    print(f"tiger balance: level 10 against itself at {args.nodes} nodes a move, "
          f"{args.games} games per cell and first mover, {len(done)} already played",
          flush=True)  # fmt: skip
    started = time.perf_counter()
    for cell in cells:
        for first in firsts:
            rules = parse_cell(f"{cell}{',' if ':' in cell else ':'}first={first}")
            engines = [Searcher(rules, hash_mb=32, seed=args.seed + seat) for seat in (0, 1)]
            starts = random_openings(args.games, args.opening_plies, rules, args.seed)
            for game, moves in enumerate(starts):
                if (cell, first, game) in done:
                    continue
                clock = time.perf_counter()
                result, plies, ending = play(rules, moves, engines, limit, args.max_plies)
                row = {"settings": settings, "cell": cell, "first": first, "game": game,
                       "result": result, "plies": plies, "ending": ending,
                       "seconds": round(time.perf_counter() - clock, 1)}  # fmt: skip
                done[(cell, first, game)] = row
                print(f"{cell} {first} first, game {game}: {result} {ending} {plies} plies",
                      flush=True)  # fmt: skip
                if args.out is not None:
                    with args.out.open("a", encoding="utf-8") as file:
                        file.write(json.dumps(row) + "\n")
    print(f"{time.perf_counter() - started:.0f} s")
    for cell in cells:
        for first in firsts:
            rows = [row for key, row in done.items() if key[:2] == (cell, first)]
            if rows:
                print(f"{cell}, {first} first: {summary(rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

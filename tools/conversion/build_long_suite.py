"""Build the long-game conversion suite (issue 31, point 2's second file): positions of
10–16 animals from real long games, the side to move ahead by at least ``--threshold``
centipawns after many plies of manoeuvring, each confirmed by a longer search.

    .venv/bin/python tools/conversion/build_long_suite.py /tmp/rep.jsonl /tmp/other.jsonl \
        --confirm 2 --workers 2

The games are the JSON lines of ``bench/repetition_draws.py`` (its start, moves and every
move's score from the mover's view). The first conversion suite (``build_suite.py``) holds
5–10-animal positions from self-play with inaccuracies; the engine converts those far more
often than positions of real games, where the side ahead has manoeuvred for a long time
without getting through. So a candidate here is a position of a game that
``--min-ply`` plies or more from the start, 10–16 animals (``--min-animals``,
``--max-animals``), where the game's own search gave the side to move at least
``--threshold`` cp (no den found), in a game that side did not win within ``--won-within``
plies (those it won soon after are no test). At most ``--per-game`` candidates a game,
``--spacing`` plies apart (the earliest). Each is searched afresh for ``--confirm`` seconds
(the position alone, its no-capture clock set to zero, as the first suite's): kept when the
last two finished depths both give the side to move at least ``--threshold`` (or a den win in
5 moves or more). No board comes twice. The positions are written in an order shuffled by
``--seed``, so that ``bench/conversion.py --positions N`` plays a fair sample of them.

Lines of the output (``tests/jungle/ai/data/conversion_long.epd``), the first suite's format
with the game's job number and ply::

    FEN;rules=wango;score=+912;depths=9,10;animals=13;game=17;ply=184

``bench/conversion.py --suite tests/jungle/ai/data/conversion_long.epd`` plays it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from load_tool import load_tool

builder = load_tool("conversion", "build_suite")

DEFAULT_OUTPUT = (
    Path(__file__).resolve().parents[2] / "tests" / "jungle" / "ai" / "data" / "conversion_long.epd"
)
#: A search score at or beyond this is a den found, not a lead (bench/repetition_draws.DEN_CP).
DEN_CP = 50_000


def candidates(game: dict, rules: str, options: argparse.Namespace) -> list[dict]:
    """The candidate positions of one game record (fen with a zero clock, rules, ply, animals,
    game, and ``cp``: the game's score for the side to move)."""
    from doushouqi.jungle.board import Board, Move

    board = Board(game["start"], rules=rules)
    start = board.ply()
    found: list[dict] = []
    for index, (uci, score) in enumerate(zip(game["moves"], game["scores"], strict=True)):
        ply = start + index
        mover = board.turn
        count = builder.animals(board)
        if (
            score is not None
            and options.threshold <= score < DEN_CP
            and ply >= options.min_ply
            and options.min_animals <= count <= options.max_animals
            and not _won_soon(game, mover, index, options.won_within)
            and all(ply - other["ply"] >= options.spacing for other in found)
        ):
            found.append({"fen": builder.fresh_fen(board.fen()), "rules": rules, "ply": ply,
                          "animals": count, "game": game["job"], "cp": score})  # fmt: skip
            if len(found) == options.per_game:
                break
        board.push(Move.from_uci(uci))
    return found


def _won_soon(game: dict, mover: int, index: int, within: int) -> bool:
    return game["winner"] == mover and len(game["moves"]) - index <= within


def confirm(job: tuple[dict, float, int]) -> dict | None:
    """A candidate with its confirming score, or None (see ``build_suite.confirm``)."""
    candidate, seconds, threshold = job
    return builder.confirm(candidate, seconds, threshold)  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("games", nargs="+", type=Path, help="bench/repetition_draws.py output")
    parser.add_argument("--threshold", type=int, default=600, help="centipawns ahead")
    parser.add_argument("--confirm", type=float, default=2.0, help="confirming search, seconds")
    parser.add_argument("--min-ply", type=int, default=60)
    parser.add_argument("--min-animals", type=int, default=10)
    parser.add_argument("--max-animals", type=int, default=16)
    parser.add_argument("--won-within", type=int, default=40, help="plies (see above)")
    parser.add_argument("--per-game", type=int, default=1)
    parser.add_argument("--spacing", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="the order of the positions")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    options = parser.parse_args(argv)
    todo: list[dict] = []
    for path in options.games:
        lines = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        rules = lines[0]["args"]["rules"]
        for game in sorted(lines[1:], key=lambda g: g["job"]):
            todo.extend(candidates(game, rules, options))
    print(f"{len(todo)} candidates from {len(options.games)} file(s)", flush=True)
    context = multiprocessing.get_context("spawn")
    with context.Pool(options.workers) as pool:
        confirmed = pool.map(confirm, [(c, options.confirm, options.threshold) for c in todo])
    kept: list[dict] = []
    for entry in confirmed:
        key = None if entry is None else builder.board_key(entry["fen"])
        if entry is not None and all(builder.board_key(e["fen"]) != key for e in kept):
            kept.append(entry)
    random.Random(options.seed).shuffle(kept)
    options.output.write_text("".join(builder.format_line(e) + "\n" for e in kept), "utf-8")
    reds = sum(1 for e in kept if e["fen"].split()[1] == "w")
    print(f"{len(kept)} of {len(todo)} confirmed in {options.output} "
          f"({reds} Red to move, {len(kept) - reds} Blue)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

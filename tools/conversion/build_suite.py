"""Build the conversion suite: won middlegame and endgame positions (5–10 animals) from
engine self-play, each confirmed won by a longer search.

    .venv/bin/python tools/conversion/build_suite.py --target 200 --seed 1 --workers 2

Game *g* (seeded by ``--seed`` and *g* only): 2–7 random plies from the start, then the
engine (level 10, ``--nodes`` a move) plays both sides for at most 240 plies; odd games are
played under ``classic`` rules (no-capture limit, 7-3 / 17-5, must-vary repetition), even
ones under ``wango``. While more than 6 animals are left, a side plays 15% of its moves from
the 2nd–6th lines of a depth-3 MultiPV search (none that loses a den): material changes
hands while the dens hold, as between engines of unequal strength (equal engines rarely get
below 11 animals: the stronger side enters the den first).

A position is a candidate when it has 5–10 animals, the endgame tables do not cover it, and
the game's search gave the side to move at least ``--threshold`` centipawns (not a den
already found: those are tactics, not conversions). At most three candidates a game, at
least 10 plies apart, are confirmed by a search of ``--confirm`` seconds: kept when its last
two finished depths both give the side to move ≥ ``--threshold`` cp (or a den win in 5
moves or more). Positions are written with a zero no-capture clock (a fresh start),
deduplicated by board and side to move, and no animal count takes more than
``--max-share`` of the suite.

Lines of the output (``tests/jungle/ai/data/conversion.epd``)::

    FEN;rules=wango;score=+912;depths=9,10;animals=8;game=17;ply=84

The command is resumable: the games already played are listed in ``OUTPUT.progress`` and a
rerun continues after them (same seed), until ``--target`` positions are kept or
``--games`` games are played.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_OUTPUT = (
    Path(__file__).resolve().parents[2] / "tests" / "jungle" / "ai" / "data" / "conversion.epd"
)


def board_key(fen: str) -> str:
    """Board and side to move (the FEN without its move counters)."""
    return " ".join(fen.split()[:2])


def animals(board: object) -> int:
    return sum(1 for code in board.piece_codes() if code)  # type: ignore[attr-defined]


def fresh_fen(fen: str) -> str:
    """The FEN with a zero no-capture clock and move number 1."""
    parts = fen.split()
    return " ".join([*parts[:2], "0", "1"])


def inaccuracy(engine: object, board: object, rng: random.Random, fresh: bool = False) -> object:
    """An engine-played inaccuracy: one of the 2nd-6th lines of a depth-3 MultiPV search that
    does not lose a den (``fresh``: nor makes a position the game has had), at random; None
    when there is none."""
    from doushouqi.jungle.analysis import Limit

    lines: dict[int, object] = {}

    def keep(info: object) -> None:
        lines[info.get("multipv", 1)] = info  # type: ignore[attr-defined]

    engine.search(board, Limit(depth=3), multipv=6, on_info=keep)  # type: ignore[attr-defined]
    others = [
        info["pv"][0]  # type: ignore[index]
        for k, info in sorted(lines.items())
        if k > 1 and info["score"].mate() is None  # type: ignore[index]
    ]
    if fresh:
        others = [move for move in others if not repeats(board, move)]
    return rng.choice(others) if others else None


def repeats(board: object, move: object) -> bool:
    """Whether ``move`` brings back a position the game has had."""
    board.push(move)  # type: ignore[attr-defined]
    try:
        return board.repetition_count() >= 2  # type: ignore[attr-defined,no-any-return]
    finally:
        board.pop()  # type: ignore[attr-defined]


def play_game(
    game: int,
    seed: int,
    nodes: int,
    threshold: int | None,
    *,
    rules: str | None = None,
    min_animals: int = 5,
    max_animals: int = 10,
    keep: int = 3,
    spacing: int = 10,
    noise: float = 0.15,
    noisy_above: int = 6,
    max_plies: int = 240,
    vary: bool = False,
) -> list[dict]:
    """Self-play game ``game``: its candidate positions (dicts with fen, rules, ply, animals,
    game, and ``cp``: the game's search score for the side to move).

    ``threshold`` None takes every position whose search found no den, whatever its score
    (the endgame suite, ``build_endgames.py``); ``rules`` None alternates classic (odd games)
    and wango (even). While more than ``noisy_above`` animals are left, a share ``noise`` of
    the moves are inaccuracies; the game stops after ``max_plies``. With ``vary`` an engine
    move that brings back a position of the game is replaced by an inaccuracy that does not
    (wango ends a game at the third repetition: this keeps it going). At most ``keep``
    candidates, ``spacing`` plies apart, are returned. The defaults are the conversion
    suite's: its games (the same random draws) are unchanged."""
    from doushouqi.jungle.ai import Searcher
    from doushouqi.jungle.analysis import Limit
    from doushouqi.jungle.board import Board
    from doushouqi.jungle.tablebase.probe import probe

    rng = random.Random(seed * 1_000_003 + game)
    if rules is None:
        rules = "classic" if game % 2 else "wango"
    board = Board(rules=rules)
    for _ in range(rng.randint(2, 7)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    engine = Searcher(rules, hash_mb=16, seed=game)
    candidates = []
    while not board.is_game_over() and board.ply() < max_plies:
        if rng.random() < noise and animals(board) > noisy_above:
            # An inaccuracy, so material changes hands while the dens hold.
            move = inaccuracy(engine, board, rng)
            if move is not None:
                board.push(move)
                continue
        result = engine.search(board, Limit(nodes=nodes))
        score = result.info.get("score")
        count = animals(board)
        if (
            score is not None
            and score.moves is None
            and score.cp is not None
            and (threshold is None or score.cp >= threshold)
            and min_animals <= count <= max_animals
        ):
            try:
                covered = probe(board) is not None
            except Exception:  # a table missing or unreadable: not covered
                covered = False
            if not covered:
                candidates.append(
                    {"fen": fresh_fen(board.fen()), "rules": rules, "ply": board.ply(),
                     "animals": count, "game": game, "cp": score.cp}
                )  # fmt: skip
        move = result.move
        if vary and repeats(board, move):
            move = inaccuracy(engine, board, rng, fresh=True) or move
        board.push(move)
    # At most `keep`, at least `spacing` plies apart, chosen at random.
    rng.shuffle(candidates)
    chosen: list[dict] = []
    for candidate in candidates:
        if all(abs(candidate["ply"] - other["ply"]) >= spacing for other in chosen):
            chosen.append(candidate)
        if len(chosen) == keep:
            break
    return chosen


def last_scores(fen: str, rules: str, seconds: float) -> tuple[list[int], list[object]] | None:
    """A search of ``seconds`` from ``fen``: its last two finished depths and their scores
    (for the side to move), or None when fewer than two depths finished."""
    from doushouqi.jungle.ai import Searcher
    from doushouqi.jungle.analysis import Limit
    from doushouqi.jungle.board import Board

    board = Board(fen, rules=rules)
    engine = Searcher(rules, hash_mb=64)
    scores: dict[int, object] = {}

    def keep(info: object) -> None:
        if "depth" in info and "score" in info:  # type: ignore[operator]
            scores[info["depth"]] = info["score"]  # type: ignore[index]

    # The whole time: a position's score is what it confirms, not a move to play soon.
    engine.search(board, Limit(movetime=seconds), on_info=keep, whole_time=True)
    depths = sorted(scores)[-2:]
    if len(depths) < 2:
        return None
    return depths, [scores[d] for d in depths]


def score_text(score: object) -> str:
    """``D7`` (a den win in 7 own moves), ``D-4`` (lost in 4) or centipawns ``+912``."""
    den = score.moves  # type: ignore[attr-defined]
    return f"D{den}" if den is not None else f"{score.cp:+d}"  # type: ignore[attr-defined]


def confirm(candidate: dict, seconds: float, threshold: int) -> dict | None:
    """The candidate with its confirming score, or None when the long search disagrees."""
    found = last_scores(candidate["fen"], candidate["rules"], seconds)
    if found is None:
        return None
    depths, last_two = found

    def won(score: object) -> bool:
        den = score.moves  # type: ignore[attr-defined]
        if den is not None:
            return den >= 5
        return score.cp >= threshold  # type: ignore[attr-defined,no-any-return]

    if not all(won(score) for score in last_two):
        return None
    kept = {k: v for k, v in candidate.items() if k != "cp"}
    return {**kept, "score": score_text(last_two[-1]), "depths": f"{depths[0]},{depths[1]}"}


def job(args: tuple[int, int, int, int, float]) -> tuple[int, list[dict]]:
    game, seed, nodes, threshold, seconds = args
    kept = []
    for candidate in play_game(game, seed, nodes, threshold):
        confirmed = confirm(candidate, seconds, threshold)
        if confirmed is not None:
            kept.append(confirmed)
    return game, kept


def format_line(entry: dict) -> str:
    return (
        f"{entry['fen']};rules={entry['rules']};score={entry['score']};depths={entry['depths']};"
        f"animals={entry['animals']};game={entry['game']};ply={entry['ply']}"
    )


def parse_line(line: str) -> dict:
    """One suite line as a dict: fen, rules, score, depths, animals, game, ply."""
    fen, *fields = line.strip().split(";")
    entry: dict = {"fen": fen}
    for field in fields:
        key, _, value = field.partition("=")
        entry[key] = int(value) if key in ("animals", "game", "ply") else value
    return entry


def read_suite(path: str | Path) -> list[dict]:
    lines = Path(path).read_text("utf-8").splitlines() if Path(path).exists() else []
    return [parse_line(line) for line in lines if line.strip() and not line.startswith("#")]


def progress(done: int, total: int, kept: int, target: int, started: float) -> None:
    width = 30
    filled = int(width * min(1.0, kept / max(1, target)))
    elapsed = time.monotonic() - started
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {kept}/{target} positions, "
        f"{done}/{total} games, {elapsed:.0f} s"
    )
    sys.stderr.flush()


def collect(
    output: Path,
    games: int,
    job: Callable[[Any], tuple[int, list[dict]]],
    job_args: Callable[[int], Any],
    accept: Callable[[dict, list[dict]], bool],
    target: int,
    workers: int,
    line: Callable[[dict], str] = format_line,
) -> list[dict]:
    """Play the games ``0 .. games-1`` not yet listed in ``OUTPUT.progress`` (``job(job_args(g))``
    in a pool of ``workers`` spawned processes, in order) and append each position a game
    returns that ``accept(entry, entries so far)`` takes to ``output``, until ``target``
    positions are kept; a progress bar on stderr. Returns every entry of the suite (those of
    earlier runs first). ``job`` must be importable by the workers (a module-level function)."""
    progress_file = output.with_name(output.name + ".progress")
    entries = read_suite(output)
    done_games = (
        {int(x) for x in progress_file.read_text().split()} if progress_file.exists() else set()
    )
    todo = [g for g in range(games) if g not in done_games]
    output.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool, output.open("a", encoding="utf-8") as out, \
            progress_file.open("a", encoding="utf-8") as prog:  # fmt: skip
        progress(len(done_games), games, len(entries), target, started)
        for game, kept in pool.imap(job, [job_args(g) for g in todo]):
            for entry in kept:
                if len(entries) >= target:
                    break
                if not accept(entry, entries):
                    continue
                entries.append(entry)
                out.write(line(entry) + "\n")
                out.flush()
            prog.write(f"{game}\n")
            prog.flush()
            done_games.add(game)
            progress(len(done_games), games, len(entries), target, started)
            if len(entries) >= target:
                pool.terminate()
                break
    sys.stderr.write("\n")
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--target", type=int, default=200, help="positions to keep")
    parser.add_argument("--games", type=int, default=1000, help="most games to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=6000, help="self-play nodes a move")
    parser.add_argument("--threshold", type=int, default=800, help="centipawns for a won position")
    parser.add_argument("--confirm", type=float, default=1.0, help="confirming search, seconds")
    parser.add_argument(
        "--max-share", type=float, default=0.3, help="most of the suite one animal count may take"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    cap = max(1, int(args.target * args.max_share))

    def accept(entry: dict, entries: list[dict]) -> bool:
        # No board twice, and no animal count over its share.
        key = board_key(entry["fen"])
        same_count = sum(1 for e in entries if e["animals"] == entry["animals"])
        return same_count < cap and all(board_key(e["fen"]) != key for e in entries)

    entries = collect(
        args.output,
        args.games,
        job,
        lambda g: (g, args.seed, args.nodes, args.threshold, args.confirm),
        accept,
        args.target,
        args.workers,
    )
    per_count: dict[int, int] = {}
    for e in entries:
        per_count[e["animals"]] = per_count.get(e["animals"], 0) + 1
    reds = sum(1 for e in entries if e["fen"].split()[1] == "w")
    blues = len(entries) - reds
    print(f"{len(entries)} positions in {args.output} ({reds} Red to move, {blues} Blue)")
    print("by animals: " + ", ".join(f"{k}: {per_count[k]}" for k in sorted(per_count)))
    by_rules: dict[str, int] = {}
    for e in entries:
        by_rules[e["rules"]] = by_rules.get(e["rules"], 0) + 1
    print("by rules: " + ", ".join(f"{k}: {v}" for k, v in sorted(by_rules.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

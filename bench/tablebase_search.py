"""The endgame tables inside the search: time to the exact result with and without them.

    .venv/bin/python bench/tablebase_search.py --tables /work/tablebases
    .venv/bin/python bench/tablebase_search.py --tables DIR --positions 12 --seconds 10

Two sets of positions, each searched with the tables (``Searcher.use_tablebase``) and without,
a fresh table each time, until ``--seconds`` (``go movetime``):

* **4 animals**, random positions of the 4-animal tables found in ``--tables`` (decided, DTM
  9-60 plies). The search probes only the shipped <= 3-animal tables (captures lead there);
  the right result is the 4-animal table's.
* **5 animals** whose side to move has one animal and only captures (the opponent's animals
  stand on all its targets): the right result follows from the 4-animal tables after each
  capture. The search probes the shipped tables and those of ``--tables``.

Printed per position: the exact result, and for each side the seconds and depth of the first
iteration whose score is that result exactly (``den N``), or ``-`` when none did in time;
then how many were found, and the total seconds over the positions both found. Figures are
from one run; timing on a shared machine is noisy, compare the two columns of one run.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from doushouqi.jungle.ai import Searcher
from doushouqi.jungle.ai.search_driver import score_from_internal
from doushouqi.jungle.ai.tablebase.memory import loaded_tables, most_animals
from doushouqi.jungle.ai.tablebase.verify import random_board
from doushouqi.jungle.analysis import DEN_SCORE, Info, Limit, Score
from doushouqi.jungle.board import Board
from doushouqi.jungle.fen import placement_fen
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.squares import BLUE, DENS, RED, WATER, piece_code
from doushouqi.jungle.tablebase.probe import ENV_VAR, probe, shipped_directory

Result = tuple[int, int]  # (1 win / -1 loss for the side to move, DTM plies)
Case = tuple[Board, Result]


def exact_score(result: Result) -> Score:
    wdl, dtm = result
    return score_from_internal(DEN_SCORE - dtm if wdl > 0 else -(DEN_SCORE - dtm))


def four_animal_positions(rng: random.Random, directory: Path, count: int) -> list[Case]:
    names = sorted(
        p.stem for p in (directory / "wango").glob("*.dsqtb") if len(p.stem) == 5
    )  # "ELvEL": four letters and the v
    found: list[Case] = []
    where = [directory, shipped_directory()]
    for _ in range(100_000):
        if len(found) == count or not names:
            break
        board = random_board(rng, rng.choice(names), "wango")
        entry = probe(board, where)
        if entry is None or entry.wdl == 0 or not 9 <= (entry.dtm or 0) <= 60:
            continue
        found.append((board, (entry.wdl, entry.dtm or 0)))
    return found


def _hemmed_in(rng: random.Random, enemies_beyond: int) -> Board | None:
    turn = rng.choice((RED, BLUE))
    animal = rng.randint(1, 8)
    square = rng.randrange(63)
    if square in DENS or (animal != 1 and WATER >> square & 1):
        return None
    far = 62 if square < 31 else 0
    codes = [0] * 63
    codes[square], codes[far] = piece_code(turn, animal), piece_code(1 - turn, 1)
    lone = Board(f"{placement_fen(codes)} {'wb'[turn]}")
    targets = sorted({m.to_square for m in lone.generate_legal_moves()} - {far})
    if not 1 <= len(targets) <= 3 or any(t in DENS for t in targets):
        return None
    enemies = rng.sample(range(1, 9), len(targets) + enemies_beyond)
    codes[far] = 0
    for enemy, target in zip(enemies, targets, strict=False):
        codes[target] = piece_code(1 - turn, enemy)
    for enemy in enemies[len(targets) :]:
        free = [s for s in range(63) if s not in DENS and not codes[s]]
        codes[rng.choice([s for s in free if enemy == 1 or not WATER >> s & 1])] = piece_code(
            1 - turn, enemy
        )
    try:
        board = Board(f"{placement_fen(codes)} {'wb'[turn]}")
    except ValueError:
        return None
    moves = list(board.generate_legal_moves())
    if board.outcome() is not None or not moves or not all(board.is_capture(m) for m in moves):
        return None
    return board


def _by_captures(board: Board, where: list[Path]) -> Result | None:
    best: Result | None = None
    for move in list(board.generate_legal_moves()):
        board.push(move)
        try:
            outcome = board.outcome()
            if outcome is not None and outcome.termination is not Termination.NO_LEGAL_MOVES:
                value = (1, 1)
            else:
                entry = probe(board, where)
                if entry is None:
                    return None
                value = (-entry.wdl, (entry.dtm or 0) + 1 if entry.wdl else 0)
        finally:
            board.pop()
        if best is None or (value[0], -value[1] * value[0]) > (best[0], -best[1] * best[0]):
            best = value
    return best


def five_animal_positions(rng: random.Random, directory: Path, count: int) -> list[Case]:
    where = [directory, shipped_directory()]
    found: list[Case] = []
    for _ in range(300_000):
        if len(found) == count:
            break
        board = _hemmed_in(rng, 2)
        if board is None:
            continue
        value = _by_captures(board, where)
        if value is None or value[0] == 0 or value[1] < 9:
            continue
        found.append((board, value))
    return found


def time_to_result(
    engine: Searcher, board: Board, result: Result, seconds: float
) -> tuple[tuple[float, int] | None, int]:
    """(seconds, depth) of the first iteration scoring ``result`` exactly, or None; tbhits."""
    target = exact_score(result)
    hit: list[tuple[float, int]] = []
    started = time.perf_counter()

    def on_info(info: Info) -> None:
        if not hit and info.get("score") == target:
            hit.append((time.perf_counter() - started, info.get("depth", 0)))

    engine.new_game()
    answer = engine.search(board, Limit(movetime=seconds), on_info=on_info)
    return (hit[0] if hit else None), answer.info.get("tbhits", 0)


def run(label: str, engine: Searcher, positions: list[Case], seconds: float) -> None:
    print(f"\n{label}: {len(positions)} positions, {seconds:g} s each")
    print(f"{'position':<44} {'exact':>9} {'with tables':>16} {'without':>16}")
    # Seconds to the exact result per position, with and without the tables (None: not found).
    times: list[list[float | None]] = []
    hits = 0
    for board, result in positions:
        row: list[float | None] = []
        cells = []
        for use in (True, False):
            engine.use_tablebase = use
            found, tbhits = time_to_result(engine, board, result, seconds)
            hits += tbhits if use else 0
            row.append(None if found is None else found[0])
            cells.append("-" if found is None else f"{found[0]:.2f}s d{found[1]}")
        times.append(row)
        wins = "win" if result[0] > 0 else "loss"
        print(f"{board.fen():<44} {wins:>4} {result[1]:>4} {cells[0]:>16} {cells[1]:>16}")
    engine.use_tablebase = True
    for column, name in ((0, "with tables"), (1, "without")):
        count = sum(1 for row in times if row[column] is not None)
        print(f"{name}: exact result found in {count}/{len(positions)}")
    both = [(row[0], row[1]) for row in times if row[0] is not None and row[1] is not None]
    if both:
        on = sum(t for t, _ in both if t is not None)
        off = sum(t for _, t in both if t is not None)
        print(f"found by both ({len(both)}): {on:.2f} s with tables, {off:.2f} s without")
    print(f"tbhits with tables: {hits}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = os.environ.get(ENV_VAR, "/work/tablebases").split(os.pathsep)[0]
    parser.add_argument("--tables", type=Path, default=Path(default), help="4-animal tables")
    parser.add_argument("--positions", type=int, default=12, help="per set (12)")
    parser.add_argument("--seconds", type=float, default=10.0, help="per search (10)")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    os.environ.pop(ENV_VAR, None)  # the search gets exactly the directories named here
    if most_animals([args.tables], "wango") < 4:
        raise SystemExit(f"no 4-animal tables in {args.tables / 'wango'}")
    rng = random.Random(args.seed)
    engine = Searcher(hash_mb=64, seed=1)
    engine.warm_up()
    loaded_tables([shipped_directory()], "wango")  # loaded before the clock runs
    run("4 animals (search probes the <= 3-animal tables)", engine,
        four_animal_positions(rng, args.tables, args.positions), args.seconds)  # fmt: skip
    engine.tablebase_paths = [str(args.tables)]
    loaded_tables([args.tables, shipped_directory()], "wango")
    run("5 animals, only captures (search probes the <= 4-animal tables)", engine,
        five_animal_positions(rng, args.tables, args.positions), args.seconds)  # fmt: skip


if __name__ == "__main__":
    main()

"""Texel tuning of the evaluation weights on labelled positions (from ``generate.py``).

The error of a weight vector is the mean of ``(result - sigmoid(K * eval))**2`` over the
positions, where ``eval`` is the engine's static evaluation from Red's side (the compiled
:func:`doushouqi.jungle.ai.evaluate.evaluate_batch`: the tuner evaluates exactly what the engine
does) and ``result`` the game's outcome (1, 0.5, 0 for Red). Steps:

1. fit ``K`` for the starting weights (golden-section search on ``log K``); it then stays
   fixed, which pins the scale of the weights;
2. coordinate descent, the classic Texel local search: each tunable *unit* (one weight, or a
   piece-square pair tied to its mirror square) is moved by ``+step`` or ``-step`` and the
   move kept when the error drops; passes repeat until none helps, then the step halves
   (``--steps``). Units are visited in a seeded random order.

A share of the games (``--validation``) is held out: a pass after which their error rises is
undone and the tuner goes on with the next step (the data of one game are correlated, so the
split is by game). Bounds keep every weight sane and material ordered
(cat < dog < wolf < leopard < tiger < lion < elephant; the rat is only bounded, since the
defaults value it above the cat on purpose).

Groups (``--groups``, comma-separated): ``material``, ``rat``, ``tempo``, ``traps``,
``attack``, ``pst``, ``mobility``, ``threats`` (the last two make the evaluation generate
moves: slower to tune and to play).

Run from the repository root::

    nice .venv/bin/python tools/tuning/texel.py tools/tuning/data/positions.txt.gz \\
        --groups material,pst --output /tmp/tuned.json

It starts from the hand-set weights (or ``--start``), prints the error before and after, and
writes a JSON file of the weights that differ from the hand-set ones
(``doushouqi.jungle.ai.eval_params.load_params`` fills in the rest). The engine's defaults are such
a file: ``src/doushouqi/jungle/ai/data/tuned_params.json``.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import numpy as np

from doushouqi.jungle.ai.eval_params import (
    ANIMAL_KEYS,
    DEN_DISTANCE,
    P_ATTACK_TABLE,
    P_ATTACK_WEIGHT,
    P_GUARD_WEIGHT,
    P_HANGING_SECOND,
    P_HANGING_SINGLE,
    P_MATERIAL,
    P_MOBILITY,
    P_PST,
    P_RAT_BLOCKS_JUMP,
    P_RAT_VS_ELEPHANT,
    P_TEMPO,
    P_THREAT_ON_MOVE,
    P_TRAP_OPEN,
    P_TRAP_OPEN_ADJACENT,
    PARAM_NAMES,
    hand_set_params,
    load_params,
)
from doushouqi.jungle.ai.evaluate import evaluate_batch
from doushouqi.jungle.ai.state import S_TURN, STATE_SIZE, new_state
from doushouqi.jungle.ai.tables import compile_rules
from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import DENS

GROUPS = ("material", "rat", "tempo", "traps", "attack", "pst", "mobility", "threats")


# ----------------------------------------------------------------------------- data


@dataclasses.dataclass
class Dataset:
    """Positions as engine states (one row each), their results for Red, and their games."""

    rules: str
    states: np.ndarray  # (n, STATE_SIZE) int64
    results: np.ndarray  # (n,) float64: 1, 0.5, 0
    games: np.ndarray  # (n,) int64: a game number unique over all files read

    def __len__(self) -> int:
        return len(self.results)

    @property
    def compiled_rules(self) -> np.ndarray:
        return compile_rules(Board(rules=self.rules).rules)

    def subset(self, rows: np.ndarray) -> Dataset:
        return Dataset(self.rules, self.states[rows], self.results[rows], self.games[rows])


def make_dataset(
    fens: Sequence[str], results: Sequence[float], games: Sequence[int], rules: str = "wango"
) -> Dataset:
    """A data set from position strings (parsed by the rules library)."""
    states = np.empty((len(fens), STATE_SIZE), dtype=np.int64)
    for row, fen in enumerate(fens):
        board = Board(fen, rules)
        states[row] = new_state(board.piece_codes(), board.turn, board.halfmove_clock)
    return Dataset(
        rules,
        states,
        np.asarray(results, dtype=np.float64),
        np.asarray(games, dtype=np.int64),
    )


def _open_text(path: Path) -> TextIO:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _header_rules(line: str) -> str | None:
    for field in line[1:].split():
        if field.startswith("rules="):
            return field.split("=", 1)[1]
    return None


def read_positions(paths: Sequence[Path]) -> Dataset:
    """Read ``FEN<TAB>result<TAB>game`` files (gzip when named ``*.gz``); all one rule set."""
    fens: list[str] = []
    results: list[float] = []
    games: list[int] = []
    rules: str | None = None
    offset = 0
    for path in paths:
        last = -1
        with _open_text(Path(path)) as text:
            for line in text:
                if line.startswith("#"):
                    found = _header_rules(line)
                    if found is not None:
                        if rules is not None and found != rules:
                            raise SystemExit(f"{path}: rules {found}, other files {rules}")
                        rules = found
                    continue
                fen, result, game = line.rstrip("\n").split("\t")
                fens.append(fen)
                results.append(float(result))
                games.append(offset + int(game))
                last = max(last, int(game))
        offset += last + 1
    return make_dataset(fens, results, games, rules or "wango")


# ------------------------------------------------------------------------------ error


def red_evals(data: Dataset, params: np.ndarray, rules: np.ndarray | None = None) -> np.ndarray:
    """Static evaluation of every position, from Red's side (centipawns, float64)."""
    out = np.empty(len(data), dtype=np.int64)
    evaluate_batch(data.states, data.compiled_rules if rules is None else rules, params, out)
    sign = 1 - 2 * data.states[:, S_TURN]
    return (out * sign).astype(np.float64)


def error_of(evals: np.ndarray, results: np.ndarray, k: float) -> float:
    """Mean squared error of the logistic prediction ``sigmoid(k * eval)``."""
    predicted = 1.0 / (1.0 + np.exp(-k * evals))
    return float(np.mean((results - predicted) ** 2))


def fit_k(evals: np.ndarray, results: np.ndarray, low: float = 1e-5, high: float = 0.1) -> float:
    """The ``k`` minimising :func:`error_of` (golden-section search on log k)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = math.log(low), math.log(high)
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc = error_of(evals, results, math.exp(c))
    fd = error_of(evals, results, math.exp(d))
    for _ in range(60):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = error_of(evals, results, math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = error_of(evals, results, math.exp(d))
    return math.exp((a + b) / 2)


class Objective:
    """The error of weight vectors on one data set at a fixed ``k`` (counts its calls)."""

    def __init__(self, data: Dataset, k: float) -> None:
        self.data = data
        self.k = k
        self.rules = data.compiled_rules
        self.calls = 0

    def __call__(self, params: np.ndarray) -> float:
        self.calls += 1
        if len(self.data) == 0:
            return 0.0
        return error_of(red_evals(self.data, params, self.rules), self.data.results, self.k)


# ------------------------------------------------------------------------------ units


@dataclasses.dataclass(frozen=True)
class Unit:
    """Weights that move together by the same step, within bounds."""

    name: str
    indices: tuple[int, ...]
    low: int
    high: int
    max_step: int = 1 << 30


def _mirror(square: int) -> int:
    return square // 7 * 7 + 6 - square % 7


def make_units(groups: Sequence[str], *, mirror: bool = True) -> list[Unit]:
    """The tunable units of the named groups, with their bounds."""
    unknown = sorted(set(groups) - set(GROUPS))
    if unknown:
        raise ValueError(f"unknown group(s) {', '.join(unknown)} (known: {', '.join(GROUPS)})")
    units: list[Unit] = []

    def single(index: int, low: int, high: int, max_step: int = 1 << 30) -> None:
        units.append(Unit(PARAM_NAMES[index], (index,), low, high, max_step))

    if "material" in groups:
        for rank in range(1, 9):
            single(P_MATERIAL + rank, 50, 3000)
    if "rat" in groups:
        single(P_RAT_VS_ELEPHANT, 0, 600)
        single(P_RAT_BLOCKS_JUMP, 0, 200)
    if "tempo" in groups:
        single(P_TEMPO, 0, 100)
    if "traps" in groups:
        single(P_TRAP_OPEN, 0, 300)
        single(P_TRAP_OPEN_ADJACENT, 0, 600)
    if "attack" in groups:
        for d in range(1, 5):  # distance 0 is the den itself: the game is over
            single(P_ATTACK_WEIGHT + d, 0, 15, max_step=1)
        for d in range(1, 4):  # nobody stands in its own den
            single(P_GUARD_WEIGHT + d, 0, 15, max_step=1)
        for n in range(1, 16):
            single(P_ATTACK_TABLE + n, 0, 1000)
    if "pst" in groups:
        dens = {DENS[0], DENS[1]}  # own den: never entered; enemy den: game over
        for animal in range(1, 9):
            done: set[int] = set()
            for square in range(63):
                if square in done or square in dens or DEN_DISTANCE[animal, square] >= 99:
                    continue  # water for a land animal: never read
                squares = {square, _mirror(square)} if mirror else {square}
                done |= squares
                indices = tuple(sorted(P_PST + animal * 63 + s for s in squares))
                name = f"pst.{ANIMAL_KEYS[animal]}[{'/'.join(str(s) for s in sorted(squares))}]"
                units.append(Unit(name, indices, -300, 500))
    if "mobility" in groups:
        for animal in range(1, 9):
            single(P_MOBILITY + animal, 0, 30)
    if "threats" in groups:
        for index in (P_HANGING_SINGLE, P_HANGING_SECOND, P_THREAT_ON_MOVE):
            single(index, 0, 64)
    return units


def material_ordered(params: np.ndarray) -> bool:
    """cat < dog < wolf < leopard < tiger < lion < elephant (by rank 2..8)."""
    values = params[P_MATERIAL + 2 : P_MATERIAL + 9]
    return bool(np.all(np.diff(values) > 0))


# ------------------------------------------------------------------------------ search


@dataclasses.dataclass
class TuneResult:
    params: np.ndarray
    train_error: float
    validation_error: float
    passes: int
    trials: int


def tune(
    params: np.ndarray,
    units: Sequence[Unit],
    train: Objective,
    validation: Objective | None = None,
    *,
    steps: Sequence[int] = (16, 8, 4, 2, 1),
    max_passes: int = 10,
    seed: int = 1,
    log: bool = False,
) -> TuneResult:
    """Coordinate descent over ``units`` (see the module's doc); ``params`` is not changed."""
    rng = random.Random(seed)
    params = params.copy()
    best = train(params)
    held = validation(params) if validation is not None else 0.0
    direction = dict.fromkeys(range(len(units)), 1)
    keep_order = material_ordered(params)  # kept if the start has it
    passes = 0
    for step in steps:
        for _ in range(max_passes):
            passes += 1
            started = time.perf_counter()
            before, before_best, before_held = params.copy(), best, held
            order = list(range(len(units)))
            rng.shuffle(order)
            changed = 0
            for u in order:
                unit = units[u]
                delta = min(step, unit.max_step)
                for sign in (direction[u], -direction[u]):
                    moved = params[list(unit.indices)] + sign * delta
                    if moved.min() < unit.low or moved.max() > unit.high:
                        continue
                    params[list(unit.indices)] += sign * delta
                    if not keep_order or material_ordered(params):
                        error = train(params)
                        if error < best:
                            best = error
                            direction[u] = sign
                            changed += 1
                            break
                    params[list(unit.indices)] -= sign * delta
            if validation is not None and changed:
                held = validation(params)
            if log:
                print(f"step {step:>3} pass {passes:>3}: train {best:.6f}, validation "
                      f"{held:.6f}, {changed} changed, {time.perf_counter() - started:.1f} s",
                      flush=True)  # fmt: skip
            if validation is not None and held > before_held:
                params, best, held = before, before_best, before_held
                if log:
                    print("  validation error rose: pass undone, next step", flush=True)
                break
            if changed == 0:
                break
    return TuneResult(params, best, held, passes, train.calls)


# ------------------------------------------------------------------------------ main


def split_by_game(data: Dataset, share: float, seed: int) -> tuple[Dataset, Dataset]:
    """(train, validation): ``share`` of the games, drawn with ``seed``, held out."""
    games = sorted(set(data.games.tolist()))
    held = set(random.Random(seed).sample(games, round(share * len(games)))) if share else set()
    mask = np.isin(data.games, np.fromiter(held, dtype=np.int64, count=len(held)))
    return data.subset(np.flatnonzero(~mask)), data.subset(np.flatnonzero(mask))


def changed_weights(params: np.ndarray, start: np.ndarray) -> dict[str, int]:
    return {PARAM_NAMES[i]: int(params[i]) for i in range(len(params)) if params[i] != start[i]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+", help="position files (generate.py)")
    parser.add_argument("--groups", default="material,pst", help=f"of {','.join(GROUPS)}")
    parser.add_argument("--start", type=Path, help="starting weights JSON (default: hand-set)")
    parser.add_argument("--output", type=Path, default=Path("/tmp/tuned_params.json"))
    parser.add_argument("--steps", default="16,8,4,2,1", help="step sizes, centipawns")
    parser.add_argument("--passes", type=int, default=10, help="most passes per step")
    parser.add_argument("--validation", type=float, default=0.1, help="share of games held out")
    parser.add_argument("--limit", type=int, help="use this many positions (drawn at random)")
    parser.add_argument("--k", type=float, help="logistic scale (default: fitted)")
    parser.add_argument("--no-mirror", action="store_true", help="tune mirror squares apart")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    data = read_positions(args.data)
    if args.limit is not None and args.limit < len(data):
        rows = np.sort(np.random.default_rng(args.seed).permutation(len(data))[: args.limit])
        data = data.subset(rows)
    train_data, held_data = split_by_game(data, args.validation, args.seed)
    print(f"{len(data)} positions of {len(set(data.games.tolist()))} games ({data.rules}): "
          f"{len(train_data)} train, {len(held_data)} validation; "
          f"read in {time.perf_counter() - started:.0f} s")  # fmt: skip

    start = load_params(args.start) if args.start else hand_set_params()
    k = args.k if args.k is not None else fit_k(red_evals(train_data, start), train_data.results)
    train, validation = Objective(train_data, k), Objective(held_data, k)
    print(f"K = {k:.6f} (a {math.log(3) / k:.0f} cp lead predicts a 75% score)")
    before_train, before_held = train(start), validation(start)
    print(f"error before: train {before_train:.6f}, validation {before_held:.6f}")

    units = make_units(args.groups.split(","), mirror=not args.no_mirror)
    print(f"tuning {len(units)} units of {args.groups}")
    tuning_started = time.perf_counter()
    result = tune(
        start,
        units,
        train,
        validation if len(held_data) else None,
        steps=[int(s) for s in args.steps.split(",")],
        max_passes=args.passes,
        seed=args.seed,
        log=True,
    )
    after_held = validation(result.params)
    print(f"error after:  train {result.train_error:.6f}, validation {after_held:.6f} "
          f"({result.passes} passes, {result.trials} evaluations of the train set, "
          f"{time.perf_counter() - tuning_started:.0f} s)")  # fmt: skip

    changes = changed_weights(result.params, hand_set_params())
    material = [int(result.params[P_MATERIAL + r]) for r in range(1, 9)]
    print(f"material rat..elephant: {material}")
    args.output.write_text(json.dumps(changes, indent=0) + "\n", "utf-8")
    print(f"{len(changes)} weights differ from the hand-set ones -> {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

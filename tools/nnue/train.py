"""Train the learned evaluation (:mod:`doushouqi.jungle.ai.nnue`) and export its weights.

Training only: torch (CPU) is needed here and nowhere at run time, where the engine evaluates
the exported integer weights in numba. Install it with the ``train`` extra
(``pip install -e '.[train]'``, torch 2.13).

Data: the chunk files of ``tools/nnue/generate.py`` (``FEN, result, game, score`` a line).
Each position gives, for the side to move, its active features from its own perspective and
from the other side's (:func:`doushouqi.jungle.ai.nnue.active_features`), its search score
(centipawns, un-faded: :func:`unfaded`) and the game's result. The loss is the mean squared
error in win-probability space: ``sigmoid(prediction / K)`` against
``lam * sigmoid(score / K) + (1 - lam) * result`` (``--lam``, ``K`` = :data:`SIGMOID_CP`;
by default the score alone: the results of deterministic self-play are noisy labels, and
with ``lam`` 0.7 the network learnt leads at a quarter of their size, an elephant up at
about 270 cp, and played worse).
Games are split into training and validation (every ``--holdout``-th game held out: a
game's positions are correlated), and the epoch with the lowest validation loss is kept.
Each position is also used flipped left to right (unless ``--no-mirror``): Jungle's board
is symmetric, its starting armies are not, so the flip is new data exactly as true.
Everything is seeded (``--seed``: the initial weights and the batches' order) and torch runs
deterministically on one thread, so the same data and arguments give the same weights.

With ``--residual`` the network learns a correction: its output is added to the hand-tuned
evaluation of the position (in training and in the engine, which the weight file tells), so
it starts from what the classic terms know.

The network (the float twin of the compiled one): a shared first layer over each
perspective's features (an embedding bag: a sum of rows), clipped ReLU to [0, 1], both
perspectives concatenated (side to move first), a second layer with clipped ReLU, one output
times ``out_scale`` centipawns. The engine evaluates the shape ``nnue.HIDDEN`` x
``nnue.LAYER2`` (the defaults; other sizes are for experiments that change those). Exported
(``--export``, an ``.npz``) with the first layer and its activations scaled by ``QA``, the
later weights by ``QB`` (nnue.py). The shipped weights, a residual network, from the three
data sets of network games of ``generate.py``'s docstring (12,000 games, 1,301,732
positions, twice that with their flips; about 17 minutes beside other work)::

    D=/work/runs
    nice -n 5 .venv/bin/python tools/nnue/train.py $D/nnue7/data $D/nnue8/data \\
        $D/nnue9/data --epochs 12 --residual \\
        --export src/doushouqi/jungle/ai/data/nnue.npz
"""

from __future__ import annotations

import argparse
import copy
import gzip
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import default_params
from doushouqi.jungle.ai.evaluate import evaluate, static_eval
from doushouqi.jungle.ai.nnue import FEATURES, HIDDEN, LAYER2, QA, QB, active_features
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING
from doushouqi.jungle.ai.state import new_state
from doushouqi.jungle.ai.tables import compile_rules
from doushouqi.jungle.board import Board
from doushouqi.jungle.squares import square_flip_horizontal

#: Centipawns of the win-probability curve: sigmoid(cp / SIGMOID_CP).
SIGMOID_CP = 400.0
#: The output's unit, in centipawns (the network learns ``cp / OUT_SCALE``).
OUT_SCALE = 400
#: The engine's fading without a no-capture rule (search_driver's ``progress_plies``).
PROGRESS_PLIES = DEFAULT_TUNING["progress_plies"]
#: A found den win as the data write it (tools/tuning/generate.py's ``DEN_CP``).
DEN_CP = 3000
#: At most this many animals a side: the padded feature lists' width.
MAX_ACTIVE = 16


@dataclass
class Dataset:
    """Positions as tensors: features (padded with FEATURES) of the side to move's
    perspective and the other's, search score (cp, side to move), result (side to move:
    1, 0.5, 0), the game each came from, and what the network's output is added to (the
    hand-tuned evaluation for a residual network, else 0)."""

    us: torch.Tensor
    them: torch.Tensor
    score: torch.Tensor
    result: torch.Tensor
    game: NDArray[np.int64]
    base: torch.Tensor

    def __len__(self) -> int:
        return int(self.score.shape[0])

    def subset(self, mask: NDArray[np.bool_]) -> Dataset:
        index = torch.from_numpy(np.flatnonzero(mask))
        return Dataset(
            self.us[index], self.them[index], self.score[index], self.result[index],
            self.game[mask], self.base[index],
        )  # fmt: skip


def encode(fen: str, *, mirrored: bool = False) -> tuple[list[int], list[int], int]:
    """The side to move's features, the other side's, and whose turn it is (0 Red); with
    ``mirrored``, of the position flipped left to right (files a <-> g: the board, its
    lakes, traps and dens are symmetric, so the flipped position is worth the same)."""
    codes, turn = _codes(fen, mirrored)
    return active_features(codes, turn), active_features(codes, 1 - turn), turn


def _codes(fen: str, mirrored: bool) -> tuple[list[int], int]:
    board = Board(fen)
    codes = board.piece_codes()
    if mirrored:
        codes = [codes[square_flip_horizontal(square)] for square in range(63)]
    return codes, int(board.turn)


_CLASSIC_PARAMS = default_params()


def classic_cp(fen: str, *, mirrored: bool = False) -> int:
    """The hand-tuned evaluation of ``fen`` (flipped left to right with ``mirrored``) for the
    side to move, as the search computes it."""
    codes, turn = _codes(fen, mirrored)
    rules = compile_rules(Board(fen).rules)
    return int(evaluate(new_state(codes, turn), rules, _CLASSIC_PARAMS))


def unfaded(score: float, fen: str, progress_plies: int) -> float:
    """The search score ``score`` of ``fen`` without the search's fading: the engine fades
    every evaluation toward a draw by up to half as the plies without a capture add up
    (``search_node.faded``: over the rules' no-capture limit, else ``progress_plies``), and it
    fades the network's output the same way, so the network must learn the score before it.
    A found den win or loss (:data:`DEN_CP`) is not faded."""
    if abs(score) >= DEN_CP:
        return score
    board = Board(fen)
    limit = 2 * (board.rules.no_capture_draw_rounds or 0) or progress_plies
    if limit <= 0:
        return score
    halfmove = min(board.halfmove_clock, limit)
    return score * (2 * limit) / (2 * limit - halfmove)


def _padded(features: list[int]) -> list[int]:
    return features + [FEATURES] * (MAX_ACTIVE - len(features))


def data_files(paths: Sequence[Path]) -> list[Path]:
    """The files named, and the ``chunk-*.txt.gz`` of the folders named, in order."""
    files: list[Path] = []
    for path in paths:
        files.extend(sorted(path.glob("chunk-*.txt.gz")) if path.is_dir() else [path])
    return files


def data_rows(paths: Sequence[Path]) -> Iterator[tuple[Path, list[str]]]:
    """Each position line of the data files, as its tab-separated fields (with its file);
    the header and blank lines skipped."""
    for path in data_files(paths):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as text:
            for line in text:
                if not line.startswith("#") and line.strip():
                    yield path, line.rstrip("\n").split("\t")


def read_data(
    paths: Sequence[Path],
    limit: int | None = None,
    *,
    mirror: bool = False,
    progress_plies: int = PROGRESS_PLIES,
    residual: bool = False,
) -> Dataset:
    """The positions of the data files (at most ``limit``), their scores un-faded
    (:func:`unfaded`); with ``mirror`` each also flipped left to right (twice the positions,
    the flipped one in the same game); with ``residual`` their hand-tuned evaluations as
    the base the network's output is added to."""
    us, them, scores, results, games, bases = [], [], [], [], [], []
    for path, fields in data_rows(paths):
        if len(fields) < 4:
            raise ValueError(f"{path}: a line without a score column")
        red = float(fields[1])
        score = unfaded(float(fields[3]), fields[0], progress_plies)
        for mirrored in (False, True) if mirror else (False,):
            features_us, features_them, turn = encode(fields[0], mirrored=mirrored)
            us.append(_padded(features_us))
            them.append(_padded(features_them))
            scores.append(score)
            results.append(red if turn == 0 else 1.0 - red)
            games.append(int(fields[2]))
            bases.append(classic_cp(fields[0], mirrored=mirrored) if residual else 0)
        if limit is not None and len(scores) >= limit:
            break
    return Dataset(
        torch.tensor(us, dtype=torch.long),
        torch.tensor(them, dtype=torch.long),
        torch.tensor(scores, dtype=torch.float32),
        torch.tensor(results, dtype=torch.float32),
        np.array(games, dtype=np.int64),
        torch.tensor(bases, dtype=torch.float32),
    )


def classic_loss(paths: Sequence[Path], settings: TrainSettings) -> float:
    """The loss of the hand-tuned evaluation (its static score as the prediction) on the
    validation games: the figure the network has to beat."""
    predicted, scores, results = [], [], []
    for _, fields in data_rows(paths):
        fen, red, game, text_score = fields[:4]
        if settings.holdout > 1 and int(game) % settings.holdout != 0:
            continue
        board = Board(fen)
        predicted.append(static_eval(Position.from_board(board)))
        scores.append(unfaded(float(text_score), fen, PROGRESS_PLIES))
        results.append(float(red) if int(board.turn) == 0 else 1.0 - float(red))
    prediction = torch.sigmoid(torch.tensor(predicted, dtype=torch.float32) / SIGMOID_CP)
    target = settings.lam * torch.sigmoid(torch.tensor(scores) / SIGMOID_CP) + (
        1.0 - settings.lam
    ) * torch.tensor(results)
    return float(torch.mean((prediction - target) ** 2))


class Network(nn.Module):
    """The float network (see the module's notes)."""

    def __init__(self, hidden: int, layer2: int) -> None:
        super().__init__()
        self.first = nn.Embedding(FEATURES + 1, hidden, padding_idx=FEATURES)
        self.first_bias = nn.Parameter(torch.full((hidden,), 0.5))
        self.second = nn.Linear(2 * hidden, layer2)
        self.out = nn.Linear(layer2, 1)
        with torch.no_grad():
            self.first.weight.uniform_(-0.08, 0.08)
            self.first.weight[FEATURES].zero_()

    def accumulators(self, features: torch.Tensor) -> torch.Tensor:
        """First-layer sums of a batch of padded feature lists."""
        return self.first(features).sum(dim=1) + self.first_bias

    def forward(self, us: torch.Tensor, them: torch.Tensor) -> torch.Tensor:
        """The output in units of OUT_SCALE centipawns, for the side to move."""
        hidden = torch.cat([self.accumulators(us), self.accumulators(them)], dim=1)
        hidden = hidden.clamp(0.0, 1.0)
        second = self.second(hidden).clamp(0.0, 1.0)
        return self.out(second).squeeze(1)


def loss_of(model: Network, data: Dataset, lam: float) -> torch.Tensor:
    """The blended win-probability error (see the module's notes)."""
    predicted = torch.sigmoid((data.base + model(data.us, data.them) * OUT_SCALE) / SIGMOID_CP)
    target = lam * torch.sigmoid(data.score / SIGMOID_CP) + (1.0 - lam) * data.result
    return torch.mean((predicted - target) ** 2)


#: Positions a loss is measured over at a time (:func:`measured_loss`).
MEASURE_BATCH = 65_536


def measured_loss(model: Network, data: Dataset, lam: float, batch: int = MEASURE_BATCH) -> float:
    """:func:`loss_of` over the whole of ``data``, ``batch`` positions at a time: the first
    layer's lookup holds MAX_ACTIVE vectors of HIDDEN floats per position (4 KiB), so all
    of 4.6 M positions at once took 19 GB, where a batch takes 256 MiB."""
    total = 0.0
    with torch.no_grad():
        for start in range(0, len(data), batch):
            part = slice(start, start + batch)
            chunk = Dataset(
                data.us[part], data.them[part], data.score[part], data.result[part],
                data.game[part], data.base[part],
            )  # fmt: skip
            total += float(loss_of(model, chunk, lam)) * len(chunk)
    return total / max(1, len(data))


@dataclass(frozen=True)
class TrainSettings:
    """How a network is trained (with the data, all that its weights depend on)."""

    hidden: int = HIDDEN
    layer2: int = LAYER2
    epochs: int = 20
    batch: int = 1024
    lr: float = 2e-3
    lam: float = 1.0
    seed: int = 31
    holdout: int = 10
    weight_decay: float = 0.0


def train(
    data: Dataset, settings: TrainSettings, *, progress: bool = False
) -> tuple[Network, dict[str, float]]:
    """A network trained on ``data`` (games ``g % holdout == 0`` held out); returns it and
    its final training and validation losses."""
    torch.manual_seed(settings.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    held = data.game % settings.holdout == 0 if settings.holdout > 1 else np.zeros(0, bool)
    if held.size and held.all():
        held = np.zeros(len(data), dtype=bool)
    training = data.subset(~held) if held.size else data
    validation = data.subset(held) if held.size and held.any() else training
    model = Network(settings.hidden, settings.layer2)
    optimiser = torch.optim.AdamW(
        model.parameters(), lr=settings.lr, weight_decay=settings.weight_decay
    )
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, max(1, settings.epochs))
    order = torch.Generator().manual_seed(settings.seed)
    started = time.perf_counter()
    # The epoch with the lowest validation loss is kept: small data sets overfit.
    best_loss = measured_loss(model, validation, settings.lam)
    best_state = copy.deepcopy(model.state_dict())
    for epoch in range(settings.epochs):
        model.train()
        permutation = torch.randperm(len(training), generator=order)
        for start in range(0, len(training), settings.batch):
            index = permutation[start : start + settings.batch]
            batch = Dataset(
                training.us[index], training.them[index], training.score[index],
                training.result[index], training.game, training.base[index],
            )  # fmt: skip
            optimiser.zero_grad()
            loss = loss_of(model, batch, settings.lam)
            loss.backward()
            optimiser.step()
            with torch.no_grad():
                model.first.weight[FEATURES].zero_()
        schedule.step()
        held_loss = measured_loss(model, validation, settings.lam)
        if held_loss < best_loss:
            best_loss = held_loss
            best_state = copy.deepcopy(model.state_dict())
        if progress:
            train_loss = measured_loss(model, training, settings.lam)
            elapsed = time.perf_counter() - started
            print(f"epoch {epoch + 1}: train {train_loss:.6f} validation {held_loss:.6f} "
                  f"({elapsed:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
    model.load_state_dict(best_state)
    losses = {
        "train": measured_loss(model, training, settings.lam),
        "validation": measured_loss(model, validation, settings.lam),
    }
    return model, losses


def quantise(model: Network) -> dict[str, NDArray[np.integer]]:
    """The integer arrays of the weight file (nnue.py's scales)."""

    def rounded(tensor: torch.Tensor, scale: float) -> NDArray[np.float64]:
        return np.rint(tensor.detach().double().numpy() * scale)

    w1 = rounded(model.first.weight[:FEATURES], QA)
    if np.abs(w1).max(initial=0) > np.iinfo(np.int16).max:
        raise ValueError("first-layer weights too large for int16")
    return {
        "w1": w1.astype(np.int16),
        "b1": rounded(model.first_bias, QA).astype(np.int32),
        "w2": rounded(model.second.weight, QB).astype(np.int32),
        "b2": rounded(model.second.bias, QA * QB).astype(np.int32),
        "w3": rounded(model.out.weight[0], QB).astype(np.int32),
        "b3": rounded(model.out.bias, QA * QB).astype(np.int32),
    }


def export(model: Network, path: Path, info: dict[str, object], *, residual: bool = False) -> None:
    """Write the quantised weights (and ``info``, as JSON text) to an ``.npz``; a
    ``residual`` network's output is added to the hand-tuned evaluation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = quantise(model)
    np.savez_compressed(
        path, **arrays, out_scale=np.array([OUT_SCALE]), residual=np.array([int(residual)]),
        info=np.array(json.dumps(info)),
    )  # fmt: skip


def predict_cp(model: Network, fens: Sequence[str]) -> list[float]:
    """The float network's centipawns for the side to move of each position."""
    encoded = [encode(fen) for fen in fens]
    us = torch.tensor([_padded(e[0]) for e in encoded], dtype=torch.long)
    them = torch.tensor([_padded(e[1]) for e in encoded], dtype=torch.long)
    with torch.no_grad():
        return [float(v) * OUT_SCALE for v in model(us, them)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+", help="chunk files or their folders")
    parser.add_argument("--limit", type=int, help="use at most this many positions")
    parser.add_argument("--hidden", type=int, default=TrainSettings.hidden)
    parser.add_argument("--layer2", type=int, default=TrainSettings.layer2)
    parser.add_argument("--epochs", type=int, default=TrainSettings.epochs)
    parser.add_argument("--batch", type=int, default=TrainSettings.batch)
    parser.add_argument("--lr", type=float, default=TrainSettings.lr)
    parser.add_argument("--lam", type=float, default=TrainSettings.lam, help="score's share")
    parser.add_argument("--seed", type=int, default=TrainSettings.seed)
    parser.add_argument("--holdout", type=int, default=TrainSettings.holdout)
    parser.add_argument("--weight-decay", type=float, default=TrainSettings.weight_decay)
    parser.add_argument(
        "--no-mirror", action="store_true", help="do not add the left-right flipped positions"
    )
    parser.add_argument(
        "--residual",
        action="store_true",
        help="train a correction added to the hand-tuned evaluation, not the whole of it",
    )
    parser.add_argument(
        "--classic-baseline", action="store_true", help="also the classic evaluation's loss"
    )
    parser.add_argument("--export", type=Path, help="write the quantised weights here (.npz)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data = read_data(args.data, args.limit, mirror=not args.no_mirror, residual=args.residual)
    print(f"{len(data)} positions from {len(set(data.game.tolist()))} games "
          f"({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
    settings = TrainSettings(
        hidden=args.hidden,
        layer2=args.layer2,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        lam=args.lam,
        seed=args.seed,
        holdout=args.holdout,
        weight_decay=args.weight_decay,
    )
    model, losses = train(data, settings, progress=True)
    if args.classic_baseline:
        losses["classic_validation"] = classic_loss(args.data, settings)
    print(json.dumps(losses))
    if args.export is not None:
        info = {**settings.__dict__, **losses, "positions": len(data),
                "mirror": not args.no_mirror, "residual": args.residual}  # fmt: skip
        info = {k: (round(v, 7) if isinstance(v, float) and math.isfinite(v) else v)
                for k, v in info.items()}  # fmt: skip
        export(model, args.export, info, residual=args.residual)
        print(f"exported to {args.export} ({args.export.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

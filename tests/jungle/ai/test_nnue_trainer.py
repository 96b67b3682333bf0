"""tools/nnue: the resumable data generation, and the trainer — the same weights for the same
seed, losses measured in batches as over the whole, and exported weights that the engine's
compiled network evaluates as torch does."""

from __future__ import annotations

import dataclasses
import gzip
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from doushouqi.jungle.ai import Position
from doushouqi.jungle.ai.eval_params import default_params
from doushouqi.jungle.ai.evaluate import static_eval
from doushouqi.jungle.ai.nnue import N_RESIDUAL, evaluate_network, load_network, with_network
from doushouqi.jungle.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from load_tool import load_tool

torch = pytest.importorskip("torch", reason="the trainer needs torch (the train extra)")
train = load_tool("nnue", "train")
nnue_generate = load_tool("nnue", "generate")
tuning_generate = load_tool("tuning", "generate")

TINY = train.TrainSettings(epochs=3, batch=16, seed=5, holdout=3)


def random_positions(count: int, seed: int) -> list[str]:
    """Positions of random games (each from the start, 4-40 random plies)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = Board()
        for _ in range(rng.randint(4, 40)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A chunk file of 120 positions scored by the classic evaluation, in 12 'games'."""
    folder = tmp_path_factory.mktemp("nnue-data")
    with gzip.open(folder / "chunk-0000.txt.gz", "wt", encoding="utf-8") as out:
        out.write("# tiny\n")
        for i, fen in enumerate(random_positions(120, 3)):
            score = static_eval(Position.from_board(Board(fen)))
            out.write(f"{fen}\t{(0, 0.5, 1)[i % 3]}\t{i // 10}\t{score}\n")
    return folder


def test_reading_the_data(tiny_data: Path) -> None:
    data = train.read_data([tiny_data])
    assert len(data) == 120 and data.us.shape == (120, train.MAX_ACTIVE)
    assert sorted(set(data.game.tolist())) == list(range(12))
    # Padding only after the animals; results are the side to move's.
    assert set(data.result.tolist()) <= {0.0, 0.5, 1.0}
    assert len(train.read_data([tiny_data], limit=50)) == 50


def test_the_same_seed_trains_the_same_weights(tiny_data: Path) -> None:
    data = train.read_data([tiny_data])
    first = train.quantise(train.train(data, TINY)[0])
    again = train.quantise(train.train(data, TINY)[0])
    other = train.quantise(train.train(data, dataclasses.replace(TINY, seed=6))[0])
    for name in first:
        assert np.array_equal(first[name], again[name]), name
    assert any(not np.array_equal(first[name], other[name]) for name in first)


def test_training_lowers_the_loss(tiny_data: Path) -> None:
    data = train.read_data([tiny_data])
    untrained = train.train(data, dataclasses.replace(TINY, epochs=0))[1]
    trained = train.train(data, dataclasses.replace(TINY, epochs=30))[1]
    assert trained["train"] < untrained["train"]


def test_a_loss_measured_in_batches_is_the_loss_of_the_whole(tiny_data: Path) -> None:
    # Batches of 7 over 120 positions: 17 of them, the last of 1.
    data = train.read_data([tiny_data])
    model, _ = train.train(data, TINY)
    with torch.no_grad():
        whole = float(train.loss_of(model, data, 0.7))
    assert train.measured_loss(model, data, 0.7, batch=7) == pytest.approx(whole, rel=1e-6)
    assert train.measured_loss(model, data, 0.7, batch=1000) == pytest.approx(whole, rel=1e-6)


def test_the_compiled_network_evaluates_as_torch_within_quantisation(
    tiny_data: Path, tmp_path: Path
) -> None:
    data = train.read_data([tiny_data])
    model, _ = train.train(data, TINY)
    path = tmp_path / "net.npz"
    train.export(model, path, {"note": "test"})
    params = with_network(default_params(), load_network(path))
    fens = random_positions(60, 11)
    expected = train.predict_cp(model, fens)
    got = [int(evaluate_network(Position.from_board(Board(f)).state, params)) for f in fens]
    errors = [abs(a - b) for a, b in zip(expected, got, strict=True)]
    assert max(errors) <= 6, errors
    # Not a constant: the positions get different scores.
    assert len(set(got)) > 5


def test_generation_is_resumable_and_the_same_when_resumed(tmp_path: Path) -> None:
    settings = tuning_generate.GameSettings(seed=4, nodes=300, level=10, max_plies=30, scores=True)
    folder = tmp_path / "data"
    totals = nnue_generate.run(folder, settings, games=3, chunk=2)
    assert totals["chunks"] == 2 and totals["games"] == 3
    first = nnue_generate.chunk_path(folder, 0)
    second = nnue_generate.chunk_path(folder, 1)
    with gzip.open(second, "rt", encoding="utf-8") as text:
        content = text.read()
    lines = [line.split("\t") for line in content.splitlines() if not line.startswith("#")]
    assert lines and all(len(fields) == 4 for fields in lines)
    assert {fields[2] for fields in lines} == {"2"}  # chunk 1 holds game 2
    second.unlink()
    stamp = first.stat().st_mtime_ns
    totals = nnue_generate.run(folder, settings, games=3, chunk=2)
    assert totals["chunks"] == 1  # only the missing chunk is played again
    assert first.stat().st_mtime_ns == stamp
    with gzip.open(second, "rt", encoding="utf-8") as text:
        assert text.read() == content
    assert len(train.read_data([folder])) > 0


def test_scores_are_unfaded_as_the_search_fades_them() -> None:
    fen = Board().fen()
    fresh, late = fen, fen.replace(" w 0 ", " w 60 ")
    assert train.unfaded(300.0, fresh, 120) == 300.0
    # 60 plies without a capture: the search scaled the score by (240 - 60) / 240.
    assert train.unfaded(300.0, late, 120) == pytest.approx(400.0)
    assert train.unfaded(train.DEN_CP, late, 120) == train.DEN_CP  # a found den win stays
    assert train.unfaded(300.0, late, 0) == 300.0  # no fading


def test_a_residual_network_learns_on_top_of_the_classic_evaluation(
    tiny_data: Path, tmp_path: Path
) -> None:
    data = train.read_data([tiny_data], residual=True, mirror=True)
    fens = random_positions(5, 13)
    for fen in fens:
        assert train.classic_cp(fen) == static_eval(Position.from_board(Board(fen)))
    # The base is the classic score of each position as trained (the flipped one too).
    assert data.base.shape == data.score.shape and bool((data.base != 0).any())
    model, _ = train.train(data, TINY)
    path = tmp_path / "residual.npz"
    train.export(model, path, {}, residual=True)
    with np.load(path) as saved:
        assert int(saved["residual"][0]) == 1
    assert load_network(path)[N_RESIDUAL] == 1
    plain = train.read_data([tiny_data])
    assert not bool((plain.base != 0).any())

"""The evaluation tuner (tools/tuning): self-play data, batch evaluation, K fit, Texel descent."""

from __future__ import annotations

import dataclasses
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.jungle.ai.helpers import MIDGAME, START, fen_from_codes

from doushouqi.jungle.ai.core import Position
from doushouqi.jungle.ai.eval_params import (
    P_MATERIAL,
    P_MOBILITY,
    P_THREAT_ON_MOVE,
    TUNED_PARAMS,
    default_params,
    hand_set_params,
    load_params,
)
from doushouqi.jungle.ai.evaluate import static_eval
from doushouqi.jungle.ai.nnue import DEFAULT_NETWORK, NetworkFileError
from doushouqi.jungle.board import Board

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from load_tool import load_tool

ROOT = Path(__file__).resolve().parents[3]


generate = load_tool("tuning", "generate")
texel = load_tool("tuning", "texel")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tuning") / "positions.txt.gz"
    settings = generate.GameSettings(seed=5, nodes=400, max_plies=80)
    counts = generate.run(path, settings, 2)
    assert counts["games"] == 2 and counts["positions"] > 10
    return path


def test_generation_writes_labelled_quiet_positions(generated: Path) -> None:
    with generate.open_text(generated, "r") as text:
        lines = text.read().splitlines()
    assert lines[0].startswith("#") and "rules=wango" in lines[1]
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert {game for _, _, game in rows} == {"0", "1"}
    work = generate.new_quiet_work()
    params = hand_set_params()  # what the games were played and judged with
    for fen, result, game in rows:
        assert result in ("1", "0.5", "0")
        assert result == next(r for _, r, g in rows if g == game), "one result per game"
        board = Board(fen)
        assert board.outcome() is None
        assert generate.is_quiet(Position.from_board(board), params, work)
    # A position where the side to move wins an animal at once is not quiet.
    capture = Board("7/7/7/7/7/3l3/3E3/7/7 w")
    assert not generate.is_quiet(Position.from_board(capture), params, work)

    # Game g depends only on the seed and g: the file is the same when written again.
    again = generated.with_name("again.txt")
    generate.run(again, generate.GameSettings(seed=5, nodes=400, max_plies=80), 2)
    assert again.read_text("utf-8").splitlines() == lines


def test_random_moves_take_the_games_off_the_engines_path_and_keep_their_scores() -> None:
    """A share of the engine's moves replaced by random ones, after their search (for the
    learned evaluation's data: positions off the engine's own path), makes other games, the
    same ones for the same seed, each kept position still quiet and scored."""
    plain = generate.GameSettings(seed=4, nodes=300, level=10, max_plies=40, scores=True)
    shaken = dataclasses.replace(plain, random_rate=0.5)
    _, _, before = generate.play_game(plain, 0)
    _, _, once = generate.play_game(shaken, 0)
    assert generate.play_game(shaken, 0)[2] == once
    assert [fen for fen, _ in once] != [fen for fen, _ in before]
    params, work = hand_set_params(), generate.new_quiet_work()
    for fen, score in once:
        assert -generate.DEN_CP <= score <= generate.DEN_CP
        assert generate.is_quiet(Position.from_board(Board(fen)), params, work)


def test_games_played_with_the_network_are_scored_by_its_search() -> None:
    """``evaluation="nnue"`` plays the same openings with the shipped network added to the
    weights: the same quiet positions at first, other search scores (the network's), and
    the same again for the same seed."""
    plain = generate.GameSettings(seed=4, nodes=300, level=10, max_plies=20, scores=True)
    learned = dataclasses.replace(plain, evaluation="nnue")
    _, _, classic = generate.play_game(plain, 0)
    _, _, network = generate.play_game(learned, 0)
    assert generate.play_game(learned, 0)[2] == network
    assert classic[0][0] == network[0][0]  # the opening is the seed's, not the evaluation's
    assert [score for _, score in network] != [score for _, score in classic]
    with pytest.raises(ValueError):
        generate.play_game(dataclasses.replace(plain, evaluation="nnue2"), 0)
    # The network that plays is named, so that a data set keeps its labels when the tree
    # ships another: the shipped file named is the default; a file that is none is refused.
    named = dataclasses.replace(learned, network_file=str(DEFAULT_NETWORK))
    assert generate.play_game(named, 0)[2] == network
    with pytest.raises(NetworkFileError):
        generate.play_game(dataclasses.replace(learned, network_file=__file__), 0)


def test_read_positions_and_split_by_game(generated: Path) -> None:
    data = texel.read_positions([generated, generated])
    assert data.rules == "wango" and data.states.shape[0] == len(data)
    assert set(data.games.tolist()) == {0, 1, 2, 3}  # the second file's games renumbered
    train, held = texel.split_by_game(data, 0.5, seed=1)
    assert len(train) + len(held) == len(data)
    assert not set(train.games.tolist()) & set(held.games.tolist())


def test_batch_evaluation_equals_static_eval(generated: Path) -> None:
    data = texel.read_positions([generated])
    fens = [START, MIDGAME, "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b"]
    extra = texel.make_dataset(fens, [0.5] * 3, [0] * 3)
    moves = default_params()
    moves[P_MOBILITY + 1 : P_MOBILITY + 9] = 3  # the terms that need every animal's moves
    moves[P_THREAT_ON_MOVE] = 20
    with generate.open_text(generated, "r") as text:
        fens += [line.split("\t")[0] for line in text if not line.startswith("#")]
    for params in (default_params(), moves):
        evals = np.concatenate([texel.red_evals(extra, params), texel.red_evals(data, params)])
        for fen, value in zip(fens, evals, strict=True):
            position = Position(fen)
            red = static_eval(position, params) * (1 if position.turn == 0 else -1)
            assert value == red, fen


def _material_sample(count: int, seed: int) -> tuple[list[str], list[float]]:
    """Start positions thinned at random; Red wins with probability growing with its
    material lead (default values): results that only material explains."""
    rng = random.Random(seed)
    start = Board().piece_codes()
    values = hand_set_params()[P_MATERIAL : P_MATERIAL + 9]
    fens, results = [], []
    for _ in range(count):
        codes = [c if c == 0 or rng.random() < 0.6 else 0 for c in start]
        if not any(1 <= c <= 8 for c in codes) or not any(c > 8 for c in codes):
            continue
        lead = sum(int(values[(c - 1) % 8 + 1]) * (1 if c <= 8 else -1) for c in codes if c)
        win = 1 / (1 + math.exp(-lead / 400))
        fens.append(fen_from_codes(codes, rng.randrange(2)))
        results.append(1.0 if rng.random() < win else 0.0)
    return fens, results


def test_k_fit_and_a_tuning_pass_lower_the_error() -> None:
    fens, results = _material_sample(600, seed=2)
    data = texel.make_dataset(fens, results, list(range(len(fens))))
    start = hand_set_params()
    start[P_MATERIAL + 1 : P_MATERIAL + 9] //= 4  # material undervalued against the rest
    evals = texel.red_evals(data, start)
    k = texel.fit_k(evals, data.results)
    error = texel.error_of(evals, data.results, k)
    for other in (k / 2, k * 2):  # the fitted K is a minimum
        assert texel.error_of(evals, data.results, other) > error

    objective = texel.Objective(data, k)
    units = texel.make_units(["material"])
    result = texel.tune(start, units, objective, steps=[16], max_passes=1, seed=1)
    assert result.train_error < error
    material = slice(P_MATERIAL + 1, P_MATERIAL + 9)
    assert result.params[material].sum() > start[material].sum(), "material pushed up"
    assert texel.material_ordered(result.params)
    assert (start[:P_MATERIAL] == result.params[:P_MATERIAL]).all()
    assert (start[P_MATERIAL + 9 :] == result.params[P_MATERIAL + 9 :]).all(), "others kept"


def test_units_and_bounds() -> None:
    units = texel.make_units(["material", "pst"])
    names = [unit.name for unit in units]
    assert names[:8] == [f"material[{rank}]" for rank in range(1, 9)]
    # Mirror squares move together; water squares of land animals are never tuned.
    lion = [unit for unit in units if unit.name.startswith("pst.lion[")]
    assert all(len(unit.indices) in (1, 2) for unit in lion)
    assert not any(unit.name == "pst.lion[22/26]" for unit in lion)  # b4/f4: water
    with pytest.raises(ValueError, match="unknown group"):
        texel.make_units(["colour"])


def test_defaults_are_the_hand_set_weights_amended_by_the_tuned_file(tmp_path: Path) -> None:
    assert TUNED_PARAMS.exists()
    assert (default_params() == load_params(TUNED_PARAMS)).all()
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    assert (load_params(empty) == hand_set_params()).all()
    assert texel.material_ordered(default_params())
    # The tuner writes what differs from the hand-set weights: loading it gives its weights.
    changed = texel.changed_weights(default_params(), hand_set_params())
    assert changed and all(name.startswith(("material", "pst")) for name in changed)

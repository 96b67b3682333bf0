"""The learned evaluation in the engine (jungle/ai/nnue.py): the per-ply accumulators equal
a full evaluation along random games, the search and the protocol switch to it, and weight
files that are not a network are refused with a clear error."""

from __future__ import annotations

import io
import random
from pathlib import Path

import numpy as np
import pytest
from tests.jungle.ai.helpers import MIDGAME

from doushouqi.jungle.ai import Position
from doushouqi.jungle.ai.eval_params import NUM_PARAMS, default_params
from doushouqi.jungle.ai.evaluate import static_eval
from doushouqi.jungle.ai.nnue import (
    DEFAULT_NETWORK,
    FEATURE,
    FEATURES,
    HIDDEN,
    LAYER2,
    QA,
    QB,
    NetworkFileError,
    active_features,
    adds_classic,
    evaluate_network,
    load_network,
    network_evaluate,
    network_from_arrays,
    uses_network,
    with_network,
)
from doushouqi.jungle.ai.protocol import EVALUATIONS as PROTOCOL_EVALUATIONS
from doushouqi.jungle.ai.protocol import EngineProtocol
from doushouqi.jungle.ai.search_driver import EVALUATIONS, Searcher
from doushouqi.jungle.ai.search_node import cached_eval
from doushouqi.jungle.ai.work import C_ROOT_PLY, new_work
from doushouqi.jungle.analysis import Limit
from doushouqi.jungle.board import Board


def random_arrays(seed: int, hidden: int = HIDDEN, layer2: int = LAYER2) -> dict[str, np.ndarray]:
    """Integer weights of a network, large enough that the clips matter."""
    rng = np.random.default_rng(seed)
    return {
        "w1": rng.integers(-40, 40, (FEATURES, hidden)).astype(np.int16),
        "b1": rng.integers(-20, 90, hidden).astype(np.int32),
        "w2": rng.integers(-300, 300, (layer2, 2 * hidden)).astype(np.int32),
        "b2": rng.integers(-20000, 40000, layer2).astype(np.int32),
        "w3": rng.integers(-400, 400, layer2).astype(np.int32),
        "b3": np.array([1234], dtype=np.int32),
    }


@pytest.fixture(scope="module")
def params() -> np.ndarray:
    return with_network(default_params(), network_from_arrays(random_arrays(1), 400))


def test_features_are_one_per_animal_and_turn_with_the_perspective() -> None:
    board = Board()
    codes = board.piece_codes()
    red, blue = active_features(codes, 0), active_features(codes, 1)
    assert len(red) == len(blue) == 16 and len(set(red)) == 16
    # The start position is the same seen from either side (turned by 180 degrees).
    assert sorted(red) == sorted(blue)
    assert FEATURE.max() == FEATURES - 1


def test_incremental_accumulators_equal_the_full_evaluation_along_random_games(
    params: np.ndarray,
) -> None:
    rng = random.Random(7)
    for _game in range(6):
        position = Position.from_board(Board())
        work = new_work()
        work[C_ROOT_PLY] = position.ply
        expected: list[int] = []
        for ply in range(70):
            state, history = position.state, position.history
            full = int(evaluate_network(state, params))
            assert int(network_evaluate(state, history, params, work)) == full
            expected.append(full)
            moves = position.legal_moves()
            if ply == 69 or not moves or position.is_game_over_on_board():
                break
            if rng.random() < 0.05:
                position.push_pass()  # the search's null move: the board stands still
            else:
                position.push(*rng.choice(moves))
        # Back up the path (unmake): every ply's evaluation is what it was on the way down,
        # and a sibling (another move from the ply above: the search's next branch) is
        # evaluated from its parent's accumulators as a full evaluation would.
        while expected:
            full = expected.pop()
            assert int(network_evaluate(position.state, position.history, params, work)) == full
            moves = position.legal_moves()
            if moves and not position.is_game_over_on_board():
                position.push(*rng.choice(moves))
                sibling = int(evaluate_network(position.state, params))
                assert int(network_evaluate(position.state, position.history, params, work)) == (
                    sibling
                )
                position.pop()
            if expected:
                position.pop()


def test_a_position_off_the_search_path_is_evaluated_from_scratch(params: np.ndarray) -> None:
    position = Position.from_board(Board(MIDGAME))
    work = new_work()
    work[C_ROOT_PLY] = position.ply + 500  # as a quiescence call outside any search
    full = int(evaluate_network(position.state, params))
    assert int(network_evaluate(position.state, position.history, params, work)) == full


def test_the_side_to_move_sees_the_board_from_its_side(params: np.ndarray) -> None:
    # The start position with either side to move is the same position for the mover.
    red = Position.from_board(Board())
    blue = Position.from_board(Board(Board().fen().replace(" w ", " b ")))
    assert int(evaluate_network(red.state, params)) == int(evaluate_network(blue.state, params))


def test_with_network_only_appends(params: np.ndarray) -> None:
    classic = default_params()
    assert uses_network(params) and not uses_network(classic)
    assert np.array_equal(params[:NUM_PARAMS], classic)
    with pytest.raises(ValueError, match="evaluation weights"):
        with_network(classic[:-1], params[NUM_PARAMS:])


def test_the_shipped_network_loads_and_is_small() -> None:
    block = load_network()
    assert DEFAULT_NETWORK.stat().st_size < 400_000
    assert uses_network(with_network(default_params(), block))


def test_the_option_switches_the_evaluation(tmp_path: Path) -> None:
    board = Board(MIDGAME)
    scores = {}
    for evaluation in EVALUATIONS:
        engine = Searcher(hash_mb=1)
        engine.evaluation = evaluation
        result = engine.search(board, Limit(depth=2))
        scores[evaluation] = result.info["score"]
        assert result.move in board.legal_moves
    assert scores["classic"] != scores["nnue"]
    assert scores["auto"] == scores["nnue"]  # level 10 (the search's default) uses the network
    # Back to classic gives the classic score again.
    engine = Searcher(hash_mb=1)
    engine.evaluation = "nnue"
    engine.evaluation = "classic"
    assert engine.search(board, Limit(depth=2)).info["score"] == scores["classic"]
    with pytest.raises(ValueError, match="evaluation must be one of"):
        engine.evaluation = "neural"


def test_auto_is_the_network_at_level_ten_and_the_hand_tuned_terms_below() -> None:
    board = Board(MIDGAME)

    def score(evaluation: str, level: int) -> object:
        engine = Searcher(hash_mb=1, seed=3)  # the same noise for every evaluation
        engine.evaluation = evaluation
        return engine.search(board, Limit(depth=2), level=level).info["score"]

    assert Searcher(hash_mb=1).evaluation == "auto"
    assert score("auto", 10) == score("nnue", 10) != score("classic", 10)
    for level in (6, 9):
        assert score("auto", level) == score("classic", level) != score("nnue", level)
    # Weights given to the searcher are what it searches with.
    assert Searcher(hash_mb=1, params=default_params()).evaluation == "classic"


def test_another_network_file_changes_the_score(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    np.savez(path, **random_arrays(3), out_scale=np.array([400]))
    board = Board(MIDGAME)
    engine = Searcher(hash_mb=1)
    engine.evaluation = "nnue"
    shipped = engine.search(board, Limit(depth=2)).info["score"]
    engine.network_file = str(path)
    assert engine.search(board, Limit(depth=2)).info["score"] != shipped


def _bad_files(tmp_path: Path) -> list[tuple[Path, str]]:
    good = random_arrays(2)
    cases: list[tuple[Path, str]] = [(tmp_path / "missing.npz", "no network file")]
    text = tmp_path / "text.npz"
    text.write_text("not a network")
    cases.append((text, "is not a network file"))
    no_scale = tmp_path / "no_scale.npz"
    np.savez(no_scale, **good)
    cases.append((no_scale, "no out_scale"))
    missing = tmp_path / "missing_w2.npz"
    np.savez(missing, **{k: v for k, v in good.items() if k != "w2"}, out_scale=np.array([400]))
    cases.append((missing, "no array 'w2'"))
    shape = tmp_path / "shape.npz"
    np.savez(shape, **{**good, "w2": good["w2"][:, :5]}, out_scale=np.array([400]))
    cases.append((shape, "'w2' has shape"))
    floats = tmp_path / "floats.npz"
    np.savez(floats, **{**good, "w1": good["w1"] / 127.0}, out_scale=np.array([400]))
    cases.append((floats, "'w1' is not integers"))
    wide = tmp_path / "wide.npz"
    np.savez(wide, **random_arrays(2, hidden=2 * HIDDEN), out_scale=np.array([400]))
    cases.append((wide, f"network has {2 * HIDDEN} x {LAYER2} units"))
    large = tmp_path / "large.npz"
    np.savez(large, **{**good, "b2": good["b2"] * 1000}, out_scale=np.array([400]))
    cases.append((large, "'b2' has weights beyond"))
    return cases


def test_bad_weight_files_give_a_clear_error(tmp_path: Path) -> None:
    for path, message in _bad_files(tmp_path):
        with pytest.raises(NetworkFileError, match=message):
            load_network(path)
        engine = Searcher(hash_mb=1)
        engine.evaluation = "classic"
        engine.network_file = str(path)  # not in use: checked when switched to
        for evaluation in ("nnue", "auto"):
            with pytest.raises(NetworkFileError, match=message):
                engine.evaluation = evaluation
            assert engine.evaluation == "classic"
    # A bad file set while the network is in use keeps the network that was there.
    for evaluation in ("nnue", "auto"):
        engine = Searcher(hash_mb=1)
        engine.evaluation = evaluation
        with pytest.raises(NetworkFileError):
            engine.network_file = str(tmp_path / "text.npz")
        assert engine.network_file == "" and engine.evaluation == evaluation


def _session(lines: list[str]) -> list[str]:
    out = io.StringIO()
    EngineProtocol(out).run(lines)
    return out.getvalue().splitlines()


def test_protocol_options(tmp_path: Path) -> None:
    assert PROTOCOL_EVALUATIONS == EVALUATIONS
    answers = _session(["uci", "quit"])
    line = "option name Evaluation type combo default auto var auto var classic var nnue"
    assert line in answers
    assert "option name EvalFile type string default <empty>" in answers
    bad = tmp_path / "text.npz"
    bad.write_text("not a network")
    answers = _session(
        [
            "setoption name Evaluation value neural",
            f"setoption name EvalFile value {bad}",
            "quit",
        ]
    )
    errors = [line for line in answers if line.startswith("info string error")]
    assert len(errors) == 2
    assert "Evaluation must be one of auto, classic, nnue" in errors[0]
    assert "is not a network file" in errors[1]


def test_protocol_searches_with_the_network() -> None:
    fen = Board(MIDGAME).fen()

    def final_score(evaluation: str) -> str:
        answers = _session(
            [
                f"setoption name Evaluation value {evaluation}",
                f"position fen {fen}",
                "go depth 2",
            ]
        )
        assert answers[-1].startswith("bestmove ")
        info = [line for line in answers if line.startswith("info depth")][-1]
        return info.split(" score ")[1].split(" nodes")[0]

    assert final_score("classic") != final_score("nnue") == final_score("auto")


def test_a_residual_network_corrects_the_classic_evaluation(tmp_path: Path) -> None:
    # All weights zero but the output's bias: the network says +100 cp everywhere.
    arrays = {name: np.zeros_like(array) for name, array in random_arrays(4).items()}
    arrays["b3"] = np.array([100 * QA * QB // 400], dtype=np.int32)
    for residual, path in ((1, tmp_path / "residual.npz"), (0, tmp_path / "whole.npz")):
        np.savez(path, **arrays, out_scale=np.array([400]), residual=np.array([residual]))
    position = Position.from_board(Board(MIDGAME))
    state, history, rules = position.state, position.history, position.compiled_rules
    classic = static_eval(position)
    cases = ((tmp_path / "residual.npz", classic + 100), (tmp_path / "whole.npz", 100))
    for path, expected in cases:
        params = with_network(default_params(), load_network(path))
        assert adds_classic(params) == (path.stem == "residual")
        assert int(cached_eval(state, history, rules, params, new_work())) == expected
    bad = tmp_path / "bad_residual.npz"
    np.savez(bad, **arrays, out_scale=np.array([400]), residual=np.array([2]))
    with pytest.raises(NetworkFileError, match="residual must be 0 or 1"):
        load_network(bad)

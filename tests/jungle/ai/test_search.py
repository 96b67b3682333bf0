"""The search: den wins and defences on hand-made positions, draws, limits, levels."""

from __future__ import annotations

import random
import threading
import time

import pytest
from tests.support.multipv import assert_lines_best_first

from doushouqi.jungle.ai import Searcher, best_move
from doushouqi.jungle.ai.levels import choose_root_move, settings_for
from doushouqi.jungle.ai.search_driver import DEFAULT_TUNING
from doushouqi.jungle.analysis import Limit, Score
from doushouqi.jungle.board import Board

# Red to move in each; the comment says why the answer is the only one.
DEN_WINS = [
    # The wolf on the trap c9 enters the den; taking the leopard (a5) is a decoy.
    pytest.param("2W4/7/7/7/p6/E6/7/7/7 w", "c9d9", 1, id="den-in-1"),
    # Tiger to the unguarded trap d8, then the den; taking the cat (g3) is a decoy.
    pytest.param("7/7/3T3/7/r6/7/6c/6E/7 w", "d7d8", 2, id="den-in-2"),
    # The lion walks d7-d8-d9; the rat (a1) is one move too slow to race to our den.
    pytest.param("7/7/7/3L3/7/7/7/7/r6 w", "d6d7", 3, id="den-in-3"),
]

DEFENCES = [
    # Blue's wolf on our trap c1 enters the den next move: only the cat can take it (rank 0
    # in our trap); taking the leopard with the lion loses at once.
    pytest.param("7/7/7/p6/L6/7/7/7/1Cw4 w", "b1c1", id="capture-the-intruder"),
    # Blue's wolf (b1) steps into the unguarded trap c1 next: only c3c2 guards it.
    pytest.param("7/7/6e/7/7/7/2D4/7/1w5 w", "c3c2", id="guard-the-trap"),
]


@pytest.fixture(scope="module")
def engine() -> Searcher:
    engine = Searcher(hash_mb=8, seed=1)
    engine.warm_up()
    return engine


@pytest.mark.parametrize(("fen", "answer", "moves"), DEN_WINS)
def test_finds_the_fastest_den(engine: Searcher, fen: str, answer: str, moves: int) -> None:
    engine.new_game()
    result = engine.search(Board(fen), Limit(depth=2 * moves + 1))
    assert str(result.move) == answer
    assert result.info["score"] == Score(mate=moves)
    assert str(result.info["pv"][0]) == answer


@pytest.mark.parametrize(("fen", "answer"), DEFENCES)
def test_avoids_losing_the_den(engine: Searcher, fen: str, answer: str) -> None:
    engine.new_game()
    result = engine.search(Board(fen), Limit(depth=6))
    assert str(result.move) == answer


def test_den_score_stops_a_timed_search_early(engine: Searcher) -> None:
    started = time.perf_counter()
    result = engine.search(Board("2W4/7/7/7/p6/E6/7/7/7 w"), Limit(movetime=5.0))
    assert str(result.move) == "c9d9"
    assert time.perf_counter() - started < 1.0


def test_takes_the_draw_by_repetition_when_lost(engine: Searcher) -> None:
    # Blue (a lone elephant) is lost on material; g8g9 makes the position stand a third time.
    board = Board("5le/7/7/7/7/7/2T1E2/7/L6 w")
    board.replay(["a1b1", "g9g8", "b1a1", "g8g9", "a1b1", "g9g8", "b1a1"])
    result = engine.search(board, Limit(depth=5))
    assert str(result.move) == "g8g9"
    # Behind, the engine values a draw above an equal position (the contempt by lead), and
    # far above the rest.
    score = result.info["score"]
    assert score.cp is not None and score.cp > 0, score
    engine.tuning["contempt_behind_gain"] = 0  # the plain contempt: a little less than zero
    engine.new_game()  # no draw scores of the other contempt in the table
    try:
        result = engine.search(board, Limit(depth=5))
    finally:
        engine.tuning["contempt_behind_gain"] = DEFAULT_TUNING["contempt_behind_gain"]
    assert str(result.move) == "g8g9"
    assert result.info["score"] == Score(cp=-engine.tuning["contempt"])


def test_transposition_table_speeds_up_a_repeated_search(engine: Searcher) -> None:
    board = Board()
    engine.new_game()
    first = engine.search(board, Limit(depth=7))
    second = engine.search(board, Limit(depth=7))
    # The table may pick another move of equal worth; the score stays close, the work shrinks.
    assert second.move in board.legal_moves
    assert abs(second.info["score"].value() - first.info["score"].value()) <= 30
    assert second.info["nodes"] < first.info["nodes"] / 2


def test_game_over_positions_have_no_move(engine: Searcher) -> None:
    den_entered = Board("3W3/7/7/7/7/7/7/7/r6 b")
    assert engine.search(den_entered, Limit(depth=3)).move is None
    no_animals = Board("7/7/7/7/7/7/7/7/L6 b")
    assert engine.search(no_animals, Limit(depth=3)).move is None
    drawn = Board()
    drawn.replay(["g1f1", "a9b9", "f1g1", "b9a9", "g1f1", "a9b9", "f1g1", "b9a9"])
    assert drawn.is_game_over()
    assert engine.search(drawn, Limit(depth=3)).move is None
    with pytest.raises(ValueError, match="game is over"):
        best_move(den_entered, movetime=0.1)


def test_no_legal_move_loses() -> None:
    # Blue's rat (a9) is boxed in by Red's lion (b9) and tiger (a8) it cannot take (困毙);
    # Red to move wins by keeping it so: any waiting move of the elephant.
    board = Board("rL5/T6/7/7/7/7/7/7/6E b")
    assert not list(board.legal_moves)
    assert Searcher(hash_mb=1).search(board, Limit(depth=2)).move is None


def test_stop_ends_an_infinite_search(engine: Searcher) -> None:
    board = Board()
    results = []
    thread = threading.Thread(
        target=lambda: results.append(engine.search(board, Limit(infinite=True)))
    )
    thread.start()
    time.sleep(0.3)
    assert thread.is_alive(), "an infinite search waits for stop"
    started = time.perf_counter()
    engine.stop()
    thread.join(2.0)
    assert not thread.is_alive()
    assert time.perf_counter() - started < 0.5
    assert results[0].move in board.legal_moves


def test_node_limit_is_respected(engine: Searcher) -> None:
    for nodes in (1, 500, 5000):
        result = engine.search(Board(), Limit(nodes=nodes))
        assert result.move in Board().legal_moves
        assert result.info["nodes"] <= nodes


def test_fixed_depth_search_is_deterministic() -> None:
    board = Board()
    board.replay(["g3g4", "a7a6", "c3d3"])
    results = [Searcher(hash_mb=4).search(board, Limit(depth=6)) for _ in range(2)]
    assert results[0].move == results[1].move
    assert results[0].info["score"] == results[1].info["score"]
    assert results[0].info["nodes"] == results[1].info["nodes"]


def test_every_level_plays_legal_moves_in_random_positions() -> None:
    rng = random.Random(7)
    engine = Searcher(hash_mb=4, seed=3)
    for level in (1, 2, 5):
        board = Board()
        for _ in range(30):
            if board.is_game_over():
                break
            move = engine.search(board, Limit(movetime=0.05), level=level).move
            assert move in board.legal_moves
            # Mix in random moves so that the positions are not just the engine's own.
            board.push(move if rng.random() < 0.5 else rng.choice(list(board.legal_moves)))


def test_level_one_enters_the_den_takes_a_free_animal_and_varies() -> None:
    engine = Searcher(hash_mb=4, seed=5)
    den = Board("2W4/7/7/6c/p6/E6/7/7/7 w")
    assert all(str(engine.search(den, Limit(depth=1), level=1).move) == "c9d9" for _ in range(5))
    # The elephant on a4 may take the leopard on a5 for free.
    free = Board("7/7/3e3/7/p6/E6/7/7/6R w")
    taken = sum(str(engine.search(free, Limit(depth=1), level=1).move) == "a4a5" for _ in range(20))
    assert taken >= 15, taken
    # In a quiet position a beginner does not always play the same move.
    start = {str(engine.search(Board(), Limit(depth=1), level=1).move) for _ in range(20)}
    assert len(start) >= 3, start


def test_choose_root_move_keeps_to_the_margin() -> None:
    settings = settings_for(3)
    rng = random.Random(1)
    picks = {choose_root_move([0, -10, -2000, 5], settings, rng) for _ in range(200)}
    assert 2 not in picks and picks >= {0, 3}
    assert choose_root_move([0, 50, -5], settings_for(10)) == 1


def test_a_root_that_fails_low_claims_no_best_move() -> None:
    # With every move below alpha, the scores are only upper bounds: none may be taken for a
    # better move (an interrupted re-search would otherwise play it; see the driver).
    from doushouqi.jungle.ai import search, ttable
    from doushouqi.jungle.ai import work as layout
    from doushouqi.jungle.ai.core import Position
    from doushouqi.jungle.ai.eval_params import default_params
    from doushouqi.jungle.ai.tbprobe import empty_tables

    position = Position("2l4/E6/7/7/3e3/4R2/1C1D3/3L3/5t1 w")
    tt, work, params = ttable.new_tt(1), layout.new_work(), default_params()
    work[layout.C_DANGER_RADIUS] = 3
    count = search.prepare_root(position.state, position.history, position.compiled_rules,
                                tt, work, params)  # fmt: skip
    order = work[layout.W_ROOT_MOVES : layout.W_ROOT_MOVES + count].copy()
    alpha = ttable.DEN_BOUND
    tb_values, tb_meta = empty_tables()
    score = search.search_root(position.state, position.history, position.compiled_rules, tt,
                               work, params, tb_values, tb_meta, 4, alpha, alpha + 1,
                               False)  # fmt: skip
    assert score <= alpha
    assert work[layout.C_BEST_MOVE] == 0
    assert list(work[layout.W_ROOT_MOVES : layout.W_ROOT_MOVES + count]) == list(order)


# Positions whose MultiPV search (depth 5, three lines) finds a later line of some depth scoring
# above an earlier one (the search's window and table differ between lines).
_INVERTED_LINES = [
    "l6/d3tc1/rp2w1e/7/7/E6/1W2P1R/2C3D/T5L b 15 8",
    "l5t/2d3c/rp1w3/6e/E5R/7/2W1PD1/7/TC2L2 b 15 8",
]


@pytest.mark.parametrize("fen", _INVERTED_LINES)
def test_multipv_lines_of_each_depth_come_best_first_and_the_move_is_the_best_line(
    fen: str,
) -> None:
    infos: list[dict[str, object]] = []
    result = Searcher().search(Board(fen), Limit(depth=5), level=10, on_info=infos.append,
                               multipv=3)  # fmt: skip
    assert_lines_best_first(infos, result.move, depth=5, lines=3)

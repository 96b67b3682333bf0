"""The Tiger's actions and observation planes (doushouqi.tiger.rl.encoding) and the action
board that plays them (doushouqi.tiger.rl.action_board): the legal actions are exactly the
library's legal moves, along random games of every named rule set and of variants with every
option the actions depend on (multi-jump chains included)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.tiger.helpers import place
from tests.tiger.rl.games import RULE_SETS, moves_by_actions, random_game, rule_id, variant

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import (
    JUMPS,
    NEIGHBOURS,
    NUM_POINTS,
    Diagonals,
    parse_point,
    point_name,
)
from doushouqi.tiger.rl import (
    MAX_ACTIONS,
    NUM_PLANES,
    OBSERVATION_SHAPE,
    PLANE_NAMES,
    STOP_ACTION,
    ActionBoard,
    IllegalActionError,
    action_name,
    action_to_pair,
    encode_observation,
    num_actions,
    pair_to_action,
)
from doushouqi.tiger.rules import BUILTIN_RULE_SETS

P = parse_point


def plane(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[PLANE_NAMES.index(name)]


def cell(name: str) -> tuple[int, int]:
    """The (row, file) of a point in the observation grid."""
    return int(name[1:]) - 1, "abcdefghi".index(name[0])


def segments(diagonals: Diagonals) -> set[tuple[int, int]]:
    return {(a, b) for a in range(NUM_POINTS) for b in NEIGHBOURS[diagonals][a]} | {
        (a, land) for a in range(NUM_POINTS) for _over, land in JUMPS[diagonals][a]
    }


# --- the action table ---------------------------------------------------------------------------


def test_every_action_is_one_segment_and_back() -> None:
    seen = set()
    for action in range(1, MAX_ACTIONS):
        pair = action_to_pair(action)
        assert pair_to_action(*pair) == action and pair not in seen
        seen.add(pair)
    assert seen == segments(Diagonals.ALL)
    assert action_name(STOP_ACTION) == "stop"
    assert action_name(pair_to_action(P("e10"), P("e9"))) == "e10e9"


def test_action_spaces_are_nested_by_the_diagonals_option() -> None:
    # Each option's segments are the first actions: an action means the same under all three.
    assert [num_actions(d) for d in Diagonals] == [577, 597, 1057]
    assert num_actions(Diagonals.ALL) == MAX_ACTIONS
    for diagonals in Diagonals:
        size = num_actions(diagonals)
        assert {action_to_pair(a) for a in range(1, size)} == segments(diagonals)
    assert num_actions(BUILTIN_RULE_SETS["laohuqi-south"]) == 577


def test_non_segments_and_bad_actions_are_refused() -> None:
    with pytest.raises(ValueError, match="stop"):
        action_to_pair(STOP_ACTION)
    with pytest.raises(ValueError, match="outside"):
        action_to_pair(MAX_ACTIONS)
    with pytest.raises(ValueError, match="no action"):
        pair_to_action(P("a1"), P("a4"))


# --- legal actions are the library's legal moves ------------------------------------------------


def check_actions_match_library(board: Board) -> None:
    game = ActionBoard(board.copy())
    made = moves_by_actions(game)
    if board.outcome() is not None:
        assert made == {} and not game.action_mask().any()
        return
    assert set(made) == set(board.generate_legal_moves())
    mask = game.action_mask()
    assert mask.shape == (num_actions(board.rules),)
    assert set(np.flatnonzero(mask)) == {pair_to_action(*m.path[:2]) for m in made}
    for move, actions in made.items():
        assert game.move_to_actions(move) == actions
        # Every action of a move but the last leaves the chain open; only a chain ends in stop.
        assert (actions[-1] == STOP_ACTION) == (len(actions) > len(move.path) - 1)


@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_id)
def test_actions_make_exactly_the_legal_moves_along_random_games(rules) -> None:
    for seed in range(2):
        for board in random_game(rules, seed, max_plies=200):
            check_actions_match_library(board)


@settings(max_examples=25, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_masks_match_along_more_random_games(rules, seed) -> None:
    for ply, board in enumerate(random_game(rules, seed, max_plies=400)):
        if ply % 5 == 0:
            check_actions_match_library(board)


def test_a_chain_is_one_action_a_jump_then_stop_or_on() -> None:
    rules = variant(multi_jump=True)
    # Tiger e5, men e6 f7 g6 f5: e5e7g7g5e5 takes the four and comes back to its start.
    fen = place("e5", "e6 f7 g6 f5 a1 b1 c1 d1", "t")
    game = ActionBoard(Board(fen, rules))
    made = moves_by_actions(game)
    loop = Move.from_str("e5e7g7g5e5")
    assert made[loop] == [pair_to_action(a, b) for a, b in pairwise(loop.path)]
    first = pair_to_action(P("e5"), P("e7"))
    assert game.apply(first) is None and game.chain_string() == "e5e7" and game.turn == 0
    assert game.outcome() is None and game.board.ply() == 0  # nothing pushed yet
    assert game.legal_actions() == sorted([STOP_ACTION, pair_to_action(P("e7"), P("g7"))])
    with pytest.raises(IllegalActionError, match="chain is open"):
        game.apply(pair_to_action(P("e7"), P("e8")))  # a step: the chain only jumps on
    with pytest.raises(IllegalActionError, match="chain is open"):
        game.push_move(Move.from_str("a1a2"))
    assert game.apply(STOP_ACTION) == Move.from_str("e5e7")
    assert game.board.peek() == Move.from_str("e5e7") and game.turn == 1
    with pytest.raises(IllegalActionError, match="no jump chain"):
        game.apply(STOP_ACTION)


def test_illegal_actions_say_why() -> None:
    game = ActionBoard(Board())
    assert "outside" in game.explain_illegal(MAX_ACTIONS)
    assert game.explain_illegal(pair_to_action(P("e10"), P("e8"))) == "e10e8: no man on e9 to jump"
    reason = game.explain_illegal(pair_to_action(P("e2"), P("e3")))
    assert reason == "e2e3: the man on e2 is not to move: it is the tiger side's turn"
    assert game.explain_illegal(pair_to_action(P("e10"), P("e9"))) is None
    with pytest.raises(IllegalActionError, match="illegal move"):
        game.push_move(Move.from_str("e10e8"))
    with pytest.raises(IllegalActionError):
        game.move_to_actions("e2e3")


def test_no_legal_action_once_the_game_is_drawn() -> None:
    board = Board(rules=variant(max_rounds=1))
    board.push_move("e10e9")
    board.push_move("a1a2")  # round 1 done: a draw, though moves stay on the board
    game = ActionBoard(board)
    assert game.outcome().key == "max_rounds" and board.has_legal_move()
    assert game.legal_actions() == [] and "game is over" in game.explain_illegal(555)


# --- observation --------------------------------------------------------------------------------


def test_plane_names_are_documented_once_each() -> None:
    import doushouqi.tiger.rl.encoding as encoding

    assert len(PLANE_NAMES) == len(set(PLANE_NAMES)) == NUM_PLANES == 16
    for name in PLANE_NAMES:
        assert name in encoding.__doc__, name


def test_start_position_planes() -> None:
    obs = encode_observation(Board())
    assert obs.shape == OBSERVATION_SHAPE == (16, 11, 9) and obs.dtype == np.float32
    assert plane(obs, "tigers")[cell("e10")] == 1 and plane(obs, "tigers").sum() == 1
    assert plane(obs, "men").sum() == 12 and plane(obs, "men")[cell("d2")] == 1
    points = plane(obs, "points")
    assert points.sum() == 87 and points[10, 3:6].all() and not points[10, :3].any()
    off_board = points == 0
    assert not obs[:, off_board].any()  # every plane is 0 beside the nest
    assert not plane(obs, "men to move").any()
    assert not plane(obs, "diagonal up-right").any()  # laohuqi: no diagonals
    assert (plane(obs, "men retreat") == points).all()
    assert (plane(obs, "win by captures") == points).all()
    assert not plane(obs, "multi jump").any() and not plane(obs, "round limit").any()
    assert np.allclose(plane(obs, "captures to win")[points == 1], 9 / 18)  # 12 - 4 + 1
    assert not plane(obs, "men in danger").any() and not plane(obs, "chain tiger").any()


def test_diagonal_planes_draw_the_option() -> None:
    nest = encode_observation(Board(rules=variant(diagonals="nest")))
    up_right = plane(nest, "diagonal up-right")
    assert up_right[cell("d9")] == up_right[cell("e10")] == 1 and up_right.sum() == 4
    assert plane(nest, "diagonal up-left")[cell("f9")] == 1
    every = encode_observation(Board(rules=variant(diagonals="all")))
    assert plane(every, "diagonal up-right").sum() == 8 * 8 + 4  # every square, the nest's four too
    assert plane(every, "diagonal up-right")[cell("a1")] == 1
    assert plane(every, "diagonal up-left")[cell("a1")] == 0


def test_men_in_danger_chain_and_counters() -> None:
    rules = variant(multi_jump=True, max_rounds=40)
    fen = place("e5", "e6 f7 f5 e4 a1 b1 c1", "m", number=11)
    obs = encode_observation(Board(fen, rules))
    danger = plane(obs, "men in danger")
    rows, files = np.nonzero(danger)
    assert set(zip(rows, files, strict=True)) == {cell("e6"), cell("f5"), cell("e4")}
    assert (plane(obs, "men to move") == plane(obs, "points")).all()
    assert np.allclose(plane(obs, "round clock")[cell("a1")], 10 / 40)
    assert plane(obs, "multi jump")[cell("a1")] == 1
    # The tiger side opens a chain: the observation shows the jump made.
    game = ActionBoard(Board(fen.replace(" m ", " t "), rules))
    game.apply(pair_to_action(P("e5"), P("e7")))
    obs = game.observation()
    assert plane(obs, "tigers")[cell("e7")] == 1 and plane(obs, "tigers")[cell("e5")] == 0
    assert plane(obs, "men")[cell("e6")] == 0 and plane(obs, "men").sum() == 6
    assert np.nonzero(plane(obs, "chain tiger")) == (np.array([6]), np.array([4]))  # e7
    danger = plane(obs, "men in danger")
    assert danger[cell("f7")] == 1 and danger.sum() == 1  # only the chain's tiger counts


@settings(max_examples=15, deadline=None)
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 2**32 - 1))
def test_pieces_planes_are_the_board_along_random_games(rules, seed) -> None:
    for board in random_game(rules, seed, max_plies=150):
        obs = encode_observation(board)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        points = plane(obs, "points") == 1
        assert not obs[:, ~points].any()
        for name, code in (("tigers", 1), ("men", 2)):
            marked = {(int(r), int(f)) for r, f in zip(*np.nonzero(plane(obs, name)), strict=True)}
            on_board = {
                cell(point_name(p)) for p, piece in enumerate(board.pieces()) if piece == code
            }
            assert marked == on_board, name
        men_to_move = plane(obs, "men to move")[points]
        assert (men_to_move == board.turn).all()


def test_repetition_plane() -> None:
    board = Board()
    for move in ["e10e9", "a1a2", "e9e10", "a2a1"]:
        board.push_move(move)
    obs = encode_observation(board)
    points = plane(obs, "points") == 1
    assert (plane(obs, "repetition")[points] == 0.5).all()  # the second time
    assert not plane(obs, "repetition")[~points].any()

"""The OpenSpiel game (doushouqi.jungle.rl.openspiel_game): random games checked step by step
against the rules library, OpenSpiel's own consistency checks, and its MCTS playing the game."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from doushouqi import BUILTIN_RULE_SETS, Board  # noqa: E402
from doushouqi.jungle.rl import action_to_move, encode_observation, move_to_action  # noqa: E402
from doushouqi.jungle.rl.common import DEFAULT_MAX_PLIES, outcome_info, reward_by_color  # noqa: E402
from doushouqi.jungle.rl.openspiel_game import GAME_NAME  # noqa: E402

RULE_SETS = list(BUILTIN_RULE_SETS)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_games_agree_with_the_library_step_by_step(rules) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules})
    assert game.max_game_length() == DEFAULT_MAX_PLIES
    rng = np.random.default_rng(7)
    for _ in range(2):
        state = game.new_initial_state()
        board = Board(rules=rules)
        while True:
            outcome = board.outcome()
            assert state.is_terminal() == (outcome is not None or board.ply() >= DEFAULT_MAX_PLIES)
            if state.is_terminal():
                break
            player = state.current_player()
            assert player == board.turn
            legal = state.legal_actions()
            assert legal == sorted(legal)
            assert {action_to_move(a, player) for a in legal} == set(board.legal_moves)
            assert state.legal_actions(1 - player) == []
            observation = np.asarray(state.observation_tensor(player)).reshape(31, 9, 7)
            assert np.array_equal(observation, encode_observation(board, player))
            action = int(rng.choice(legal))
            assert state.action_to_string(player, action) == str(action_to_move(action, player))
            state.apply_action(action)
            board.push(action_to_move(action, player))
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.returns() == list(reward_by_color(outcome))
        assert state.outcome == (None if outcome is None else outcome_info(outcome))
        assert sum(state.returns()) == 0.0


def test_openspiel_random_simulation_checks_pass() -> None:
    # OpenSpiel's own API conformance test, serialisation included (short games: a limit).
    for rules in ("wango", "classic"):
        game = pyspiel.load_game(GAME_NAME, {"rules": rules, "max_plies": 200})
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules=classic-dog,max_plies=50)")
    game_type = game.get_type()
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 504 and game.num_players() == 2
    assert game.max_game_length() == 50 and game.observation_tensor_shape() == [31, 9, 7]
    assert game.rules.name == "classic-dog"
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.board.ply() <= 50
    if state.board.ply() == 50 and state.board.outcome() is None:
        assert state.returns() == [0.0, 0.0] and state.outcome is None  # the limit: a draw
    with pytest.raises(Exception, match="max_plies"):
        pyspiel.load_game(GAME_NAME, {"max_plies": 0})


def test_start_position_parameter_and_strings() -> None:
    fen = "l5t/1d3c1/r1p1w1e/7/E6/7/2W1P1R/1C3D1/T5L b 1 1"
    game = pyspiel.load_game(GAME_NAME, {"fen": fen})
    state = game.new_initial_state()
    assert state.current_player() == 1 and state.board.fen() == fen
    action = state.string_to_action("g7g6")
    assert action == move_to_action(Board(fen).parse_move("g7g6"), 1)
    state.apply_action(action)
    assert state.information_state_string(0) == f"{fen} moves g7g6"
    assert state.observation_string(0) == str(state)
    assert str(state).splitlines()[-1] == "last move: g7g6"
    with pytest.raises(Exception, match="already over"):
        pyspiel.load_game(GAME_NAME, {"fen": "3L3/7/7/7/7/7/7/7/r6 b"})


def test_clone_and_pickle_keep_the_history() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "classic"})
    state = game.new_initial_state()
    for text in ("a3a4", "g7g6", "a4a5"):
        state.apply_action(state.string_to_action(text))
    clone = state.clone()
    assert clone.history() == state.history() and clone.board.move_stack == state.board.move_stack
    clone.apply_action(clone.legal_actions()[0])
    assert state.board.ply() == 3 and clone.board.ply() == 4  # independent boards
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history() and restored.board.fen() == state.board.fen()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def make_mcts_bot(game, simulations: int, seed: int):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=evaluator,
        solve=True,
        random_state=np.random.RandomState(seed),
    )


def test_mcts_finds_the_winning_den_entry() -> None:
    game = pyspiel.load_game(GAME_NAME, {"fen": "2L4/7/7/7/7/7/7/7/r6 w"})  # Red lion c9
    state = game.new_initial_state()
    action = make_mcts_bot(game, simulations=30, seed=0).step(state)
    assert state.action_to_string(0, action) == "c9d9"
    state.apply_action(action)
    assert state.returns() == [1.0, -1.0]


def test_mcts_plays_a_few_legal_moves() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "international", "max_plies": 80})
    bots = [make_mcts_bot(game, simulations=6, seed=seed) for seed in (1, 2)]
    state = game.new_initial_state()
    board = Board(rules="international")
    for _ in range(4):
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        board.push(action_to_move(action, player))
    assert state.board.fen() == board.fen()


def test_python_alpha_beta_and_evaluate_bots_play_the_game() -> None:
    # OpenSpiel's Python minimax and bot evaluation run on this Python game (so does C++'s
    # evaluate_bots; pyspiel.MCTSBot does not: bench/openspiel_algorithms.py, docs/rl.md).
    from open_spiel.python.algorithms import evaluate_bots, minimax

    endgame = pyspiel.load_game(GAME_NAME, {"fen": "2L4/7/7/7/7/7/7/7/r6 w"})  # Red lion c9
    state = endgame.new_initial_state()
    value, action = minimax.alpha_beta_search(
        endgame, state, value_function=lambda _: 0.0, maximum_depth=2, maximizing_player_id=0
    )
    assert value == 1.0 and state.action_to_string(0, action) == "c9d9"
    game = pyspiel.load_game(GAME_NAME, {"max_plies": 40})
    bots = [pyspiel.make_uniform_random_bot(player, player) for player in (0, 1)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert pyspiel.evaluate_bots(game.new_initial_state(), bots, 0) in ([1, -1], [-1, 1], [0, 0])

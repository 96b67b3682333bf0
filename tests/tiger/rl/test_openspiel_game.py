"""The Tiger's OpenSpiel game (doushouqi.tiger.rl.openspiel_game): random games checked step by
step against the rules library, OpenSpiel's own random-simulation test, parameters, and its
MCTS playing the game."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from tests.tiger.helpers import place  # noqa: E402

from doushouqi.core.game import RulesError  # noqa: E402
from doushouqi.tiger.board import Board  # noqa: E402
from doushouqi.tiger.rl import ActionBoard, action_name, encode_observation  # noqa: E402
from doushouqi.tiger.rl.common import DEFAULT_MAX_PLIES, outcome_info, reward_by_seat  # noqa: E402
from doushouqi.tiger.rl.openspiel_game import GAME_NAME, parse_options  # noqa: E402
from doushouqi.tiger.rules import BUILTIN_RULE_SETS  # noqa: E402

#: (rules, options) pairs: every named rule set, and variants with multi-jump chains.
GAMES = [(name, "") for name in BUILTIN_RULE_SETS] + [
    ("laohuqi", "multi_jump:true diagonals:all"),
    ("laohuqi-south", "multi_jump:true;capture_mandatory:true;diagonals:nest"),
]
CHAIN_FEN = place("e5", "e6 f7 g6 f5 a1 b1 c1", "t")


@pytest.mark.parametrize(("rules", "options"), GAMES)
def test_random_games_agree_with_the_library_step_by_step(rules, options) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "options": options})
    rule_set = parse_options(rules, options)
    assert game.max_game_length() == DEFAULT_MAX_PLIES + (rule_set.men * rule_set.multi_jump)
    rng = np.random.default_rng(7)
    for _ in range(2):
        state = game.new_initial_state()
        twin = ActionBoard(Board(rules=rule_set))
        while True:
            outcome = twin.outcome()
            assert state.is_terminal() == (outcome is not None or twin.board.ply() >= 2000)
            if state.is_terminal():
                break
            player = state.current_player()
            assert player == twin.turn
            legal = state.legal_actions()
            assert legal == twin.legal_actions()
            assert state.legal_actions(1 - player) == []
            observation = np.asarray(state.observation_tensor(player)).reshape(16, 11, 9)
            assert np.array_equal(observation, encode_observation(twin.board, twin.chain))
            action = int(rng.choice(legal))
            assert state.action_to_string(player, action) == action_name(action)
            state.apply_action(action)
            twin.apply(action)
        assert len(state.history()) <= game.max_game_length()
        assert state.returns() == list(reward_by_seat(outcome))
        assert state.outcome == (None if outcome is None else outcome_info(outcome))
        assert state.board.move_stack == twin.board.move_stack


@pytest.mark.parametrize(
    "parameters",
    [
        {"rules": "laohuqi", "max_plies": 300},
        {"rules": "laohuqi-south", "max_plies": 300},
        {"rules": "laohuqi", "options": "multi_jump:true diagonals:all", "max_plies": 300},
    ],
)
def test_openspiel_random_simulation_checks_pass(parameters) -> None:
    # OpenSpiel's own API conformance test, serialisation included (short games: a limit).
    game = pyspiel.load_game(GAME_NAME, parameters)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game(f"{GAME_NAME}(rules=laohuqi-18,options=diagonals:all,max_plies=50)")
    game_type = game.get_type()
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 1057 and game.num_players() == 2
    assert game.max_game_length() == 50 and game.observation_tensor_shape() == [16, 11, 9]
    assert game.rules.men == 18 and game.rules.diagonals.value == "all"
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.board.ply() <= 50
    if state.board.outcome() is None:
        assert state.returns() == [0.0, 0.0] and state.outcome is None  # the limit: a draw
    chains = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "max_plies": 50})
    assert chains.max_game_length() == 50 + 12
    with pytest.raises(Exception, match="max_plies"):
        pyspiel.load_game(GAME_NAME, {"max_plies": 0})
    with pytest.raises(Exception, match="unknown rule set"):
        pyspiel.load_game(GAME_NAME, {"rules": "wango"})
    with pytest.raises(RulesError, match="expected key:value"):
        parse_options("laohuqi", "multi_jump")
    with pytest.raises(RulesError, match="unknown option 'jumps'"):
        parse_options("laohuqi", "jumps:2")
    assert parse_options("laohuqi", " ") is BUILTIN_RULE_SETS["laohuqi"]


def test_a_chain_keeps_the_current_player_and_the_strings_show_it() -> None:
    game = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "fen": CHAIN_FEN})
    state = game.new_initial_state()
    assert state.current_player() == 0
    state.apply_action(state.string_to_action("e5e7"))
    assert state.current_player() == 0 and state.legal_actions()[0] == 0  # stop
    assert state.information_state_string(1) == f"{CHAIN_FEN} moves chain e5e7"
    assert "jump chain open: e5e7" in state.observation_string(0)
    state.apply_action(state.string_to_action("stop"))
    assert state.current_player() == 1 and str(state.board.peek()) == "e5e7"
    assert state.information_state_string(0) == f"{CHAIN_FEN} moves e5e7"


def test_clone_and_pickle_keep_the_history_and_the_chain() -> None:
    game = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "fen": CHAIN_FEN})
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("e5e7"))
    clone = state.clone()
    assert clone.history() == state.history() and clone.action_board.chain_string() == "e5e7"
    clone.apply_action(clone.string_to_action("stop"))
    assert state.action_board.chain_string() == "e5e7" and state.board.ply() == 0  # independent
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history()
    assert restored.action_board.chain_string() == "e5e7"
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


def test_mcts_plays_the_winning_chain() -> None:
    game = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "fen": CHAIN_FEN})
    state = game.new_initial_state()
    bot = make_mcts_bot(game, simulations=200, seed=0)
    while not state.is_terminal():
        assert state.current_player() == 0  # the tiger's chain: one player to the end
        state.apply_action(bot.step(state))
    assert state.returns() == [1.0, -1.0] and len(state.board.move_stack[0].path) == 5


def test_mcts_plays_a_few_legal_moves() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "laohuqi", "max_plies": 80})
    bots = [make_mcts_bot(game, simulations=6, seed=seed) for seed in (1, 2)]
    state = game.new_initial_state()
    for _ in range(4):
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.board.ply() == 4


def test_python_alpha_beta_and_evaluate_bots_play_the_game() -> None:
    # OpenSpiel's Python minimax and bot evaluation run on this Python game (so does C++'s
    # evaluate_bots; pyspiel.MCTSBot does not: bench/openspiel_algorithms.py, docs/rl.md).
    from open_spiel.python.algorithms import evaluate_bots, minimax

    chains = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "fen": CHAIN_FEN})
    state = chains.new_initial_state()
    value, action = minimax.alpha_beta_search(
        chains, state, value_function=lambda _: 0.0, maximum_depth=4, maximizing_player_id=0
    )
    assert value == 1.0 and state.action_to_string(0, action) in ("e5e7", "e5g5")  # round 4 men
    game = pyspiel.load_game(GAME_NAME, {"max_plies": 40})
    bots = [pyspiel.make_uniform_random_bot(player, player) for player in (0, 1)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert pyspiel.evaluate_bots(game.new_initial_state(), bots, 0) in ([1, -1], [-1, 1], [0, 0])

"""Taking actions back on the Tiger's OpenSpiel game (LaohuqiState.undo_action): random games,
multi-jump chains included, walked down and up again, and what a wrong undo says."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tests.tiger.helpers import place  # noqa: E402

from doushouqi.tiger.rl.openspiel_game import GAME_NAME  # noqa: E402

GAMES = [
    ("laohuqi", ""),
    ("laohuqi-18", ""),
    ("laohuqi", "multi_jump:true diagonals:all"),
    ("laohuqi-south", "multi_jump:true;capture_mandatory:true;diagonals:nest"),
]
CHAIN_FEN = place("e5", "e6 f7 g6 f5 a1 b1 c1", "t")


def snapshot(state) -> tuple:
    return (
        state.board.position_string(),
        state.action_board.chain,
        state.history(),
        state.move_number(),
        state.current_player(),
        state.legal_actions(),
        state.is_terminal(),
        state.returns(),
        str(state),
    )


@pytest.mark.parametrize(("rules", "options"), GAMES)
def test_undo_walks_random_games_back_to_every_earlier_state(rules, options) -> None:
    parameters = {"rules": rules, "options": options, "max_plies": 150}
    state = pyspiel.load_game(GAME_NAME, parameters).new_initial_state()
    rng = random.Random(rules + options)
    seen = [snapshot(state)]
    players = []
    while not state.is_terminal():
        players.append(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(snapshot(state))
        if not state.is_terminal() and rng.random() < 0.2:  # a detour taken back, as search does
            player, action = state.current_player(), rng.choice(state.legal_actions())
            state.apply_action(action)
            state.undo_action(player, action)
            assert snapshot(state) == seen[-1]
    for step in reversed(range(len(players))):
        state.undo_action(players[step], state.history()[-1])
        assert snapshot(state) == seen[step]
    assert state.is_initial_state()


def test_undo_reopens_a_finished_chain_jump_by_jump() -> None:
    game = pyspiel.load_game(GAME_NAME, {"options": "multi_jump:true", "fen": CHAIN_FEN})
    state = game.new_initial_state()
    actions = []
    for jump in ("e5e7", "e7g7", "g7g5", "g5e5"):  # round the four men: the chain wins
        actions.append(state.string_to_action(jump))
        state.apply_action(actions[-1])
    assert state.returns() == [1.0, -1.0] and state.board.ply() == 1
    state.undo_action(0, actions[-1])
    assert state.board.ply() == 0 and len(state.action_board.chain) == len(actions)
    assert not state.is_terminal() and state.current_player() == 0
    for action in reversed(actions[:-1]):
        state.undo_action(0, action)
    assert state.action_board.chain == () and state.is_initial_state()
    with pytest.raises(ValueError, match="no action to take back"):
        state.undo_action(0, actions[0])


def test_a_wrong_undo_says_what_the_last_action_is() -> None:
    state = pyspiel.load_game(GAME_NAME).new_initial_state()
    action = state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(ValueError, match=f"the last action is \\(0, {action}\\)"):
        state.undo_action(1, action)
    assert state.history() == [action] and state.clone().history() == [action]

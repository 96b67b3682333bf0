"""Taking actions back on the OpenSpiel game (JungleState.undo_action): random games walked
down and up again, the state's own history, and what a wrong undo says."""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from doushouqi import BUILTIN_RULE_SETS  # noqa: E402
from doushouqi.jungle.rl.openspiel_game import GAME_NAME  # noqa: E402


def snapshot(state) -> tuple:
    return (
        state.board.fen(),
        state.history(),
        state.move_number(),
        state.current_player(),
        state.legal_actions(),
        state.is_terminal(),
        state.returns(),
        str(state),
    )


@pytest.mark.parametrize("rules", list(BUILTIN_RULE_SETS))
def test_undo_walks_random_games_back_to_every_earlier_state(rules) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules, "max_plies": 150})
    rng = random.Random(rules)
    state = game.new_initial_state()
    seen = [snapshot(state)]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        seen.append(snapshot(state))
        if not state.is_terminal() and rng.random() < 0.2:  # a detour taken back, as search does
            player, action = state.current_player(), rng.choice(state.legal_actions())
            state.apply_action(action)
            state.undo_action(player, action)
            assert snapshot(state) == seen[-1]
    history = state.history()
    for player_action in reversed(list(enumerate(history))):
        ply, action = player_action
        state.undo_action(state.board.turn ^ 1, action)
        assert snapshot(state) == seen[ply]
    assert state.is_initial_state() and state.history_str() == ""


def test_clones_and_pickles_of_an_undone_state_keep_its_history() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "classic"})
    state = game.new_initial_state()
    actions = []
    for text in ("a3a4", "g7g6", "a4a5"):
        actions.append(state.string_to_action(text))
        state.apply_action(actions[-1])
    state.undo_action(0, actions[2])
    assert state.history() == actions[:2] and state.move_number() == 2
    assert state.clone().history() == actions[:2]
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == actions[:2] and restored.board.fen() == state.board.fen()
    restored.apply_action(actions[2])
    assert restored.history() == actions and restored.board.ply() == 3


def test_a_wrong_undo_says_what_the_last_action_is() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="no action to take back"):
        state.undo_action(0, 0)
    action = state.legal_actions()[0]
    state.apply_action(action)
    with pytest.raises(ValueError, match=f"the last action is \\(0, {action}\\)"):
        state.undo_action(1, action)
    with pytest.raises(ValueError, match="the last action is"):
        state.undo_action(0, action + 1)
    assert state.history() == [action]

"""What the Jungle position keeps between the server's calls for one move: the move that
parse_move found legal (its names are not checked again) and whether the side to move had
destinations (outcome does not generate the moves again). Each must hold only for the board
state it was made in, whichever way the board changes."""

from __future__ import annotations

import random

import pytest

from doushouqi.core.game import MoveError
from doushouqi.jungle.game import JUNGLE


def _position(fen: str | None = None, rules: str = "wango"):  # type: ignore[no-untyped-def]
    parsed = JUNGLE.parse_rules(rules)
    return JUNGLE.new_position(parsed, fen or JUNGLE.start_position(parsed))


def test_names_of_a_parsed_move_match_the_checked_names() -> None:
    position = _position()
    fresh = _position()
    assert position.parse_move("a3a4") == "a3a4"
    assert position.move_text("a3a4", "en") == fresh.move_text("a3a4", "en") == "Ea3-a4"
    assert position.move_text("a3a4", "zh-Hant") == fresh.move_text("a3a4", "zh-Hant")


def test_a_parsed_move_is_forgotten_when_the_board_changes_underneath() -> None:
    position = _position()
    position.parse_move("g3g4")
    position.board.push_move("a3a4")  # changed through the board, not the position
    # g3g4 is now Blue's turn: no longer playable, and the name must say so again.
    with pytest.raises(MoveError):
        position.move_text("g3g4", "en")


def test_a_parsed_move_is_forgotten_after_push_and_pop() -> None:
    position = _position()
    position.parse_move("g3g4")
    position.push("a3a4")
    with pytest.raises(MoveError):
        position.move_text("g3g4", "en")
    assert position.pop() == "a3a4"
    assert position.move_text("g3g4", "en") == "Rg3-g4"


def test_outcome_after_destinations_is_the_outcome_without_them() -> None:
    # The first: Red's rat hemmed in by Blue's dog and cat, no legal move; then random games.
    rng = random.Random(7)
    for fen in ("rD5/C6/7/7/7/7/7/7/6L w", None):
        position, fresh = _position(fen), _position(fen)
        for _ in range(60):
            position.legal_destinations()
            assert position.outcome() == fresh.outcome()
            if position.outcome() is not None:
                break
            move = rng.choice(position.legal_moves())
            position.push(move)
            fresh.push(move)


def test_destinations_then_a_change_through_the_board_are_not_trusted() -> None:
    position = _position("7/3L3/7/7/7/7/7/7/r6 w")
    assert position.legal_destinations()  # Red has moves here
    position.board.push_move("d8d9")  # the den entered: the game is over
    assert position.outcome() is not None and position.outcome().key == "den_entered"


def test_a_pass_drops_what_was_known() -> None:
    position = _position()
    position.parse_move("a3a4")
    position.push_pass()
    with pytest.raises(MoveError):
        position.move_text("a3a4", "en")

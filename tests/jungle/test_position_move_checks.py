"""What the Jungle position keeps between the server's calls for one move: the move that
parse_move found legal (its names are not checked again) and whether the side to move had
destinations (outcome does not generate the moves again). Each must hold only for the board
state it was made in, whichever way the board changes."""

from __future__ import annotations

import random

import pytest

from doushouqi.core.game import IllegalMoveError, MoveError
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


def _random_game(seed: int, rules: str = "wango", plies: int = 120) -> list[str]:
    rng = random.Random(seed)
    position = _position(rules=rules)
    moves: list[str] = []
    while len(moves) < plies and position.outcome() is None:
        moves.append(rng.choice(position.legal_moves()))
        position.push(moves[-1])
    return moves


def _answer(position, text: str) -> object:  # type: ignore[no-untyped-def]
    try:
        return position.parse_move(text)
    except MoveError as error:
        return type(error), str(error), getattr(error, "code", None)


@pytest.mark.parametrize("rules", ["wango", "classic", "international"])
def test_a_copy_after_destinations_parses_as_a_position_that_knows_nothing(rules: str) -> None:
    # The server's order: destinations after a move, the next move parsed on a copy (which
    # carries the destinations over); every answer, legal or refused, as one checked afresh.
    rng = random.Random(11)
    tries = ["a1a2", "g3g4", "d8d9", "c3c4", "a3a5", "a7a6", "g7g6", "0000"]
    for seed in range(6):
        position = _position(rules=rules)
        for move in _random_game(seed, rules):
            position.legal_destinations()
            for text in (move, rng.choice(tries), *position.legal_moves()[:3]):
                unknowing = position.copy()
                unknowing._changed()
                assert _answer(position.copy(), text) == _answer(unknowing, text)
            position.push(move)


def test_destinations_of_another_history_to_the_same_position_are_not_trusted() -> None:
    # Rule 7-3 (classic): the rat that entered g4 three times may not enter it again. Both
    # histories end in the start position after 8 plies (the same plies and hash); only the
    # rat's forbids g3g4.
    position = _position(rules="classic")
    position.board.replay(["a3a4", "a7a6", "a4a3", "a6a7"] * 2)  # the elephant's
    assert "g4" in position.legal_destinations()["g3"]
    for _ in range(8):
        position.board.pop()
    position.board.replay(["g3g4", "a7a6", "g4g3", "a6a7"] * 2)  # the rat's, through the board
    with pytest.raises(IllegalMoveError) as refused:
        position.parse_move("g3g4")
    assert refused.value.code == "restricted"


def test_both_names_at_once_are_each_name_alone() -> None:
    for seed, rules in enumerate(["wango", "classic", "international", "classic-dog"]):
        position = _position(rules=rules)
        for move in _random_game(seed, rules, plies=80):
            fresh = position.copy()
            fresh._changed()  # nothing known: each name made and checked alone
            position.parse_move(move)
            for lang in ("en", "zh", "zh-Hant", "en"):
                assert position.move_text(move, lang) == fresh.move_text(move, lang)
            position.push(move)

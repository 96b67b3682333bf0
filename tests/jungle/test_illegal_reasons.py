"""Why a move is illegal, for programs: :meth:`Board.explain_illegal` gives the words as before,
and with them a code and the squares and animals they are about (``IllegalReason``), which the
game interface's IllegalMoveError carries to the server (a lesson says it in other words)."""

from __future__ import annotations

import pytest

from doushouqi.core.game import IllegalMoveError, get_game
from doushouqi.jungle.board import Board, IllegalReason, Move

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"
# (position, move, code, details, words)
CASES = [
    (START, "d4d5", "empty", {"from": "d4"}, "there is no animal on d4"),
    (START, "a7a6", "not_yours", {"piece": "rat"}, "the blue rat on a7 is not yours"),
    ("7/7/7/7/7/7/7/3L3/6c w", "d2d1", "own_den", {"piece": "lion"}, "its own den"),
    (START, "a1a3", "own_piece", {"target": "elephant"}, "occupied by your own elephant"),
    ("7/7/7/7/7/7/3D3/7/6c w", "d3d5", "one_step", {"piece": "dog"}, "one square forwards"),
    ("6c/7/7/7/3L3/7/7/7/7 w", "d5b5", "water", {"piece": "lion"}, "only the rat may enter"),
    ("6c/7/7/7/3L3/7/7/7/7 w", "d5d7", "not_step_or_jump", {}, "neither a step nor a lake"),
    ("6c/7/7/7/3D3/7/7/7/7 w", "d5g5", "jump_lion_tiger", {"piece": "dog"}, "only the lion"),
    ("6c/7/7/7/7/3Lr2/7/7/7 w", "d4g4", "rat_blocks", {}, "a rat in the water blocks"),
    ("6c/7/7/7/7/7/2Le3/7/7 w", "c3d3", "too_weak", {"target": "elephant"}, "cannot take"),
    ("6c/7/7/7/7/2Re3/7/7/7 w", "c4d4", "too_weak", {"piece": "rat"}, "cannot take"),
    ("7/3L3/3r3/7/7/7/7/7/6c w", "d8d7", "trapped", {"piece": "lion"}, "enemy trap"),
]


@pytest.mark.parametrize(("fen", "move", "code", "details", "words"), CASES)
def test_a_reason_has_a_code_and_details_beside_its_words(
    fen: str, move: str, code: str, details: dict[str, str], words: str | None
) -> None:
    board = Board(fen)
    reason = board.explain_illegal(Move.from_str(move))
    assert isinstance(reason, IllegalReason) and isinstance(reason, str)
    assert reason.code == code, str(reason)
    assert details.items() <= reason.details.items()
    assert reason.details["from"] == move[:2] and reason.details["to"] == move[2:]
    if words:
        assert words in reason


def test_a_legal_move_has_no_reason() -> None:
    assert Board().explain_illegal(Move.from_str("a3a4")) is None


def test_the_game_interface_carries_the_code() -> None:
    position = get_game("jungle").new_position(get_game("jungle").parse_rules("wango"), START)
    with pytest.raises(IllegalMoveError) as refused:
        position.parse_move("a3b4")
    assert refused.value.code == "water"
    assert refused.value.details == {"from": "a3", "to": "b4", "piece": "elephant"}
    assert "only the rat may enter the water" in str(refused.value)

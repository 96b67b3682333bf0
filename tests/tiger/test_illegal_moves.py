"""An illegal move is refused with IllegalMoveError saying why; a malformed one with MoveError."""

from __future__ import annotations

import pytest
from tests.tiger.helpers import board

from doushouqi.core.game import IllegalMoveError, MoveError
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move

# (tigers, men, side, options, move, reason)
CASES = [
    ("e5", "e6 a1 b1 c1", "t", {}, "d4d5", "there is no piece on d4"),
    ("e5", "e6 a1 b1 c1", "t", {}, "a1a2", "the man on a1 is not to move: it is the tiger side's"),
    ("e5", "e6 a1 b1 c1", "m", {}, "e5e4", "the tiger on e5 is not to move: it is the men's side"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5e6", "e6 is occupied"),
    ("e5", "d5 a1 b1 c1", "m", {}, "a1b1", "b1 is occupied"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5f6", r"e5 and f6 are not joined .*\(diagonals: none\)"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5e8", "e5 and e8 are not joined by a line, nor two points"),
    ("e5", "e6 a1 b1 c1", "m", {}, "a1b2", r"a1 and b2 are not joined by a line \(diagonals"),
    ("e5", "e6 a1 b1 c1", "m", {}, "a1a3", "men never capture: only a tiger jumps"),
    ("e5", "e6 a1 b1 c1", "m", {}, "a1a2a3", "men never capture"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5c5", "no man on d5 to jump"),
    ("e5", "e6 e7 a1 b1", "t", {}, "e5e7", "the landing point e7 is taken"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5g7", r"no line runs from e5 over f6 to g7 \(diagonals"),
    ("e5 e6", "a1 b1 c1 d1", "t", {}, "e5e7", "a tiger never jumps a tiger .on e6."),
    ("e5", "e6 e8 a1 b1", "t", {}, "e5e7e9", r"one jump per move \(multi_jump is off\)"),
    ("e5", "e6 a1 b1 c1", "t", {"multi_jump": True}, "e5e7e5", "no man on e6 to jump .he is"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5e4e3", "a step ends the move: only jumps follow"),
    ("e5", "e6 a1 b1 c1", "t", {"multi_jump": True}, "e5e7e8", "a step ends the move"),
    ("e5", "e6 a1 b1 c1", "t", {}, "e5e5", "a move cannot stay on e5"),
    ("e5", "e6 a1 b1 c1", "t", {"capture_mandatory": True}, "e5e4", "a capture is mandatory"),
    ("e5", "e6 a1 b1 c1", "m", {"men_retreat": False}, "e6e7", None),
    (
        "e9",
        "e6 a1 b1 c1",
        "m",
        {"men_retreat": False},
        "e6e5",
        "men may not retreat .men_retreat is off.: e5 is below e6",
    ),
    ("e5", "e6 d1 c1", "t", {}, "e5e4", "the game is over: 3 men are left, fewer than 4"),
]


@pytest.mark.parametrize(("tigers", "men", "side", "options", "move", "reason"), CASES)
def test_reasons(
    tigers: str, men: str, side: str, options: dict[str, object], move: str, reason: str | None
) -> None:
    b = board(tigers, men, side, **options)
    legal = {str(m) for m in b.generate_legal_moves()}
    if reason is None:
        assert move in legal and b.parse_move(move) == Move.from_str(move)
        return
    assert move not in legal
    with pytest.raises(IllegalMoveError, match=f"illegal move {move}: {reason}"):
        b.parse_move(move)
    assert Move.from_str(move) not in b.legal_moves


def test_illegal_is_a_kind_of_malformed() -> None:
    # A server answers the two apart, but either is a MoveError (a ValueError).
    with pytest.raises(MoveError) as error:
        Board().parse_move("e10e10e10")
    assert isinstance(error.value, IllegalMoveError) and isinstance(error.value, ValueError)
    with pytest.raises(MoveError) as error:
        Board().parse_move("e10")
    assert not isinstance(error.value, IllegalMoveError)


def test_the_pass() -> None:
    b = Board()
    with pytest.raises(IllegalMoveError, match="a pass is no move a player may choose"):
        b.parse_move("0000")
    assert b.push_pass() == Move.null() and b.turn == 1 and b.halfmove_clock == 1
    assert b.pop() == Move.null() and b.turn == 0
    trapped = board("e11", "d11 f11 e10 e9 a1")
    with pytest.raises(IllegalMoveError, match="the tiger side has no legal move"):
        trapped.push_pass()
    over = board("e5", "a1 b1 c1", side="m")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        over.push_pass()


def test_a_push_move_checks_and_a_push_does_not() -> None:
    b = Board()
    with pytest.raises(IllegalMoveError):
        b.push_move("e10e8")
    assert b.ply() == 0
    b.push(Move.from_str("e10e9"))  # trusted: the caller took it from the legal moves
    assert b.ply() == 1


def test_the_diagonals_hint_only_where_an_option_would_draw_the_line() -> None:
    b = board("d10", "a1 b1 c1 d1", diagonals="all")
    with pytest.raises(IllegalMoveError, match=r"d10 and c9 are not joined by a line$"):
        b.parse_move("d10c9")  # no square has both corners: no option joins them
    with pytest.raises(IllegalMoveError, match=r"d10 and e11 .* \(diagonals: none\)"):
        board("d10", "a1 b1 c1 d1").parse_move("d10e11")


# (tigers, men, side, move, code, details): the reason's code and what it is about
CODES = [
    ("e5", "e6 a1 b1 c1", "t", "d4d5", "empty", {"from": "d4"}),
    ("e5", "e6 a1 b1 c1", "t", "a1a2", "not_yours", {"piece": "man", "from": "a1"}),
    ("e5", "e6 a1 b1 c1", "t", "e5e6", "occupied", {"piece": "tiger", "to": "e6"}),
    ("e5", "e6 a1 b1 c1", "t", "e5f6", "no_line", {"from": "e5", "to": "f6"}),
    ("e5", "e6 a1 b1 c1", "t", "e5e8", "too_far", {"to": "e8"}),
    ("e5", "e6 a1 b1 c1", "m", "a1a3", "man_jumps", {"piece": "man"}),
    ("e5", "e6 a1 b1 c1", "t", "e5c5", "no_man", {"over": "d5"}),
    ("e5", "e6 e7 a1 b1", "t", "e5e7", "landing_taken", {"over": "e6", "to": "e7"}),
    ("e5", "e6 a1 b1 c1", "t", "e5g7", "no_jump_line", {"over": "f6", "to": "g7"}),
    ("e5 e6", "a1 b1 c1 d1", "t", "e5e7", "jumps_tiger", {"over": "e6"}),
    ("e5", "e6 e8 a1 b1", "t", "e5e7e9", "one_jump", {"to": "e7"}),
    ("e5", "e6 a1 b1 c1", "t", "e5e4e3", "step_ends", {}),
    ("e5", "e6 a1 b1 c1", "t", "e5e5", "stay", {}),
    ("e5", "e6 d1 c1", "t", "e5e4", "game_over", {"men": "3", "below": "4"}),
]


@pytest.mark.parametrize(("tigers", "men", "side", "move", "code", "details"), CODES)
def test_a_reason_carries_a_code_and_what_it_is_about(
    tigers: str, men: str, side: str, move: str, code: str, details: dict[str, str]
) -> None:
    # The words as before, with a code and details beside them for a client's own language.
    b = board(tigers, men, side)
    reason = b.explain_illegal(Move.from_str(move))
    assert reason is not None and reason.code == code, str(reason)
    assert details.items() <= reason.details.items(), reason.details
    with pytest.raises(IllegalMoveError) as refused:
        b.parse_move(move)
    assert (refused.value.code, refused.value.details) == (code, reason.details)

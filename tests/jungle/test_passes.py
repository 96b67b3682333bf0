"""docs/rules.md 5.3: the timeout pass ``0000`` stands in for a move, so it is accepted exactly
where a move could be played.

Every checked way into the library (``Board.parse_move``/``push_move`` with ``allow_pass``,
``push_pass``, game records, readable notation) refuses a pass once the game is over on the
board or when the side to move has no legal move, with IllegalMoveError and the same reason;
after a draw by rule (which keeps the legal moves, as in python-chess) a pass is accepted like
a move. ``board.push(Move.null())`` stays the unchecked fast path.
"""

from __future__ import annotations

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError, Move
from doushouqi.jungle.notation import (
    IllegalNotationMoveError,
    NotationError,
    move_to_readable,
    parse_readable,
)
from doushouqi.jungle.record import GameRecord, RecordError
from doushouqi.jungle.rules import find_rules

# A shuttle of the two lions that brings the start position back a third time.
SHUTTLE = "g1g2 a9b9 g2g1 b9a9 " * 2
# Seventeen moves of Red's tiger within a few squares (Blue passing): 17-5 forbids the rest.
TIGER_WALK = (
    "a1b1 0000 b1a1 0000 a1b1 0000 b1b2 0000 b2b1 0000 b1b2 0000 b2c2 0000 c2c1 0000 c1c2 0000 "
    "c2c1 0000 c1c2 0000 c2c3 0000 c3c2 0000 c2c3 0000 c3c2 0000 c2d2 0000 d2c2 0000 c2d2 0000 "
    "d2c2 0000"
)

FINISHED = [
    # (id, position string, rules, moves played, the termination in the reason)
    ("den-entered", "7/3L3/7/7/7/7/7/7/e6 w", "wango", "d8d9", "den entered"),
    ("all-captured", "7/7/7/7/7/7/7/7/6L b", "wango", "", "all captured"),
    # Blue's cat on a9 is hemmed in by Red's stronger wolf (b9) and dog (a8): 困毙.
    ("no-legal-moves", "cW5/D6/7/7/7/7/7/7/7 b", "wango", "", "no legal moves"),
    ("move-restrictions", "7/7/7/7/7/7/7/7/T5c w", "classic", TIGER_WALK, "move restrictions"),
]  # fmt: skip

DRAWN = [
    ("no-capture-limit", "6c/7/7/7/7/7/7/7/C6 w 200 120", "classic", "", "no capture limit"),
    ("repetition", None, "wango", SHUTTLE, "repetition"),
]  # fmt: skip


def finished_board(fen: str | None, rules: str, moves: str) -> Board:
    board = Board(fen, rules)
    for text in moves.split():
        board.push_move(text, allow_pass=True)
    assert board.outcome() is not None
    return board


@pytest.fixture(params=FINISHED, ids=[case[0] for case in FINISHED])
def finished(request: pytest.FixtureRequest) -> tuple[Board, str]:
    _, fen, rules, moves, termination = request.param
    return finished_board(
        fen, rules, moves
    ), rf"illegal move 0000: the game is over \({termination}\)"


def test_the_board_refuses_a_pass_once_the_game_is_over(finished: tuple[Board, str]) -> None:
    board, reason = finished
    fen, plies = board.fen(), board.ply()
    with pytest.raises(IllegalMoveError, match=reason):
        board.parse_move("0000", allow_pass=True)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_move("0000", allow_pass=True)
    with pytest.raises(IllegalMoveError, match=reason):
        board.push_pass()
    # Without allow_pass the reason is the same: the game's end comes first.
    with pytest.raises(IllegalMoveError, match=reason):
        board.parse_move("0000")
    assert board.explain_illegal(Move.null(), allow_pass=True) is not None
    assert (board.fen(), board.ply()) == (fen, plies)  # nothing was played


def test_push_of_the_null_move_stays_unchecked(finished: tuple[Board, str]) -> None:
    board, _ = finished
    before = board.fen()
    board.push(Move.null())
    assert board.pop() == Move.null()
    assert board.fen() == before


def test_a_record_refuses_a_pass_once_the_game_is_over(finished: tuple[Board, str]) -> None:
    board, reason = finished
    record = GameRecord(
        start_fen=board.starting_fen, rules=board.rules, moves=[*board.move_stack, Move.null()]
    )
    with pytest.raises(RecordError, match=f"ply {board.ply() + 1}: {reason}"):
        record.board()


def test_the_notation_refuses_a_pass_once_the_game_is_over(finished: tuple[Board, str]) -> None:
    board, reason = finished
    for text in ("--", "0000", "停棋一步"):
        with pytest.raises(IllegalNotationMoveError, match=reason):
            parse_readable(board, text)
    for lang in ("en", "zh"):
        with pytest.raises(IllegalNotationMoveError, match=reason):
            move_to_readable(board, Move.null(), lang)


def test_the_notation_error_is_both_kinds() -> None:
    assert issubclass(IllegalNotationMoveError, NotationError)
    assert issubclass(IllegalNotationMoveError, IllegalMoveError)
    assert issubclass(IllegalMoveError, ValueError)
    board = Board()
    with pytest.raises(IllegalMoveError, match="illegal move a3a5"):
        move_to_readable(board, Move.from_str("a3a5"))
    with pytest.raises(IllegalMoveError, match="'Ea3-a5': illegal move a3a5"):
        parse_readable(board, "Ea3-a5")


def test_a_pass_while_the_game_goes_on() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="only made for a player whose move time ran out"):
        board.parse_move("0000")  # a player cannot choose to pass
    assert board.parse_move(" 0000 ", allow_pass=True) == Move.null()
    assert board.push_move("0000", allow_pass=True) == Move.null()
    assert board.push_pass() == Move.null()
    assert board.ply() == 2 and board.halfmove_clock == 2
    assert parse_readable(board, "--") == Move.null()
    assert move_to_readable(board, Move.null(), "zh") == "停棋一步"
    record = GameRecord(start_fen=None, rules=find_rules("wango"), moves=[Move.null()] * 3)
    assert record.board().turn == 1


@pytest.mark.parametrize(
    ("fen", "rules", "moves", "termination"),
    [case[1:] for case in DRAWN],
    ids=[case[0] for case in DRAWN],
)
def test_after_a_draw_by_rule_a_pass_is_accepted_like_a_move(
    fen: str | None, rules: str, moves: str, termination: str
) -> None:
    board = finished_board(fen, rules, moves)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination.value.replace("_", " ") == termination
    assert board.legal_moves  # the draw keeps the legal moves (python-chess's convention)
    assert board.parse_move("0000", allow_pass=True) == Move.null()
    assert parse_readable(board, "--") == Move.null()
    assert move_to_readable(board, Move.null()) == "--"
    record = GameRecord(
        start_fen=board.starting_fen, rules=board.rules, moves=[*board.move_stack, Move.null()]
    )
    assert record.board().ply() == board.ply() + 1
    board.push_pass()
    assert board.move_stack[-1] == Move.null()

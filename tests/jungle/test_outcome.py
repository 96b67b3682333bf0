"""docs/rules.md 5.1: the end of the game on the board, and :class:`Outcome`.

Positions are written for Red; the ``mirror`` fixture replays each one turned by 180° with the
colours swapped (``mirror`` also turns a winner 0/1 and a result "1-0"/"0-1" round).
"""

from __future__ import annotations

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.squares import BLUE, RED

RULE_SETS = ["wango", "classic", "classic-dog", "international"]
START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1"
MIDGAME = "l6/3c3/1d1pet1/3wR2/Tr5/3W3/3P1L1/1CE2D1/7 w"  # docs/rules.md 6, perft position


def assert_over(board: Board, termination: Termination, winner: int | None, result: str) -> None:
    outcome = board.outcome()
    assert outcome == Outcome(termination, winner)
    assert board.is_game_over()
    assert board.result() == result


# --- normal play --------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("fen", [START, START.replace(" w ", " b "), MIDGAME])
def test_no_outcome_in_normal_play(rules, fen) -> None:
    board = Board(fen, rules=rules)
    assert board.outcome() is None
    assert not board.is_game_over()
    assert board.result() == "*"


def test_no_outcome_after_some_moves() -> None:
    board = Board()
    board.replay(["a3a4", "g7g6", "g1g2", "a9a8", "a4a5", "g6g5"])
    assert board.outcome() is None
    assert board.result() == "*"


# --- den entry (入穴) -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize(
    ("fen", "move"),
    [
        ("7/3C3/7/7/7/7/7/7/c6 w", "d8d9"),  # from Blue's trap d8
        ("2C4/7/7/7/7/7/7/7/c6 w", "c9d9"),  # from the side, trap c9
        ("4R2/7/7/7/7/7/7/7/c6 w", "e9d9"),  # the rat too
        ("4E2/7/7/7/7/7/7/7/c6 w", "e9d9"),
    ],
    ids=["cat-d8", "cat-c9", "rat-e9", "elephant-e9"],
)
def test_den_entry_wins(rules, fen, move, mirror) -> None:
    board = Board(mirror(fen), rules=rules)
    assert board.outcome() is None
    board.push_move(mirror(move))
    assert_over(board, Termination.DEN_ENTERED, mirror(RED), mirror("1-0"))
    assert board.legal_moves.count() == 0
    assert not board.legal_moves
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push_move(mirror("a1a2"))


def test_den_entry_position_string(mirror) -> None:
    # Red cat already on Blue's den d9; Blue to move but nothing may move any more.
    board = Board(mirror("3C3/7/7/7/7/7/7/7/c6 b"))
    assert_over(board, Termination.DEN_ENTERED, mirror(RED), mirror("1-0"))
    assert board.legal_moves.count() == 0
    assert board.perft(1) == 0


def test_den_entry_wins_even_at_the_no_capture_limit(mirror) -> None:
    # The 200th ply without capture enters the den: the den decides (checked first).
    board = Board(mirror("7/3C3/7/7/7/7/7/7/c6 w 199 150"), rules="international")
    board.push_move(mirror("d8d9"))
    assert board.halfmove_clock == 200
    assert_over(board, Termination.DEN_ENTERED, mirror(RED), mirror("1-0"))


# --- annihilation (被吃光) ------------------------------------------------------------------------


def test_capturing_the_last_animal_wins(mirror) -> None:
    board = Board(mirror("7/7/7/7/7/3c3/3L3/7/7 w"))
    board.push_move(mirror("d3d4"))
    assert_over(board, Termination.ALL_CAPTURED, mirror(RED), mirror("1-0"))
    assert board.legal_moves.count() == 0


@pytest.mark.parametrize("turn", ["w", "b"])
def test_side_without_animals_has_lost(turn, mirror) -> None:
    board = Board(mirror(f"7/7/7/7/7/7/3L3/7/7 {turn}"))
    assert_over(board, Termination.ALL_CAPTURED, mirror(RED), mirror("1-0"))
    assert board.legal_moves.count() == 0


def test_rat_taking_the_last_elephant_wins(mirror) -> None:
    board = Board(mirror("7/7/7/7/7/3e3/3R3/7/7 w"))
    board.push_move(mirror("d3d4"))
    assert_over(board, Termination.ALL_CAPTURED, mirror(RED), mirror("1-0"))


# --- no legal move (困毙) -------------------------------------------------------------------------

STUCK = [
    # (position with Blue to move and no legal Blue move, why)
    ("rT5/L6/7/7/7/7/7/7/7 b", "rat-a9-hemmed-by-lion-and-tiger"),
    ("7/2LcT2/3E3/7/7/7/7/7/7 b", "cat-d8-only-own-den-free"),
    ("7/2PdE2/2TrL2/3W3/7/7/7/7/7 b", "rat-and-dog-hemmed-by-each-other-and-red"),
]


@pytest.mark.parametrize("fen", [c[0] for c in STUCK], ids=[c[1] for c in STUCK])
def test_no_legal_move_loses(fen, mirror) -> None:
    board = Board(mirror(fen))
    assert board.legal_moves.count() == 0
    assert_over(board, Termination.NO_LEGAL_MOVES, mirror(RED), mirror("1-0"))


@pytest.mark.parametrize("fen", [c[0] for c in STUCK], ids=[c[1] for c in STUCK])
def test_the_other_side_to_move_is_not_stuck(fen, mirror) -> None:
    board = Board(mirror(fen.replace(" b", " w")))
    assert board.legal_moves.count() > 0
    assert board.outcome() is None


def test_hemming_in_by_a_move(mirror) -> None:
    # Blue rat a9 beside Red lion a8; Red's tiger steps c9 -> b9 and Blue cannot move.
    board = Board(mirror("r1T4/L6/7/7/7/7/7/7/7 w"))
    assert board.outcome() is None
    board.push_move(mirror("c9b9"))
    assert_over(board, Termination.NO_LEGAL_MOVES, mirror(RED), mirror("1-0"))


# --- no capture for N rounds --------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["international", "classic", "classic-dog"])
def test_no_capture_draw_after_100_rounds(rules, mirror) -> None:
    board = Board(mirror("6c/7/7/7/7/7/7/7/C6 w 198 120"), rules=rules)
    board.push_move(mirror("a1a2"))
    assert board.halfmove_clock == 199
    assert board.outcome() is None
    board.push_move(mirror("g9g8"))
    assert board.halfmove_clock == 200
    assert_over(board, Termination.NO_CAPTURE_LIMIT, None, "1/2-1/2")


@pytest.mark.parametrize(
    ("rules", "halfmove", "drawn"),
    [
        ("international", 199, False),
        ("international", 200, True),
        ("international", 250, True),
        ("classic", 199, False),
        ("classic", 200, True),
        ("wango", 200, False),  # no limit under wango
        ("wango", 9999, False),  # the largest halfmove clock a position string may give
    ],
)
def test_no_capture_limit_read_from_position_string(rules, halfmove, drawn, mirror) -> None:
    board = Board(mirror(f"6c/7/7/7/7/7/7/7/C6 w {halfmove} 200"), rules=rules)
    if drawn:
        assert_over(board, Termination.NO_CAPTURE_LIMIT, None, "1/2-1/2")
    else:
        assert board.outcome() is None


def test_capture_resets_the_no_capture_count(mirror) -> None:
    board = Board(mirror("6c/7/7/7/7/3w3/3P3/7/7 w 199 120"), rules="international")
    board.push_move(mirror("d3d4"))
    assert board.halfmove_clock == 0
    assert board.outcome() is None


# --- repetition ---------------------------------------------------------------------------------

SHUFFLE = "6t/7/7/7/7/7/7/7/L6 w"  # Red lion a1, Blue tiger g9
ROUND_TRIP = ["a1a2", "g9g8", "a2a1", "g8g9"]


@pytest.mark.parametrize("rules", ["wango", "international"])
def test_threefold_repetition_draws(rules, mirror) -> None:
    board = Board(mirror(SHUFFLE), rules=rules)
    board.replay(mirror(ROUND_TRIP))
    assert board.repetition_count() == 2
    assert board.outcome() is None
    board.replay(mirror(ROUND_TRIP[:3]))
    assert board.outcome() is None
    board.replay(mirror(ROUND_TRIP[3:]))
    assert board.repetition_count() == 3
    assert_over(board, Termination.REPETITION, None, "1/2-1/2")


def test_repetition_is_of_positions_not_of_moves(mirror) -> None:
    # The second round trip goes by b1 instead of a2: the start position still stands 3 times.
    board = Board(mirror(SHUFFLE))
    board.replay(mirror([*ROUND_TRIP, "a1b1", "g9f9", "b1a1", "f9g9"]))
    assert_over(board, Termination.REPETITION, None, "1/2-1/2")


def test_repetition_counts_the_side_to_move(mirror) -> None:
    # Red's lion goes round in 7 moves (b3-b7 jump, then back by steps on the a-file), Blue's
    # tiger shuffles 6 times: the placement comes back with Blue to move, a new position.
    board = Board(mirror("6t/7/7/7/7/7/1L5/7/7 w"))
    lion = ["b3b7", "b7a7", "a7a6", "a6a5", "a5a4", "a4a3", "a3b3"]
    tiger = ["g9g8", "g8g9"] * 3
    moves = [m for pair in zip(lion, tiger, strict=False) for m in pair] + lion[6:]
    board.replay(mirror(moves))
    assert board.board_fen() == Board(mirror("6t/7/7/7/7/7/1L5/7/7 w")).board_fen()
    assert board.turn == mirror(BLUE)
    assert board.repetition_count() == 1
    assert board.outcome() is None


def test_no_repetition_draw_under_initiator_must_vary(mirror) -> None:
    board = Board(mirror(SHUFFLE), rules="classic")
    board.replay(mirror(ROUND_TRIP * 2))
    assert board.repetition_count() == 3
    assert board.outcome() is None  # Red must vary instead: test_restrictions.py


# --- Outcome.result() -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("termination", "winner", "result"),
    [
        (Termination.DEN_ENTERED, RED, "1-0"),
        (Termination.DEN_ENTERED, BLUE, "0-1"),
        (Termination.ALL_CAPTURED, BLUE, "0-1"),
        (Termination.NO_LEGAL_MOVES, RED, "1-0"),
        (Termination.MOVE_RESTRICTIONS, BLUE, "0-1"),
        (Termination.RESIGNATION, RED, "1-0"),
        (Termination.TIME_FORFEIT, BLUE, "0-1"),
        (Termination.TIMEOUTS, RED, "1-0"),
        (Termination.ABANDONMENT, BLUE, "0-1"),
        (Termination.REPETITION, None, "1/2-1/2"),
        (Termination.NO_CAPTURE_LIMIT, None, "1/2-1/2"),
        (Termination.DRAW_AGREED, None, "1/2-1/2"),
        (Termination.ABORTED, None, "*"),
    ],
    ids=lambda v: v.value if isinstance(v, Termination) else str(v),
)
def test_outcome_result_strings(termination, winner, result) -> None:
    assert Outcome(termination, winner).result() == result


@pytest.mark.parametrize(
    ("termination", "on_board"),
    [
        (Termination.DEN_ENTERED, True),
        (Termination.ALL_CAPTURED, True),
        (Termination.NO_LEGAL_MOVES, True),
        (Termination.MOVE_RESTRICTIONS, True),
        (Termination.REPETITION, True),
        (Termination.NO_CAPTURE_LIMIT, True),
        (Termination.RESIGNATION, False),
        (Termination.DRAW_AGREED, False),
        (Termination.TIME_FORFEIT, False),
        (Termination.TIMEOUTS, False),
        (Termination.ABANDONMENT, False),
        (Termination.ABORTED, False),
    ],
    ids=lambda v: v.value if isinstance(v, Termination) else str(v),
)
def test_termination_on_board(termination, on_board) -> None:
    assert termination.is_on_board is on_board

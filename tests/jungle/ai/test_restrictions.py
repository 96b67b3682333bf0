"""The move restrictions (7-3, 17-5, must-vary repetition) on positions reached by move
histories; every case is also checked against the rules library."""

from __future__ import annotations

import pytest
from tests.jungle.ai.helpers import (
    ONLY_7_3,
    ONLY_17_5,
    ONLY_MUST_VARY,
    START,
    engine_moves,
    fen_of,
    library_moves,
    play,
)

from doushouqi.jungle.ai import Position
from doushouqi.jungle.board import Board
from doushouqi.jungle.rules import RuleSet

BOTH_WINDOWS = RuleSet(name="7-3 and 17-5", rule_7_3=True, rule_17_5=True)


def legal_after(fen: str, rules: str | RuleSet, moves: str) -> set[str]:
    """The engine core's legal moves after a history, checked equal to the library's."""
    board = play(Board(fen, rules), moves, checked=False)
    position = Position.from_board(board)
    result = engine_moves(position)
    assert result == library_moves(board)
    assert position.legal_move_count() == len(result)
    return result


def shuttle(there: str, back: str, times: int, reply: str = "0000") -> str:
    """``times`` moves of one animal alternating ``there``/``back``, each answered by ``reply``."""
    return " ".join(f"{there if i % 2 == 0 else back} {reply}" for i in range(times))


# ------------------------------------------------------------------------------ 7-3


def test_7_3_forbids_entering_a_square_a_third_time() -> None:
    history = shuttle("a3a4", "a4a3", 6)  # the elephant entered a4 three times
    assert "a3a4" not in legal_after(START, ONLY_7_3, history)
    assert "a3a4" in legal_after(START, "wango", history)
    assert "a3a4" in legal_after(START, ONLY_7_3, shuttle("a3a4", "a4a3", 4))


def test_7_3_window_is_the_last_seven_own_moves() -> None:
    # Entries to a4 at own moves 1, 3 and 7; at move 9 the window (moves 3-9) holds two.
    history = "a3a4 0000 a4a3 0000 a3a4 0000 a4a3 0000 g3g4 0000 g4g3 0000 a3a4 0000"
    assert "a4a3" in legal_after(START, ONLY_7_3, history)
    assert "a3a4" in legal_after(START, ONLY_7_3, history + " a4a3 0000")


def test_7_3_skips_passes_of_the_side_itself() -> None:
    history = "a3a4 0000 0000 0000 a4a3 0000 a3a4 0000 0000 0000 a4a3 0000 a3a4 0000 a4a3 0000"
    assert "a3a4" not in legal_after(START, ONLY_7_3, history)


def test_7_3_does_not_apply_to_a_chased_animal() -> None:
    history = shuttle("a3a4", "a4a3", 6)
    chased = fen_of("Ea3 Lg1 ra2 lg9")  # Blue's rat on a2 attacks the elephant on a3
    assert "a3a4" in legal_after(chased, ONLY_7_3, history)
    quiet = fen_of("Ea3 Lg1 rg7 lg9")
    assert "a3a4" not in legal_after(quiet, ONLY_7_3, history)


def test_7_3_does_not_apply_after_entering_a_trap() -> None:
    assert "d3d2" in legal_after(fen_of("Dd3 lg9"), ONLY_7_3, shuttle("d3d2", "d2d3", 6))
    assert "c3c2" not in legal_after(fen_of("Dc3 lg9"), ONLY_7_3, shuttle("c3c2", "c2c3", 6))


# ----------------------------------------------------------------------------- 17-5


def test_17_5_forbids_the_squares_of_seventeen_moves_of_one_animal() -> None:
    after_17 = legal_after(START, ONLY_17_5, shuttle("a3a4", "a4a3", 17))
    assert "a4a3" not in after_17
    assert "a4a5" in after_17
    assert "a3a4" in legal_after(START, ONLY_17_5, shuttle("a3a4", "a4a3", 16))
    assert "a4a3" in legal_after(START, "wango", shuttle("a3a4", "a4a3", 17))


def test_17_5_counts_the_start_square_and_at_most_five_squares() -> None:
    # The cat walks round a2-b2-b3-a3 (4 squares, never 3 entries in 7 moves) 17 times.
    loop = ["a2b2", "b2b3", "b3a3", "a3a2"]
    history = " ".join(f"{loop[i % 4]} 0000" for i in range(17))
    fen = fen_of("Ca2 Eg1 lg9")
    assert legal_after(fen, BOTH_WINDOWS, history) >= {"b2b1", "b2c2"}
    assert not {"b2a2", "b2b3"} & legal_after(fen, BOTH_WINDOWS, history)
    assert {"b2a2", "b2b3"} <= legal_after(fen, "wango", history)
    # Six squares (a loop a2-b2-c2-c3-b3-a3) are too many.
    six = ["a2b2", "b2c2", "c2c3", "c3b3", "b3a3", "a3a2"]
    history = " ".join(f"{six[i % 6]} 0000" for i in range(17))
    assert {"a3a2", "a3b3"} <= legal_after(fen, ONLY_17_5, history)


def test_17_5_needs_every_move_by_the_same_animal_and_no_trap() -> None:
    broken = shuttle("a3a4", "a4a3", 8) + " g3g4 0000 " + shuttle("a3a4", "a4a3", 8)
    assert "a3a4" in legal_after(START, ONLY_17_5, broken + " a3a4 0000 a4a3 0000")
    assert "d3d2" in legal_after(fen_of("Dd2 lg9"), ONLY_17_5, shuttle("d2d3", "d3d2", 17))


# --------------------------------------------------------------- must-vary repetition

REPEAT = "a3a4 g7g6 a4a3 g6g7 a3a4 g7g6 a4a3 g6g7"


@pytest.mark.parametrize(
    ("rules", "count"),
    [(ONLY_MUST_VARY, 23), ("classic", 23), ("wango", 24), ("international", 24)],
)
def test_initiator_must_vary_on_the_third_repetition(rules: str | RuleSet, count: int) -> None:
    moves = legal_after(START, rules, REPEAT)
    assert len(moves) == count
    assert ("a3a4" in moves) is (count == 24)
    board = play(Board(START, rules), REPEAT)
    assert Position.from_board(board).repetition_count() == board.repetition_count() == 3


def test_must_vary_is_not_in_force_before_the_third_time() -> None:
    assert len(legal_after(START, ONLY_MUST_VARY, REPEAT.rsplit(" ", 4)[0])) == 24

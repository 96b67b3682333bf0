"""How a game of 老虎棋 ends on the board: each ending, its winner, and their order."""

from __future__ import annotations

from tests.tiger.helpers import board

from doushouqi.core.outcome import BoardEnding, Outcome
from doushouqi.tiger.board import Board
from doushouqi.tiger.terms import Termination

TIGER, MEN = 0, 1


def _ending(b: Board) -> tuple[str, int | None] | None:
    outcome = b.outcome()
    return None if outcome is None else (outcome.key, outcome.winner)


def test_the_men_win_when_the_tiger_to_move_cannot_move() -> None:
    b = board("e5", "e6 e7 d5 c5 f5 g5 e4 e3")
    assert _ending(b) == ("tiger_trapped", MEN)
    assert b.outcome() == Outcome(BoardEnding("tiger_trapped"), MEN)
    assert b.outcome().result() == "0-1"  # type: ignore[union-attr]


def test_trapped_in_the_nest() -> None:
    b = board("e11", "d11 f11 e10 e9 a1")
    assert _ending(b) == ("tiger_trapped", MEN)
    # With the nest's diagonals the tiger still has d10 and f10.
    assert _ending(board("e11", "d11 f11 e10 e9 a1", diagonals="nest")) is None


def test_a_trapped_tiger_is_no_ending_while_the_men_are_to_move() -> None:
    b = board("e5", "e6 e7 d5 c5 f5 g5 e4 e3", side="m")
    assert _ending(b) is None


def test_the_men_trap_the_tiger_with_a_move() -> None:
    b = board("e5", "e6 e7 d5 c5 f5 g5 e3 d4", side="m")
    b.push_move("d4e4")
    assert _ending(b) == ("tiger_trapped", MEN)
    assert b.legal_moves.__len__() == 0


def test_both_tigers_must_be_hemmed_in() -> None:
    b = board("a1 e5", "a2 a3 b1 c1 e6 e7 d5 c5 f5 g5 e4 e3")
    assert _ending(b) == ("tiger_trapped", MEN)
    b = board("a1 e5", "a2 a3 b1 e6 e7 d5 c5 f5 g5 e4 e3")
    assert _ending(b) is None  # a1 can take b1


def test_the_tiger_wins_when_fewer_than_tiger_wins_below_men_remain() -> None:
    b = board("e5", "e6 a1 b1 c1")
    assert _ending(b) is None
    b.push_move("e5e7")
    assert _ending(b) == ("men_captured", TIGER) and b.outcome().result() == "1-0"  # type: ignore[union-attr]
    assert list(b.generate_legal_moves()) == []


def test_the_strict_set_ends_after_four_captures() -> None:
    nine = "e6 a1 b1 c1 d1 f1 g1 h1 i1"
    assert _ending(board("e5", nine)) is None
    strict = Board(board("e5", nine).position_string(), "laohuqi-strict")
    strict.push_move("e5e7")
    assert _ending(strict) == ("men_captured", TIGER)
    default = board("e5", nine)
    default.push_move("e5e7")
    assert _ending(default) is None


def test_tiger_wins_below_zero_never_ends_by_captures() -> None:
    b = board("e5", "e6", tiger_wins_below=0)
    b.push_move("e5e7")
    # No man left: the men, to move, have no move and lose.
    assert b.men_count == 0 and _ending(b) == ("men_blocked", TIGER)


def test_the_men_lose_when_they_cannot_move() -> None:
    # Men who may not retreat, on the top rank of the nest, the tiger between them: d11 and
    # f11 can go nowhere but down.
    blocked = board("e11", "d11 f11", side="m", men_retreat=False, tiger_wins_below=0)
    assert _ending(blocked) == ("men_blocked", TIGER)
    assert _ending(board("e11", "d11 f11", side="m", tiger_wins_below=0)) is None


def test_threefold_repetition_is_a_draw() -> None:
    b = Board()
    shuffle = ["e10e9", "a1a2", "e9e10", "a2a1"]
    for move in shuffle:
        b.push_move(move)
    assert b.repetition_count() == 2 and _ending(b) is None
    for move in shuffle:
        b.push_move(move)
    assert b.repetition_count() == 3 and _ending(b) == ("repetition", None)
    assert b.outcome().result() == "1/2-1/2"  # type: ignore[union-attr]
    # Moves stay legal after a draw by rule (python-chess's way): whoever runs the game stops.
    assert b.has_legal_move()
    b.pop()
    assert _ending(b) is None


def test_the_side_to_move_is_part_of_the_position() -> None:
    b = Board()
    for move in ["e10e9", "a1a2", "e9e10", "a2a1"] * 2:
        b.push_move(move)
    b.pop()  # men to move, the position after e9e10 has stood twice
    assert b.repetition_count() == 2


def test_max_rounds() -> None:
    b = board("e10", "a1 b1 c1 d1 e1", max_rounds=2)
    for move in ["e10e9", "a1a2", "e9e8"]:
        b.push_move(move)
        assert _ending(b) is None
    b.push_move("a2a3")
    assert b.fullmove_number == 3 and _ending(b) == ("max_rounds", None)


def test_max_rounds_counts_from_the_first_side() -> None:
    b = board("e10", "a1 b1 c1 d1 e1", side="m", max_rounds=1, first="men")
    b.push_move("a1a2")
    assert _ending(b) is None
    b.push_move("e10e9")
    assert _ending(b) == ("max_rounds", None)


def test_a_win_on_the_last_round_is_a_win() -> None:
    b = board("e5", "e6 e7 d5 c5 f5 g5 e3 d4", side="m", number=5, max_rounds=5)
    b.push_move("d4e4")
    assert b.fullmove_number == 6
    assert _ending(b) == ("tiger_trapped", MEN)


def test_every_termination_has_a_winner_rule() -> None:
    assert {t.value for t in Termination} == {
        "tiger_trapped", "men_captured", "men_blocked", "repetition", "max_rounds"
    }  # fmt: skip

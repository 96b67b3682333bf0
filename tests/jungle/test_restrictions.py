"""docs/rules.md 6: the move restrictions (违例) of the classic rule set.

- ``rule_7_3`` (无赖长杀): an animal that entered one square 3 times within its side's last 7
  moves may not enter it with its next move, unless it entered a trap in those moves or stands
  attacked now (it is being chased).
- ``rule_17_5`` (武松长杀): 17 moves in a row of one animal within at most 5 squares (its start
  square counted) forbid those squares, unless it entered a trap in those moves.
- ``repetition = initiator_must_vary``: once a position stands the third time, the side to move
  may not play into a position that has already stood twice; with no other move it loses.

The library's readings (restrictions.py), followed here: the 7-3 window is the side's last 7
moves (of any of its animals), and only that animal's next move is restricted, not another
animal's; "a trap" is any of the six traps; the windows only see moves played since the
position string the board started from.

Positions are written for Red; the ``mirror`` fixture replays each one turned for Blue. The
opponent walks one animal along a path that never repeats, so that no repetition rule
interferes: ``WALK`` below.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from doushouqi.jungle.board import Board, IllegalMoveError
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import find_rules
from doushouqi.jungle.squares import RED
from doushouqi.jungle.squares import WOLF as WOLF_ANIMAL

#: A Blue rat's path from g9 down the g-file, along row 1 and up the f-file through the water.
WALK = [
    "g9g8", "g8g7", "g7g6", "g6g5", "g5g4", "g4g3", "g3g2", "g2g1", "g1f1", "f1f2",
    "f2f3", "f3f4", "f4f5", "f5f6", "f6f7", "f7f8", "f8e8", "e8e7", "e7d7", "d7c7",
]  # fmt: skip


def interleave(red: list[str], blue: list[str] = WALK) -> list[str]:
    """Red's moves with a Blue reply after each one."""
    assert len(red) <= len(blue)
    return [move for pair in zip(red, blue, strict=False) for move in pair]


def test_walk_never_repeats() -> None:
    squares = [WALK[0][:2]] + [move[2:] for move in WALK]
    assert len(set(squares)) == len(squares)
    assert all(a[2:] == b[:2] for a, b in itertools.pairwise(WALK))


# --- 7-3 ----------------------------------------------------------------------------------------

WOLF = "6r/7/7/7/7/7/3W3/7/7 w"  # Red wolf d3, Blue rat g9
WOLF_SHUFFLE = ["d3d4", "d4d3", "d3d4", "d4d3", "d3d4", "d4d3"]  # d4 and d3 entered 3 times


def test_7_3_triggered(mirror, moves_from) -> None:
    board = Board(mirror(WOLF), rules="classic")
    board.replay(mirror(interleave(WOLF_SHUFFLE[:5])))
    # d3 has been entered twice only: a third time is allowed.
    assert moves_from(board, mirror("d4")) == mirror({"d3", "d5"})
    board.replay(mirror(interleave(WOLF_SHUFFLE[5:], WALK[5:])))
    # d4 has been entered 3 times within Red's last 6 moves: not again now.
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2"})
    with pytest.raises(IllegalMoveError, match="move restriction"):
        board.push_move(mirror("d3d4"))


@pytest.mark.parametrize("rules", ["wango", "international"])
def test_7_3_not_active(rules, mirror, moves_from) -> None:
    board = Board(mirror(WOLF), rules=rules)
    board.replay(mirror(interleave(WOLF_SHUFFLE)))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2", "d4"})


def test_7_3_active_under_classic_dog(mirror, moves_from) -> None:
    board = Board(mirror(WOLF), rules="classic-dog")
    board.replay(mirror(interleave(WOLF_SHUFFLE)))
    assert moves_from(board, mirror("d3")) == mirror({"c3", "e3", "d2"})


def test_7_3_restricts_only_that_animal(mirror, moves_from) -> None:
    # A Red cat on d5 may still step into d4, the square the wolf may not enter again.
    board = Board(mirror("6r/7/7/7/3C3/7/3W3/7/7 w"), rules="classic")
    board.replay(mirror(interleave(WOLF_SHUFFLE)))
    assert mirror("d4") not in moves_from(board, mirror("d3"))
    assert moves_from(board, mirror("d5")) == mirror({"d4", "d6"})


@pytest.mark.parametrize(
    ("other_moves", "forbidden"),
    [
        # 8 Red moves: the first entry of d4 has left the 7-move window
        (["a1a2", "a2a3"], False),
        # 7 Red moves: all three entries of d4 are within the window
        (["a1a2"], True),
    ],
    ids=["outside-window", "inside-window"],
)
def test_7_3_window_is_the_last_7_moves(other_moves, forbidden, mirror, moves_from) -> None:
    # Red wolf d3, Red cat a1. The wolf enters d4 twice, the cat walks, the wolf enters d4 a
    # third time and comes back to d3.
    red = ["d3d4", "d4d3", "d3d4", "d4d3", *other_moves, "d3d4", "d4d3"]
    board = Board(mirror("6r/7/7/7/7/7/3W3/7/C6 w"), rules="classic")
    board.replay(mirror(interleave(red)))
    assert (mirror("d4") not in moves_from(board, mirror("d3"))) is forbidden


def test_7_3_window_skips_passes(mirror, moves_from) -> None:
    """Library reading: a pass (per-move timeout) is not a move, so the 7 moves of the window
    reach back over Red's two passes to the first entry of d4."""
    red = ["d3d4", "d4d3", "d3d4", "d4d3", "0000", "0000", "d3d4", "d4d3"]
    board = Board(mirror(WOLF), rules="classic")
    for move in mirror(interleave(red)):
        if move == "0000":
            board.push_pass()
        else:
            board.push_move(move)
    assert mirror("d4") not in moves_from(board, mirror("d3"))


@pytest.mark.parametrize(
    ("red", "wolf_on", "square", "forbidden"),
    [
        # d3 entered 3 times, by way of the trap d2: exempt
        (["d4d3", "d3d2", "d2d3", "d3d4", "d4d3", "d3d4"], "d4", "d3", False),
        # the same without the trap (by way of c3): forbidden
        (["d4d3", "d3c3", "c3d3", "d3d4", "d4d3", "d3d4"], "d4", "d3", True),
        # shuffling in and out of the trap d2 itself: exempt
        (["d4d3", "d3d2", "d2d3", "d3d2", "d2d3", "d3d2", "d2d3"], "d3", "d2", False),
    ],
    ids=["via-trap", "no-trap", "into-trap"],
)
def test_7_3_trap_exception(red, wolf_on, square, forbidden, mirror, moves_from) -> None:
    board = Board(mirror("6r/7/7/7/7/3W3/7/7/7 w"), rules="classic")  # Red wolf d4
    board.replay(mirror(interleave(red)))
    assert (mirror(square) not in moves_from(board, mirror(wolf_on))) is forbidden


@pytest.mark.parametrize(
    ("last_blue_move", "forbidden"),
    [("c7c3", False), ("c7c8", True)],
    ids=["chased-by-lion-on-c3", "lion-elsewhere"],
)
def test_7_3_chase_exception(last_blue_move, forbidden, mirror, moves_from) -> None:
    # Red wolf shuffles d3-d4; Blue's lion comes round from b9 and, with its 6th move, jumps
    # c7-c3 next to the wolf (attacking it) or steps aside to c8.
    lion = ["b9b8", "b8a8", "a8a7", "a7b7", "b7c7", last_blue_move]
    board = Board(mirror("1l5/7/7/7/7/7/3W3/7/7 w"), rules="classic")
    board.replay(mirror(interleave(WOLF_SHUFFLE, lion)))
    assert board.is_attacked(board.square_of(mirror(RED), WOLF_ANIMAL)) is not forbidden
    assert (mirror("d4") not in moves_from(board, mirror("d3"))) is forbidden


# --- 17-5 ---------------------------------------------------------------------------------------

LOOP_4 = ["a2a3", "a3b3", "b3b2", "b2a2"] * 5  # 4 squares; no square 3 times in 7 moves
LOOP_TRAP = ["c2c1", "c1b1", "b1b2", "b2c2"] * 5  # c1 is a trap
LION_A2 = "6r/7/7/7/7/7/7/L6/7 w"  # Red lion a2, Blue rat g9


def test_17_5_triggered(mirror, moves_from) -> None:
    board = Board(mirror(LION_A2), rules="classic")
    board.replay(mirror(interleave(LOOP_4[:16])))
    assert moves_from(board, mirror("a2")) == mirror({"a1", "a3", "b2"})  # 16 moves: not yet
    board.replay(mirror(interleave(LOOP_4[16:17], WALK[16:])))
    # 17 lion moves within a2 a3 b3 b2: from a3 only a4 (outside them) is left.
    assert moves_from(board, mirror("a3")) == mirror({"a4"})
    with pytest.raises(IllegalMoveError, match="move restriction"):
        board.push_move(mirror("a3b3"))


def test_17_5_only_with_rule_17_5(mirror, moves_from) -> None:
    no_17_5 = dataclasses.replace(find_rules("classic"), rule_17_5=False)
    board = Board(mirror(LION_A2), rules=no_17_5)
    board.replay(mirror(interleave(LOOP_4[:17])))
    assert moves_from(board, mirror("a3")) == mirror({"a2", "a4", "b3"})


def test_17_5_not_under_wango(mirror, moves_from) -> None:
    board = Board(mirror(LION_A2), rules="wango")
    board.replay(mirror(interleave(LOOP_4[:17])))
    assert moves_from(board, mirror("a3")) == mirror({"a2", "a4", "b3"})


def squares_to_moves(squares: str) -> list[str]:
    """ "a2 b2 c2" -> ["a2b2", "b2c2"]."""
    names = squares.split()
    return [a + b for a, b in itertools.pairwise(names)]


# 17 lion moves from a2, written as the squares it stands on; none enters a square a 4th time
# within 7 moves, so that 7-3 never stops the walk.
WALKS_17 = [
    # (id, squares, squares counted, moves left from the last square)
    ("4-squares", "a2 a3 b3 b2 a2 a3 b3 b2 a2 a3 b3 b2 a2 a3 b3 b2 a2 a3",
     "a2 a3 b3 b2", {"a4"}),
    ("5-squares", "a2 b2 c2 b2 c2 b2 c2 c3 b3 c3 b3 c3 b3 b2 c2 b2 a2 b2",
     "a2 b2 c2 c3 b3", {"b1"}),
    # 5 squares entered, but the start square a2 is a 6th one: no restriction
    ("5-squares-and-start", "a2 b2 c2 b2 c2 b2 c2 c3 b3 c3 b3 c3 b3 b2 c2 b2 b3 a3",
     "a2 b2 c2 c3 b3 a3", {"a2", "a4", "b3"}),
    ("6-squares", "a2 a3 b3 c3 c2 b2 a2 a3 b3 c3 c2 b2 a2 a3 b3 c3 c2 b2",
     "a2 a3 b3 c3 c2 b2", {"a2", "c2", "b1", "b3"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("squares", "counted", "expected"), [w[1:] for w in WALKS_17], ids=[w[0] for w in WALKS_17]
)
def test_17_5_squares_counted(squares, counted, expected, mirror, moves_from) -> None:
    moves = squares_to_moves(squares)
    assert len(moves) == 17
    assert set(squares.split()) == set(counted.split())
    board = Board(mirror(LION_A2), rules="classic")
    board.replay(mirror(interleave(moves)))
    assert moves_from(board, mirror(squares.split()[-1])) == mirror(expected)


def test_17_5_trap_exception(mirror, moves_from) -> None:
    board = Board(mirror("6r/7/7/7/7/7/7/2L4/7 w"), rules="classic")  # Red lion c2
    board.replay(mirror(interleave(LOOP_TRAP[:17])))  # ends on c1, Red's own trap
    assert moves_from(board, mirror("c1")) == mirror({"b1", "c2"})  # (d1 is Red's den)


def test_17_5_not_when_another_animal_moved(mirror, moves_from) -> None:
    # Red cat b3 moves to c3 first, then the lion loops 16 times: the last 17 moves stay within
    # 5 squares (b3 c3 a2 a3 b2), but one of them was the cat's.
    board = Board(mirror("6r/7/7/7/7/7/1C5/L6/7 w"), rules="classic")
    board.replay(mirror(interleave(["b3c3", *LOOP_4[:16]])))
    assert moves_from(board, mirror("a2")) == mirror({"a1", "a3", "b2"})
    board.replay(mirror(interleave(LOOP_4[16:17], WALK[17:])))  # now 17 lion moves in a row
    assert moves_from(board, mirror("a3")) == mirror({"a4"})


# --- repetition: initiator_must_vary ----------------------------------------------------------

LION_SHUFFLE = "7/6t/7/7/7/7/7/L6/7 w"  # Red lion a2, Blue tiger g8
ROUND_TRIP = ["a2a3", "g8g7", "a3a2", "g7g8"]


def test_must_vary_after_third_occurrence(mirror, moves_from) -> None:
    board = Board(mirror(LION_SHUFFLE), rules="classic")
    board.replay(mirror(ROUND_TRIP))
    assert board.repetition_count() == 2
    assert moves_from(board, mirror("a2")) == mirror({"a1", "a3", "b2"})  # a3 stood once
    board.replay(mirror(ROUND_TRIP))
    assert board.repetition_count() == 3
    # a2a3 would make the position after ply 1 and 5 stand a third time: Red must vary.
    assert moves_from(board, mirror("a2")) == mirror({"a1", "b2"})
    with pytest.raises(IllegalMoveError, match="move restriction"):
        board.push_move(mirror("a2a3"))
    assert board.outcome() is None
    board.push_move(mirror("a2b2"))
    assert board.outcome() is None


def test_must_vary_only_once_the_position_stands_three_times(mirror, moves_from) -> None:
    # Red's lion reaches a3 (Blue to move, tiger g8) twice, once from a2 and once from b3;
    # then the start position stands the second time only: going to a3 is still allowed,
    # although that position has stood twice.
    board = Board(mirror(LION_SHUFFLE), rules="classic")
    board.replay(mirror(["a2a3", "g8g7", "a3b3", "g7g8", "b3a3", "g8g7", "a3a2", "g7g8"]))
    assert board.repetition_count() == 2
    assert moves_from(board, mirror("a2")) == mirror({"a1", "a3", "b2"})
    board.push_move(mirror("a2a3"))
    # Now that position stands the third time, with Blue to move: Blue may not play g8g7 into
    # the position that stood after plies 2 and 6.
    assert board.repetition_count() == 3
    assert moves_from(board, mirror("g8")) == mirror({"f8", "g9"})


def test_must_vary_does_not_forbid_other_moves_of_the_opponent(mirror, legal) -> None:
    # Once Red has varied, the new position has stood only once: Blue is not restricted.
    board = Board(mirror(LION_SHUFFLE), rules="classic")
    board.replay(mirror([*ROUND_TRIP, *ROUND_TRIP, "a2b2"]))
    assert legal(board) == mirror({"g8g7", "g8g9", "g8f8"})


CAT_CORRIDOR = "Cd5/1w5/p6/7/7/7/7/7/6e w"  # Red cat a9 can only go a9-a8-a9; Blue elephant g1
CAT_TRIP = ["a9a8", "g1g2", "a8a9", "g2g1"]


def test_must_vary_without_another_move_loses(mirror, legal) -> None:
    board = Board(mirror(CAT_CORRIDOR), rules="classic")
    assert legal(board) == mirror({"a9a8"})
    board.replay(mirror(CAT_TRIP * 2))
    assert board.repetition_count() == 3
    assert legal(board) == set()
    assert board.outcome() == Outcome(Termination.MOVE_RESTRICTIONS, mirror(1 - RED))
    assert board.result() == mirror("0-1")


def test_same_cycle_is_a_draw_under_wango(mirror) -> None:
    board = Board(mirror(CAT_CORRIDOR), rules="wango")
    board.replay(mirror(CAT_TRIP * 2))
    assert board.outcome() == Outcome(Termination.REPETITION, None)

"""How pieces move, and what each rule option changes: steps along lines, jumps, multi-jumps,
mandatory captures, retreating men, diagonals, who moves first, men and tigers at the start."""

from __future__ import annotations

from tests.tiger.helpers import board, moves, rules

from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.points import parse_point


def test_the_tiger_steps_along_the_lines_and_jumps_single_men() -> None:
    b = board("e5", "e6 d5 e4 e3 a1 a2 a3")  # e4 guarded by e3
    assert moves(b) == {"e5f5", "e5e7", "e5c5"}


def test_two_men_in_a_row_guard_each_other() -> None:
    b = board("e5", "e6 e7 d5 c5 f5 g5 e4 e3")
    assert moves(b) == set()  # hemmed in: every neighbour held, every point beyond too


def test_the_board_edge_guards_a_man() -> None:
    b = board("a5", "a6 b5 a4 i1")
    assert moves(b) == {"a5a7", "a5c5", "a5a3"}
    b = board("a8", "a9 b8 a7 a6 i1")
    assert moves(b) == {"a8c8"}  # a9 is on the edge: nothing beyond it


def test_men_step_anywhere_along_a_line_and_into_the_nest() -> None:
    b = board("a9", "e9 e5 a1 i1", side="m")
    assert {m for m in moves(b) if m.startswith("e9")} == {"e9e8", "e9d9", "e9f9", "e9e10"}
    assert {m for m in moves(b) if m.startswith("e5")} == {"e5e4", "e5d5", "e5f5", "e5e6"}
    assert {m for m in moves(b) if m.startswith("a1")} == {"a1a2", "a1b1"}


def test_men_never_jump() -> None:
    b = board("e6", "e5 e4 d1 f1", side="m")
    assert not any(m.startswith("e5") and m.endswith("e7") for m in moves(b))


def test_option_men_retreat() -> None:
    b = board("a9", "e5 e9 a1 i1", side="m", men_retreat=False)
    assert {m for m in moves(b) if m.startswith("e5")} == {"e5d5", "e5f5", "e5e6"}
    assert {m for m in moves(b) if m.startswith("e9")} == {"e9d9", "e9f9", "e9e10"}
    # The tiger may always go back.
    tiger = board("e5", "a1 b1 c1 d1", men_retreat=False)
    assert "e5e4" in moves(tiger)


def test_option_diagonals() -> None:
    none = board("e10", "d9 e9 f9 a1", diagonals="none")
    nest = board("e10", "d9 e9 f9 a1", diagonals="nest")
    assert moves(none) == {"e10d10", "e10f10", "e10e11", "e10e8"}
    # The nest's diagonals, but no jump to c8 or g8: d9-c8 and f9-g8 are no lines.
    assert moves(nest) == moves(none) | {"e10d11", "e10f11"}
    # "nest" adds no diagonal on the board itself; "all" does.
    assert moves(board("e5", "a1 b1 c1 d1", diagonals="nest")) == {"e5e4", "e5d5", "e5f5", "e5e6"}
    assert len(moves(board("e5", "a1 b1 c1 d1", diagonals="all"))) == 8
    men = board("a9", "e5 a1 i1 i2", side="m", diagonals="all")
    assert {m for m in moves(men) if m.startswith("e5")} == {
        "e5d4", "e5e4", "e5f4", "e5d5", "e5f5", "e5d6", "e5e6", "e5f6"
    }  # fmt: skip


def test_nest_diagonal_jumps_stay_on_lines() -> None:
    # Under "nest" the tiger on e10 jumps d9 to c8? No: d9-c8 is no line. Under "all" it does.
    nest = board("e10", "d9 a1 b1 c1", diagonals="nest")
    assert "e10c8" not in moves(nest)
    assert "e10c8" in moves(board("e10", "d9 a1 b1 c1", diagonals="all"))
    assert "e10g8" not in moves(board("e10", "f9 a1 b1 c1", diagonals="nest"))
    # Inside the nest: d11 over e10 to f9.
    assert "d11f9" in moves(board("d11", "e10 a1 b1 c1", diagonals="nest"))


def test_option_multi_jump() -> None:
    single = board("e3", "e4 e6 e8 a1 b1", multi_jump=False)
    assert {m for m in moves(single) if Move.from_str(m).is_jump} == {"e3e5"}
    multi = board("e3", "e4 e6 e8 a1 b1", multi_jump=True)
    # Every prefix is a move: the tiger may stop after any jump.
    assert {m for m in moves(multi) if Move.from_str(m).is_jump} == {
        "e3e5", "e3e5e7", "e3e5e7e9"
    }  # fmt: skip
    assert "e3e5e7e9e11" not in moves(multi)  # no man on e10


def test_multi_jumps_branch_and_may_come_back_to_the_start() -> None:
    # Four men around a square: the tiger can take all four and land where it began.
    multi = board("e5", "e6 f7 e8 d7 a1 b1", multi_jump=True)
    found = moves(multi)
    assert {"e5e7", "e5e7g7", "e5e7c7", "e5e7e9"} <= found
    assert "e5e7g7" in found and "e5e7c7" in found
    loop = board("e5", "e6 f7 g6 f5 a1 b1", multi_jump=True)
    assert "e5e7g7g5e5" in moves(loop)  # e6, f7, g6, f5 taken; back on e5
    loop.push_move("e5e7g7g5e5")
    assert loop.men_count == 2 and loop.tiger_points() == [parse_point("e5")]
    loop.pop()
    assert loop.men_count == 6


def test_a_man_is_taken_once_in_a_multi_jump() -> None:
    # e5 over e6 to e7, then back over e6? He is gone: no jump there.
    multi = board("e5", "e6 a1 b1 c1", multi_jump=True)
    assert "e5e7e5" not in moves(multi)


def test_option_capture_mandatory() -> None:
    free = board("e5", "e6 a1 b1 c1")
    assert moves(free) == {"e5e4", "e5d5", "e5f5", "e5e7"}
    forced = board("e5", "e6 a1 b1 c1", capture_mandatory=True)
    assert moves(forced) == {"e5e7"}
    # With nothing to take, steps are legal; the men are never bound by it.
    assert len(moves(board("e5", "a1 b1 c1 d1", capture_mandatory=True))) == 4
    men = board("e5", "e6 a1 b1 c1", side="m", capture_mandatory=True)
    assert "a1a2" in moves(men)


def test_capture_mandatory_with_multi_jump_may_still_stop() -> None:
    b = board("e3", "e4 e6 a1 b1", capture_mandatory=True, multi_jump=True)
    assert moves(b) == {"e3e5", "e3e5e7"}


def test_two_tigers_move_and_never_jump_each_other() -> None:
    b = board("d6 e6", "d5 e5 c4 f4 a1")
    assert "d6f6" not in moves(b) and "e6c6" not in moves(b)
    assert {"d6d4", "e6e4"} <= moves(b)
    # The other tiger blocks a landing point.
    assert "e5e7" not in moves(board("e5 e7", "e6 a1 b1 c1"))


def test_capture_mandatory_looks_at_both_tigers() -> None:
    b = board("a9 e5", "e6 a1 b1 c1", capture_mandatory=True)
    assert moves(b) == {"e5e7"}


def test_option_first_and_the_move_number() -> None:
    b = Board(rules=rules(first="men"))
    assert b.turn == 1 and b.position_string().endswith(" m 0 1")
    b.push_move("d2d3")
    assert b.fullmove_number == 1  # the first side moved
    b.push_move("e10e9")
    assert b.fullmove_number == 2 and b.halfmove_clock == 2
    tiger_first = Board()
    tiger_first.push_move("e10e9")
    assert tiger_first.fullmove_number == 1
    tiger_first.push_move("d2d3")
    assert tiger_first.fullmove_number == 2


def test_options_men_and_tigers_set_the_start() -> None:
    assert len(Board(rules="laohuqi-18").man_points()) == 18
    assert len(Board(rules="laohuqi-south").tiger_points()) == 2
    assert Board(rules=rules(men=18, tigers=2)).position_string() == (
        "3/T1T/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1"
    )


def test_a_capture_resets_the_halfmove_clock() -> None:
    b = board("e5", "e6 a1 b1 c1")
    b.halfmove_clock = 7
    b.push_move("e5e4")
    assert b.halfmove_clock == 8
    b.pop()
    b.push_move("e5e7")
    assert b.halfmove_clock == 0 and b.men_count == 3 and b.men_taken == 9

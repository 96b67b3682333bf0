"""Short notation for 老虎棋: writing in English, Simplified and Traditional Chinese, reading
either forgivingly, and refusing what does not fit the move."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.tiger.helpers import board

from doushouqi.core.game import LANGUAGES, IllegalMoveError, MoveError
from doushouqi.tiger.board import Board
from doushouqi.tiger.moves import Move
from doushouqi.tiger.san import AmbiguousMoveError, move_to_san, parse_san

JUMPS = "3/3/9/9/4M4/3M1M3/3MT4/4M4/2M3M2/9/M7M t"


@pytest.mark.parametrize(
    ("position", "move", "en", "zh"),
    [
        (None, "e10e9", "Te10-e9", "虎e10-e9"),
        (JUMPS, "e5c5", "Te5xc5", "虎e5吃c5"),
        (JUMPS, "e5e6", "Te5-e6", "虎e5-e6"),
        ("3/3/9/9/9/9/3MTM3/9/9/9/MMMMMM3 m", "a1a2", "Ma1-a2", "人a1-a2"),
    ],
)
def test_writing(position: str | None, move: str, en: str, zh: str) -> None:
    b = Board() if position is None else Board(position)
    m = Move.from_str(move)
    assert move_to_san(b, m) == en
    assert move_to_san(b, m, "zh") == zh
    assert move_to_san(b, m, "zh-Hant") == zh  # the same characters in both scripts


def test_multi_jumps_list_every_landing() -> None:
    b = board("e3", "e4 e6 a1 b1 c1 d1", multi_jump=True)
    assert move_to_san(b, Move.from_str("e3e5e7")) == "Te3xe5xe7"
    assert move_to_san(b, Move.from_str("e3e5e7"), "zh") == "虎e3吃e5吃e7"
    assert parse_san(b, "Te3xe5xe7") == Move.from_str("e3e5e7")


def test_a_winning_move_is_marked() -> None:
    b = board("e5", "e6 a1 b1 c1")
    assert move_to_san(b, Move.from_str("e5e7")) == "Te5xe7#"  # three men left
    trap = board("e5", "e6 e7 d5 c5 f5 g5 e3 d4", side="m")
    assert move_to_san(trap, Move.from_str("d4e4"), "zh") == "人d4-e4#"
    assert parse_san(trap, "Md4-e4#") == Move.from_str("d4e4")
    with pytest.raises(IllegalMoveError, match="does not win"):
        parse_san(trap, "Mc5-c4#")


def test_the_pass() -> None:
    b = Board()
    assert move_to_san(b, Move.null()) == "--"
    assert move_to_san(b, Move.null(), "zh") == "停棋一步"
    assert parse_san(b, "--", allow_pass=True) == Move.null()
    assert parse_san(b, "停棋一步", allow_pass=True) == Move.null()
    with pytest.raises(IllegalMoveError, match="a pass is no move"):
        parse_san(b, "--")


@pytest.mark.parametrize(
    "text",
    ["Te5xc5", "te5xc5", "T e5 x c5", "虎e5吃c5", "老虎e5吃c5", "e5c5", "e5xc5", "Txc5", "xc5",
     "Tc5", "c5", "Te5:c5", "Te5×c5", "Te5xc5!?", "虎吃c5"],
)  # fmt: skip
def test_reading_is_forgiving(text: str) -> None:
    assert parse_san(Board(JUMPS), text) == Move.from_str("e5c5")


def test_a_destination_alone_must_name_one_move() -> None:
    b = Board("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m")
    assert parse_san(b, "Ma2") == Move.from_str("a1a2")
    with pytest.raises(AmbiguousMoveError, match="d2d3, c3d3, e3d3 end on d3; give the from"):
        parse_san(Board("3/1T1/9/9/9/9/9/9/2M1M4/3M5/MMMMM4 m"), "d3")
    with pytest.raises(IllegalMoveError, match=r"no legal move ends on e2 \(it is occupied\)"):
        parse_san(b, "Me2")


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("", MoveError, "not a move"),
        ("hello", MoveError, "not a move"),
        ("Tz9", MoveError, "not a move"),
        ("Te5-c5", IllegalMoveError, "e5c5 is a jump"),
        ("Te5xe6", IllegalMoveError, "e5e6 is a step"),
        ("Me5-e6", IllegalMoveError, "M names a man, and e5 holds a tiger"),
        ("Te5-e8", IllegalMoveError, "illegal move e5e8: e5 and e8 are not joined by a line"),
        ("xe6", IllegalMoveError, "no legal move ends on e6"),
        ("Txe5xc5", MoveError, "not a move"),
    ],
)
def test_what_does_not_fit_is_refused(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_san(Board(JUMPS), text)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_legal_move_reads_back_in_every_language(data: st.DataObject) -> None:
    b = Board(rules=data.draw(st.sampled_from(["laohuqi", "laohuqi-south", "laohuqi-18"])))
    for _ in range(data.draw(st.integers(0, 30))):
        legal = list(b.generate_legal_moves())
        if not legal or b.outcome() is not None:
            break
        b.push(data.draw(st.sampled_from(legal)))
    for move in b.generate_legal_moves():
        for lang in LANGUAGES:
            assert parse_san(b, move_to_san(b, move, lang)) == move

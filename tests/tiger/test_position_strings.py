"""Position strings of 老虎棋 (docs/tiger.md): the start positions, reading and writing, and
every kind of malformed string refused with a PositionError that names the problem."""

from __future__ import annotations

import pytest
from tests.tiger.helpers import place, rules

from doushouqi.core.game import PositionError
from doushouqi.tiger.board import Board, start_position
from doushouqi.tiger.fen import MAN, TIGER, parse_position
from doushouqi.tiger.points import parse_point
from doushouqi.tiger.rules import BUILTIN_RULE_SETS

STARTS = {
    "laohuqi": "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
    "laohuqi-18": "3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1",
    "laohuqi-strict": "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
    "laohuqi-south": "3/T1T/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
}


@pytest.mark.parametrize("name", list(STARTS))
def test_start_positions(name: str) -> None:
    assert start_position(BUILTIN_RULE_SETS[name]) == STARTS[name]
    assert Board(rules=name).position_string() == STARTS[name]


def test_the_start_as_the_rules_text_says() -> None:
    pieces, turn, halfmove, number = parse_position(STARTS["laohuqi"])
    men = {f"{f}1" for f in "abcdefghi"} | {"d2", "e2", "f2"}
    assert {p for p, code in enumerate(pieces) if code == MAN} == {parse_point(n) for n in men}
    assert [p for p, code in enumerate(pieces) if code == TIGER] == [parse_point("e10")]
    assert (turn, halfmove, number) == (0, 0, 1)


def test_the_men_may_move_first() -> None:
    assert start_position(rules(first="men")).endswith(" m 0 1")


def test_counters_may_be_left_out() -> None:
    text = "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM m"
    assert Board(text).position_string() == text + " 0 1"
    assert Board(text + " 7").position_string() == text + " 7 1"


def test_the_nest_ranks_hold_three_points() -> None:
    text = place("d11", "f11 e10 d9 i9", side="m", halfmove=3, number=12)
    assert text == "T1M/1M1/3M4M/9/9/9/9/9/9/9/9 m 3 12"
    assert Board(text).position_string() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected the placement, the side to move"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM", "expected the placement, the side to move"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1 x", "expected the placement"),
        ("3/1T1/9/9/9/9/9/9/9/MMMMMMMMM t", "expected 11 ranks separated by '/'"),
        ("1T1/9/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t", "rank 10 .'9'. has more than 3 points"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMM t", r"rank 1 \('MMMMMMMM'\) has 8 points"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMMM t", "rank 1 .* has more than 9 points"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMM1M t", "rank 1 .* has more than 9 points"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM x", "side to move must be 't' .tiger. or 'm'"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM T", "side to move must be 't'"),
        ("3/1T1/9/9/9/9/9/9/9/3MMX3/MMMMMMMMM t", "unknown letter 'X' in rank 2"),
        ("3/1t1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t", "unknown letter 't' in rank 10"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM21/MMMMMMMMM t", "bad count of empty points in rank 2"),
        ("3/1T1/9/9/9/9/9/9/9/0MMM6/MMMMMMMMM t", "bad count of empty points in rank 2"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t -1", "halfmove clock must be a whole number"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 10000", "from 0 to 9999, got '10000'"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 0", "move number must be a whole number"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 ١", "move number must be a whole number"),
        ("3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t +1", "halfmove clock must be a whole number"),
    ],
)
def test_malformed_strings_say_why(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Board(text)


def test_long_junk_is_shortened_in_the_message() -> None:
    with pytest.raises(PositionError) as error:
        Board("x" * 10_000 + " t")
    assert len(str(error.value)) < 400


def test_a_position_must_fit_the_rule_set() -> None:
    two_tigers = "3/T1T/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"
    with pytest.raises(PositionError, match="2 tigers, the rule set 'laohuqi' has 1"):
        Board(two_tigers)
    south = Board(two_tigers, "laohuqi-south")
    assert south.tiger_points() == [parse_point("d10"), parse_point("f10")]
    with pytest.raises(PositionError, match="1 tiger, the rule set 'laohuqi-south' has 2"):
        Board(STARTS["laohuqi"], "laohuqi-south")
    with pytest.raises(PositionError, match="0 tigers"):
        Board("3/3/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t")
    with pytest.raises(PositionError, match=r"18 men, more than .* 'laohuqi' starts with \(12\)"):
        Board(STARTS["laohuqi-18"])
    # Fewer men than the start is a game in progress (or over).
    assert Board("3/1T1/9/9/9/9/9/9/9/9/MMM6 m").men_count == 3


def test_non_text_is_refused() -> None:
    with pytest.raises(PositionError, match="must be text"):
        parse_position(None)  # type: ignore[arg-type]

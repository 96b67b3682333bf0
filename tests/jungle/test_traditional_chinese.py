"""Traditional Chinese (``lang="zh-Hant"``, as the site ships it) in the library: SAN, LAN,
readable moves, terms and the SVG, and SAN read back in either script."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from doushouqi import Board, Move
from doushouqi.jungle import terms
from doushouqi.jungle.notation import move_list_lines, move_to_readable
from doushouqi.jungle.outcome import Outcome, Termination
from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.jungle.svg import board_svg

#: Characters of the Simplified script that Traditional writes otherwise (any of them in a
#: zh-Hant text is a word the conversion left out).
SIMPLIFIED_ONLY = re.compile("[兽复对断无时杀桥毙狮猫环盘红线胜蓝计认赖输违长间黄]")


@st.composite
def played_boards(draw: st.DrawFn) -> Board:
    board = Board(rules=draw(st.sampled_from(sorted(BUILTIN_RULE_SETS))))
    for choice in draw(st.lists(st.integers(0, 1 << 16), max_size=40)):
        moves = sorted(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board


def test_the_issue_examples() -> None:
    board = Board()
    assert board.parse_san("獅g2") == Move.from_uci("g1g2") == board.parse_san("狮g2")
    assert board.san(Move.from_uci("g1g2"), lang="zh-Hant") == "獅g2"
    svg = board_svg(board, lang="zh-Hant")
    assert "獅" in svg and "貓" in svg and "獸穴" in svg and not SIMPLIFIED_ONLY.search(svg)


@settings(max_examples=60, deadline=None)
@given(played_boards())
def test_san_and_lan_round_trip_in_traditional(board: Board) -> None:
    for move in board.legal_moves:
        san, lan = board.san(move, lang="zh-Hant"), board.lan(move, lang="zh-Hant")
        assert board.parse_san(san) == move and board.parse_san(lan) == move
        assert san == terms.to_hant(board.san(move, lang="zh"))
        assert not SIMPLIFIED_ONLY.search(san + lan + move_to_readable(board, move, "zh-Hant"))


def test_every_word_has_a_traditional_form() -> None:
    texts = [terms.term(key, "zh-Hant") for key in terms.TERMS]
    texts += [terms.termination_label(t, "zh-Hant") for t in Termination]
    texts += [terms.outcome_label(Outcome(t, w), "zh-Hant") for t in Termination for w in (0, None)]
    texts += [terms.animal_name(a, "zh-Hant") for a in range(1, 9)]
    assert not [text for text in texts if SIMPLIFIED_ONLY.search(text)]
    assert terms.outcome_label(Outcome(Termination.DEN_ENTERED, 0), "zh-Hant") == "紅方勝（入穴）"


def test_move_list_in_traditional() -> None:
    board = Board()
    moves = [Move.from_uci("g1g2"), Move.from_uci("a9a8")]
    assert move_list_lines(board, moves, "zh-Hant") == ["1. 獅 g1-g2  獅 a9-a8"]

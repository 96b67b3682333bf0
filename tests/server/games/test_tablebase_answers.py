"""The game-free parts of the tables' answers: categories, the hint's move and its score."""

from __future__ import annotations

from doushouqi.jungle.board import Board
from doushouqi.server.games.tablebase_answers import (
    best_unrepeated,
    category,
    table_hint_answer,
)


def test_category_by_sign() -> None:
    assert [category(w) for w in (3, 0, -1)] == ["win", "draw", "loss"]


def test_a_win_is_scored_in_own_moves_and_never_zero() -> None:
    assert table_hint_answer("a1a2", 1, 5, ("x", "y"), "den")["score"] == {"den": 3}
    assert table_hint_answer("a1a2", 1, None, ("x", "y"), "win")["score"] == {"win": 1}
    assert table_hint_answer("a1a2", -1, 6, ("x", "y"), "win")["score"] == {"win": -3}
    drawn = table_hint_answer("a1a2", 0, None, ("x", "y"), "den")
    assert drawn["score"] == {"cp": 0}
    assert drawn["bestmove"] == "a1a2" and drawn["lines"][0]["pv"] == ["a1a2"]
    assert drawn["tablebase"] == {"category": "draw", "dtm": None}
    assert drawn["readable_en"] == "x" and drawn["readable_zh"] == "y"


class _Value:
    def __init__(self, move: object, value: int) -> None:
        self.move, self.value = move, value


def test_the_hint_avoids_a_third_repetition_among_equal_moves() -> None:
    board = Board()
    shuffle = ["a3a4", "g7g6", "a4a3", "g6g7"]
    for move in shuffle * 2:
        board.push_uci(move)
    repeating, other = board.parse_uci("a3a4"), board.parse_uci("g3g4")
    values = [_Value(repeating, 1), _Value(other, 1), _Value(board.parse_uci("b2b3"), 0)]
    assert best_unrepeated(board, values) is values[1]
    # A worse move is never chosen to avoid it: alone at the top, the repeating move stays.
    assert best_unrepeated(board, [values[0], values[2]]) is values[0]
    assert len(board.move_stack) == 8  # the board is left as it was

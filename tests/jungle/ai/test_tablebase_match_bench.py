"""bench/tablebase_match.py's reading of the games: the covered positions of a game, each
side's best covered value, and the conversion counts of the report (no engine runs here:
the games are written by hand, the values come from the shipped tables)."""

from __future__ import annotations

from types import SimpleNamespace

from bench import tablebase_match

from doushouqi.jungle.board import Board
from doushouqi.jungle.engine.match import GameResult, Opening
from doushouqi.jungle.outcome import Termination
from doushouqi.jungle.tablebase.probe import probe

# Red's lion d8 beside Blue's den, Blue's rat a1: Red to move wins at once (d8d9).
NEAR_DEN = "7/3L3/7/7/7/7/7/7/r6 w 0 1"
# Blue's rat a6 against Red's lion d4, Blue to move: Red wins in 12 plies.
RAT_AND_LION = "7/7/7/r6/7/3L3/7/7/7 b 0 1"
# Six animals: no table covers it.
SIX = "5c1/7/4e2/r6/7/7/7/1E2D2/5R1 w 0 1"


def _result(number: int, red: str, blue: str, fen: str, moves: tuple[str, ...]) -> GameResult:
    board = Board(fen)
    for move in moves:
        board.push_move(move)
    outcome = board.outcome()
    result = outcome.result() if outcome else "1/2-1/2"
    termination = outcome.termination if outcome else None
    reason = "den entered" if termination is Termination.DEN_ENTERED else "adjudicated"
    return GameResult(
        number, red, blue, result, termination, reason, len(moves), Opening(fen), moves
    )


def test_covered_values_follow_the_game() -> None:
    game = _result(1, "A", "B", RAT_AND_LION, ("a6a7", "d4d5"))
    values = tablebase_match.covered_values(game)
    assert [ply for ply, _ in values] == [0, 1, 2]
    board = Board(RAT_AND_LION)
    assert probe(board).wdl == -1  # Blue to move loses: a win for Red
    assert all(value == 1 for _, value in values)
    assert tablebase_match.covered_values(_result(2, "A", "B", SIX, ())) == []
    # The position after the den is entered is a finished game: not a table position.
    assert tablebase_match.covered_values(_result(3, "A", "B", NEAR_DEN, ("d8d9",))) == [(0, 1)]


def test_rows_and_report_count_each_sides_covered_wins() -> None:
    names = ("with tables", "without tables")
    results = [
        # A is Red and wins from a covered win, B is Red the second time and wins too.
        _result(1, names[0], names[1], NEAR_DEN, ("d8d9",)),
        _result(2, names[1], names[0], NEAR_DEN, ("d8d9",)),
        # B (Red) lets a covered win go: the game is adjudicated a draw.
        _result(3, names[1], names[0], RAT_AND_LION, ("a6a7", "d4d5")),
        _result(4, names[0], names[1], SIX, ()),
    ]
    match = SimpleNamespace(names=names, results=results)
    rows = tablebase_match.game_rows(match, {NEAR_DEN: "won", SIX: "unclear"})
    assert [r["a_best"] for r in rows] == [1, -1, -1, None]
    assert [r["b_best"] for r in rows] == [-1, 1, 1, None]
    assert [r["a_points"] for r in rows] == [1.0, 0.0, 0.5, 0.5]
    assert rows[0]["a_win_plies"] == 1 and rows[1]["b_win_plies"] == 1
    assert rows[2]["b_win_plies"] == 2 and rows[2]["class"] == "?"
    lines = tablebase_match.report(rows)
    text = "\n".join(lines)
    assert "Covered by the tables: 3 of 4 games" in text
    assert "A (with tables): a covered win in 1 games, converted 1 (100%" in text
    assert "B (without): a covered win in 2 games, converted 1 (50%" in text
    assert "won +1 =0 -1 (50.0%)" in text and "unclear +0 =1 -0 (50.0%)" in text

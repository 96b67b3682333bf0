"""Hints in a covered endgame come from the tables, at once and without the engine."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import make_settings, running

from doushouqi.jungle.board import Board
from doushouqi.jungle.tablebase.probe import probe_moves
from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi

RAT_AGAINST_LION = "7/7/7/r6/7/3L3/7/7/7"  # Blue's rat a6, Red's lion d4 (docs/engine.md)


class NoEngine(RandomAi):
    """Plays games as RandomAi does but has no analysis: any hint must come from elsewhere."""

    asked = 0

    async def analyse(self, request: AiRequest) -> Analysis:
        NoEngine.asked += 1
        raise RuntimeError("the engine is switched off in this test")


def _hint(live: object, fen: str, moves: list[str] | None = None) -> dict[str, object]:
    client = live.player()  # type: ignore[attr-defined]
    body = {"fen": fen, "moves": moves or [], "purpose": "hint", "movetime": 0.05}
    answer = client.post("/api/analysis", json=body)
    assert answer.status_code == 200, answer.text
    data: dict[str, object] = answer.json()
    return data


def test_a_covered_hint_is_the_tables_best_move_without_the_engine(tmp_path: Path) -> None:
    NoEngine.asked = 0
    with running(make_settings(tmp_path), ai=NoEngine()) as live:
        lost = _hint(live, f"{RAT_AGAINST_LION} b")  # Blue loses in 12: the longest defence
        won = _hint(live, f"{RAT_AGAINST_LION} w")
    assert NoEngine.asked == 0
    assert lost["source"] == "tablebase" and lost["tablebase"] == {"category": "loss", "dtm": 12}
    assert lost["bestmove"] == "a6a7" and lost["score"] == {"den": -6}
    board = Board(f"{RAT_AGAINST_LION} w")
    best = probe_moves(board)
    assert best is not None
    fastest = [str(v.move) for v in best if v.value == best[0].value]
    assert won["source"] == "tablebase" and won["tablebase"]["category"] == "win"  # type: ignore[index]
    assert won["bestmove"] in fastest
    assert won["lines"][0]["move"] == won["bestmove"]  # type: ignore[index]
    assert isinstance(won["red_cp"], int) and won["red_cp"] > 0


def test_a_table_hint_never_walks_into_a_third_repetition(tmp_path: Path) -> None:
    # Red's lion f8 against Blue's elephant c8: f8e8 and f8f9 win equally fast (f8e8 first in
    # the tables' order), but after this shuffle f8e8 makes a position's third occurrence.
    start = "7/2e1L2/7/7/7/7/7/7/7 b"  # the position after f8e8
    shuffle = ["c8c7", "e8f8", "c7c8", "f8e8", "c8c7", "e8f8", "c7c8"]
    board = Board(start)
    for text in shuffle:
        board.push(board.parse_move(text))
    values = probe_moves(board)
    assert values is not None and str(values[0].move) == "f8e8"  # the tables alone would say it
    with running(make_settings(tmp_path), ai=NoEngine()) as live:
        hint = _hint(live, start, shuffle)
    assert hint["source"] == "tablebase"
    assert hint["bestmove"] == "f8f9"
    board.push(board.parse_move("f8f9"))
    assert not board.is_repetition(3)


def test_an_uncovered_position_still_asks_the_engine(tmp_path: Path) -> None:
    with running(make_settings(tmp_path)) as live:  # the stand-in engine (RandomAi)
        start = _hint(live, "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w")
        classic = (
            live.player()
            .post(
                "/api/analysis",
                json={"fen": f"{RAT_AGAINST_LION} b", "rules": "classic", "purpose": "hint"},
            )
            .json()
        )
    assert "source" not in start and start["bestmove"]
    assert "source" not in classic  # the tables do not model classic's history rules

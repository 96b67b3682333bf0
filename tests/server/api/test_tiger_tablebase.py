"""GET /api/tablebase?game=tiger: the Tiger's shipped tables (the tiger against four men) on
the site, through the game's capability; hints from them; bad input a 4xx with a code."""

from __future__ import annotations

from pathlib import Path

from tests.server.ai.test_tablebase_hints import NoEngine
from tests.support.live import LiveServer, make_settings, running

from doushouqi.tiger.board import Board
from doushouqi.tiger.tablebase.probe import probe_moves

LONGEST_WIN = "3/3/9/9/9/9/9/4M4/1M1M5/9/T1M6 t"  # the tiger wins in 15 plies (docs)
CORNERED = "3/3/9/9/9/9/9/9/M8/1M7/TMM6 m"  # the men close the trap: b2a2


def _table(server: LiveServer, fen: str, **params: str) -> dict[str, object]:
    answer = server.player().get("/api/tablebase", params={"fen": fen, "game": "tiger", **params})
    assert answer.status_code == 200, answer.text
    data: dict[str, object] = answer.json()
    return data


def test_a_covered_position_and_each_move_as_the_tables_say(server: LiveServer) -> None:
    data = _table(server, LONGEST_WIN)
    assert (data["category"], data["dtm"], data["turn"]) == ("win", 15, 0)
    assert data["text"] == "Tablebase: the tiger wins in 15"
    expected = probe_moves(Board(LONGEST_WIN))
    assert expected is not None
    moves = data["moves"]
    assert isinstance(moves, list)
    assert [(m["uci"], m["dtm"]) for m in moves] == [(str(v.move), v.value.dtm) for v in expected]
    assert moves[0]["category"] == "win" and moves[0]["readable_zh"].startswith("虎")
    assert {m["category"] for m in moves} == {"win", "draw"}  # one step wrong and it is a draw
    after = _table(server, moves[0]["fen"])
    assert (after["category"], after["dtm"], after["turn"]) == ("loss", 14, 1)


def test_the_men_to_move_win_at_once(server: LiveServer) -> None:
    data = _table(server, CORNERED)
    assert (data["category"], data["dtm"]) == ("win", 1)
    moves = data["moves"]
    assert isinstance(moves, list)
    assert moves[0]["uci"] == "b2a2" and moves[0]["readable_en"]
    assert moves[-1]["category"] == "loss"  # walking away lets the tiger take a man


def test_positions_no_table_holds_say_why(server: LiveServer) -> None:
    start = _table(server, "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t")
    assert start["category"] == "unknown" and "not 12" in str(start["reason"])
    assert start["moves"] == []
    won = _table(server, "3/1T1/9/9/9/9/9/9/9/9/MMM6 m")  # three men left: the tiger has won
    assert won["category"] == "unknown" and won["reason"] == "the game is over"
    # Under laohuqi-strict four men have lost already, and nine men's table is not shipped.
    strict = _table(server, LONGEST_WIN, rules="laohuqi-strict")
    assert strict["reason"] == "the game is over"
    nine = _table(server, "3/1T1/9/9/9/9/9/9/9/M8/MMMMMMMM1 t", rules="laohuqi-strict")
    assert nine["category"] == "unknown" and nine["reason"] == "no table covers this position"


def test_bad_input_is_a_4xx_with_a_code(server: LiveServer) -> None:
    client = server.player()
    for fen in ("3/3/9 t", "not a position", "3/3/9/9/9/9/9/9/9/9/TTMM5 t", "x" * 200):
        answer = client.get("/api/tablebase", params={"fen": fen, "game": "tiger"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "tablebase.bad_fen"
    unknown = client.get(
        "/api/tablebase", params={"fen": LONGEST_WIN, "game": "tiger", "rules": "classic"}
    )
    assert unknown.status_code == 422 and unknown.json()["code"] == "rules.unknown"
    too_long = client.get("/api/tablebase", params={"fen": "x" * 201, "game": "tiger"})
    assert too_long.status_code == 422  # the query's own check, as every route's
    assert too_long.json()["detail"][0]["type"] == "string_too_long"
    assert too_long.json()["code"] == "invalid"  # a code as every refusal has


def test_the_site_lists_the_tigers_tables(server: LiveServer) -> None:
    games = server.player().get("/api/site-games").json()["games"]
    assert {g["key"]: g["tablebase"] for g in games} == {"jungle": True, "tiger": True}


def test_a_covered_hint_is_the_tables_move_without_the_engine(tmp_path: Path) -> None:
    NoEngine.asked = 0
    body = {"game": "tiger", "fen": LONGEST_WIN, "moves": [], "purpose": "hint", "movetime": 0.05}
    with running(make_settings(tmp_path), ai=NoEngine()) as live:
        answer = live.player().post("/api/analysis", json=body)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert NoEngine.asked == 0
    assert hint["source"] == "tablebase" and hint["tablebase"] == {"category": "win", "dtm": 15}
    assert hint["bestmove"] == "a1b1" and hint["score"] == {"win": 8}
    assert hint["red_cp"] > 0  # the tiger's side is the first seat

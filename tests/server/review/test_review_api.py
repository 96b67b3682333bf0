"""Game review over REST: grades and accuracy from a replay's scores (POST /api/review), and
the judge of "learn from your mistakes" (POST /api/review/check)."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import LiveServer, make_settings, running

from doushouqi.server.ai.pool import ProcessPoolAi

DEN_IN_ONE = "7/3L3/7/7/7/7/7/3l3/7 w"  # both lions beside a den: Red must enter first


def test_review_grades_the_moves_and_sums_up_each_side(server: LiveServer) -> None:
    client = server.player()
    body = {"scores": [0, 0, 1028, 0, None], "turn": 0, "moves": ["a3a4", "g7g6", "a4a5", "g6g5"]}
    answer = client.post("/api/review", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    grades = {p["ply"]: p["grade"] for p in data["plies"]}
    assert grades == {1: None, 2: "blunder", 3: "blunder"}
    red, blue = data["players"]
    assert (red["moves"], red["blunders"], blue["moves"], blue["blunders"]) == (2, 1, 1, 1)
    assert 0 < blue["accuracy"] < red["accuracy"] <= 100
    assert data["thresholds"] == {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 15.0}


def test_review_refuses_what_is_no_list_of_scores(server: LiveServer) -> None:
    client = server.player()
    assert client.post("/api/review", json={"scores": ["x"]}).status_code == 422
    assert client.post("/api/review", json={"scores": [0], "turn": 2}).status_code == 422
    assert client.post("/api/review", json={"scores": [0] * 3000}).status_code == 422
    huge = client.post("/api/review", json={"scores": [0, 10**12]}).json()
    assert huge["plies"][0]["grade"] is None  # Red's move made Red win: no mark


def test_a_move_tried_in_an_illegal_way_is_refused_before_any_search(server: LiveServer) -> None:
    answer = server.player().post(
        "/api/review/check", json={"fen": DEN_IN_ONE, "moves": [], "move": "d8d7d6"}
    )
    assert answer.status_code == 422 and answer.json()["code"] == "position.move"


def test_the_judge_accepts_the_winning_move_and_refuses_one_that_lets_it_go(
    tmp_path: Path,
) -> None:
    with running(make_settings(tmp_path), ai=ProcessPoolAi(1)) as live:
        client = live.player()
        body = {"fen": DEN_IN_ONE, "moves": [], "movetime": 0.2}
        win = client.post("/api/review/check", json={**body, "move": "d8d9"}).json()
        lets_go = client.post("/api/review/check", json={**body, "move": "d8c8"}).json()
    assert win["accepted"] is True and win["loss"] == 0 and win["best"]["move"] == "d8d9"
    assert lets_go["accepted"] is False and lets_go["loss"] > 5
    assert lets_go["best"]["move"] == "d8d9" and lets_go["best"]["readable_en"]

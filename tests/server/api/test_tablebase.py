"""GET /api/tablebase: the shipped endgame tables' value of a position and of its moves."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import LiveServer, make_settings, running

from doushouqi.server.infra.settings import RateLimit

LION_AT_THE_DEN = "7/3L3/7/7/7/7/7/7/r6"  # Red lion on d8 (Blue's trap), Blue rat on a1


def test_a_covered_position_and_its_moves(server: LiveServer) -> None:
    answer = server.player().get("/api/tablebase", params={"fen": f"{LION_AT_THE_DEN} b"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert (data["category"], data["dtm"]) == ("loss", 2)
    assert data["text"] == "Tablebase: Red wins in 2"
    assert data["moves"] and {m["category"] for m in data["moves"]} == {"loss"}
    assert {m["uci"] for m in data["moves"]} == {"a1a2", "a1b1"}
    assert all(m["dtm"] == 2 and m["fen"] and m["san"] for m in data["moves"])
    red = server.player().get("/api/tablebase", params={"fen": f"{LION_AT_THE_DEN} w"}).json()
    assert red["category"] == "win" and red["dtm"] == 1
    assert red["moves"][0]["uci"] == "d8d9" and red["moves"][0]["dtm"] == 1  # fastest first


def test_rules_out_of_scope_and_uncovered_positions(server: LiveServer) -> None:
    client = server.player()
    classic = client.get(
        "/api/tablebase", params={"fen": f"{LION_AT_THE_DEN} w", "rules": "classic"}
    ).json()
    assert classic["category"] == "unknown" and "history" in classic["reason"]
    start = client.get("/api/tablebase", params={"fen": "startpos"})
    assert start.status_code == 422
    full = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w"
    assert client.get("/api/tablebase", params={"fen": full}).json()["category"] == "unknown"


def test_bad_input_is_a_clear_422(server: LiveServer) -> None:
    client = server.player()
    for params in ({"fen": "7/7/7 w"}, {"fen": f"{LION_AT_THE_DEN} w", "rules": "chess"}):
        answer = client.get("/api/tablebase", params=params)
        assert answer.status_code == 422, answer.text
    assert client.get("/api/tablebase").status_code == 422  # no fen at all


def test_the_tablebase_is_rate_limited(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, analysis_rate=RateLimit(2, 60.0))
    with running(settings) as live:
        client = live.player()
        params = {"fen": f"{LION_AT_THE_DEN} w"}
        codes = [client.get("/api/tablebase", params=params).status_code for _ in "abc"]
    assert codes == [200, 200, 429]

"""Positions, engine analysis and game replays over REST (what rules-free clients need)."""

from __future__ import annotations

from pathlib import Path

from tests.support.live import DEN_GAME, LiveServer, make_settings, move, running

from doushouqi.jungle.board import Board
from doushouqi.server.ai.pool import ProcessPoolAi
from doushouqi.server.infra.settings import RateLimit

DEN_IN_ONE = "7/3L3/7/7/7/7/7/7/e6 w"  # Red's lion beside Blue's den


def test_position_replays_moves_and_lists_destinations(server: LiveServer) -> None:
    client = server.player()
    answer = client.post("/api/position", json={"rules": "wango", "moves": ["a3a4", "g7g6"]})
    assert answer.status_code == 200
    data = answer.json()
    board = Board()
    board.push_move("a3a4")
    board.push_move("g7g6")
    assert data["fen"] == board.fen()
    assert data["turn"] == 0
    assert data["last_move"] == "g7g6"
    assert sum(len(d) for d in data["dests"].values()) == len(list(board.legal_moves))
    assert data["outcome"] is None
    assert [m["readable_zh"] for m in data["moves"]] == ["象 a3-a4", "象 g7-g6"]


def test_position_replays_a_timeout_pass(server: LiveServer) -> None:
    data = server.player().post("/api/position", json={"moves": ["a3a4", "0000"]}).json()
    board = Board()
    board.push_move("a3a4")
    board.push_pass()
    assert data["fen"] == board.fen() and data["turn"] == 0  # Blue passed
    assert data["moves"][1]["readable_en"] == "--"


def test_position_reports_the_outcome_and_no_destinations(server: LiveServer) -> None:
    client = server.player()
    data = client.post("/api/position", json={"fen": DEN_IN_ONE, "moves": ["d8d9"]}).json()
    assert data["outcome"] == {"result": "1-0", "termination": "den_entered", "winner": 0}
    assert data["dests"] == {}


def test_position_threats_name_attacked_animals_and_den_attackers(server: LiveServer) -> None:
    client = server.player()
    # Blue to move: Red's tiger (d4) can take its wolf (d5); Red's dog (e9) is beside its den.
    fen = "4D2/7/7/7/3w3/3T3/7/7/7 b"
    data = client.post("/api/position", json={"fen": fen}).json()
    assert data["threats"] == {"attacked": ["d5"], "den": ["e9"]}
    # Red to move: the wolf cannot take the tiger, and no blue animal nears Red's den.
    red = client.post("/api/position", json={"fen": fen.replace(" b", " w")}).json()
    assert red["threats"] == {"attacked": [], "den": []}


def test_position_refuses_bad_input_clearly(server: LiveServer) -> None:
    client = server.player()
    illegal = client.post("/api/position", json={"moves": ["a3a4", "a4a5", "a5a6"]})
    assert illegal.status_code == 422
    assert "move 2 (a4a5)" in illegal.json()["detail"]
    bad_fen = client.post("/api/position", json={"fen": "8/7 w"})
    assert bad_fen.status_code == 422
    assert "invalid position" in bad_fen.json()["detail"]
    unknown = client.post("/api/position", json={"rules": "chess"})
    assert unknown.status_code == 422
    assert "wango" in unknown.json()["detail"]
    options = client.post("/api/position", json={"rules": {"rule_7_3": "yes"}})
    assert options.status_code == 422
    assert "rule_7_3" in options.json()["detail"]
    custom = client.post("/api/position", json={"rules": {"parent": "classic", "name": "mine"}})
    assert custom.status_code == 200


def test_a_pass_where_no_move_could_be_played_is_refused_like_a_move(server: LiveServer) -> None:
    client = server.player()
    for path in ("/api/position", "/api/analysis"):
        # After the den is entered (a timeout pass in a finished game), and in 困毙.
        over = client.post(path, json={"fen": DEN_IN_ONE, "moves": ["d8d9", "0000"]})
        assert over.status_code == 422, over.text
        assert over.json()["detail"] == (
            "move 2 (0000): illegal move 0000: the game is over (den entered)"
        )
        stuck = client.post(path, json={"fen": "cW5/D6/7/7/7/7/7/7/7 b", "moves": ["0000"]})
        assert stuck.status_code == 422, stuck.text
        assert "the game is over (no legal moves)" in stuck.json()["detail"]
        # A pass while the game goes on, spaces and all, is read as the library reads it.
        going_on = client.post(path, json={"moves": [" a3a4", "0000 "], "movetime": 0.05})
        assert going_on.status_code == 200, going_on.text
        assert going_on.json()["turn"] == 0


def test_counters_beyond_their_range_are_refused(server: LiveServer) -> None:
    client = server.player()
    for path in ("/api/position", "/api/analysis"):
        for counters in (f"{2**63} 1", f"0 {2**63}", "10000 1", "0 10000", "-1 1", "0 +1"):
            answer = client.post(path, json={"fen": f"{DEN_IN_ONE} {counters}"})
            assert answer.status_code == 422, (path, counters, answer.text)
            assert "must be a whole number from" in answer.json()["detail"]
        highest = client.post(path, json={"fen": f"{DEN_IN_ONE} 9999 9999", "movetime": 0.05})
        assert highest.status_code == 200, highest.text


def test_analysis_answers_a_legal_move_with_a_score(server: LiveServer) -> None:
    client = server.player()
    data = client.post("/api/analysis", json={"moves": ["a3a4"], "movetime": 0.1}).json()
    board = Board()
    board.push_move("a3a4")
    assert board.is_legal(board.parse_move(data["bestmove"]))
    assert data["turn"] == 1
    assert data["red_cp"] == -data["score"]["cp"]
    assert data["readable_en"] and data["readable_zh"]
    assert [line["move"] for line in data["lines"]] == [data["bestmove"]]  # one line asked
    over = client.post("/api/analysis", json={"fen": DEN_IN_ONE, "moves": ["d8d9"]}).json()
    assert over["bestmove"] is None and over["score"] is None


def test_analysis_is_rate_limited(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, analysis_rate=RateLimit(2, 60.0))
    with running(settings) as live:
        client = live.player()
        codes = [client.post("/api/analysis", json={"movetime": 0.05}).status_code for _ in "abc"]
    assert codes == [200, 200, 429]


def test_analysis_by_the_real_engine_finds_the_den(tmp_path: Path) -> None:
    with running(make_settings(tmp_path), ai=ProcessPoolAi(1)) as live:
        data = live.player().post("/api/analysis", json={"fen": DEN_IN_ONE, "movetime": 0.2})
    assert data.status_code == 200, data.text
    found = data.json()
    assert found["bestmove"] == "d8d9"
    assert found["score"] == {"den": 1}
    assert found["red_cp"] > 9000
    assert found["pv"][0] == "d8d9"


def test_analysis_by_the_real_engine_gives_its_best_lines(tmp_path: Path) -> None:
    """``multipv``: the best lines, best first, each starting with a different legal move;
    the first is the best move; more than the limit is refused."""
    with running(make_settings(tmp_path), ai=ProcessPoolAi(1)) as live:
        client = live.player()
        body = {"moves": ["a3a4"], "movetime": 0.3, "multipv": 3}
        data = client.post("/api/analysis", json=body)
        too_many = client.post("/api/analysis", json={**body, "multipv": 6})
        den = client.post("/api/analysis", json={"fen": DEN_IN_ONE, "multipv": 2}).json()
    assert data.status_code == 200, data.text
    found = data.json()
    lines = found["lines"]
    assert len(lines) == 3
    board = Board()
    board.push_move("a3a4")
    firsts = [line["move"] for line in lines]
    assert len(set(firsts)) == 3 and all(board.is_legal(board.parse_move(m)) for m in firsts)
    assert firsts[0] == found["bestmove"] and lines[0]["pv"][0] == found["bestmove"]
    assert all(line["pv"][0] == line["move"] and line["depth"] > 0 for line in lines)
    assert all(line["red_cp"] == -line["score"]["cp"] for line in lines if "cp" in line["score"])
    assert lines[0]["red_cp"] <= lines[1]["red_cp"] + 50  # Blue to move: lower is better
    assert too_many.status_code == 422
    assert den["lines"][0]["move"] == "d8d9" and den["lines"][0]["score"] == {"den": 1}
    assert all(line["move"] != "d8d9" for line in den["lines"][1:])


def test_replay_of_a_game_lists_every_position(server: LiveServer) -> None:
    client = server.player().guest()
    game = client.create(mode="same_screen")
    with client.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        for text in DEN_GAME[:3]:
            move(ws, text)
    replay = client.get(f"/api/games/{game['id']}/replay").json()
    board = Board()
    fens = []
    for text in DEN_GAME[:3]:
        board.push_move(text)
        fens.append(board.fen())
    assert [p["fen"] for p in replay["plies"]] == fens
    assert [p["move"] for p in replay["plies"]] == DEN_GAME[:3]
    assert replay["plies"][0]["readable_zh"].startswith("猫")
    assert client.get("/api/games/nosuchgame/replay").status_code == 404

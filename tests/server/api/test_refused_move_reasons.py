"""A move the rules refuse is answered with why, as a code a client can put in its reader's
words: ``/api/position``'s 422 carries the game's reason code and the places and pieces it is
about (a lesson explains an illegal try with it), for every game alike."""

from __future__ import annotations

from tests.support.live import LiveServer

TIGER_JUMPS = "3/3/9/9/9/9/4TM3/3MM4/4M4/9/MM7 t 0 1"  # the tiger on e5, men on e4, e3, d4, f5


def refusal(server: LiveServer, query: dict[str, object]) -> dict[str, object]:
    answer = server.player().post("/api/position", json=query)
    assert answer.status_code == 422, answer.text
    body: dict[str, object] = answer.json()
    assert body["code"] == "position.move"
    return body


def test_a_jungle_move_the_rules_refuse_says_why(server: LiveServer) -> None:
    # the elephant into the water, after one legal move of each side
    body = refusal(server, {"moves": ["a3a4", "a7a6", "a4b4"]})
    assert body["params"] == {
        "ply": 3, "reason": "water", "from": "a4", "to": "b4", "piece": "elephant",
    }  # fmt: skip
    assert "only the rat may enter the water" in str(body["detail"])
    weak = refusal(server, {"fen": "7/7/7/7/7/7/2Le3/7/7 w", "moves": ["c3d3"]})["params"]
    assert weak == {
        "ply": 1, "reason": "too_weak", "from": "c3", "to": "d3", "piece": "lion",
        "target": "elephant",
    }  # fmt: skip


def test_a_tiger_move_the_rules_refuse_says_why(server: LiveServer) -> None:
    query = {"game": "tiger", "fen": TIGER_JUMPS, "moves": ["e5e3"]}
    assert refusal(server, query)["params"] == {
        "ply": 1, "reason": "landing_taken", "from": "e5", "to": "e3", "over": "e4",
        "piece": "tiger",
    }  # fmt: skip
    query["moves"] = ["e5c3"]
    params = refusal(server, query)["params"]
    assert (params["reason"], params["over"]) == ("no_jump_line", "d4")
    query["moves"] = ["e5f5"]
    assert refusal(server, query)["params"]["reason"] == "occupied"


def test_text_that_is_no_move_has_no_reason(server: LiveServer) -> None:
    body = refusal(server, {"moves": ["a3"]})
    assert body["params"] == {"ply": 1}
    body = refusal(server, {"game": "tiger", "moves": ["zz"]})
    assert body["params"] == {"ply": 1}


def test_explain_says_why_a_move_after_the_moves_is_refused(server: LiveServer) -> None:
    # The lessons' question: a 200 whatever the answer (a learner's wrong try is no error).
    player = server.player()
    query = {"game": "tiger", "fen": TIGER_JUMPS, "moves": ["e5d5", "a1a2"], "move": "d5b5"}
    answer = player.post("/api/position/explain", json=query)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["legal"], body["reason"]) == (False, "no_man")
    assert body["params"] == {"from": "d5", "to": "b5", "over": "c5", "piece": "tiger"}
    assert "no man on c5 to jump" in body["detail"]
    legal = player.post("/api/position/explain", json={"moves": ["a3a4"], "move": "a7a6"})
    assert legal.json() == {"legal": True, "reason": None, "params": {}, "detail": None}
    nonsense = player.post("/api/position/explain", json={"move": "hello"}).json()
    assert (nonsense["legal"], nonsense["reason"], nonsense["params"]) == (False, None, {})
    # the moves before it are checked as /api/position checks them
    bad = player.post("/api/position/explain", json={"moves": ["a3a5"], "move": "a7a6"})
    assert bad.status_code == 422 and bad.json()["params"]["reason"] == "one_step"

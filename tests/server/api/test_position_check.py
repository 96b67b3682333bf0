"""The analysis board's editor asks ``POST /api/positions/check`` whether a set-up position
is one the rules accept: what is wrong as codes, or what a board needs to play from it."""

from __future__ import annotations

from tests.support.live import LiveServer

from doushouqi.jungle.board import Board


def test_a_valid_setup_gets_its_position_string_and_destinations(server: LiveServer) -> None:
    client = server.player()
    setup = {"rules": "wango", "pieces": {"a1": "L", "g9": "e", "c3": "R"}, "turn": "blue"}
    answer = client.post("/api/positions/check", json=setup)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["valid"] is True and data["problems"] == []
    board = Board(data["fen"])
    assert board.turn == 1 and str(board.piece_at(0)) == "L"
    assert set(data["dests"]) == {"g9"}  # Blue's one animal
    assert sum(len(d) for d in data["dests"].values()) == len(list(board.legal_moves))
    assert data["outcome"] is None


def test_positions_the_rules_reject_are_named_by_code(server: LiveServer) -> None:
    client = server.player()
    check = lambda pieces, turn="red": client.post(  # noqa: E731
        "/api/positions/check", json={"pieces": pieces, "turn": turn}
    ).json()
    two_lions = check({"a1": "L", "b1": "L", "g9": "e"})
    assert two_lions["valid"] is False and two_lions["problems"] == ["duplicate_animal"]
    assert two_lions["fen"] is None and two_lions["dests"] == {}
    assert check({"b4": "L", "g9": "e"})["problems"] == ["animal_in_water"]  # b4: the lake
    assert check({"d1": "L", "g9": "e"})["problems"] == ["animal_in_own_den"]
    assert "empty" in check({})["problems"]
    # Red to move standing in Blue's den: the game ended on Red's move.
    assert check({"d9": "L", "g7": "e"})["problems"] == ["turn_in_enemy_den"]
    assert check({"a1": "L"})["problems"] == ["opposite_has_no_animals"]


def test_a_finished_position_is_valid_with_no_moves(server: LiveServer) -> None:
    data = (
        server.player()
        .post("/api/positions/check", json={"pieces": {"d9": "L", "g7": "e"}, "turn": "blue"})
        .json()
    )
    assert data["valid"] is True and data["dests"] == {}
    assert data["outcome"]["result"] == "1-0"


def test_input_that_is_no_position_is_refused_with_a_code(server: LiveServer) -> None:
    client = server.player()
    for pieces, code in (({"z9": "L"}, "editor.bad_square"), ({"a1": "X"}, "editor.bad_piece"),
                         ({"a1": "LL"}, "editor.bad_piece")):  # fmt: skip
        answer = client.post("/api/positions/check", json={"pieces": pieces})
        assert answer.status_code == 422 and answer.json()["code"] == code, answer.text
    bad_fen = client.post("/api/positions/check", json={"fen": "8/7 w"})
    assert bad_fen.status_code == 422 and bad_fen.json()["code"] == "position.bad"
    assert client.post("/api/positions/check", json={"rules": "chess"}).status_code == 422
    assert client.post("/api/positions/check", json={"turn": "green"}).status_code == 422
    assert client.post("/api/positions/check", content=b"\xff{").status_code in (400, 422)
    too_many = {f"{f}{r}": "R" for f in "abcdefg" for r in range(1, 10)} | {"a0": "R"}
    assert client.post("/api/positions/check", json={"pieces": too_many}).status_code == 422
    fen = client.post("/api/positions/check", json={"fen": Board().fen()}).json()
    assert fen["valid"] is True and fen["fen"] == Board().fen()


# ---------------------------------------------------------------------- 老虎棋's editor


def tiger_check(server: LiveServer, **setup: object) -> dict[str, object]:
    answer = server.player().post("/api/positions/check", json={"game": "tiger", **setup})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_tiger_setup_gets_its_position_string_and_destinations(server: LiveServer) -> None:
    four = {"e5": "T", "e4": "M", "a1": "M", "b1": "M", "c1": "M"}  # four men: still a game
    data = tiger_check(server, pieces=four, turn="red")
    assert data["valid"] is True and data["problems"] == []
    assert data["fen"] == "3/3/9/9/9/9/4T4/4M4/9/9/MMM6 t 0 1"
    assert data["turn"] == 0 and data["outcome"] is None
    # The tiger's steps and its jump over e4 to e3: from its one point.
    assert set(data["dests"]) == {"e5"} and "e3" in data["dests"]["e5"]  # type: ignore[index]
    men = tiger_check(server, pieces=four, turn="blue")
    assert set(men["dests"]) == {"e4", "a1", "b1", "c1"}  # type: ignore[arg-type]


def test_tiger_setups_the_rules_refuse_are_named_by_code(server: LiveServer) -> None:
    assert tiger_check(server, pieces={})["problems"] == ["tiger_count"]
    two = tiger_check(server, pieces={"d10": "T", "f10": "T"})
    assert two["valid"] is False and two["problems"] == ["tiger_count"] and two["fen"] is None
    # Two tigers are the southern set's: valid there.
    assert tiger_check(server, rules="laohuqi-south", pieces={"d10": "T", "f10": "T"})["valid"]
    thirteen = {f"{f}1": "M" for f in "abcdefghi"} | {"a2": "M", "b2": "M", "c2": "M", "d2": "M"}
    assert tiger_check(server, pieces=thirteen | {"e10": "T"})["problems"] == ["too_many_men"]
    assert tiger_check(server, rules="laohuqi-18", pieces=thirteen | {"e10": "T"})["valid"]


def test_a_finished_tiger_setup_is_valid_with_no_moves(server: LiveServer) -> None:
    # Three men left: fewer than four, so the tiger has won.
    data = tiger_check(server, pieces={"e10": "T", "a1": "M", "b1": "M", "c1": "M"}, turn="blue")
    assert data["valid"] is True and data["dests"] == {}
    assert data["outcome"] == {"result": "1-0", "termination": "men_captured"}


def test_tiger_input_that_is_no_position_is_refused_with_a_code(server: LiveServer) -> None:
    client = server.player()
    for pieces, code in (({"a10": "T"}, "editor.bad_square"), ({"e10": "L"}, "editor.bad_piece"),
                         ({"e10": "t"}, "editor.bad_piece")):  # fmt: skip
        answer = client.post("/api/positions/check", json={"game": "tiger", "pieces": pieces})
        assert answer.status_code == 422 and answer.json()["code"] == code, answer.text
    jungle = client.post("/api/positions/check", json={"game": "tiger", "fen": Board().fen()})
    assert jungle.status_code == 422 and jungle.json()["code"] == "position.bad"
    start = "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1"
    assert tiger_check(server, fen=start)["fen"] == start
    # Every point filled: answered (too many men), not refused for its size.
    full = {name: "M" for name in tiger_point_names()}
    assert tiger_check(server, pieces=full)["problems"] == ["tiger_count", "too_many_men"]


def tiger_point_names() -> list[str]:
    from doushouqi.tiger.points import NUM_POINTS, point_name

    return [point_name(point) for point in range(NUM_POINTS)]

"""Puzzles over HTTP: judging moves, puzzle ratings (player and puzzle), streaks, the daily
puzzle, hints and the solution, and the codes bad input gets."""

from __future__ import annotations

from typing import Any

from tests.support.live import LiveServer, ManualTime, Player

from doushouqi.jungle.board import Board
from doushouqi.server.puzzles import service as puzzles

DAY = 86_400.0


def solution_of(puzzle_id: str) -> list[str]:
    for puzzle in puzzles.shipped():
        if puzzle["id"] == puzzle_id:
            return list(puzzle["line"])
    raise AssertionError(f"{puzzle_id} is not shipped")


def next_puzzle(player: Player, **params: str) -> dict[str, Any]:
    answer = player.get("/api/puzzles/next", params=params)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def solve(player: Player, puzzle_id: str, mode: str = "rated") -> dict[str, Any]:
    line = solution_of(puzzle_id)
    mine = line[0::2]
    for count in range(1, len(mine) + 1):
        answer = player.post(
            f"/api/puzzles/{puzzle_id}/attempt", json={"moves": mine[:count], "mode": mode}
        )
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if count < len(mine):
            assert body["result"] == "continue"
            assert body["reply"] == line[2 * count - 1]
            assert "solution" not in body
        else:
            assert body["result"] == "solved"
            return body
    raise AssertionError("unreachable")


def a_wrong_move(puzzle: dict[str, Any]) -> str:
    right = solution_of(puzzle["id"])[0]
    board = Board(puzzle["fen"], puzzle["rules"])
    return next(str(m) for m in board.generate_legal_moves() if str(m) != right)


def test_the_shipped_file_has_puzzles() -> None:
    assert len(puzzles.shipped()) >= 10


def test_a_right_solution_raises_both_ratings_and_nothing_leaks_before(
    server: LiveServer,
) -> None:
    player = server.player().guest()
    got = next_puzzle(player)
    puzzle = got["puzzle"]
    assert got["player"]["rating"] == 1500
    assert "line" not in puzzle and "solution" not in puzzle and "proof" not in puzzle
    assert puzzle["rules"] and puzzle["turn"] in ("red", "blue") and puzzle["dests"]
    solved = solve(player, puzzle["id"])
    assert solved["solution"] == solution_of(puzzle["id"])
    score = solved["score"]
    assert score["rated"] is True and score["change"] > 0 and score["rating"] > 1500
    assert score["puzzle_rating"] < puzzle["rating"]
    me = player.get("/api/puzzles/me").json()
    assert me["rating"] == score["rating"] and me["solved"] == 1
    assert me["history"][0]["puzzle"] == puzzle["id"] and me["history"][0]["solved"]
    again = solve(player, puzzle["id"])  # a second try is not rated
    assert again["score"]["rated"] is False and again["score"]["change"] == 0


def test_a_wrong_move_lowers_the_rating_and_keeps_the_solution(server: LiveServer) -> None:
    player = server.player().guest()
    puzzle = next_puzzle(player)["puzzle"]
    wrong = a_wrong_move(puzzle)
    answer = player.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": [wrong]}).json()
    assert answer["result"] == "wrong" and answer["ply"] == 0 and answer["move"] == wrong
    assert "solution" not in answer and "solution_text" not in answer
    # the position before it, to try again from
    assert answer["fen"].startswith(puzzle["fen"]) and answer["dests"] == puzzle["dests"]
    assert answer["score"]["change"] < 0 and answer["score"]["rating"] < 1500
    shown = player.get(f"/api/puzzles/{puzzle['id']}").json()["puzzle"]
    assert shown["rating"] > puzzle["rating"] and shown["plays"] == 1


def test_the_next_puzzle_is_one_not_tried_and_of_the_theme_asked(server: LiveServer) -> None:
    player = server.player().guest()
    first = next_puzzle(player)["puzzle"]
    solve(player, first["id"])
    for _ in range(5):
        assert next_puzzle(player)["puzzle"]["id"] != first["id"]
    themed = next_puzzle(player, theme="den_attack", mode="theme")["puzzle"]
    assert "den_attack" in themed["themes"]
    counts = player.get("/api/puzzles/themes").json()
    assert counts["total"] == len(puzzles.shipped())
    assert {t["theme"] for t in counts["themes"]} == set(puzzles.THEMES)


def test_a_streak_climbs_until_the_first_miss(server: LiveServer) -> None:
    player = server.player().guest()
    first = next_puzzle(player, mode="streak")["puzzle"]
    assert solve(player, first["id"], "streak")["score"]["streak"] == 1
    second = next_puzzle(player, mode="streak")["puzzle"]
    assert second["rating"] >= first["rating"] - 200  # above the first (whose rating fell)
    assert second["id"] != first["id"]
    wrong = a_wrong_move(second)
    missed = player.post(
        f"/api/puzzles/{second['id']}/attempt", json={"moves": [wrong], "mode": "streak"}
    ).json()
    assert missed["score"]["streak"] == 0 and missed["score"]["streak_best"] == 1


def test_the_daily_puzzle_is_the_same_all_day(server: LiveServer, clock: ManualTime) -> None:
    one, other = server.player().guest(), server.player()
    clock.advance(DAY - clock.now() % DAY + 60)  # just after midnight UTC
    morning = one.get("/api/puzzles/daily").json()
    clock.advance(DAY / 3)
    evening = other.get("/api/puzzles/daily").json()  # no session needed
    assert morning["day"] == evening["day"]
    assert morning["puzzle"]["id"] == evening["puzzle"]["id"]
    days = set()
    for _ in range(6):
        clock.advance(DAY)
        days.add(other.get("/api/puzzles/daily").json()["puzzle"]["id"])
    assert len(days) > 1


def test_hints_show_the_piece_then_the_move_and_count_as_a_miss(server: LiveServer) -> None:
    player = server.player().guest()
    puzzle = next_puzzle(player)["puzzle"]
    right = solution_of(puzzle["id"])[0]
    url = f"/api/puzzles/{puzzle['id']}/hint"
    first = player.post(url, json={"moves": [], "level": 1}).json()
    assert first == {"square": right[:2], "piece": first["piece"], "score": first["score"]}
    assert first["score"]["change"] < 0
    second = player.post(url, json={"moves": [], "level": 2}).json()
    assert second["move"] == right and "score" not in second
    solved = solve(player, puzzle["id"])
    assert solved["score"]["rated"] is False


def test_giving_up_shows_the_solution(server: LiveServer) -> None:
    player = server.player().guest()
    puzzle = next_puzzle(player)["puzzle"]
    answer = player.post(f"/api/puzzles/{puzzle['id']}/solution", json={}).json()
    assert answer["solution"] == solution_of(puzzle["id"])
    assert answer["score"]["change"] < 0


def test_bad_input_gets_coded_4xx(server: LiveServer) -> None:
    player = server.player().guest()
    puzzle = next_puzzle(player)["puzzle"]
    url = f"/api/puzzles/{puzzle['id']}/attempt"
    cases = [
        (player.get("/api/puzzles/nosuch"), 404, "puzzle.not_found"),
        (player.get("/api/puzzles/%3Cscript%3E"), 404, "puzzle.not_found"),
        (player.post("/api/puzzles/nosuch/attempt", json={"moves": ["a1a2"]}), 404, None),
        (player.post(url, json={"moves": []}), 422, "puzzle.bad_moves"),
        (player.post(url, json={"moves": ["a1a2"] * 9}), 422, "puzzle.bad_moves"),
        (player.post(url, json={"moves": ["z9z9"]}), 422, "puzzle.illegal"),
        (player.post(url, json={"moves": ["\u0000\u0001"]}), 422, "puzzle.bad_moves"),
        (player.post(url, json={"moves": "a1a2"}), 422, None),
        (player.post(url, json={"moves": ["a1a2"], "mode": "boss"}), 422, None),
        (
            player.post(url, content=b"{not json", headers={"Content-Type": "application/json"}),
            422,
            None,
        ),
        (player.get("/api/puzzles/next", params={"theme": "nosuch"}), 422, "puzzle.bad_theme"),
        (server.player().get("/api/puzzles/next"), 401, None),
        (server.player().post(url, json={"moves": ["a1a2"]}), 401, None),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, (answer.request.url, answer.text)
        if code:
            assert answer.json()["code"] == code
    # nothing was recorded by the refused requests
    assert player.get("/api/puzzles/me").json()["attempts"] == 0


def test_a_jump_blocking_puzzle_is_offered_by_its_theme_and_plays(server: LiveServer) -> None:
    shipped = [p for p in puzzles.shipped() if "jump_blocking" in p["themes"]]
    player = server.player().guest()
    counts = player.get("/api/puzzles/themes").json()["themes"]
    assert {"theme": "jump_blocking", "count": len(shipped)} in counts and shipped
    puzzle = next_puzzle(player, theme="jump_blocking", mode="theme")["puzzle"]
    assert "jump_blocking" in puzzle["themes"]
    wrong = a_wrong_move(puzzle)  # a rat move that leaves the lane open, or another animal's
    answer = player.post(
        f"/api/puzzles/{puzzle['id']}/attempt", json={"moves": [wrong], "mode": "theme"}
    ).json()
    assert answer["result"] == "wrong" and "solution" not in answer
    assert solve(server.player().guest(), puzzle["id"], "theme")["result"] == "solved"


def test_a_puzzle_counts_once_per_streak(server: LiveServer) -> None:
    player = server.player().guest()
    puzzle = next_puzzle(player, mode="streak")["puzzle"]
    streaks = [solve(player, puzzle["id"], "streak")["score"]["streak"] for _ in range(5)]
    assert streaks == [1, 1, 1, 1, 1]
    other = next_puzzle(player, mode="streak")["puzzle"]
    assert solve(player, other["id"], "streak")["score"]["streak"] == 2
    wrong = a_wrong_move(other)
    player.post(f"/api/puzzles/{other['id']}/attempt", json={"moves": [wrong], "mode": "streak"})
    # A new streak: the first puzzle counts again, once.
    again = [solve(player, puzzle["id"], "streak")["score"] for _ in range(2)]
    assert [s["streak"] for s in again] == [1, 1] and again[-1]["streak_best"] == 2


def test_a_solution_seen_as_a_guest_makes_the_accounts_try_unrated(server: LiveServer) -> None:
    """The same browser: a guest gives up on a puzzle, signs up, and solves it."""
    browser = server.player().guest()
    seen, fresh = (p["id"] for p in puzzles.shipped()[:2])
    browser.post(f"/api/puzzles/{seen}/solution", json={})
    browser.register("seen_it")
    solved = solve(browser, seen)["score"]
    assert solved["rated"] is False and solved["change"] == 0
    assert solve(browser, fresh)["score"]["rated"] is True  # one not seen is rated
    # Another browser's guest saw nothing: its first try is rated.
    assert solve(server.player().guest(), seen)["score"]["rated"] is True


def test_a_solution_seen_by_one_account_is_seen_by_the_next_on_that_browser(
    server: LiveServer,
) -> None:
    browser = server.player()  # never a guest: signs up straight away
    browser.register("first_account")
    puzzle = puzzles.shipped()[2]["id"]
    hint = browser.post(f"/api/puzzles/{puzzle}/hint", json={"moves": [], "level": 2})
    assert hint.status_code == 200
    assert browser.post("/api/auth/logout").status_code == 200
    browser.register("second_account")
    assert solve(browser, puzzle)["score"]["rated"] is False

"""A wrong puzzle move is marked and may be tried again (as on lichess): the go is rated at its
first wrong move, once; what follows in it is recorded no more, and the solution is sent
only when the puzzle is solved or the player asks for it."""

from __future__ import annotations

from typing import Any

from tests.server.puzzles.test_puzzles_api import a_wrong_move, solution_of
from tests.support.live import LiveServer, Player

from doushouqi.server.puzzles import service as puzzles


def shipped(kind: str, plies: int) -> dict[str, Any]:
    """The first shipped puzzle of the default rule set of that kind and line length."""
    return next(
        p
        for p in puzzles.shipped()
        if p["rules"] == puzzles.default_rules() and p["kind"] == kind and len(p["line"]) == plies
    )


def attempt(player: Player, puzzle_id: str, moves: list[str], **extra: Any) -> dict[str, Any]:
    answer = player.post(f"/api/puzzles/{puzzle_id}/attempt", json={"moves": moves, **extra})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_wrong_move_then_the_right_ones_is_rated_on_the_first_try_only(
    server: LiveServer,
) -> None:
    puzzle = shipped("win", 5)
    line = solution_of(puzzle["id"])
    player = server.player().guest()
    wrong = a_wrong_move(puzzle)

    missed = attempt(player, puzzle["id"], [wrong])
    assert missed["result"] == "wrong" and missed["move"] == wrong
    assert missed["score"]["rated"] is True and missed["score"]["change"] < 0
    rating = missed["score"]["rating"]
    assert "solution" not in missed  # no answer given away: the player tries again
    # again wrong, in the same go: nothing more recorded, nothing rated
    again = attempt(player, puzzle["id"], [wrong], retry=True)
    assert again["result"] == "wrong" and again["score"]["rated"] is False
    assert again["score"]["change"] == 0 and again["score"]["rating"] == rating
    # the right moves now, with the opponent's replies between them
    going = attempt(player, puzzle["id"], line[:1], retry=True)
    assert going["result"] == "continue" and going["reply"] == line[1]
    assert "score" not in going and "solution" not in going
    # a wrong second move is marked too, and the position before it given back
    before = going["fen"]
    origin = next(square for square in going["dests"] if square != line[2][:2])
    wrong_second = origin + going["dests"][origin][0]
    missed_second = attempt(player, puzzle["id"], [line[0], wrong_second], retry=True)
    assert missed_second["result"] == "wrong" and missed_second["ply"] == 2
    assert missed_second["fen"] == before and "solution" not in missed_second
    solved = attempt(player, puzzle["id"], line[0::2], retry=True)
    assert solved["result"] == "solved" and solved["solution"] == line
    assert solved["score"] == {**solved["score"], "rated": False, "change": 0, "rating": rating}

    me = player.get("/api/puzzles/me").json()
    assert me["attempts"] == 1 and me["solved"] == 0 and me["rating"] == rating
    assert [(h["puzzle"], h["solved"], h["rated"]) for h in me["history"]] == [
        (puzzle["id"], False, True)
    ]


def test_a_first_try_is_recorded_whatever_the_client_says(server: LiveServer) -> None:
    """``retry`` is believed only where the player has finished a try at the puzzle."""
    puzzle = shipped("win", 1)
    player = server.player().guest()
    missed = attempt(player, puzzle["id"], [a_wrong_move(puzzle)], retry=True)
    assert missed["score"]["rated"] is True and missed["score"]["change"] < 0
    other = shipped("win", 3)
    solved = attempt(server.player().guest(), other["id"], solution_of(other["id"])[:1])
    assert solved["result"] == "continue"
    fresh = server.player().guest()
    done = attempt(fresh, other["id"], solution_of(other["id"])[0::2], retry=True)
    assert done["result"] == "solved" and done["score"]["rated"] is True
    assert done["score"]["change"] > 0


def test_the_solution_is_sent_only_on_request(server: LiveServer) -> None:
    puzzle = shipped("win", 3)
    line = solution_of(puzzle["id"])
    player = server.player().guest()
    shown = player.get(f"/api/puzzles/{puzzle['id']}").json()["puzzle"]
    assert not {"line", "solution", "solution_text"} & shown.keys()
    for moves in ([a_wrong_move(puzzle)], line[:1]):
        answer = attempt(player, puzzle["id"], moves, retry=True)
        assert not {"line", "solution", "solution_text"} & answer.keys()
    given = player.post(f"/api/puzzles/{puzzle['id']}/solution", json={}).json()
    assert given["solution"] == line and len(given["solution_text"]) == len(line)
    assert "score" not in given  # the go's miss was recorded at the wrong move


def test_the_puzzle_that_ended_a_streak_starts_no_new_one(server: LiveServer) -> None:
    player = server.player().guest()
    first = player.get("/api/puzzles/next", params={"mode": "streak"}).json()["puzzle"]
    line = solution_of(first["id"])
    solved = attempt(player, first["id"], line[0::2], mode="streak")
    assert solved["score"]["streak"] == 1
    second = player.get("/api/puzzles/next", params={"mode": "streak"}).json()["puzzle"]
    missed = attempt(player, second["id"], [a_wrong_move(second)], mode="streak")
    assert missed["score"]["streak"] == 0 and missed["score"]["streak_best"] == 1
    right = solution_of(second["id"])[0::2]
    retried = attempt(player, second["id"], right, mode="streak", retry=True)
    assert retried["result"] == "solved" and retried["score"]["streak"] == 0
    # a client that does not say it retries: recorded (unrated), yet no streak from it
    unsaid = attempt(player, second["id"], right, mode="streak")
    assert unsaid["score"]["rated"] is False and unsaid["score"]["streak"] == 0

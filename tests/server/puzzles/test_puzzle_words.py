"""What a puzzle says in words: every move it shows (the opponent's reply, the move found
wrong, hints, the solution) in readable notation in each of the site's languages, as the
game writes it ("象 d3-c3"), and what the solver is asked for by the puzzle's kind."""

from __future__ import annotations

from typing import Any

from tests.server.puzzles.test_puzzle_retries import attempt
from tests.server.puzzles.test_puzzles_api import solution_of
from tests.support.live import LiveServer

from doushouqi.core.game import get_game
from doushouqi.server.puzzles import service as puzzles

GAME = get_game(puzzles.GAME_KEY)


def texts_after(puzzle: dict[str, Any], played: list[str], move: str) -> dict[str, str]:
    """``move``'s texts after ``played``, as the game itself writes them."""
    position = GAME.new_position(GAME.parse_rules(puzzle["rules"]), puzzle["fen"])
    for earlier in played:
        position.push(earlier)
    return {lang: position.move_text(move, lang) for lang in ("en", "zh", "zh-Hant")}


def a_cat_or_lion_first() -> dict[str, Any]:
    """A win of two moves or more whose first move is a cat's or a lion's: their Chinese
    names differ between the two scripts (猫 貓, 狮 獅)."""
    for puzzle in puzzles.shipped():
        if puzzle["kind"] == "win" and len(puzzle["line"]) >= 3:
            texts = texts_after(puzzle, [], puzzle["line"][0])
            if texts["zh"] != texts["zh-Hant"]:
                return puzzle
    raise AssertionError("no such puzzle shipped")


def test_every_move_shown_is_in_readable_notation_in_each_language(
    server: LiveServer,
) -> None:
    puzzle = a_cat_or_lion_first()
    line = solution_of(puzzle["id"])
    player = server.player().guest()
    url = f"/api/puzzles/{puzzle['id']}"

    first = player.post(f"{url}/hint", json={"moves": [], "level": 1}).json()
    square = line[0][:2]
    assert first["square"] == square
    assert first["piece"]["zh"] in texts_after(puzzle, [], line[0])["zh"]
    assert first["piece"]["zh"] != first["piece"]["zh-Hant"]  # 猫 貓 or 狮 獅
    assert first["piece"]["en"] in ("cat", "lion")
    second = player.post(f"{url}/hint", json={"moves": [], "level": 2}).json()
    assert second["move_text"] == texts_after(puzzle, [], line[0])
    assert second["move_text"]["zh"].split()[1] in (
        f"{square}-{line[0][2:]}",
        f"{square}×{line[0][2:]}",
    )

    going = attempt(player, puzzle["id"], line[:1], retry=True)
    assert going["move_text"] == texts_after(puzzle, [], line[0])
    assert going["reply_text"] == texts_after(puzzle, line[:1], line[1])

    legal = GAME.new_position(GAME.parse_rules(puzzle["rules"]), puzzle["fen"]).legal_moves()
    wrong = next(m for m in legal if m != line[0])
    missed = attempt(player, puzzle["id"], [wrong], retry=True)
    assert missed["move_text"] == texts_after(puzzle, [], wrong)

    given = player.post(f"{url}/solution", json={}).json()
    assert given["solution_text"] == [
        texts_after(puzzle, line[:index], move) for index, move in enumerate(line)
    ]
    solved = attempt(player, puzzle["id"], line[0::2], retry=True)
    assert solved["solution_text"] == given["solution_text"]


def test_a_puzzle_says_what_it_asks_for_by_its_kind(server: LiveServer) -> None:
    player = server.player()
    expected = {
        ("defence", False): "defence",
        ("win", True): "den",  # its line ends in the den
        ("win", False): "win",  # by taking the last animals, or leaving none a move
    }
    seen = set()
    for puzzle in puzzles.shipped():
        key = (puzzle["kind"], "den_attack" in puzzle["themes"])
        if key in seen:
            continue
        seen.add(key)
        shown = player.get(f"/api/puzzles/{puzzle['id']}").json()["puzzle"]
        assert shown["goal"] == expected[key], puzzle["id"]
        assert shown["depth"] == puzzle["depth"]
        assert shown["moves"] == (len(puzzle["line"]) + 1) // 2
    assert seen == set(expected)

"""The opening explorer in a real browser: games played through the server in this test show
up with their counts and results; click through the moves (the table and the board), filter
by rating, by rated or casual games, and choose the game (老虎棋's openings on its board)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.browser.support import Client, shoot
from tests.support.helpers import played_out
from tests.support.live import LiveServer, Player, move, start_online

from doushouqi.server.explorer.service import MIN_PLIES


def play(
    server: LiveServer,
    moves: list[str],
    loser: str,
    players: tuple[Player, Player] | None = None,
    game: str = "jungle",
    **options: object,
) -> None:
    """A game that opens with ``moves``, played out to the fewest plies the explorer counts;
    then ``loser`` resigns."""
    red, blue = players or (server.player().guest(), server.player().guest())
    _, red_ws, blue_ws = start_online(server, red, blue, game=game, **options)
    with red_ws, blue_ws:
        for ply, text in enumerate(played_out(moves, MIN_PLIES, game)):
            move(red_ws if ply % 2 == 0 else blue_ws, text)
        (red_ws if loser == "red" else blue_ws).send({"type": "resign"})
        red_ws.wait_for("game_finished")


def rows(page: Page) -> dict[str, int]:
    table = page.locator("#ex-moves tr")
    return {
        str(table.nth(i).get_attribute("data-move")): int(
            table.nth(i).get_attribute("data-count") or 0
        )
        for i in range(table.count())
    }


def test_explorer_counts_match_the_games_played(client: Client, artifacts: Path) -> None:
    server = client.server
    play(server, ["a3a4", "g7g6", "g3g4"], loser="blue")
    play(server, ["a3a4", "g7g6"], loser="red")
    play(server, ["a3a4", "a7a6"], loser="blue")
    play(server, ["g3g4"], loser="red")

    page = client.open("/")
    page.click("#go-explorer")
    expect(page.locator("h1")).to_have_text("开局浏览器")
    expect(page.locator("#ex-total")).to_contain_text("共有 4 局")
    expect(page.locator("#ex-moves tr")).to_have_count(2)
    assert rows(page) == {"a3a4": 3, "g3g4": 1}
    first = page.locator('#ex-moves tr[data-move="a3a4"]')
    bar = first.locator(".ex-bar")
    expect(bar).to_have_attribute("aria-label", re.compile("红方胜 2，和 0，蓝方胜 1"))
    expect(first.locator(".ex-bar-part.red")).to_have_text("67%")
    shoot(page, artifacts, "explorer-start")

    # a move from the table
    first.locator("button").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.locator("#ex-total")).to_contain_text("共有 3 局")
    assert rows(page) == {"g7g6": 2, "a7a6": 1}
    # a move on the board
    page.click('#board .dsq-squares [data-square="g7"]')
    page.click('#board .dsq-squares [data-square="g6"]')
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    padded = played_out(["a3a4", "g7g6"], MIN_PLIES)[2]  # the second game's third ply
    expect(page.locator("#ex-moves tr")).to_have_count(len({"g3g4", padded}))
    assert rows(page) == ({"g3g4": 2} if padded == "g3g4" else {"g3g4": 1, padded: 1})
    expect(page.locator("#ex-path")).to_contain_text("g7-g6")
    page.click("#ex-back")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    shoot(page, artifacts, "explorer-line")
    # the position is in the address: a reload opens it
    page.reload()
    expect(page.locator("#ex-total")).to_contain_text("共有 3 局")
    assert rows(page) == {"g7g6": 2, "a7a6": 1}
    # and on the analysis board, and back to the explorer from there
    page.click("#ex-to-board")
    expect(page.locator("#ab-status")).to_contain_text("局面有效")
    page.click("#ab-analyse")
    page.click("#ab-explorer")
    expect(page.locator("#ex-total")).to_contain_text("共有 3 局")
    page.goto(f"{server.url}/#/explorer")
    expect(page.locator("#ex-total")).to_contain_text("共有 4 局")
    page.locator('#ex-moves tr[data-move="a3a4"] button').click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")

    # the rating filter: two newcomers average 1500, in the band from 1400
    page.select_option("#ex-rating", "1400")
    expect(page.locator("#ex-total")).to_contain_text("共有 3 局")
    page.select_option("#ex-rating", "1600")
    expect(page.locator("#ex-total")).to_contain_text("还没有对局")
    expect(page.locator("#ex-moves tr")).to_have_count(0)
    page.click("#ex-start")
    expect(page.locator("#board")).to_have_attribute("data-ply", "0")

    # a game finished now is counted at once
    page.select_option("#ex-rating", "0")
    expect(page.locator("#ex-total")).to_contain_text("共有 4 局")
    play(server, ["c3d3"], loser="blue")
    page.click("#ex-start")
    expect(page.locator("#ex-total")).to_contain_text("共有 5 局")
    assert rows(page)["c3d3"] == 1
    page.select_option("#lang", "en")
    expect(page.locator("h1")).to_have_text("Opening explorer")


def test_explorer_filters_rated_games_and_the_tiger_game(client: Client, artifacts: Path) -> None:
    server = client.server
    alice, bob = server.player().register("exb_alice"), server.player().register("exb_bob")
    play(server, ["e3d3"], loser="blue", players=(alice, bob), rated=True, time_control="10+0")
    play(server, ["e3d3"], loser="red", players=(bob, alice))  # the same players, casual
    tiger_line = played_out([], MIN_PLIES, "tiger")
    play(server, [], loser="blue", game="tiger")
    computer = server.player().guest()  # a game against the computer: never counted
    against = computer.create(mode="vs_ai", ai_level=1, color="red")
    with computer.socket(against["id"]) as ws:
        ws.wait_for("game_started")
        move(ws, "e3d3")
        ws.wait_for("move_made", lambda m: m["ply"] == 2)
        ws.send({"type": "resign"})
        ws.wait_for("game_finished")

    page = client.open("/#/explorer")
    expect(page.locator("#ex-help")).to_contain_text("与电脑的对局")
    both = page.locator('#ex-moves tr[data-move="e3d3"]')
    expect(both).to_have_attribute("data-count", "2")
    page.select_option("#ex-rated", "true")
    expect(page.locator("#ex-total")).to_contain_text("共有 1 局")
    assert rows(page) == {"e3d3": 1}
    expect(both.locator(".ex-bar")).to_have_attribute("aria-label", re.compile("红方胜 1"))
    assert "rated=true" in page.url
    shoot(page, artifacts, "explorer-rated")
    page.select_option("#ex-rated", "false")
    expect(both).to_have_attribute("data-count", "1")
    expect(both.locator(".ex-bar")).to_have_attribute("aria-label", re.compile("蓝方胜 1"))
    page.reload()  # the filter is in the address
    expect(page.locator("#ex-rated")).to_have_value("false")
    expect(both).to_have_attribute("data-count", "1")

    # 老虎棋: its game's openings, on its board, its sides named
    page.select_option("#ex-rated", "")
    page.locator('#ex-game-picker label[data-game="tiger"]').click()
    expect(page.locator("#board")).to_have_attribute("data-game", "tiger")
    expect(page.locator("#ex-total")).to_contain_text("共有 1 局")
    assert rows(page) == {tiger_line[0]: 1}
    expect(page.locator("#ex-results-head")).to_have_text("虎方胜 / 和 / 人方胜")
    # The analysis board has an editor for this game too: the link opens its board.
    expect(page.locator("#ex-to-board")).to_have_attribute("href", re.compile("game=tiger"))
    expect(page.locator("#ex-to-board")).to_be_visible()
    shoot(page, artifacts, "explorer-tiger")
    page.locator(f'#ex-moves tr[data-move="{tiger_line[0]}"] button').click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    assert rows(page) == {tiger_line[1]: 1}
    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-game", "tiger")
    assert rows(page) == {tiger_line[1]: 1}
    page.select_option("#lang", "en")
    expect(page.locator("#ex-results-head")).to_have_text("Tiger wins / draws / Men wins")

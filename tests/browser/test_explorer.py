"""The opening explorer in a real browser: games played through the server in this test show
up with their counts and results; click through the moves (the table and the board), filter
by rating."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.browser.support import Client, shoot
from tests.support.live import LiveServer, move, start_online


def play(server: LiveServer, moves: list[str], loser: str) -> None:
    red, blue = server.player().guest(), server.player().guest()
    _, red_ws, blue_ws = start_online(server, red, blue)
    with red_ws, blue_ws:
        for ply, text in enumerate(moves):
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
    expect(bar).to_have_attribute("aria-label", re.compile("红胜 2，和 0，蓝胜 1"))
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
    expect(page.locator("#ex-moves tr")).to_have_count(1)
    assert rows(page) == {"g3g4": 1}
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

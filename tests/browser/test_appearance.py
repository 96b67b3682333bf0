"""Piece sets and board themes (the settings page's Appearance section): until a reader
chooses, the pieces follow the language (English pictures, Chinese characters); a piece set and
a theme chosen on the settings page change its preview boards at once, then every board of the
site, for both games, and are remembered after a reload."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, goto_route, shoot
from tests.support.live import LiveServer

#: The land of a Jungle board in each theme (games/jungle/geometry.css), as computed.
LAND = {"meadow": "rgb(183, 220, 145)", "night": "rgb(62, 87, 57)"}


def same_screen_game(page: Page, game: str = "jungle") -> str:
    """A game on one screen of ``game``, opened; its board drawn."""
    if fetch_json(page, "/api/auth/session")["player"] is None:
        fetch_json(page, "/api/auth/guest", "POST")
    made = fetch_json(page, "/api/games", "POST", {"mode": "same_screen", "game": game})
    goto_route(page, f"{page.url.split('#')[0]}#/game/{made['id']}")
    expect(page.locator("#board .dsq-piece").first).to_be_visible()
    return str(made["id"])


def land(page: Page, board: str = "#board") -> str:
    square = page.locator(f'{board} .dsq-squares [data-square="b1"]')
    return str(square.evaluate("(el) => getComputedStyle(el).backgroundColor"))


@pytest.mark.parametrize(
    ("locale", "mark", "text"),
    [("en-US", ".glyph", None), ("zh-CN", ".char-big", "狮"), ("zh-TW", ".char-big", "獅")],
)
def test_the_pieces_follow_the_language_until_chosen(
    browser: Browser, server: LiveServer, locale: str, mark: str, text: str | None
) -> None:
    client = Client(browser, server, locale=locale)
    try:
        page = client.open("/")
        same_screen_game(page)
        lion = page.locator('#board .dsq-pieces [data-square="a9"]')
        expect(lion.locator(mark)).to_have_count(1)
        if text is None:  # pictures: no character an English reader cannot read
            expect(lion.locator("text")).to_have_text(["7"])  # the rank alone
        else:
            expect(lion.locator(mark)).to_have_text(text)
        expect(page.locator("html")).to_have_attribute("data-board-theme", "meadow")
    finally:
        client.close()


def test_a_chosen_piece_set_and_theme_change_every_board_and_are_remembered(
    client: Client, artifacts: Path
) -> None:
    page = client.open("/#/settings")
    previews = page.locator("#appearance-previews")
    expect(previews.locator(".dsq-board")).to_have_count(2)  # Jungle and 老虎棋
    jungle = '#appearance-previews [data-game="jungle"]'
    expect(page.locator("#piece-style input[value=characters]")).to_be_checked()  # zh default
    expect(page.locator(f"{jungle} .dsq-piece .char-big").first).to_be_visible()

    page.click("#piece-style label[data-value=letters]")
    expect(page.locator(f"{jungle} .dsq-piece .letter")).to_have_count(16)
    expect(page.locator(f"{jungle} .dsq-piece .char-big")).to_have_count(0)
    tiger_preview = page.locator('#appearance-previews [data-game="tiger"] .dsq-piece .letter')
    expect(tiger_preview.first).to_be_visible()
    assert land(page, jungle) == LAND["meadow"]
    page.click("#board-theme label[data-value=night]")
    expect(page.locator("html")).to_have_attribute("data-board-theme", "night")
    assert land(page, jungle) == LAND["night"]
    shoot(page, artifacts, "appearance-settings")

    page.reload()
    expect(page.locator("#piece-style input[value=letters]")).to_be_checked()
    expect(page.locator("#board-theme input[value=night]")).to_be_checked()
    expect(page.locator("html")).to_have_attribute("data-board-theme", "night")

    same_screen_game(page)  # a game's board: the letters of the move list, the night theme
    expect(page.locator('#board .dsq-pieces [data-square="a1"] .letter')).to_have_text("T")
    assert land(page) == LAND["night"]
    same_screen_game(page, "tiger")
    expect(page.locator("#board .dsq-tiger .dsq-piece.tiger .letter")).to_have_text("T")
    expect(page.locator("#board .dsq-piece.man .letter").first).to_have_text("M")

    # Back to characters: chosen now, so English pages keep them too.
    goto_route(page, client.server.url + "/#/settings")
    page.click("#piece-style label[data-value=characters]")
    page.select_option("#lang", "en")
    expect(page.locator("#piece-style input[value=characters]")).to_be_checked()
    expect(page.locator(f"{jungle} .dsq-piece .char-big").first).to_be_visible()

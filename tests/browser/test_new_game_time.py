"""The new-game form's time control: a game with people online starts with a clock (a rated
game needs one, and a player who walks away then loses on time), whatever was chosen for a game
on one screen; the last choice online comes back online. For either game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import PHONE, Client, fetch_json, goto_route
from tests.support.live import LiveServer


def time_shown(page: Page, mode: str, game: str) -> str:
    goto_route(page, page.url.split("#")[0] + f"#/new/{mode}?game={game}")
    form = page.locator(f"form#settings[data-game={game}]")
    expect(form).to_be_visible()
    return str(form.locator("select[name=time]").input_value())


@pytest.mark.parametrize("game", ["jungle", "tiger"])
def test_an_online_game_starts_with_a_clock(
    browser: Browser, server: LiveServer, game: str
) -> None:
    client = Client(browser, server, locale="en-GB", viewport=PHONE)
    page = client.open("/")
    assert time_shown(page, "online", game) == "10+5"
    # An untimed game on one screen …
    assert time_shown(page, "same_screen", game) == ""
    page.click("#start")
    expect(page.locator("#board .dsq-board")).to_be_visible()
    # … leaves the online form timed, and the game it creates has the clock.
    assert time_shown(page, "online", game) == "10+5"
    page.select_option("form#settings select[name=time]", "5+3")
    page.click("#start")
    expect(page.locator("#invite-link")).to_be_visible()
    game_id = page.url.split("#/game/")[1]
    assert fetch_json(page, f"/api/games/{game_id}")["game"]["time_control"] == "5+3"
    assert time_shown(page, "online", game) == "5+3"  # the last choice online comes back
    assert time_shown(page, "same_screen", game) == ""
    client.close()

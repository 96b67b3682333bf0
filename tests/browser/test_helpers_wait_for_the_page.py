"""The browser tests' own helpers against a slow server, where the races they guard against
show every time.

``click_move``: every answer on the game's socket reaches the page late (an init script holds
each message back), so the board stays drawn but takes no move for a while — as the game
starts, after each move while it is on its way, after a reload. Clicks made then would do
nothing; ``click_move`` waits until the board offers the move, so moves clicked back to back,
with no wait of the test's own between them, all land.

``goto_route``: the answers of the API come late, so the old page stays on screen after the
address names the next one; ``goto_route`` returns only once the old page is gone.

``choose_language``: the language tables come late, and the page says Simplified Chinese before
the app has started; ``choose_language`` returns once the page is drawn in the language it
picked, so text typed after it stays (picking the language shown redraws nothing).

``expect_piece`` (the lessons' tests): a lesson's board is drawn once the server has
answered for its position, after the step's words; ``expect_piece`` waits for the piece.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, Route, expect
from tests.browser.support import (
    Client,
    after_frames,
    choose_language,
    click_move,
    goto_route,
    plies,
)
from tests.browser.test_lessons import expect_piece
from tests.support.live import DEN_GAME

#: Every message the page's sockets receive is handed to the page 400 ms later, in order.
SLOW_SOCKETS = """
(() => {
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    const late = (event) => setTimeout(() => listener.call(this, event), 400);
    return add.call(this, type, late, options);
  };
})();
"""


def slow_page(client: Client) -> Page:
    client.context.add_init_script(SLOW_SOCKETS)
    return client.page


def test_moves_clicked_back_to_back_all_land_on_a_slow_server(client: Client) -> None:
    page = slow_page(client)
    client.open("/#/new/same_screen?game=jungle")
    page.click("#start")
    expect(page.locator("#board .dsq-board")).to_be_visible()  # drawn before it takes moves
    for text in DEN_GAME[:6]:
        click_move(page, text)
    plies(page, 6)
    page.reload()
    for text in DEN_GAME[6:10]:
        click_move(page, text)
    plies(page, 10)
    expect(page.locator("#status")).to_contain_text(re.compile("走棋"))


def test_goto_route_returns_once_the_old_page_is_gone(client: Client) -> None:
    page = client.open("/#/new/same_screen?game=jungle")
    page.click("#start")
    expect(page.locator("#board .dsq-board.dsq-interactive")).to_be_visible()
    game_id = page.url.rsplit("/", 1)[-1]

    def late(route: Route) -> None:
        time.sleep(0.4)
        route.continue_()

    page.route("**/api/**", late)
    goto_route(page, page.url.split("#")[0] + f"#/replay/game/{game_id}")
    # The game's page, still on screen while the replay loads, is gone.
    assert page.locator("#view > section.game-page").count() == 0
    expect(page.locator("#rp-meta")).to_be_visible()


def test_choose_language_returns_once_the_page_is_drawn_in_it(client: Client) -> None:
    page = client.page
    held: list[Route] = []

    def hold_all_but_the_first(route: Route) -> None:  # the app's own table comes at once
        held.append(route) if routed else route.continue_()
        routed.append(route)

    routed: list[Route] = []
    page.route("**/i18n/*.json", hold_all_but_the_first)
    client.open("/#/register")
    choose_language(page, "zh")  # the language the page is in already
    page.fill("#register-username", "kept")
    for route in held:  # a table asked for by the pick would redraw the page now
        route.continue_()
    page.unroute("**/i18n/*.json")
    after_frames(page)
    expect(page.locator("#register-username")).to_have_value("kept")
    assert held == []
    choose_language(page, "en")  # another: the page is drawn in it when the helper returns
    page.fill("#register-username", "kept_en")
    after_frames(page)
    expect(page.locator("#register-username")).to_have_value("kept_en")
    expect(page.locator("label[for=register-username]")).to_have_text("Username")


def test_expect_piece_waits_for_a_lesson_board_drawn_late(client: Client) -> None:
    page = client.open("/#/learn")
    held: list[Route] = []

    def hold(route: Route) -> None:  # the position's answer waits for the test
        held.append(route)

    page.route("**/api/position", hold)
    page.click('[data-lesson="tiger-trap"] a')
    expect(page.locator("#lesson-step")).to_have_text("第 1 步，共 4 步")  # the words are there
    pieces = page.locator('#lesson-board .dsq-pieces [data-square="e11"]')
    expect(pieces).to_have_count(0)  # the board is not drawn yet: a read now finds no tiger
    for route in held:
        route.continue_()
    expect_piece(page, "e11", "tiger")

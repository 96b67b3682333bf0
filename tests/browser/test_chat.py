"""A game's chat in real browsers (three contexts): the two players talk both ways, a spectator
talks to spectators, and neither side reads the other during the game; quick phrases read in
each reader's language; hostile text is shown as text; the spectator count is shown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, create_online_game, shoot
from tests.support.live import LiveServer

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture
def three(browser: Browser, server: LiveServer) -> Iterator[tuple[Client, Client, Client]]:
    red = Client(browser, server)
    blue = Client(browser, server, locale="en-US")
    watcher = Client(browser, server)
    for c in (red, blue, watcher):  # an alert would mean the hostile text ran as HTML
        c.page.on("dialog", lambda d, c=c: (c.errors.append(f"dialog: {d.message}"), d.dismiss()))
    try:
        yield red, blue, watcher
    finally:
        for c in (red, blue, watcher):
            c.close()


def open_chat(page: Page) -> None:
    expect(page.locator("#chat")).to_be_visible()
    if page.locator("#chat").get_attribute("open") is None:
        page.click("#chat-summary")
    expect(page.locator("#chat-input")).to_be_visible()


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")
    expect(page.locator("#chat-input")).to_have_value("")  # cleared once the server took it


def lines(page: Page) -> list[str]:
    return page.locator("#chat-list .chat-text").all_inner_texts()


def test_players_and_spectators_chat_apart(
    three: tuple[Client, Client, Client], artifacts: Path
) -> None:
    red, blue, watcher = three
    red.open("/")
    game_id = create_online_game(red.page)
    blue.open(f"/#/game/{game_id}?join=1")
    expect(red.page.locator("#resign")).to_be_visible()
    watcher.open(f"/#/game/{game_id}")
    for c in (red, blue, watcher):
        open_chat(c.page)
    expect(red.page.locator("#watchers")).to_have_text("观战：1 人")
    expect(blue.page.locator("#watchers")).to_have_text("Watching: 1")

    say(red.page, "你好，祝你好运")
    expect(blue.page.locator("#chat-list")).to_contain_text("你好，祝你好运")
    say(blue.page, HOSTILE)
    expect(red.page.locator("#chat-list .chat-text").last).to_have_text(HOSTILE)
    assert red.page.locator("#chat-list img").count() == 0
    blue.page.click('#chat-phrases [data-phrase="good_game"]')
    expect(red.page.locator("#chat-list .chat-text").last).to_have_text("下得好")
    expect(blue.page.locator("#chat-list .chat-text").last).to_have_text("Good game!")

    say(watcher.page, "红方要赢了")
    expect(watcher.page.locator("#chat-list")).to_contain_text("红方要赢了")
    watcher.page.click('#chat-phrases [data-phrase="go"]')
    expect(watcher.page.locator("#chat-list .chat-text").last).to_have_text("加油")
    # Give any leak time to arrive, then look: neither side has the other's messages.
    red.page.wait_for_timeout(500)
    assert lines(red.page) == ["你好，祝你好运", HOSTILE, "下得好"]
    assert lines(blue.page) == ["你好，祝你好运", HOSTILE, "Good game!"]
    assert lines(watcher.page) == ["红方要赢了", "加油"]

    # A refused message says why, in the reader's language, and stays in the box.
    red.page.fill("#chat-input", "长" * 141)
    red.page.click("#chat-send")
    expect(red.page.locator("#chat-error")).to_have_text("太长了：最多 140 个字。")
    expect(red.page.locator("#chat-input")).to_have_value("长" * 141)
    red.page.fill("#chat-input", "")
    shoot(red.page, artifacts, "chat-player")
    shoot(watcher.page, artifacts, "chat-spectator")
    # Nothing of the chat covers the board or the clocks.
    for c in (red, watcher):
        c.page.set_viewport_size({"width": 390, "height": 844})
        chat_box = c.page.locator("#chat").bounding_box()
        board_box = c.page.locator("#board").bounding_box()
        assert chat_box and board_box and chat_box["y"] >= board_box["y"] + board_box["height"]


def test_the_history_comes_back_and_opens_up_after_the_game(
    three: tuple[Client, Client, Client],
) -> None:
    red, blue, watcher = three
    red.open("/")
    game_id = create_online_game(red.page)
    blue.open(f"/#/game/{game_id}?join=1")
    expect(red.page.locator("#resign")).to_be_visible()
    watcher.open(f"/#/game/{game_id}")
    for c in (red, watcher):
        open_chat(c.page)
    say(red.page, "good luck")
    say(watcher.page, "who wins?")
    red.page.reload()  # history on reconnect
    open_chat(red.page)
    expect(red.page.locator("#chat-list .chat-text")).to_have_text(["good luck"])
    # Mute the spectators' side after the game, remembered; and hide the chat entirely.
    blue.page.click("#resign")
    blue.page.click("#resign")  # confirm
    expect(red.page.locator("#chat-list .chat-text")).to_have_text(["good luck", "who wins?"])
    expect(watcher.page.locator("#chat-list .chat-text")).to_have_text(["good luck", "who wins?"])
    red.page.click("#chat-other-room")
    expect(red.page.locator("#chat-list .chat-text")).to_have_text(["good luck"])
    red.page.click("#chat-hide")
    expect(red.page.locator("#chat-list")).to_be_hidden()
    red.page.reload()
    red.page.click("#chat-summary")  # folded on a phone
    expect(red.page.locator("#chat-hide")).to_have_attribute("aria-pressed", "true")
    expect(red.page.locator("#chat-list")).to_be_hidden()
    red.page.click("#chat-hide")
    expect(red.page.locator("#chat-list .chat-text")).to_have_text(["good luck"])


def test_a_chat_opened_by_hand_stays_open_when_the_page_is_drawn_again(
    three: tuple[Client, Client, Client],
) -> None:
    red, blue, _ = three
    red.open("/")
    game_id = create_online_game(red.page)
    blue.open(f"/#/game/{game_id}?join=1")
    expect(red.page.locator("#resign")).to_be_visible()
    chat = red.page.locator("#chat")
    expect(chat).to_be_visible()
    assert chat.get_attribute("open") is None  # folded under the board on a phone
    red.page.click("#chat-summary")
    expect(red.page.locator("#chat-input")).to_be_visible()
    # Away and back: a new page for the game, the panel as it was left.
    red.page.evaluate("location.hash = '#/'")
    expect(red.page.locator("#go-vsai")).to_be_visible()
    red.page.evaluate(f"location.hash = '#/game/{game_id}'")
    expect(red.page.locator("#chat-input")).to_be_visible()
    red.page.click("#chat-summary")  # folded by hand: folded when drawn again
    expect(red.page.locator("#chat-input")).to_be_hidden()
    red.page.evaluate("location.hash = '#/'")
    expect(red.page.locator("#go-vsai")).to_be_visible()
    red.page.evaluate(f"location.hash = '#/game/{game_id}'")
    expect(red.page.locator("#chat")).to_be_visible()
    assert chat.get_attribute("open") is None

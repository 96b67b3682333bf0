"""Invitations that expire, in a real browser (see ``support.py`` for the set-up): the game
page says how long an invitation stays open and shows an expired one with a button for a new
game; every countdown to a server deadline goes by the server's clock, not the device's, which
may be hours off (Playwright's fake clock plays the phone with the wrong time). The lobby's
countdowns are in ``test_lobby.py``.

Besides the module's usual server (invitations open 30 minutes), one with a lobby wait of a few
seconds lets an invitation expire while the test watches.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import Client, create_online_game, shoot, toggle_language
from tests.support.live import LiveServer, make_settings, running

LOBBY_WAIT = 6.0  # seconds: the page connects before the game expires, and sees it expire
HOUR = 3600.0


@pytest.fixture(scope="module")
def short_wait(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("expiry-db"), lobby_wait=LOBBY_WAIT)
    with running(settings) as live:
        yield live


def test_waiting_game_says_how_long_the_invitation_is_open(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    create_online_game(page)
    line = page.locator("#invite #invite-expiry")
    # A fresh invitation of the default 30 minutes.
    expect(line).to_have_text("邀请 30 分钟内有效")
    expect(page.locator("#status")).to_contain_text("等待对手")
    shoot(page, artifacts, "expiry-invite-open")
    toggle_language(page)
    expect(page.locator("#invite-expiry")).to_have_text(
        "The invitation stays open for another 30 minutes"
    )


def test_expired_invitation_is_shown_with_a_new_game_button(
    browser: Browser, short_wait: LiveServer, artifacts: Path
) -> None:
    client = Client(browser, short_wait)
    try:
        page = client.open("/")
        game_id = create_online_game(page)
        expect(page.locator("#invite-expiry")).to_have_text("邀请即将过期（不到 1 分钟）")
        # The server aborts the game at the deadline; the open page is told (game_finished).
        result = page.locator("#result")
        expect(result).to_be_visible(timeout=LOBBY_WAIT * 1000 + 10_000)
        expect(result.locator(".result-title")).to_have_text("邀请已过期，对局已取消")
        # Why, in place of the bare "aborted" reason line.
        expect(result.locator(".result-reason")).to_have_count(1)
        expect(result.locator(".result-reason")).to_have_text("等待期间没有对手加入")
        expect(page.locator("#invite")).to_be_hidden()
        expect(page.locator(".player-bar.top .player-name")).to_have_text("无人加入")
        expect(page.locator("#rematch")).to_have_count(0)  # nobody to play again
        shoot(page, artifacts, "expiry-invite-expired")

        # A reload (the `state` message) says the same, in English too.
        page.reload()
        expect(page.locator("#result .result-title")).to_have_text("邀请已过期，对局已取消")
        toggle_language(page)
        expect(page.locator("#result .result-title")).to_have_text(
            "The invitation expired; the game was cancelled"
        )
        new_game = page.locator("#expiry-new-game")
        expect(new_game).to_have_text("Create a new online game")
        new_game.click()
        expect(page).to_have_url(re.compile(r"#/new/online$"))
        expect(page.locator("#start")).to_be_visible()

        # Someone following the old invitation finds it expired, not a seat to take.
        other = Client(browser, short_wait)
        try:
            late = other.open(f"/#/game/{game_id}?join=1")
            expect(late.locator("#result .result-title")).to_have_text("邀请已过期，对局已取消")
            expect(late.locator("#join")).to_have_count(0)
        finally:
            other.close()
    finally:
        client.close()


# ----- countdowns by the server's clock ------------------------------------------------------


@pytest.mark.parametrize("skew", [2 * HOUR, -2 * HOUR], ids=["device-ahead", "device-behind"])
def test_countdowns_use_the_servers_clock(client: Client, server: LiveServer, skew: float) -> None:
    page = client.page
    page.clock.install(time=time.time() + skew)  # the phone's clock is two hours off
    client.open("/")
    device_off = page.evaluate("Date.now() / 1000") - time.time()
    assert abs(device_off - skew) < 60, device_off  # the fake clock is in force

    # The waiting game page: a fresh invitation is open for 30 minutes.
    create_online_game(page)
    expect(page.locator("#invite #invite-expiry")).to_have_text("邀请 30 分钟内有效")

    # The lobby lists another player's fresh invitation, 30 minutes left, and keeps it.
    other = server.player().guest().create(mode="online", rules="wango", color="blue")
    page.goto(f"{server.url}/#/lobby")
    entry = page.locator(f'.lobby-game[data-game="{other["id"]}"]')
    expect(entry.locator(".lobby-expiry")).to_have_text("还剩 30 分钟")
    page.wait_for_timeout(1_500)  # the lobby's countdown has ticked: the entry is still there
    expect(entry.locator(".lobby-expiry")).to_have_text(re.compile("还剩 (30|29) 分钟"))


def test_server_time_is_in_the_lobby_and_the_state(server: LiveServer) -> None:
    guest = server.player().guest()
    before = time.time()
    created = guest.create(mode="online", rules="wango", color="red")
    lobby = guest.get("/api/lobby").json()
    state = guest.get(f"/api/games/{created['id']}").json()
    after = time.time()
    for answer in (created, lobby, state):
        assert before - 1 <= answer["server_time"] <= after + 1, answer.get("server_time")
    assert state["game"]["lobby_deadline"] - state["server_time"] == pytest.approx(1800, abs=5)

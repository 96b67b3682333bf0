"""A correspondence game (a day per move) across an injected day, in two browsers: created
from the new-game page, moved, listed on the your-turn page with its time left, its clock in
days and hours; and lost on time once the server's clock has passed the day.

The module's server runs on a ManualTime (tests/support/live.py): the test moves the server's
clock forward by a day; the browsers' own clocks stand still."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import Client, fetch_json, goto_route, shoot
from tests.support.live import LiveServer, ManualTime, make_settings, running

DAY = 86400.0


@pytest.fixture(scope="module")
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture(scope="module")
def corr_server(
    tmp_path_factory: pytest.TempPathFactory, clock: ManualTime
) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("corr-db")), clock) as live:
        yield live


def test_a_one_day_game_across_an_injected_day(
    browser: Browser, corr_server: LiveServer, clock: ManualTime, artifacts: Path
) -> None:
    red, blue = Client(browser, corr_server), Client(browser, corr_server, locale="en-US")
    try:
        page = red.open("/#/new/online")
        time_menu = page.locator("select[name=time]")
        expect(time_menu.locator("option[value='1d']")).to_have_text("通讯棋：每步 1 天")
        time_menu.select_option("1d")
        page.locator("[name=color][value=red]").check(force=True)
        page.click("#start")
        expect(page.locator("#invite-link")).to_be_visible()
        game_id = page.url.split("#/game/")[1].split("?")[0]
        other = blue.open(f"/#/game/{game_id}?join=1")
        expect(other.locator("#status")).to_contain_text("Red to move")
        # A day on the clock, running down: in days and hours like the waiting side's, never
        # a ticking 23:59:59 beside "1 天 0 小时".
        expect(page.locator(".player-bar.bottom .clock .main")).to_have_text(
            re.compile(r"^(1 天 0 小时|23 小时 59 分)$")
        )
        expect(page.locator(".player-bar.top .clock .main")).to_have_text("1 天 0 小时")
        clock.advance(3 * 3600)  # Red thinks three hours
        sent = fetch_json(
            page, f"/api/games/{game_id}/commands", "POST", {"type": "move", "move": "a3a4"}
        )
        assert sent.get("type") != "rejected", sent
        expect(other.locator("#moves li")).to_have_count(1)
        # Red has a full day again for its next move, shown in days and hours.
        expect(page.locator(".player-bar.bottom .clock .main")).to_have_text("1 天 0 小时")
        expect(other.locator(".player-bar.top .clock .main")).to_have_text("1 d 0 h")
        expect(other.locator(".player-bar.bottom .clock .main")).to_have_text(
            re.compile(r"^(1 d 0 h|23 h 59 min)$")
        )
        # Blue's your-turn list, from home; Red's is empty.
        goto_route(other, f"{corr_server.url}/#/")
        other.locator("#go-corr").click()
        entry = other.locator(f"#corr-list [data-game='{game_id}']")
        expect(entry).to_be_visible()
        # (The page counts down by the browser's clock from the server's answer: a second on.)
        left = re.compile(r"^(1 d 0 h|23 h 59 min) left$")
        expect(entry.locator(".corr-left")).to_have_text(left)
        shoot(other, artifacts, "correspondence-your-turn")
        goto_route(page, f"{corr_server.url}/#/correspondence")
        expect(page.locator("#corr-list .empty")).to_be_visible()
        waiting = page.locator(f"#corr-waiting [data-game='{game_id}']")
        blue_name = fetch_json(other, "/api/auth/me")["name"]
        assert blue_name.startswith("Guest-")  # a guest's default name is shown in one's words
        expect(waiting.locator("strong")).to_have_text(f"对 游客 {blue_name[6:]}")  # not oneself
        expect(waiting.locator(".token")).to_have_text("红")  # one's own side
        shoot(page, artifacts, "correspondence-waiting")
        # Blue stays away: a disconnect does not lose a correspondence game.
        goto_route(other, f"{corr_server.url}/#/game/{game_id}")
        expect(other.locator("#moves li")).to_have_count(1)
        goto_route(other, f"{corr_server.url}/#/")
        clock.advance(3600)
        goto_route(page, f"{corr_server.url}/#/game/{game_id}")
        expect(page.locator("#opponent-gone")).to_be_hidden()
        expect(page.locator("#status")).to_be_visible()
        # A day passes on the server: Blue ran out of time for the move and lost.
        clock.advance(DAY)
        result = page.locator("#result")
        expect(result).to_be_visible()
        expect(result.locator(".result-you")).to_have_text("你赢了！")
        state = fetch_json(page, f"/api/games/{game_id}")
        assert state["game"]["outcome"]["termination"] == "time_forfeit"
        goto_route(other, f"{corr_server.url}/#/game/{game_id}")
        expect(other.locator("#result .result-you")).to_have_text("You lost")
    finally:
        red.close()
        blue.close()

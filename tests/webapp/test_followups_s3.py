"""Three follow-ups of the web client, in a real browser (see ``support.py`` for the set-up):

* countdowns to the server's deadlines go by the server's clock, not the device's, which may be
  hours off (Playwright's fake clock plays the phone with the wrong time);
* a page that waits for the server draws nothing once the user has gone to another page;
* a lobby entry with many changed rule options lists them readably on a phone.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect
from tests.server.live import LiveServer
from tests.webapp.support import Client, create_online_game, shoot

HOUR = 3600.0

#: Every option of RULES.md 6 but the first player, each away from the WANGO set's value.
MANY_CHANGES = {
    "parent": "wango",
    "ranks": "dog>wolf",
    "own_rat_blocks_jump": False,
    "rat_captures_across_water": True,
    "trapped_can_capture": True,
    "repetition": "initiator_must_vary",
    "no_capture_draw_rounds": 50,
    "rule_7_3": True,
    "rule_17_5": True,
    "wolf_name": "fox",
}


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


# ----- a page left while it loads draws nothing -----------------------------------------------


def hold(page: Page, pattern: str) -> list[Route]:
    """Hold the answers to requests matching `pattern` until the test lets them go."""
    held: list[Route] = []
    page.route(pattern, lambda route: held.append(route))
    return held


def wait_for(held: list[Route], page: Page) -> None:
    for _ in range(100):
        if held:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page never asked")


def assert_home_is_intact(page: Page) -> None:
    expect(page.locator("#go-vsai")).to_be_visible()
    expect(page.locator(".home .cards .card")).to_have_count(4)
    assert page.evaluate("document.body.dataset.view") == "home"


def test_profile_left_while_loading_draws_nothing(client: Client, server: LiveServer) -> None:
    server.player().register("s3_slowpoke")
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/players/s3_slowpoke")
    page.evaluate("location.hash = '#/player/s3_slowpoke'")
    wait_for(held, page)
    page.evaluate("location.hash = '#/'")  # home, before the profile has come
    assert_home_is_intact(page)
    # The profile comes now, and then its games: the home page stays as it is.
    with page.expect_response("**/api/players/s3_slowpoke/games*"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#profile")).to_have_count(0)
    expect(page.locator(".profile-page")).to_have_count(0)
    # Not left, the same page is drawn (the answer held above was the one it draws from).
    page.unroute("**/api/players/s3_slowpoke")
    page.evaluate("location.hash = '#/player/s3_slowpoke'")
    expect(page.locator("#profile-name")).to_be_visible()


def test_missing_profile_left_while_loading_draws_nothing(client: Client) -> None:
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/players/s3_nobody")
    page.evaluate("location.hash = '#/player/s3_nobody'")
    wait_for(held, page)
    page.evaluate("location.hash = '#/'")
    with page.expect_response("**/api/players/s3_nobody"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#profile-missing")).to_have_count(0)
    # The browser logs the 404 asked for here.
    assert all("status of 404" in e for e in client.errors), client.errors
    client.errors.clear()


def test_leaderboard_left_while_loading_draws_nothing(client: Client, server: LiveServer) -> None:
    server.player().register("s3_leader")
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_be_visible()
    held = hold(page, "**/api/leaderboard*")
    page.evaluate("location.hash = '#/leaderboard'")
    wait_for(held, page)
    list_was_filled = page.evaluate(
        """() => {
            const list = document.querySelector('#leaderboard-list');
            window.s3List = list; // kept: is it filled once the page is gone?
            return list.children.length;
        }"""
    )
    assert list_was_filled == 0
    page.evaluate("location.hash = '#/'")
    with page.expect_response("**/api/leaderboard*"):
        held[0].continue_()
    page.wait_for_timeout(500)
    assert_home_is_intact(page)
    expect(page.locator("#leaderboard-list")).to_have_count(0)
    # The page left did not even fill its own list (nobody would have seen it).
    assert page.evaluate("window.s3List.children.length") == 0


# ----- many changed rule options in the lobby -------------------------------------------------


def visible_changes(page: Page, game_id: str) -> list[str]:
    items = page.locator(f'.lobby-game[data-game="{game_id}"] .lobby-rules li:visible')
    return items.all_inner_texts()


def test_many_rule_changes_are_readable_in_the_lobby(
    client: Client, server: LiveServer, artifacts: Path
) -> None:
    game = server.player().guest().create(mode="online", rules=MANY_CHANGES, color="red")
    page = client.open("/#/lobby")
    entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
    expect(entry).to_contain_text("自定义规则（基于WANGO 规则）")
    rules = entry.locator(".lobby-rules")
    more = rules.locator("button.lobby-rules-more")
    # The first two, then a button for the other seven.
    expect(rules.locator("li:visible")).to_have_count(2)
    assert visible_changes(page, game["id"]) == ["狼与狗：狗 4 > 狼 3", "己方鼠也阻挡跳河：否"], (
        visible_changes(page, game["id"])
    )
    expect(more).to_have_text("还有 7 项")
    expect(more).to_have_attribute("aria-expanded", "false")
    expect(more).to_have_attribute("aria-controls", f"lobby-rules-{game['id']}")
    shoot(page, artifacts, "s3-lobby-rules-folded")

    # Opened with the keyboard: all nine, each whole on its line(s), nothing cut off.
    more.focus()
    page.keyboard.press("Enter")
    expect(rules.locator("li:visible")).to_have_count(9)
    expect(more).to_have_text("收起")
    expect(more).to_have_attribute("aria-expanded", "true")
    expect(rules).to_contain_text("狼的名称：狐")
    cut = rules.locator("li").evaluate_all(
        "items => items.filter((li) => li.scrollWidth > li.clientWidth + 1)"
        ".map((li) => li.textContent)"
    )
    assert cut == [], cut
    shoot(page, artifacts, "s3-lobby-rules-open")

    # The lobby redraws itself every 5 s: the list stays open, the button keeps the focus.
    with page.expect_response("**/api/lobby*", timeout=8_000):
        pass
    page.wait_for_timeout(200)
    entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(9)
    focused = page.evaluate("document.activeElement?.dataset.rulesFor")
    assert focused == game["id"], focused
    page.keyboard.press("Enter")  # folded again
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(2)

    # In English.
    page.click("#lang")
    entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
    expect(entry.locator(".lobby-rules-more")).to_have_text("+7 more")
    first = entry.locator(".lobby-rules li:visible").first
    expect(first).to_have_text("Wolf and dog: dog 4 > wolf 3")
    entry.locator(".lobby-rules-more").click()
    expect(entry.locator(".lobby-rules-more")).to_have_text("Show less")
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(9)
    shoot(page, artifacts, "s3-lobby-rules-en")


def test_a_few_rule_changes_are_all_shown(client: Client, server: LiveServer) -> None:
    changes = {"parent": "classic", "rat_captures_across_water": False, "rule_7_3": False}
    game = server.player().guest().create(mode="online", rules=changes, color="red")
    page = client.open("/#/lobby")
    rules = page.locator(f'.lobby-game[data-game="{game["id"]}"] .lobby-rules')
    expect(rules.locator("li:visible")).to_have_count(2)
    expect(rules.locator("button")).to_have_count(0)
    expect(rules).to_have_attribute("title", re.compile("鼠可跨水陆互吃：否；"))
    # A single change reads as before: just the change.
    one_change = {"parent": "classic", "rule_17_5": False}
    one = server.player().guest().create(mode="online", rules=one_change)
    page.click("text=刷新")
    single = page.locator(f'.lobby-game[data-game="{one["id"]}"] .lobby-rules')
    expect(single).to_have_text("武松长杀（17-5 规则）：否")

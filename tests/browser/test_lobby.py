"""The lobby's entries in a real browser (see ``support.py`` for the set-up): the time each
invitation has left, counted down on the page, and the changed rule options of a custom rule
set, listed readably on a phone. The lobby's layout on a phone is ``test_lobby_phone.py``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, expect
from tests.browser.support import Client, shoot, toggle_language
from tests.support.live import LiveServer

#: Every option of docs/rules.md 6 but the first player, each away from the WANGO set's value.
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


# ----- the time left ------------------------------------------------------------------------


def test_lobby_shows_the_time_left(browser: Browser, server: LiveServer, artifacts: Path) -> None:
    creator = server.player().guest()
    game = creator.create(mode="online", rules="wango", color="red")
    client = Client(browser, server, locale="en-US")
    try:
        page = client.open("/#/lobby")
        entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
        expect(entry.locator(".lobby-expiry")).to_have_text("30 min left")
        toggle_language(page)
        entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
        expect(entry.locator(".lobby-expiry")).to_have_text("还剩 30 分钟")
        expect(entry.locator("time.lobby-expiry")).to_have_attribute("datetime", re.compile("T"))
        shoot(page, artifacts, "lobby-time-left")
    finally:
        client.close()


def test_lobby_drops_an_entry_when_its_time_is_up(client: Client, artifacts: Path) -> None:
    """The lobby's answer is made up here: it keeps listing an entry that runs out in a
    moment, so only the page's own countdown can take it off, before the next refresh."""
    calls: list[float] = []

    def entry(game_id: str, expires_at: float) -> dict[str, object]:
        return {
            "id": game_id,
            "rules": "wango",
            "time_control": "10+5",
            "open_color": 1,
            "creator": {"name": "张三", "avatar": "rat", "rating": 1500, "score": 0},
            "expires_at": expires_at,
        }

    def lobby(route: Route) -> None:
        calls.append(time.time())
        # Counted from the page's first look, however long the page took to get there.
        soon = calls[0] + 2.5
        games = [
            entry("going", soon),
            entry("staying", time.time() + 12 * 60 - 30),
            entry("long", time.time() + 2 * 3600 + 4 * 60 + 30),
        ]
        route.fulfill(json={"games": games})

    page = client.page
    page.route("**/api/lobby*", lobby)
    client.open("/#/lobby")
    going = page.locator('.lobby-game[data-game="going"]')
    expect(going.locator(".lobby-expiry")).to_have_text("还剩不到 1 分钟")
    expect(page.locator('[data-game="staying"] .lobby-expiry')).to_have_text("还剩 12 分钟")
    expect(page.locator('[data-game="long"] .lobby-expiry')).to_have_text("还剩 2 小时 5 分钟")
    expect(going).to_have_count(0, timeout=4_000)
    # Gone by the page's countdown: the lobby was asked only once (it refreshes every 5 s).
    assert len(calls) == 1, calls
    expect(page.locator(".lobby-game")).to_have_count(2)
    shoot(page, artifacts, "lobby-countdown")


def test_lobby_with_only_expired_entries_says_it_is_empty(client: Client) -> None:
    past = {
        "id": "old",
        "rules": "wango",
        "time_control": None,
        "open_color": 0,
        "creator": {"name": "李四", "avatar": "cat", "rating": 1500, "score": 0},
        "expires_at": time.time() - 5,
    }
    client.page.route("**/api/lobby*", lambda route: route.fulfill(json={"games": [past]}))
    page = client.open("/#/lobby")
    expect(page.locator("#lobby-list .empty")).to_be_visible()
    expect(page.locator(".lobby-game")).to_have_count(0)


def test_lobby_entries_json_is_what_the_server_sends(server: LiveServer) -> None:
    """The made-up lobby answers above have the fields of the real one."""
    creator = server.player().guest()
    creator.create(mode="online", rules="classic", color="blue")
    games = server.player().get("/api/lobby").json()["games"]
    assert games
    for key in ("id", "rules", "time_control", "open_color", "creator", "expires_at"):
        assert key in games[0], json.dumps(games[0])
    assert {"name", "rating"} <= set(games[0]["creator"])


# ----- many changed rule options ------------------------------------------------------------


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
    shoot(page, artifacts, "lobby-rules-folded")

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
    shoot(page, artifacts, "lobby-rules-open")

    # The lobby redraws itself every 5 s: an entry that has not changed stays the same element
    # (a click or tap on its way is not lost), the list stays open, the button keeps the focus.
    entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
    drawn = entry.element_handle()
    for _ in (1, 2):  # the first refresh's redraw is surely done when the second one answers
        with page.expect_response("**/api/lobby*", timeout=8_000):
            pass
    assert page.evaluate("(el) => el.isConnected", drawn)
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(9)
    focused = page.evaluate("document.activeElement?.dataset.rulesFor")
    assert focused == game["id"], focused
    page.keyboard.press("Enter")  # folded again
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(2)

    # In English.
    toggle_language(page)
    entry = page.locator(f'.lobby-game[data-game="{game["id"]}"]')
    expect(entry.locator(".lobby-rules-more")).to_have_text("+7 more")
    first = entry.locator(".lobby-rules li:visible").first
    expect(first).to_have_text("Wolf and dog: dog 4 > wolf 3")
    entry.locator(".lobby-rules-more").click()
    expect(entry.locator(".lobby-rules-more")).to_have_text("Show less")
    expect(entry.locator(".lobby-rules li:visible")).to_have_count(9)
    shoot(page, artifacts, "lobby-rules-en")


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

"""The web client's main flows in a real browser (see ``support.py`` for the set-up)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect
from tests.browser.support import Client, click_move, plies, position, shoot, toggle_language
from tests.support.live import DEN_GAME, LiveServer


def test_home_language_switch(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_contain_text("人机对战")
    expect(page.locator("#go-local")).to_contain_text("同屏对战")
    shoot(page, artifacts, "home-zh")
    toggle_language(page)
    expect(page.locator("#go-vsai")).to_contain_text("Play the computer")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    shoot(page, artifacts, "home-en")
    page.reload()  # remembered
    expect(page.locator("#go-online")).to_contain_text("Play online")
    toggle_language(page)
    expect(page.locator("#go-online")).to_contain_text("在线对战")


def test_rules_page_shows_the_options(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-rules")
    page.click("#learn-rules-jungle")
    expect(page.locator("#rule-options")).to_contain_text("三次重复判和")
    page.select_option("#rules-select", "classic")
    expect(page.locator('[data-option="rule_7_3"] td')).to_have_text("是")
    expect(page.locator('[data-option="no_capture_draw_rounds"] td')).to_contain_text("100")
    expect(page.locator('[data-option="ranks"] td')).to_have_text("狼 4 > 狗 3")
    page.select_option("#rules-select", "classic-dog")
    expect(page.locator('[data-option="ranks"] td')).to_have_text("狗 4 > 狼 3")
    expect(page.locator(".rule-points")).to_contain_text("狗 4 > 狼 3")
    toggle_language(page)
    expect(page.locator('[data-option="ranks"] td')).to_have_text("dog 4 > wolf 3")
    shoot(page, artifacts, "rules")


def test_same_screen_game_to_a_den_win(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-local")
    expect(page.locator("select[name=rules] option")).to_have_count(4)
    shoot(page, artifacts, "settings")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    for i, move in enumerate(DEN_GAME):
        click_move(page, move)
        plies(page, i + 1)
        if i == 6:
            shoot(page, artifacts, "same-screen")
    expect(page.locator("#result")).to_contain_text("红方获胜")
    expect(page.locator("#result")).to_contain_text("攻入兽穴")
    expect(page.locator("#moves li").first).to_contain_text("1.")
    shoot(page, artifacts, "den-win")


def test_vs_ai_from_home_and_reload(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-vsai")
    page.select_option("select[name=time]", "10+0/30s")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    expect(page.locator('[data-clock="0"] .main')).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    expect(page.locator('[data-clock="0"] .per-move')).to_contain_text("本步")
    click_move(page, "a3a4")
    plies(page, 2)  # the AI replied
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    shoot(page, artifacts, "vs-ai")
    before = position(page)
    moves = page.locator("#moves li").all_inner_texts()
    page.reload()
    plies(page, 2)
    assert position(page) == before
    assert page.locator("#moves li").all_inner_texts() == moves
    # a takeback against the AI applies at once
    page.click("#takeback")
    expect(page.locator("#moves li")).to_have_count(0)


def test_online_game_draw_declined_then_resignation(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    red = Client(browser, server)
    blue = Client(browser, server, locale="en-US")
    try:
        page = red.open("/")
        page.click("#go-online")  # the quick pairing page, which links to the lobby
        page.click("#play-lobby")
        expect(page.locator("#lobby-list")).to_be_visible()
        page.click("#lobby-create")
        page.click("#start")
        link = page.locator("#invite-link")
        expect(link).to_have_value(re.compile(r"/game/[\w-]+\?join=1$"))
        expect(page.locator("#status")).to_contain_text("等待对手")
        shoot(page, artifacts, "online-waiting")
        other = blue.open("/#/lobby")
        expect(other.locator(".lobby-game")).not_to_have_count(0)
        shoot(other, artifacts, "lobby")
        other.goto(link.input_value())
        expect(other.locator("#status")).to_contain_text("Red to move")
        expect(page.locator("#status")).to_contain_text("轮到你走棋")
        click_move(page, "a3a4")
        plies(other, 1)
        expect(other.locator("#status")).to_contain_text("Your move")
        click_move(other, "a7a6")
        plies(page, 2)
        watcher = Client(browser, server)
        try:
            found = re.search(r"/game/([\w-]+)", link.input_value())
            assert found is not None
            spectator = watcher.open(f"/#/game/{found[1]}")
            plies(spectator, 2)
            expect(spectator.locator("#status")).to_contain_text("观战中")
            expect(spectator.locator("#resign")).to_have_count(0)
        finally:
            watcher.close()
        page.click("#offer-draw")
        other.click("#decline-draw")
        expect(page.locator("#toast")).to_contain_text("和棋提议被拒绝")
        # a dropped connection: reload and carry on
        other.reload()
        plies(other, 2)
        other.click("#resign")
        other.click("#resign")
        expect(page.locator("#result")).to_contain_text("红方获胜")
        expect(page.locator("#result")).to_contain_text("认输")
        expect(other.locator("#result")).to_contain_text("You lost")
        shoot(page, artifacts, "online-result")
        expect(page.locator("#rematch")).to_be_visible()
    finally:
        red.close()
        blue.close()

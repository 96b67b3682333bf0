"""The computer's levels in words: the new-game slider describes the chosen level as it moves,
and the game page names the level it plays (see ``support.py`` for the set-up)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.browser.support import Client, shoot, toggle_language

ZH = {
    1: "1 级 · 入门：只看一步，常常失误",
    5: "5 级 · 中级：看五步，很少失误",
    10: "10 级 · 全力：用满思考时间，下出引擎最强的棋",
}
EN = {
    1: "Level 1 · Beginner: looks one move ahead and often slips",
    5: "Level 5 · Intermediate: looks five moves ahead and rarely slips",
    10: "Level 10 · Full strength: uses all its thinking time to play the engine's strongest moves",
}


def set_level(page: Page, level: int) -> None:
    page.locator("input[name=level]").fill(str(level))


def check_levels(page: Page, texts: dict[int, str]) -> None:
    slider = page.locator("input[name=level]")
    about = page.locator("#level-about")
    for level, text in texts.items():
        set_level(page, level)
        expect(page.locator("output[name=levelOut]")).to_have_text(str(level))
        expect(about).to_have_text(text)
        # Screen readers hear the description with the slider, and the name with the number.
        expect(slider).to_have_accessible_description(text)
        short = re.split("[：:]", text)[0]  # "5 级 · 中级"
        expect(slider).to_have_attribute("aria-valuetext", short)


def test_the_slider_describes_each_level(client: Client, artifacts: Path) -> None:
    page = client.open("/#/new/vs_ai")
    slider = page.locator("input[name=level]")
    expect(slider).to_have_attribute("aria-describedby", "level-about")
    expect(page.locator("#level-about")).to_have_text("3 级 · 初级：看三步，不时走出随手棋")
    check_levels(page, ZH)
    # The keyboard moves it too, and the line follows.
    slider.focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#level-about")).to_contain_text("9 级 · 大师")
    page.keyboard.press("End")
    expect(page.locator("#level-about")).to_have_text(ZH[10])
    shoot(page, artifacts, "level-names-zh")
    toggle_language(page)
    # At once, while the English page may still be loading: the page drawn in English keeps the
    # slider where it was left, not the level saved at the last start.
    check_levels(page, EN)
    set_level(page, 2)  # the longest English line still fits a phone
    expect(page.locator("#level-about")).to_contain_text("Level 2 · Novice")
    shoot(page, artifacts, "level-names-en")
    toggle_language(page)
    expect(page.locator("#level-about")).to_have_text(
        "2 级 · 新手：看两步，会防对方吃子，但仍常出错"
    )


def test_the_game_page_names_the_level(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-vsai")
    set_level(page, 5)
    expect(page.locator("#level-about")).to_contain_text("中级")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    computer = page.locator(".player-bar.top")
    # The name says the number; the line under it, as for a person's ladder level, the name.
    expect(computer.locator(".player-name")).to_have_text("蓝方：电脑 5 级")
    expect(computer.locator(".player-meta")).to_have_text("中级")
    shoot(page, artifacts, "level-names-game")
    toggle_language(page)
    expect(computer.locator(".player-name")).to_contain_text("Computer level 5")
    expect(computer.locator(".player-meta")).to_have_text("Intermediate")
    # The slider starts where it was left last time, described as such.
    page.goto(client.server.url + "/#/new/vs_ai")
    expect(page.locator("output[name=levelOut]")).to_have_text("5")
    expect(page.locator("#level-about")).to_have_text(EN[5])
    # The longest name fits a phone's bar beside a clock, uncut.
    set_level(page, 10)
    page.select_option("select[name=time]", "10+5")
    page.click("#start")
    meta = page.locator(".player-bar.top .player-meta")
    expect(meta).to_have_text("Full strength")
    expect(page.locator(".player-bar.top .clock")).to_contain_text("10:00")
    clipped = meta.evaluate("(el) => el.scrollWidth > el.clientWidth")
    assert not clipped, "the level's name is cut off"
    shoot(page, artifacts, "level-names-game-en")

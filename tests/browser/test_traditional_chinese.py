"""Traditional Chinese (繁體中文): chosen from the browser's language, switchable, remembered,
and every page in traditional characters, piece names included (see ``support.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, choose_language, click_move, laid_out_size, plies, shoot
from tests.support.live import DEN_GAME, LiveServer

#: Characters written differently in simplified script: none may show on a zh-Hant page.
SIMPLIFIED_ONLY = "斗兽猫狮红蓝对战电脑设规则选项应级复盘录账号"


def simplified_on(page: Page) -> list[str]:
    text = page.locator("body").inner_text()
    return sorted({char for char in text if char in SIMPLIFIED_ONLY})


@pytest.mark.parametrize("locale", ["zh-TW", "zh-HK", "zh-MO", "zh-Hant"])
def test_traditional_is_chosen_for_taiwan_hong_kong_and_macau(
    browser: Browser, server: LiveServer, locale: str
) -> None:
    client = Client(browser, server, locale=locale)
    try:
        page = client.open("/")
        expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
        expect(page.locator("#go-vsai")).to_contain_text("人機對戰")
        expect(page.locator("#lang")).to_have_value("zh-Hant")
    finally:
        client.close()


@pytest.mark.parametrize(
    ("locale", "lang"), [("zh-CN", "zh-CN"), ("zh-SG", "zh-CN"), ("fr-FR", "en")]
)
def test_other_browsers_get_simplified_or_english(
    browser: Browser, server: LiveServer, locale: str, lang: str
) -> None:
    client = Client(browser, server, locale=locale)
    try:
        expect(client.open("/").locator("html")).to_have_attribute("lang", lang)
    finally:
        client.close()


def test_the_language_menu_names_each_language_in_itself(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    options = page.locator("#lang option")
    expect(options).to_have_text(["简体中文", "繁體中文", "English"])
    choose_language(page, "zh-Hant")
    expect(page.locator("#go-vsai")).to_contain_text("人機對戰")
    expect(page.locator(".brand-name")).to_have_text("鬥獸棋 Jungle")
    assert simplified_on(page) == []
    shoot(page, artifacts, "hant-home")
    page.reload()  # remembered
    expect(page.locator("#lang")).to_have_value("zh-Hant")
    expect(page.locator("#go-online")).to_contain_text("線上對戰")
    assert laid_out_size(page.locator("#lang"))[1] >= 44
    choose_language(page, "zh")
    expect(page.locator("#go-online")).to_contain_text("在线对战")


def test_a_game_in_traditional_characters(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    choose_language(page, "zh-Hant")
    page.click("#go-local")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("紅方走棋")
    # The pieces carry their names in traditional script: 獅 and 貓, not 狮 and 猫.
    chars = page.locator("#board .dsq-pieces .char").all_text_contents()
    assert "獅" in chars and "貓" in chars, chars
    assert "狮" not in chars and "猫" not in chars, chars
    expect(page.locator('#board [data-square="d1"] .sq-word')).to_have_text("獸穴")
    for i, move in enumerate(DEN_GAME[:4]):
        click_move(page, move)
        plies(page, i + 1)
    assert simplified_on(page) == []
    shoot(page, artifacts, "hant-game")
    for i, move in enumerate(DEN_GAME[4:], start=4):
        click_move(page, move)
        plies(page, i + 1)
    expect(page.locator("#result")).to_contain_text("紅方獲勝")
    expect(page.locator("#result")).to_contain_text("攻入獸穴")
    assert simplified_on(page) == []
    shoot(page, artifacts, "hant-game-over")


def test_the_rules_page_reads_in_traditional_characters(client: Client, artifacts: Path) -> None:
    page = client.open("/#/rules/classic")
    choose_language(page, "zh-Hant")
    expect(page.locator(".rules h1, .rules h2").first).to_contain_text("鬥獸棋規則")
    points = page.locator(".rule-points")
    expect(points).to_contain_text("象 8 > 獅 7 > 虎 6 > 豹 5 > 狼 4 > 狗 3 > 貓 2 > 鼠 1")
    expect(points).to_contain_text("獸穴")
    expect(page.locator("#rule-options")).to_contain_text("循環發起方必須變著")
    expect(page.locator("body")).to_contain_text(re.compile("「停棋一步」"))
    assert simplified_on(page) == []
    shoot(page, artifacts, "hant-rules")

"""The new-game page's rule options and custom time control, played out in a real browser."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from tests.browser.support import Client, click_move, plies, shoot, toggle_language
from tests.support.live import LiveServer

#: Red's wolf walks into Blue's trap d8, next to Blue's dog on c8 (see the server tests).
TO_THE_TRAP = ["c3d3", "b8c8", "d3d4", "a9b9", "d4d5", "g9f9"]
TO_THE_TRAP += ["d5d6", "b9a9", "d6d7", "f9g9", "d7d8", "a7a6"]
#: 9 rows: every option of docs/rules.md 6 but the first player, which has its own control.
OPTIONS = 9


def option(page: Page, name: str) -> Locator:
    return page.locator(f'.ro-option[data-option="{name}"]')


def forgive_422s(client: Client, count: int) -> None:
    """Drop the console lines the browser writes for the refusals the test asked for."""
    expected = [e for e in client.errors if "status of 422" in e]
    assert len(expected) == count, client.errors
    client.errors[:] = [e for e in client.errors if e not in expected]


def open_options(page: Page) -> None:
    page.click("#rule-options-panel > summary")
    expect(page.locator("#ro-list")).to_be_visible()


def test_an_adjusted_option_is_in_force_on_the_board(client: Client, artifacts: Path) -> None:
    page = client.open("/#/new/same_screen")
    page.select_option("select[name=rules]", "classic")
    expect(page.locator("#ro-list")).to_be_hidden()  # a disclosure, closed at first
    open_options(page)
    expect(page.locator(".ro-option")).to_have_count(OPTIONS)
    expect(page.locator('.ro-option[data-option="first_player"]')).to_have_count(0)
    trapped = option(page, "trapped_can_capture")
    expect(trapped).to_contain_text("陷阱中的兽可以吃子")
    expect(trapped.locator(".ro-help")).to_contain_text("对方陷阱")
    expect(page.locator("#ro-trapped_can_capture")).not_to_be_checked()  # classic's value
    expect(page.locator("#ro-rule_7_3")).to_be_checked()
    expect(page.locator("#ro-no_capture_draw_rounds")).to_have_value("100")
    expect(page.locator("#ro-ranks")).to_have_value("wolf>dog")
    # The ranks name the wolf as the wolf-name option calls it.
    expect(page.locator('#ro-ranks option[value="wolf>dog"]')).to_have_text("狼 4 > 狗 3")
    page.select_option("#ro-wolf_name", "fox")
    expect(page.locator('#ro-ranks option[value="wolf>dog"]')).to_have_text("狐 4 > 狗 3")
    page.select_option("#ro-wolf_name", "wolf")

    page.check("#ro-trapped_can_capture")
    expect(trapped).to_have_class(re.compile(r"\bchanged\b"))
    expect(trapped.locator(".ro-mark")).to_have_text("已修改，默认：否")
    expect(page.locator("#ro-count")).to_have_text("已改 1 项")
    shoot(page, artifacts, "rule-options-open")
    trapped.locator(".ro-reset").click()  # back to the set's value
    expect(page.locator("#ro-trapped_can_capture")).not_to_be_checked()
    expect(trapped).not_to_have_class(re.compile(r"\bchanged\b"))
    expect(page.locator("#ro-count")).to_have_text("")

    # Another set: its own values, nothing marked; and back again.
    page.check("#ro-trapped_can_capture")
    page.select_option("select[name=rules]", "international")
    expect(page.locator("#ro-trapped_can_capture")).to_be_checked()
    expect(page.locator("#ro-rule_7_3")).not_to_be_checked()
    expect(page.locator(".ro-option.changed")).to_have_count(0)
    page.select_option("select[name=rules]", "classic")
    expect(page.locator("#ro-trapped_can_capture")).not_to_be_checked()
    page.check("#ro-trapped_can_capture")

    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    expect(page.locator("#game-rules")).to_contain_text("自定义规则（基于经典规则）")
    page.click("#game-rules summary")
    expect(page.locator('#game-rules [data-option="trapped_can_capture"]')).to_contain_text("是")
    for i, move in enumerate(TO_THE_TRAP):
        click_move(page, move)
        plies(page, i + 1)
    # The wolf in Blue's trap is offered the dog beside it, and the capture is played.
    target = page.locator('.dsq-squares [data-square="c8"]')
    page.click('.dsq-squares [data-square="d8"]')
    expect(target).to_have_class(re.compile(r"\bcapture\b"))
    target.click()
    plies(page, len(TO_THE_TRAP) + 1)
    expect(target).to_have_class(re.compile("piece-red"))
    shoot(page, artifacts, "rule-options-game")
    game_id = page.evaluate("window.gameView.id")

    # The replay names the custom rules too.
    page.goto(f"{client.server.url}/#/replay/game/{game_id}")
    expect(page.locator("#rp-meta")).to_contain_text("自定义规则（基于经典规则）")

    # The settings are remembered: the same set, the same change, shown at once.
    page.goto(f"{client.server.url}/#/new/same_screen")
    expect(page.locator("select[name=rules]")).to_have_value("classic")
    expect(page.locator("#ro-list")).to_be_visible()
    expect(page.locator("#ro-trapped_can_capture")).to_be_checked()
    expect(page.locator("#ro-count")).to_have_text("已改 1 项")
    toggle_language(page)
    expect(page.locator("#rule-options-panel > summary")).to_contain_text("Adjust rule options")
    rounds_help = option(page, "no_capture_draw_rounds").locator(".ro-help")
    expect(rounds_help).to_contain_text("0 means no limit")
    expect(page.locator("#ro-count")).to_have_text("1 changed")
    page.click("#ro-reset-all")
    expect(page.locator(".ro-option.changed")).to_have_count(0)


def test_an_unchanged_set_is_sent_by_name(client: Client, server: LiveServer) -> None:
    page = client.open("/#/new/same_screen")
    page.select_option("select[name=rules]", "classic")
    open_options(page)
    page.select_option("#ro-ranks", "dog>wolf")
    page.select_option("#ro-ranks", "wolf>dog")  # changed back by hand: nothing is custom
    page.fill("#ro-no_capture_draw_rounds", "0")
    expect(option(page, "no_capture_draw_rounds")).to_have_class(re.compile(r"\bchanged\b"))
    page.fill("#ro-no_capture_draw_rounds", "100")
    expect(page.locator(".ro-option.changed")).to_have_count(0)
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.click("#start")
    assert sent.value.post_data_json["rules"] == "classic"
    expect(page.locator("#game-rules")).to_contain_text("规则：经典规则")


def test_custom_time_control(client: Client, artifacts: Path) -> None:
    page = client.open("/#/new/vs_ai")
    expect(page.locator("#time-custom-field")).to_be_hidden()
    page.select_option("select[name=time]", "custom")
    expect(page.locator("#time-custom")).to_be_focused()
    page.click("#start")  # empty: said so before asking the server
    expect(page.locator("#settings-error")).to_contain_text("请填写用时")
    page.fill("#time-custom", "10+x")
    page.click("#start")
    expect(page.locator("#settings-error")).to_contain_text("看不懂用时“10+x”")
    page.fill("#time-custom", "600+0")
    page.click("#start")
    expect(page.locator("#settings-error")).to_contain_text("用时太长")
    forgive_422s(client, 2)  # the two refusals; the empty field never reached the server
    open_options(page)
    page.select_option("#ro-ranks", "dog>wolf")
    shoot(page, artifacts, "rule-options-custom-time")
    page.fill("#time-custom", "7+3/20s")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    expect(page.locator('[data-clock="0"] .main')).to_have_text(re.compile(r"^(7:00|6:5\d)$"))
    expect(page.locator('[data-clock="0"] .per-move')).to_contain_text("本步")
    expect(page.locator("#game-rules")).to_contain_text("自定义规则（基于WANGO 规则）")
    # The dog outranks the wolf on the board's pieces too.
    dog = page.evaluate("window.gameView.board.getState().ranks.dog")
    assert dog == 4
    # The custom control is remembered as typed.
    page.goto(f"{client.server.url}/#/new/vs_ai")
    expect(page.locator("select[name=time]")).to_have_value("custom")
    expect(page.locator("#time-custom")).to_have_value("7+3/20s")


def test_the_lobby_names_custom_rules(client: Client, server: LiveServer) -> None:
    host = server.player().guest()
    host.create(mode="online", rules={"parent": "classic", "rat_captures_across_water": False})
    page = client.open("/#/lobby")
    entry = page.locator(".lobby-game").filter(has_text="自定义规则")
    expect(entry).to_contain_text("自定义规则（基于经典规则）")
    expect(entry.locator(".lobby-rules")).to_have_text("鼠可跨水陆互吃：否")

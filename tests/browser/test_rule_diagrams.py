"""The rules page's diagram boards (static/app/learn/rule_diagrams.js) in a real browser: each rule
set's own diagrams with their captions in Chinese and English, sizes that fit a phone (two to
three to a screen height, at most 60 % of its width) and stand beside the text on a desktop,
and boards that a tap leaves alone.

The positions and arrows are checked against the rules library in
tests/server/static/test_rule_diagrams.py.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from tests.browser.support import DESKTOP, PHONE, Client, after_frames, choose_language, shoot

#: Diagrams on the page of a rule set: board 1, pieces 1, move 2, water 4, capture 6, win 1.
DIAGRAM_COUNT = 15
DIAGRAMS = ".rule-points .rule-diagram"


def diagram(page: Page, name: str) -> Locator:
    """The diagram ``name`` (its id in rule_diagram_data.js) on the page."""
    return page.locator(f'{DIAGRAMS}[data-diagram="{name}"]')


def test_wango_rules_page_diagrams_in_chinese_and_english(client: Client, artifacts: Path) -> None:
    page = client.open("/#/rules/wango")
    expect(page.locator(DIAGRAMS)).to_have_count(DIAGRAM_COUNT)
    expect(page.locator(f"{DIAGRAMS} .dsq-board")).to_have_count(DIAGRAM_COUNT)
    # Under wango a trapped animal cannot capture: a red dashed arrow ending in a cross.
    trapped = diagram(page, "capture-trapped-cannot")
    expect(trapped.locator("figcaption")).to_have_text(
        "在本规则集中，进入对方陷阱的兽不能吃子：狮不能吃猫。"
    )
    expect(trapped.locator(".rd-arrow.cannot .rd-cross")).to_have_count(1)
    expect(diagram(page, "capture-trapped-can")).to_have_count(0)
    expect(diagram(page, "water-own-rat-blocks")).to_have_count(1)
    expect(diagram(page, "move-step").locator(".rd-arrow.can")).to_have_count(4)
    expect(diagram(page, "win-den").locator('.rd-mark[data-square="d9"]')).to_have_count(1)
    expect(diagram(page, "win-den").locator(".dsq-pieces .dsq-piece")).to_have_count(2)
    shoot(page, artifacts, "rule-diagrams-wango-zh")

    choose_language(page, "en")
    expect(page.locator(DIAGRAMS)).to_have_count(DIAGRAM_COUNT)
    expect(diagram(page, "capture-rat-elephant")).to_contain_text("The rat takes the elephant.")
    expect(diagram(page, "water-block")).to_contain_text("A rat in the water blocks")
    shoot(page, artifacts, "rule-diagrams-wango-en")


def test_international_shows_its_own_trap_rule(client: Client, artifacts: Path) -> None:
    page = client.open("/#/rules/wango")
    expect(diagram(page, "capture-trapped-cannot")).to_have_count(1)
    page.select_option("#rules-select", "international")
    expect(diagram(page, "capture-trapped-can")).to_have_count(1)
    expect(diagram(page, "capture-trapped-cannot")).to_have_count(0)
    expect(page.locator(DIAGRAMS)).to_have_count(DIAGRAM_COUNT)
    can = diagram(page, "capture-trapped-can")
    expect(can.locator(".rd-arrow.can")).to_have_count(1)
    expect(can.locator("figcaption")).to_contain_text("仍以原有战斗力吃子")
    shoot(page, artifacts, "rule-diagrams-international-zh")
    choose_language(page, "en")
    expect(can.locator("figcaption")).to_contain_text("still captures at its full rank")
    shoot(page, artifacts, "rule-diagrams-international-en")


def test_classic_dog_and_classic_show_their_ranks_and_jumps(client: Client) -> None:
    page = client.open("/#/rules/classic-dog")
    expect(diagram(page, "capture-dog-wolf")).to_contain_text("狗 4 > 狼 3：狗吃狼。")
    expect(diagram(page, "capture-wolf-dog")).to_have_count(0)
    # The board shows the set's ranks on the pieces: the dog is 4 here.
    dog = diagram(page, "capture-dog-wolf").locator(".dsq-piece.red.dog")
    expect(dog).to_contain_text("4")
    page.select_option("#rules-select", "classic")
    expect(diagram(page, "water-own-rat-passes")).to_have_count(1)
    expect(diagram(page, "water-own-rat-blocks")).to_have_count(0)


def test_diagrams_fit_a_phone_and_stand_beside_the_text_on_a_desktop(client: Client) -> None:
    page = client.open("/#/rules/wango")
    expect(page.locator(DIAGRAMS)).to_have_count(DIAGRAM_COUNT)
    for index in range(DIAGRAM_COUNT):
        box = page.locator(DIAGRAMS).nth(index).bounding_box()
        assert box is not None
        assert box["width"] <= 0.6 * PHONE["width"], box
        # Two to three to a screen height, caption included.
        assert PHONE["height"] / 3.6 <= box["height"] <= PHONE["height"] / 2, box
        board = page.locator(DIAGRAMS).nth(index).locator(".dsq-board").bounding_box()
        assert board is not None and board["width"] >= 150, "legible: squares of 20 px or more"

    page.set_viewport_size(DESKTOP)
    after_frames(page)
    text = page.locator(".rule-points > li:nth-child(3) > p").bounding_box()
    first = diagram(page, "move-step").bounding_box()
    assert text is not None and first is not None
    assert first["x"] >= text["x"] + text["width"], "the diagrams stand beside the text"
    assert first["y"] < text["y"] + text["height"], "at the text's height, not under it"


def test_a_tap_on_a_diagram_changes_nothing(client: Client) -> None:
    page = client.open("/#/rules/wango")
    step = diagram(page, "move-step")
    expect(step.locator(".dsq-piece.red.wolf")).to_have_count(1)
    assert page.locator(f"{DIAGRAMS} .rd-board").evaluate_all("els => els.every((e) => e.inert)")
    box = step.locator(".dsq-board").bounding_box()
    assert box is not None
    url = page.url
    for x, y in ((0.22, 0.78), (0.5, 0.5), (0.22, 0.7)):  # the wolf b2, the middle, b3
        page.mouse.click(box["x"] + x * box["width"], box["y"] + y * box["height"])
    page.keyboard.press("Tab")
    page.wait_for_timeout(200)
    assert page.url == url
    expect(step.locator(".sq.selected")).to_have_count(0)
    expect(step.locator('.dsq-pieces [data-square="b2"]')).to_have_count(1)
    focused = page.evaluate("document.activeElement.closest('.rule-diagram') === null")
    assert focused, "the boards are out of the tab order"

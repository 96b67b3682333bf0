"""Defects found on a walk through the site, each measured as a person would meet it: touch
targets of at least 44 px, a lesson whose whole board and feedback fit a phone's screen, a
profile whose labels stay in their boxes, moves numbered in pairs, counted words in proper
English and captured animals big enough to read (see ``support.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.browser.support import (
    DESKTOP,
    PHONE,
    Client,
    after_frames,
    choose_language,
    click_move,
    plies,
    shoot,
)

TARGET = 44  # px: the smallest comfortable touch target


def height(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["height"])


def test_the_register_pages_links_are_full_size_targets(client: Client) -> None:
    page = client.open("/#/register")
    for link in ("#to-login", "#as-guest"):
        assert height(page, link) >= TARGET, link
    page.click("#to-login")
    assert height(page, "#to-register") >= TARGET


def test_the_accessible_mode_switch_is_a_full_size_target(client: Client) -> None:
    page = client.open("/#/new/same_screen")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    page.click("#game-menu summary")
    toggle = page.locator("#a11y-toggle")
    label = page.locator("#game-menu .check")
    box, whole = toggle.bounding_box(), label.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, box
    assert whole and whole["height"] >= TARGET, whole
    label.click()  # the whole line switches it
    expect(toggle).to_be_checked()


@pytest.mark.parametrize("lesson", ["movement", "traps", "rat"])
def test_a_lessons_board_and_feedback_fit_a_phone(client: Client, lesson: str) -> None:
    page = client.open(f"/#/learn/{lesson}")
    expect(page.locator("#lesson-board .dsq-board")).to_have_class(re.compile("dsq-interactive"))
    screen = PHONE["height"]
    bottom_row = page.locator('#lesson-board .dsq-squares [data-square="a1"]').bounding_box()
    assert bottom_row and bottom_row["y"] + bottom_row["height"] <= screen, bottom_row
    actions = page.locator("#lesson-actions").bounding_box()
    assert actions and actions["y"] + actions["height"] <= screen, actions
    assert page.evaluate("window.scrollY") == 0


def in_view(page: Page, selector: str) -> bool:
    """Wholly on the screen, below the top bar (which stays over the page)."""
    box = page.locator(selector).bounding_box()
    bar = page.locator(".topbar").bounding_box()
    assert box is not None and bar is not None, selector
    top, bottom = box["y"], box["y"] + box["height"]
    return bool(top >= bar["y"] + bar["height"] - 1 and bottom <= PHONE["height"] + 1)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_feedback_of_a_lesson_is_in_view_on_a_phone(
    client: Client, artifacts: Path, lang: str
) -> None:
    """The longest step (a trap's, in English the longest text): after a wrong move its hint,
    the retry button and the whole board are on the screen together."""
    page = client.open("/")
    choose_language(page, lang)
    page.goto(client.server.url + "/#/learn/traps")
    expect(page.locator("#lesson-board .dsq-board")).to_have_class(re.compile("dsq-interactive"))
    page.click('#lesson-board .dsq-squares [data-square="c2"]')
    page.click('#lesson-board .dsq-squares [data-square="c3"]')  # not the capture asked for
    expect(page.locator("#lesson-feedback")).to_have_attribute("data-result", "wrong")
    expect(page.locator("#lesson-retry")).to_be_visible()  # offered, and scrolled to
    board = "#lesson-board .dsq-squares"
    for selector in ("#lesson-feedback", "#lesson-actions", f'{board} [data-square="a1"]',
                     f'{board} [data-square="g9"]'):  # fmt: skip
        assert in_view(page, selector), selector
    shoot(page, artifacts, f"lesson-feedback-in-view-{lang}")


def test_the_profiles_labels_stay_in_their_boxes(client: Client, artifacts: Path) -> None:
    page = client.open("/#/register")
    choose_language(page, "en")
    page.fill("input[name=username]", "walker")
    page.fill("input[name=password]", "correct horse")
    page.click("button[type=submit]")
    expect(page.locator("#account")).to_contain_text("walker")
    page.goto(client.server.url + "/#/player/walker")
    expect(page.locator(".profile-stats dt").first).to_be_visible()
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        after_frames(page)
        spills = page.eval_on_selector_all(
            ".profile-stats dt",
            "els => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)",
        )
        assert spills == [], (size, spills)
    expect(page.locator(".profile-stats")).to_contain_text("Disconnects")
    shoot(page, artifacts, "profile-labels")


def test_counted_words_are_proper_english(client: Client) -> None:
    page = client.open("/")
    choose_language(page, "en")
    said = page.evaluate(
        "import('/app/shell/i18n.js')"
        ".then((m) => [1, 2, 0].map((n) => m.plural('leaderboard.games', n)))"
    )
    assert said == ["1 game", "2 games", "0 games"]
    choose_language(page, "zh")
    said = page.evaluate(
        "import('/app/shell/i18n.js').then((m) => m.plural('leaderboard.games', 1))"
    )
    assert said == "1 局"


def test_moves_are_numbered_in_pairs_and_captures_are_legible(client: Client) -> None:
    page = client.open("/#/new/same_screen")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    for i, move in enumerate(["a3a4", "g7g6", "a4a5"]):
        click_move(page, move)
        plies(page, i + 1)
    items = page.locator("#moves li")
    expect(items.nth(0)).to_have_text(re.compile(r"^1\.\s"))
    expect(items.nth(1)).not_to_have_text(re.compile(r"\d\."))
    expect(items.nth(2)).to_have_text(re.compile(r"^2\.\s"))
    size = page.evaluate(
        "(() => { const s = document.createElement('span'); s.className = 'cap red';"
        " s.textContent = '象'; document.querySelector('.captured').append(s);"
        " const r = s.getBoundingClientRect(); const f = getComputedStyle(s).fontSize;"
        " s.remove(); return [r.width, r.height, parseFloat(f)]; })()"
    )
    assert size[0] >= 22 and size[1] >= 22 and size[2] >= 15, size

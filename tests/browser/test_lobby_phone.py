"""The lobby list on a phone, in a real browser (see ``support.py`` for the set-up).

At 390 px an entry's Join and Watch buttons go on their own row under the text, so the text
has the entry's width: the side and the creator's name (even a long one) are read whole, not cut
off with "…". On a desktop the buttons stay beside the text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from tests.browser.support import (
    DESKTOP,
    PHONE,
    Client,
    after_frames,
    no_overflow,
    shoot,
    toggle_language,
)
from tests.support.live import LiveServer

#: The longest a display name may be (40 characters), with a long word that has to break.
LONG_NAME = "Guest-远方来的棋手-WandererFromTheFarRiverBank"
#: Three changed options: the entry lists them, making it as tall as it gets unfolded.
CHANGES = {"parent": "classic", "rat_captures_across_water": False, "rule_7_3": False}
TOUCH = 44  # px: the least a button's height should be on a phone


def open_games(server: LiveServer) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game by a guest with a long name (blue seat open), and a plain one by a new guest."""
    host = server.player().guest()
    renamed = host.request("PATCH", "/api/account", json={"display_name": LONG_NAME})
    assert renamed.status_code == 200, renamed.text
    long_named = host.create(mode="online", rules=CHANGES, color="red")
    plain = server.player().guest().create(mode="online")
    return long_named, plain


def layout(page: Page, game_id: str) -> dict[str, Any]:
    """The boxes of an entry and its parts, measured at once (the lobby redraws every 5 s)."""
    return page.evaluate(
        """(id) => {
            const entry = document.querySelector(`.lobby-game[data-game="${id}"]`);
            const box = (el) => {
                const r = el.getBoundingClientRect();
                return { left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                         width: r.width, height: r.height };
            };
            const [join, watch] = [...entry.querySelectorAll('a.button')];
            const line = entry.querySelector('.lobby-info > small');
            return { entry: box(entry), info: box(entry.querySelector('.lobby-info')),
                     join: box(join), watch: box(watch), line: box(line),
                     lineText: line.textContent, lineScroll: line.scrollWidth,
                     lineClient: line.clientWidth };
        }""",
        game_id,
    )


def assert_buttons_under_the_text(page: Page, game_id: str) -> dict[str, Any]:
    boxes = layout(page, game_id)
    entry, info, join, watch = boxes["entry"], boxes["info"], boxes["join"], boxes["watch"]
    for button in (join, watch):
        assert button["top"] >= info["bottom"] - 1, boxes  # below the text, not beside it
        assert button["height"] >= TOUCH - 0.5, boxes
        assert entry["left"] <= button["left"] and button["right"] <= entry["right"], boxes
    # One row, side by side, across the entry: each about half of it.
    assert abs(join["top"] - watch["top"]) < 1, boxes
    assert join["right"] <= watch["left"], boxes
    assert watch["right"] - join["left"] >= 0.85 * entry["width"], boxes
    # The text has most of the entry's width (it had about a third beside the buttons).
    assert info["width"] >= 0.75 * entry["width"], boxes
    return boxes


def assert_creator_line_whole(page: Page, game_id: str, *parts: str) -> None:
    boxes = layout(page, game_id)
    assert boxes["lineScroll"] <= boxes["lineClient"], boxes  # not cut off with "…"
    assert boxes["line"]["right"] <= boxes["info"]["right"] + 0.5, boxes
    for part in parts:
        assert part in boxes["lineText"], boxes


def test_lobby_entries_read_well_on_a_phone(
    client: Client, server: LiveServer, artifacts: Path
) -> None:
    long_named, plain = open_games(server)
    page = client.open("/#/lobby")
    entry = page.locator(f'.lobby-game[data-game="{long_named["id"]}"]')
    expect(entry).to_contain_text(LONG_NAME)
    expect(page.locator(f'.lobby-game[data-game="{plain["id"]}"]')).to_be_visible()
    assert page.viewport_size == PHONE

    for game in (long_named, plain):
        assert_buttons_under_the_text(page, game["id"])
    # The side and the whole name can be read, the name wrapping where it must.
    assert_creator_line_whole(page, long_named["id"], "你执 蓝方", f"创建者 {LONG_NAME}")
    assert_creator_line_whole(page, plain["id"], "你执", "创建者 游客 ")
    no_overflow(page)
    shoot(page, artifacts, "lobby-phone-zh")

    # On a desktop the buttons stay beside the text, level with it.
    page.set_viewport_size(DESKTOP)
    after_frames(page)
    boxes = layout(page, long_named["id"])
    info, join, watch = boxes["info"], boxes["join"], boxes["watch"]
    assert join["left"] >= info["right"] - 0.5 and watch["left"] >= join["right"], boxes
    for button in (join, watch):
        middle = (button["top"] + button["bottom"]) / 2
        assert info["top"] <= middle <= info["bottom"], boxes
    assert_creator_line_whole(page, long_named["id"], LONG_NAME)
    page.set_viewport_size(PHONE)

    # In English, the same.
    toggle_language(page)
    expect(entry.locator("a.button").first).to_have_text("Join")
    for game in (long_named, plain):
        assert_buttons_under_the_text(page, game["id"])
    assert_creator_line_whole(page, long_named["id"], "You play Blue", f"by {LONG_NAME}")
    # Screen readers hear which game each button is for.
    join = entry.locator("a.button").first
    expect(join).to_have_attribute(
        # (no rating: an untimed game has no speed, so the creator's rating says nothing)
        "aria-label",
        re.compile(rf"^Join: by {LONG_NAME}.*You play Blue$"),
    )
    no_overflow(page)
    shoot(page, artifacts, "lobby-phone-en")

"""When the opponent leaves an online game: the countdown of their grace period, the claim
buttons ("claim victory" once the time is up, "call it a draw" at any time), the win it ends
in; and toasts, which never cover a clock, on a phone and a desktop.

A server of the module's own gives a grace period of a few seconds, so the test watches the
whole countdown; the draw is called on a server with the usual grace period (a minute), while
its countdown surely still runs."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import DESKTOP, PHONE, Client, fetch_json, shoot
from tests.support.live import LiveServer, make_settings, running

GRACE = 8.0  # seconds


@pytest.fixture(scope="module")
def short_grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("gone-db"), grace_period=GRACE)
    with running(settings) as live:
        yield live


def start(red: Client, blue: Client, server: LiveServer) -> tuple[Page, Page, str]:
    page = red.open("/")
    guest = fetch_json(page, "/api/auth/guest", "POST")
    assert guest.get("kind") == "guest", guest
    created = fetch_json(
        page, "/api/games", "POST", {"mode": "online", "color": "red", "time_control": "10+0"}
    )
    page.goto(f"{server.url}/#/game/{created['id']}")
    other = blue.open(f"/#/game/{created['id']}?join=1")
    page.wait_for_function("() => window.gameView?.game?.status_id === 20")
    moved = fetch_json(
        page, f"/api/games/{created['id']}/commands", "POST", {"type": "move", "move": "a3a4"}
    )
    assert moved.get("type") != "rejected", moved
    expect(other.locator("#moves li")).to_have_count(1)
    return page, other, created["id"]


def test_a_disconnect_is_counted_down_to_a_claimed_win(
    browser: Browser, short_grace: LiveServer, artifacts: Path
) -> None:
    red, blue = Client(browser, short_grace), Client(browser, short_grace)
    try:
        page, other, _ = start(red, blue, short_grace)
        other.close()  # Blue walks away
        gone = page.locator("#opponent-gone")
        expect(gone).to_be_visible()
        expect(page.locator("#gone-text")).to_have_text(
            re.compile(r"对手已离开 —— 0:0\d 后可以判胜")
        )
        expect(page.locator(".player-bar.top .player-conn")).to_have_text(
            re.compile(r"已断线 0:0\d")
        )
        expect(page.locator("#claim-victory")).to_be_disabled()
        expect(page.locator("#claim-draw")).to_be_enabled()
        shoot(page, artifacts, "opponent-gone")
        # The time runs out: the win may be claimed (the server also ends the game by itself).
        result = page.locator("#result")
        claim = page.locator("#claim-victory")
        page.wait_for_function(
            "() => !document.querySelector('#claim-victory').disabled"
            " || !document.querySelector('#result').hidden",
            timeout=GRACE * 1000 + 10_000,
        )
        if claim.is_visible() and claim.is_enabled():
            with contextlib.suppress(Exception):  # the server's own end may come first
                claim.click(timeout=1000)
        expect(result).to_be_visible()
        expect(result.locator(".result-reason")).to_have_text("逃跑（断线未归）")
        expect(result.locator(".result-you")).to_have_text("你赢了！")
        expect(gone).to_be_hidden()
    finally:
        red.close()
        blue.context.close()


def test_calling_it_a_draw(browser: Browser, server: LiveServer) -> None:
    # The site's own grace period (a minute), not the module's short one: the draw must be
    # called while the countdown runs, and a few seconds are too few on a busy machine.
    red, blue = Client(browser, server, locale="en-US"), Client(browser, server)
    try:
        page, other, game_id = start(red, blue, server)
        other.close()
        expect(page.locator("#gone-text")).to_have_text(
            re.compile(r"^Opponent left — you can claim victory in \d:\d\d$")
        )
        page.locator("#claim-draw").click()
        expect(page.locator("#result .result-title")).to_have_text("Draw")
        state = fetch_json(page, f"/api/games/{game_id}")
        assert state["game"]["outcome"]["termination"] == "draw_agreed"
        assert state["game"]["leaver"] is None
    finally:
        red.close()
        blue.context.close()


def overlapping(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


LONG_TOAST = "对手的网络不太稳定，正在重新连接……请稍候片刻，棋局会继续进行"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_toasts_never_cover_a_clock(
    browser: Browser, short_grace: LiveServer, size: dict[str, int]
) -> None:
    red, blue = Client(browser, short_grace, viewport=size), Client(browser, short_grace)
    try:
        page, _other, _ = start(red, blue, short_grace)
        clocks = page.locator(".clock")
        expect(clocks).to_have_count(2)
        # Wherever the page is scrolled, even with a clock right where a toast would go.
        for where in (
            "top",
            "bottom-clock-at-bottom",
            "top-clock-at-bottom",
            "bottom-clock-at-top",
        ):
            page.evaluate(
                """(where) => {
                    const [top, bottom] = [document.querySelector('.player-bar.top .clock'),
                                           document.querySelector('.player-bar.bottom .clock')];
                    if (where === 'top') window.scrollTo(0, 0);
                    else if (where === 'bottom-clock-at-bottom') {
                        bottom.scrollIntoView({ block: 'end' });
                    } else if (where === 'top-clock-at-bottom') {
                        top.scrollIntoView({ block: 'end' });
                    } else bottom.scrollIntoView({ block: 'start' });
                }""",
                where,
            )
            page.evaluate("(text) => window.gameView.flash(text)", LONG_TOAST)
            toast = page.locator("#toast")
            expect(toast).to_be_visible()
            page.wait_for_timeout(50)
            box = toast.bounding_box()
            assert box is not None
            for i in range(2):
                clock = clocks.nth(i).bounding_box()
                assert clock is not None
                assert not overlapping(box, clock), (where, box, clock)
    finally:
        red.close()
        blue.close()

"""Finding a game in the browser: the notification bell, quick pairing, challenges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect
from tests.server.live import LiveServer
from tests.server.site_helpers import in_server
from tests.webapp.support import DESKTOP, Client, fetch_json, no_overflow, shoot

from doushouqi.server.notifications import notify


def _notify(key: str, kind: str, params: dict[str, Any], link: str) -> Any:
    return lambda ctx: notify(ctx, key, kind, params, link=link)


def test_the_bell_shows_a_pushed_notification_and_clears_it_when_opened(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    c = Client(browser, server, locale="en-US")
    page = c.open("/")
    me = fetch_json(page, "/api/auth/guest", "POST")
    page.reload()
    expect(page.locator("#bell-button")).to_be_visible()
    box = page.locator("#bell-button").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    expect(page.locator("#bell-badge")).to_be_hidden()
    page.wait_for_function("window.dsqSiteConnected && window.dsqSiteConnected()")
    key = f"guest:{me['id']}"
    in_server(server, _notify(key, "corr.your_turn", {"opponent": "Bob"}, "#/game/abc"))
    expect(page.locator("#bell-badge")).to_have_text("1")
    page.click("#bell-button")
    expect(page.locator("#bell-list .bell-item")).to_have_count(1)
    expect(page.locator("#bell-list .bell-item")).to_contain_text("Your turn against Bob")
    expect(page.locator("#bell-badge")).to_be_hidden()
    shoot(page, artifacts, "bell-open")
    page.set_viewport_size(DESKTOP)
    page.click("#bell-button")
    page.click("#bell-button")
    expect(page.locator("#bell-panel")).to_be_visible()
    no_overflow(page)
    c.close()

"""Finding a game in the browser: the notification bell, quick pairing, challenges."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect
from tests.browser.support import (
    DESKTOP,
    Client,
    create_online_game,
    fetch_json,
    laid_out_size,
    no_overflow,
    shoot,
)
from tests.support.live import LiveServer
from tests.support.site_helpers import in_server

from doushouqi.server.notifications.service import notify


def site_connected(page: Page) -> None:
    """Wait until the page's site socket is open (the page's CSP forbids a polled predicate)."""
    for _ in range(100):
        if page.evaluate("Boolean(window.dsqSiteConnected?.())"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the site socket did not connect")


def wait_until(page: Page, done: Callable[[], bool], failure: str) -> None:
    """Let the page run until ``done()`` (the routes' handlers run meanwhile), 10 s at most."""
    for _ in range(500):
        if done():
            return
        page.wait_for_timeout(20)
    raise AssertionError(failure)


def _notify(key: str, kind: str, params: dict[str, Any], link: str) -> Any:
    return lambda ctx: notify(ctx, key, kind, params, link=link)


def test_a_list_fetched_before_a_pushed_notification_does_not_hide_it(
    browser: Browser, server: LiveServer
) -> None:
    """The bell fetches the list when its socket opens; an answer made before a notification
    was stored that arrives after the notification was pushed is older than the bell: it is
    fetched again, and the badge stays (it fell back to 0)."""
    c = Client(browser, server, locale="en-US")
    try:
        page = c.open("/")
        me = fetch_json(page, "/api/auth/guest", "POST")
        held: list[Route] = []

        def hold(route: Route) -> None:  # the list's answers wait for the test
            held.append(route)

        page.route("**/api/notifications", hold)
        page.reload()
        site_connected(page)
        wait_until(page, lambda: len(held) >= 1, "the bell never asked for its list")
        stale = held[0].fetch()  # the list as it stands: nothing yet
        in_server(server, _notify(f"guest:{me['id']}", "corr.your_turn", {"opponent": "Bob"},
                                  "#/game/abc"))  # fmt: skip
        expect(page.locator("#bell-badge")).to_have_text("1")
        held[0].fulfill(response=stale)  # the older answer comes after the push
        wait_until(page, lambda: len(held) >= 2, "the older list was taken as it came")
        held[1].continue_()
        expect(page.locator("#bell-badge")).to_have_text("1")
        expect(page.locator("#bell-badge")).to_be_visible()
    finally:
        c.close()


def test_the_bell_shows_a_pushed_notification_and_clears_it_when_opened(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    c = Client(browser, server, locale="en-US")
    page = c.open("/")
    me = fetch_json(page, "/api/auth/guest", "POST")
    page.reload()
    expect(page.locator("#bell-button")).to_be_visible()
    assert min(laid_out_size(page.locator("#bell-button"))) >= 44
    expect(page.locator("#bell-badge")).to_be_hidden()
    site_connected(page)
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


def test_two_players_tapping_the_same_time_control_meet_in_one_game(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    first, second = Client(browser, server), Client(browser, server, locale="en-US")
    pages = []
    for c in (first, second):
        page = c.open("/")
        page.click("#go-online")
        expect(page.locator("#pairing-grid")).to_be_visible()
        pages.append(page)
    shoot(pages[0], artifacts, "pairing")
    cell = '.pairing-cell[data-control="10+0/30s"]'
    expect(pages[1].locator(cell)).to_contain_text("10 min + 30 s a move")
    pages[0].click(cell)
    expect(pages[0].locator(cell)).to_have_attribute("aria-pressed", "true")
    shoot(pages[0], artifacts, "pairing-searching")
    site_connected(pages[1])
    expect(pages[1].locator(cell)).to_contain_text("1 waiting")
    pages[1].click(cell)
    for page in pages:
        expect(page).to_have_url(re.compile(r"#/game/[\w-]+$"))
    assert pages[0].url.split("#")[1] == pages[1].url.split("#")[1]
    for page in pages:
        expect(page.locator(".dsq-squares")).to_be_visible()
    game_id = pages[0].url.split("/")[-1]
    state = fetch_json(pages[0], f"/api/games/{game_id}")
    assert state["game"]["time_control"] == "10+0/30s"
    first.close()
    second.close()


def test_play_a_friend_shows_the_invite_link_on_a_phone_without_scrolling(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    for locale in ("zh-CN", "en-US"):
        c = Client(browser, server, locale=locale)
        page = c.open("/#/play")
        page.click("#play-friend")
        expect(page.locator("#settings")).to_be_visible()
        create_online_game(page)
        # Wholly inside the phone's first screen: the link and its copy button.
        expect(page.locator("#invite-link")).to_be_in_viewport(ratio=1)
        expect(page.locator("#invite button").first).to_be_in_viewport(ratio=1)
        shoot(page, artifacts, f"play-friend-{locale}")
        c.close()


def _account(c: Client, username: str) -> Page:
    page = c.open("/")
    body = {"username": username, "password": "correct horse"}
    fetch_json(page, "/api/auth/register", "POST", body)
    page.reload()
    site_connected(page)
    return page


def test_a_challenge_from_a_profile_is_accepted_through_the_bell(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    alice_c, bob_c = Client(browser, server, locale="en-US"), Client(browser, server)
    alice, bob = _account(alice_c, "alice_ch"), _account(bob_c, "bob_ch")
    alice.goto(f"{server.url}/#/player/bob_ch")
    alice.click("#challenge-open")
    expect(alice.locator("#challenge-form")).to_be_visible()
    alice.select_option('#challenge-form select[name="time"]', "10+0/30s")
    shoot(alice, artifacts, "challenge-form")
    alice.click("#challenge-send")
    expect(alice.locator("#challenge-status")).to_contain_text("waiting")
    expect(bob.locator("#bell-badge")).to_have_text("1")
    bob.click("#bell-button")
    expect(bob.locator("#bell-list .bell-item")).to_contain_text("挑战")
    shoot(bob, artifacts, "challenge-bell")
    bob.click("#bell-list .bell-item a")
    expect(bob.locator("#challenge-accept")).to_be_visible()
    shoot(bob, artifacts, "challenge-page")
    bob.click("#challenge-accept")
    for page in (alice, bob):
        expect(page).to_have_url(re.compile(r"#/game/[\w-]+$"))
    assert alice.url.split("#")[1] == bob.url.split("#")[1]
    expect(bob.locator(".dsq-squares")).to_be_visible()
    # After the game, either may challenge the other again, with other settings.
    game_id = bob.url.split("/")[-1]
    expect(alice.locator("#resign")).to_be_visible()
    answer = fetch_json(alice, f"/api/games/{game_id}/commands", "POST", {"type": "resign"})
    assert answer["events"], answer
    expect(bob.locator("#challenge-again")).to_be_visible()
    bob.click("#challenge-again")
    expect(bob.locator("#challenge-form")).to_be_visible()
    expect(bob.locator("#challenge-send")).to_contain_text("alice_ch")
    alice_c.close()
    bob_c.close()


def test_a_withdrawn_challenge_leaves_the_bell(browser: Browser, server: LiveServer) -> None:
    alice_c, bob_c = Client(browser, server), Client(browser, server, locale="en-US")
    alice, bob = _account(alice_c, "alice_wd"), _account(bob_c, "bob_wd")
    sent = fetch_json(alice, "/api/challenges", "POST", {"to": "bob_wd"})
    expect(bob.locator("#bell-badge")).to_have_text("1")
    fetch_json(alice, f"/api/challenges/{sent['id']}", "DELETE")
    expect(bob.locator("#bell-badge")).to_be_hidden()
    bob.click("#bell-button")
    expect(bob.locator("#bell-list .bell-item")).to_have_count(0)
    alice_c.close()
    bob_c.close()

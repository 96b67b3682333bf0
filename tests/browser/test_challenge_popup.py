"""A challenge pops up on whatever page its recipient is (lobby/challenge_popup.js): who, the
game, rules, time control and rated, with a chime; accepted in place it takes both players
into the game, declined with a reason it tells the challenger why (on the profile they sent
it from, and as a toast that goes away)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, laid_out_size, no_overflow, shoot
from tests.browser.test_quick_pairing import site_connected
from tests.browser.test_sounds import RECORDER
from tests.support.live import LiveServer

POPUP = ".challenge-popup"


def account(c: Client, username: str, path: str = "/") -> Page:
    page = c.open("/")
    body = {"username": username, "password": "correct horse"}
    assert fetch_json(page, "/api/auth/register", "POST", body).get("username") == username
    page.goto(c.server.url + path)
    site_connected(page)
    return page


def send_from_profile(page: Page, to: str, time_control: str, *, rated: bool) -> None:
    page.goto(f"{page.url.split('#')[0].rsplit('/', 1)[0]}/#/player/{to}")
    page.click("#challenge-open")
    page.select_option('#challenge-form select[name="time"]', time_control)
    # The form starts rated (for accounts, with a clock): say which it is either way.
    page.set_checked('#challenge-form input[name="rated"]', rated)
    page.click("#challenge-send")
    expect(page.locator("#challenge-status")).to_be_visible()


def test_a_challenge_pops_up_on_another_page_and_is_accepted_in_place(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    alice_c, bob_c = Client(browser, server, locale="en-US"), Client(browser, server)
    bob_c.context.add_init_script(RECORDER)
    alice = account(alice_c, "alice_pop")
    bob = account(bob_c, "bob_pop", "/watch")  # reading the Watch page
    bob.mouse.click(5, 300)  # browsers play sounds only after the user has touched the page
    send_from_profile(alice, "bob_pop", "5+3", rated=True)
    popup = bob.locator(POPUP)
    expect(popup).to_be_visible()
    expect(popup.locator(".challenge-popup-title")).to_have_text("alice_pop 向你发起挑战")
    expect(popup.locator(".challenge-popup-what")).to_have_text(re.compile(r"斗兽棋 · .+ · 5\+3"))
    expect(popup.locator(".challenge-popup-what")).to_contain_text("排位赛")
    chime = bob.evaluate("import('/app/shell/sounds.js').then((m) => m.SOUNDS.challenge[0].freq)")
    for _ in range(50):
        if chime in bob.evaluate("window.soundLog.started"):
            break
        bob.wait_for_timeout(100)
    assert chime in bob.evaluate("window.soundLog.started")
    for button in [*popup.locator("button").all(), popup.locator("select")]:
        assert laid_out_size(button)[1] >= 44
    shoot(bob, artifacts, "challenge-popup")
    bob.set_viewport_size({"width": 320, "height": 640})
    no_overflow(bob)
    expect(popup.locator(".challenge-popup-accept")).to_be_in_viewport(ratio=1)
    popup.locator(".challenge-popup-accept").click()
    for page in (alice, bob):
        expect(page).to_have_url(re.compile(r"#/game/[\w-]+$"))
        expect(page.locator(".dsq-squares")).to_be_visible()
    assert alice.url.split("#")[1] == bob.url.split("#")[1]
    expect(bob.locator(POPUP)).to_have_count(0)
    alice_c.close()
    bob_c.close()


def test_a_declined_challenge_shows_the_challenger_the_reason(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    alice_c, bob_c = Client(browser, server, locale="en-US"), Client(browser, server)
    alice = account(alice_c, "alice_dec")
    bob = account(bob_c, "bob_dec", "/learn")
    send_from_profile(alice, "bob_dec", "10+5", rated=False)
    popup = bob.locator(POPUP)
    expect(popup).to_be_visible()
    bob.reload()  # still waiting for an answer: it pops up again
    expect(popup).to_be_visible()
    expect(popup.locator(".challenge-popup-what")).to_contain_text("友谊赛")
    popup.locator("select").select_option("too_fast")
    popup.locator(".challenge-popup-decline").click()
    expect(popup).to_have_count(0)
    expect(alice.locator("#challenge-status")).to_have_text("bob_dec declined: too fast for them")
    toast = alice.locator(".site-toast")
    expect(toast).to_contain_text("bob_dec declined your challenge (too fast for them)")
    shoot(alice, artifacts, "challenge-declined-toast")
    expect(toast).to_have_count(0, timeout=12_000)  # gone by itself; the bell keeps it
    expect(alice.locator("#bell-badge")).to_have_text("1")
    alice_c.close()
    bob_c.close()


def test_later_hides_it_and_a_withdrawn_one_goes(browser: Browser, server: LiveServer) -> None:
    alice_c, bob_c = Client(browser, server, locale="en-US"), Client(browser, server)
    alice = account(alice_c, "alice_later")
    bob = account(bob_c, "bob_later", "/ranks")
    first = fetch_json(alice, "/api/challenges", "POST", {"to": "bob_later"})
    expect(bob.locator(f'{POPUP}[data-challenge="{first["id"]}"]')).to_be_visible()
    bob.locator(".challenge-popup-hide").click()
    expect(bob.locator(POPUP)).to_have_count(0)
    bob.reload()
    site_connected(bob)
    expect(bob.locator(POPUP)).to_have_count(0)  # hidden for this session
    second = fetch_json(alice, "/api/challenges", "POST", {"to": "bob_later"})
    expect(bob.locator(f'{POPUP}[data-challenge="{second["id"]}"]')).to_be_visible()
    fetch_json(alice, f"/api/challenges/{second['id']}", "DELETE")
    expect(bob.locator(POPUP)).to_have_count(0)
    alice_c.close()
    bob_c.close()

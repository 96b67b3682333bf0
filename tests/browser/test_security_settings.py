"""The settings page's security section on a 320 px phone: see where you are signed in, make
an API token with a scope (its secret shown once), see it, revoke it, log out everywhere
else, change the password, download your data; every target 44 px, nothing wider than the
screen, in three languages (see ``support.py`` for the set-up)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, choose_language, no_overflow
from tests.browser.test_accounts import PASSWORD, forgive_http_errors, sign_up
from tests.support.live import LiveServer

NARROW = {"width": 320, "height": 640}
TARGET = 44  # px
NEW_PASSWORD = "seven otters juggle plums"


def small_targets(page: Page) -> list[str]:
    """What can be tapped in the security section yet is under 44 px high."""
    found: list[str] = page.evaluate(
        """(least) => [...document.querySelectorAll(
              '.security-part button, .security-part a, .security-part select,'
              + ' .security-part input:not([type=checkbox]), .security-part label.security-check')]
            .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().height < least)
            .map((el) => el.id || el.className || el.tagName)""",
        TARGET,
    )
    return found


def fits(page: Page) -> None:
    no_overflow(page)
    wide = page.evaluate(
        "[...document.querySelectorAll('.security-page *')]"
        ".filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5).length"
    )
    assert wide == 0
    assert small_targets(page) == []


def test_the_security_section_on_a_phone(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    client = Client(browser, server, locale="en-US", viewport=NARROW)
    try:
        page = client.open("/#/")
        sign_up(page, "secure_phone")
        laptop = server.player()
        logged = laptop.post(
            "/api/auth/login", json={"username": "secure_phone", "password": PASSWORD}
        )
        assert logged.status_code == 200

        page.click("#account-button")  # the top bar fits 320 px: its brand shows the token only
        page.click("#account-settings")
        expect(page.locator(".security-page h1")).to_have_text("Settings")
        sessions = page.locator("#sessions-list li")
        expect(sessions).to_have_count(2)
        expect(page.locator('#sessions-list li[data-current="true"]')).to_contain_text(
            "this device"
        )
        fits(page)

        # A token that may play as a bot, for 30 days: its secret once, then only its metadata.
        page.fill("#token-label", "my engine")
        page.check('input[name=scope][value="bot:play"]')
        page.select_option("#token-expiry", "30")
        page.click("#token-create")
        secret = page.locator("#token-value")
        expect(secret).to_be_visible()
        token = secret.input_value()
        tokens = page.locator("#tokens-list li")
        expect(tokens).to_have_count(1)
        expect(tokens.first).to_contain_text("my engine")
        expect(tokens.first).to_contain_text("bot:play")
        expect(tokens.first).to_contain_text("Expires")
        bot = server.player()
        bot.token = token
        assert bot.get("/api/auth/me").json()["username"] == "secure_phone"
        assert bot.get("/api/challenges").json()["code"] == "auth.scope"
        fits(page)
        page.screenshot(path=str(artifacts / "security-phone.png"), full_page=True)
        tokens.first.locator("button").click()
        expect(tokens).to_have_count(0)
        assert bot.get("/api/auth/me").status_code == 401

        # Log out everywhere else: the laptop's session ends, this one stays.
        page.click("#logout-others")
        expect(page.locator("#sessions-status")).to_have_text("Signed out 1 other session.")
        expect(sessions).to_have_count(1)
        assert laptop.get("/api/auth/me").status_code == 401

        # The password: the old one is asked for.
        page.fill("#password-old", "not my password")
        page.fill("#password-new", NEW_PASSWORD)
        page.click("#password-change")
        expect(page.locator("#password-status")).to_have_class(re.compile("error"))
        forgive_http_errors(client, 401)
        page.fill("#password-old", PASSWORD)
        page.fill("#password-new", NEW_PASSWORD)
        page.click("#password-change")
        expect(page.locator("#password-status")).to_have_text(
            "Password changed; 0 other sessions signed out."
        )
        again = server.player().post(
            "/api/auth/login", json={"username": "secure_phone", "password": NEW_PASSWORD}
        )
        assert again.status_code == 200

        download = page.locator("#export-download")
        expect(download).to_have_attribute("href", "/api/account/export")
        exported = page.request.get(server.url + "/api/account/export")
        assert exported.ok and exported.json()["account"]["username"] == "secure_phone"
        assert "attachment" in exported.headers["content-disposition"]

        for lang, title in (("zh", "设置"), ("zh-Hant", "設定")):
            choose_language(page, lang)
            expect(page.locator(".security-page h1")).to_have_text(title)
            fits(page)
    finally:
        client.close()


def test_the_settings_page_asks_a_guest_to_sign_in(client: Client) -> None:
    page = client.open("/#/settings")
    expect(page.locator("#settings-signin")).to_be_visible()

"""Closing your own account in a browser: at the foot of your profile, with the password and
a tick; afterwards the browser is a guest's and the profile says the account is closed."""

from __future__ import annotations

from playwright.sync_api import expect
from tests.browser.support import Client, no_overflow
from tests.browser.test_accounts import PASSWORD, forgive_http_errors, sign_up


def test_the_owner_closes_the_account_from_the_profile(client: Client) -> None:
    page = client.open("/")
    sign_up(page, "short_stay")
    page.goto(f"{client.server.url}/#/player/short_stay")
    page.click("#close-account summary")
    no_overflow(page)
    page.fill("#close-password", PASSWORD)
    page.click("#close-submit")
    expect(page.locator("#close-error")).to_have_text("请勾选确认。")
    page.fill("#close-password", "wrong password here")
    page.check("#close-sure")
    page.click("#close-submit")
    expect(page.locator("#close-error")).to_have_text("密码不对。")
    forgive_http_errors(client, 403)
    page.fill("#close-password", PASSWORD)
    page.click("#close-submit")
    expect(page.locator("#profile-closed")).to_have_text("此账号已关闭。")
    expect(page.locator("#close-account")).to_have_count(0)  # a guest now: not its owner
    expect(page.locator("#account-login")).to_have_count(1)

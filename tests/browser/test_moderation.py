"""Moderation in real browsers: a player reports a message in a game's chat; a moderator (made
with ``doushouqi admin grant``) finds it in the queue on the moderation page, in its context,
mutes its author and removes it — gone from the players' screens at once — and the log shows
both; the muted player is told why their next message is refused, until the mute is lifted
from the author's account card. On a phone: no overflow,
every button a full-size target."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import Client, create_online_game, shoot
from tests.browser.test_accounts import sign_up
from tests.browser.test_chat import open_chat, say
from tests.support.live import LiveServer
from tests.support.moderation import grant


def test_a_moderator_mutes_and_removes_a_reported_message(
    browser: Browser, server: LiveServer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reporter = Client(browser, server)
    rude = Client(browser, server, locale="en-US")
    moderator = Client(browser, server)
    try:
        reporter.open("/")
        sign_up(reporter.page, "polite_one")
        game_id = create_online_game(reporter.page)
        rude.open("/")
        sign_up(rude.page, "rude_one")
        rude.page.goto(f"{server.url}/#/game/{game_id}?join=1")
        expect(reporter.page.locator("#resign")).to_be_visible()
        for c in (reporter, rude):
            open_chat(c.page)
        say(reporter.page, "good luck")
        say(rude.page, "you are hopeless")
        line = reporter.page.locator("#chat-list .chat-line", has_text="you are hopeless")
        line.locator("summary").click()
        line.locator(".chat-report").click()
        expect(line.locator(".chat-report")).to_have_text("已举报")

        moderator.open("/")
        sign_up(moderator.page, "kind_mod")
        grant(server.settings.resolved_database_url, "kind_mod", "moderator", monkeypatch)
        moderator.page.reload()
        moderator.page.click("#account-button")
        moderator.page.click("#account-moderation")
        page = moderator.page
        card = page.locator("#mod-queue .mod-card")
        expect(card).to_have_count(1)
        expect(card.locator(".mod-line.reported")).to_have_text("rude_one you are hopeless")
        expect(card.locator(".mod-line")).to_have_count(2)  # with the message before it
        expect(card.locator(".mod-reports")).to_contain_text("polite_one")
        expect(card.locator(".mod-reports")).to_contain_text("辱骂")
        shoot(page, artifacts, "moderation-queue")
        heights = page.locator(".mod-page button, .mod-page select").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44, heights

        card.locator(".mod-mute").click()  # no reason yet: refused here, said why
        expect(card.locator(".mod-status")).to_have_text("请写明理由：禁言、封禁和关闭都需要理由。")
        card.locator(".mod-reason input").fill("insulting the opponent")
        card.locator(".mod-minutes").select_option("60")
        card.locator(".mod-mute").click()
        expect(page.locator('#mod-log [data-action="mute"]')).to_contain_text("insulting")
        card.locator(".mod-remove").click()
        expect(page.locator("#mod-queue .mod-card")).to_have_count(0)
        expect(page.locator("#mod-queue")).to_contain_text("没有待处理的举报")
        removed = page.locator('#mod-log [data-action="remove_message"]')
        expect(removed).to_contain_text("you are hopeless")
        expect(page.locator("#mod-log .mod-log-entry").first).to_contain_text("kind_mod")

        # Gone from both players' chats at once, and the muted player is told why.
        for c in (reporter, rude):
            expect(c.page.locator("#chat-list .chat-text")).to_have_text(["good luck"])
        rude.page.fill("#chat-input", "why?")
        rude.page.click("#chat-send")
        expect(rude.page.locator("#chat-error")).to_have_text(
            "A moderator has muted you: you can chat again in 60 min."
        )
        # The mute lifted from the account's card: the player chats again at once.
        page.fill("#mod-username", "rude_one")
        page.click("#mod-find")
        account = page.locator("#mod-account-card")
        expect(account.locator("#mod-account-facts")).to_contain_text("禁言至")
        account.locator(".mod-reason input").fill("apologised")
        account.locator(".mod-unmute").click()
        expect(page.locator('#mod-log [data-action="unmute"]')).to_contain_text("apologised")
        expect(page.locator("#mod-account-card .mod-unmute")).to_have_count(0)
        rude.page.fill("#chat-input", "sorry")
        rude.page.click("#chat-send")
        for c in (reporter, rude):
            expect(c.page.locator("#chat-list .chat-text")).to_have_text(["good luck", "sorry"])
        shoot(page, artifacts, "moderation-log")
    finally:
        for c in (reporter, rude, moderator):
            c.close()


def test_a_player_has_no_moderation_link_and_the_page_refuses(client: Client) -> None:
    client.open("/")
    sign_up(client.page, "just_a_player")
    client.page.click("#account-button")
    expect(client.page.locator("#account-logout")).to_be_visible()
    expect(client.page.locator("#account-moderation")).to_have_count(0)
    client.page.goto(f"{client.server.url}/#/mod")
    expect(client.page.locator("#mod-forbidden")).to_have_text("此页面仅供本站管理员使用。")

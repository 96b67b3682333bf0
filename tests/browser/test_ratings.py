"""Ratings that make sense, walked as two newcomers would: two accounts quick-pair (rated by
default, at blitz: each tile says its speed and the player's "1500?"), play to a result, both
see the rating change on the result screen ("1500? → 1662? (+162)"), the blitz leaderboard
shows the new ratings (provisional ones after the settled, unranked), and the profile shows a
rating per speed and the change in its history; on a 320 px phone without sideways scrolling."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, laid_out_size, no_overflow, shoot
from tests.browser.test_quick_pairing import site_connected
from tests.support.live import DEN_GAME, LiveServer

SMALLEST_PHONE = {"width": 320, "height": 640}


def _account(c: Client, username: str) -> Page:
    page = c.open("/")
    body = {"username": username, "password": "correct horse battery"}
    assert fetch_json(page, "/api/auth/register", "POST", body).get("username") == username
    page.reload()
    site_connected(page)
    return page


def _shown(rating: dict[str, Any]) -> str:
    return f"{round(rating['rating'])}{'?' if rating['provisional'] else ''}"


def test_two_accounts_pair_rated_and_both_see_their_rating_change(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    first, second = Client(browser, server), Client(browser, server, locale="en-US")
    try:
        pages = {
            "rated_li": _account(first, "rated_li"),
            "rated_wang": _account(second, "rated_wang"),
        }
        blitz = '.pairing-cell[data-control="3+2"]'
        for page in pages.values():
            page.click("#go-online")
            expect(page.locator("#pairing-grid")).to_be_visible()
            expect(page.locator("#pairing-rated")).to_be_checked()  # an account plays rated
        english = pages["rated_wang"]
        expect(english.locator(blitz)).to_contain_text("Blitz")
        expect(english.locator(f"{blitz} .pairing-rating")).to_have_text("you 1500?")
        expect(pages["rated_li"].locator(f"{blitz} .pairing-kind")).to_have_text("快棋")
        pages["rated_li"].set_viewport_size(SMALLEST_PHONE)
        no_overflow(pages["rated_li"])
        pages["rated_li"].click(blitz)
        expect(pages["rated_li"].locator(blitz)).to_have_attribute("aria-pressed", "true")
        expect(english.locator(blitz)).to_contain_text("1 waiting")
        english.click(blitz)
        for page in pages.values():
            expect(page).to_have_url(re.compile(r"#/game/[\w-]+$"))
        game_id = english.url.split("/")[-1]
        state = fetch_json(english, f"/api/games/{game_id}")["game"]
        assert (state["rated"], state["speed"], state["time_control"]) == (True, "blitz", "3+2")
        seats = [pages[p["username"]] for p in state["players"]]
        # Before the end: each bar says the speed's rating, provisional.
        expect(english.locator(".player-bar.bottom .player-meta")).to_contain_text("Blitz 1500?")

        for ply, move in enumerate(DEN_GAME):  # 17 rounds (rated: more than ten), then the den
            sent = fetch_json(
                seats[ply % 2],
                f"/api/games/{game_id}/commands",
                "POST",
                {"type": "move", "move": move},
            )
            assert sent.get("type") != "rejected", sent
        change = fetch_json(english, f"/api/games/{game_id}")["game"]["rating_change"]
        before = [_shown(r) for r in change["before"]]
        after = [_shown(r) for r in change["after"]]
        gain = round(change["after"][0]["rating"]) - 1500
        assert before == ["1500?", "1500?"] and gain > 0
        assert after[0].endswith("?")  # one game: still provisional

        # Both players see both changes on the result screen, without a reload.
        for page in pages.values():
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#result .rating-change")).to_have_count(2)
        winner_line = f"1500? → {after[0]} (+{gain})"
        expect(english.locator('#result .rating-change[data-color="red"]')).to_have_text(
            f"Red rating: {winner_line}"
        )
        chinese = pages["rated_li"].locator('#result .rating-change[data-color="blue"]')
        expect(chinese).to_contain_text(
            f"1500? → {after[1]}（−{1500 - round(change['after'][1]['rating'])}）"
        )
        shoot(english, artifacts, "ratings-result")

        # The blitz leaderboard shows the new ratings: provisional, after a line saying why.
        winner = state["players"][0]["username"]
        english.goto(f"{server.url}/#/leaderboard")
        english.locator('#leaderboard-tabs [data-board="blitz"]').click()
        expect(english).to_have_url(re.compile(r"#/leaderboard\?by=rating&speed=blitz"))
        row = english.locator(f'#leaderboard-list [data-username="{winner}"]')
        expect(row.locator(".leader-value strong")).to_have_text(after[0])
        expect(row.locator(".leader-rank")).to_have_text("–")
        expect(english.locator("#leaderboard-provisional")).to_contain_text("Provisional")
        rows = english.locator("#leaderboard-list li.leader")
        expect(rows).to_have_count(2)
        expect(rows.first).to_have_attribute("data-username", winner)  # the higher rating first
        english.locator('#leaderboard-tabs [data-board="rapid"]').click()
        expect(english.locator("#leaderboard-list")).to_contain_text("No rated Rapid games yet")
        english.set_viewport_size(SMALLEST_PHONE)
        english.locator('#leaderboard-tabs [data-board="blitz"]').click()
        expect(row).to_be_visible()
        no_overflow(english)
        for tab in english.locator("#leaderboard-tabs label").all():
            assert laid_out_size(tab)[1] >= 44, tab
        shoot(english, artifacts, "ratings-leaderboard")

        # The profile: a rating per speed, the ladder score on one line below, and the change
        # in its history.
        english.goto(f"{server.url}/#/player/{winner}")
        blitz_rating = english.locator('#profile-ratings [data-speed="blitz"]')
        expect(blitz_rating).to_contain_text(after[0])
        expect(blitz_rating).to_contain_text("1 rated game")
        expect(english.locator('#profile-ratings [data-speed="rapid"]')).to_contain_text("1500?")
        expect(english.locator("#profile-level")).to_have_text("Ladder score 4 · Level 1 · Novice")
        expect(english.locator(".history-rating").first).to_have_text(winner_line)
        english.set_viewport_size(SMALLEST_PHONE)
        no_overflow(english)
        shoot(english, artifacts, "ratings-profile")
    finally:
        first.close()
        second.close()


def test_a_guest_pairs_casual_and_cannot_pick_rated(client: Client) -> None:
    page = client.open("/#/play")
    expect(page.locator("#pairing-grid")).to_be_visible()
    rated = page.locator("#pairing-rated")
    expect(rated).not_to_be_checked()
    expect(rated).to_be_disabled()
    expect(page.locator('.pairing-cell[data-control="3+2"] .pairing-rating')).to_have_count(0)

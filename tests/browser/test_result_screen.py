"""The result screen of a rated game between two accounts: the new rating and its change (±N)
and the score change in both players' bars at once, without a reload, the same numbers as the
profiles; and the ranks page it links to (score, rating, rank titles by score band)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, laid_out_size, no_overflow, shoot
from tests.support.live import DEN_GAME, LiveServer


def register(page: Page, username: str) -> None:
    body = {"username": username, "password": "long enough password"}
    assert fetch_json(page, "/api/auth/register", "POST", body).get("username") == username


def rating_of(page: Page, username: str) -> int:
    """The player's rating at rapid (the speed of the game's 10+0)."""
    return round(fetch_json(page, f"/api/players/{username}")["ratings"]["rapid"]["rating"])


def test_both_bars_show_the_new_ratings_and_changes_at_once(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    red, blue = Client(browser, server), Client(browser, server, locale="en-US")
    try:
        page = red.open("/")
        register(page, "result_red")
        game = fetch_json(
            page,
            "/api/games",
            "POST",
            {"mode": "online", "color": "red", "rated": True, "time_control": "10+0"},
        )
        page.goto(f"{server.url}/#/game/{game['id']}")
        other = blue.open("/")
        register(other, "result_blue")
        other.goto(f"{server.url}/#/game/{game['id']}?join=1")
        expect(other.locator("#status")).to_contain_text("Red to move")
        for ply, move in enumerate(DEN_GAME):  # 17 rounds: Red's rat walks into the den
            mover = page if ply % 2 == 0 else other
            sent = fetch_json(
                mover, f"/api/games/{game['id']}/commands", "POST", {"type": "move", "move": move}
            )
            assert sent.get("type") != "rejected", sent
        expect(page.locator("#result")).to_be_visible()
        won, lost = rating_of(page, "result_red"), rating_of(page, "result_blue")
        assert won > 1500 > lost
        # Red's page: its own bar at the bottom, Blue's at the top; no reload in between. The
        # ratings are rapid's (10+0), provisional after one game: "1662?".
        for view, (mine, theirs) in ((page, (won, lost)), (other, (lost, won))):
            bottom, top = view.locator(".player-bar.bottom"), view.locator(".player-bar.top")
            expect(bottom.locator(".player-meta")).to_contain_text(f"{mine}?")
            expect(top.locator(".player-meta")).to_contain_text(f"{theirs}?")
        expect(other.locator(".player-bar.bottom .player-meta")).to_contain_text(f"Rapid {lost}?")
        red_bar = page.locator(".player-bar.bottom")
        expect(red_bar.locator(".delta-rating")).to_have_text(f"+{won - 1500}")
        expect(red_bar.locator(".delta-score")).to_have_text("积分 +4")
        blue_bar = page.locator(".player-bar.top")
        expect(blue_bar.locator(".delta-rating")).to_have_text(f"−{1500 - lost}")
        expect(blue_bar.locator(".delta-score")).to_have_text("积分 −2")
        assert "1500" not in (red_bar.locator(".player-meta").text_content() or "")
        english = other.locator(".player-bar.bottom .delta-score")
        expect(english).to_have_text("score −2")
        # The result box: both ratings before → after, and the link to what they mean.
        lines = page.locator("#result .rating-change")
        expect(lines).to_have_count(2)
        expect(lines.nth(0)).to_have_text(f"红方等级分：1500? → {won}?（+{won - 1500}）")
        shoot(page, artifacts, "result-rated")
        page.locator("#ranks-link").click()
        expect(page).to_have_url(re.compile(r"#/ranks$"))
        expect(page.locator("#ranks-table tbody tr")).to_have_count(10)
        expect(page.locator("#ranks-you")).to_contain_text("你的积分是 4")
        expect(page.locator("#ranks-table tr.mine th")).to_have_text("1级 新手")
        shoot(page, artifacts, "ranks-page")
    finally:
        red.close()
        blue.close()


def test_the_ranks_page_in_english_and_from_home(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    for link in ("#go-rules-page", "#go-leaderboard", "#go-ranks", "#go-corr"):
        assert laid_out_size(page.locator(link))[1] >= 44, link
    no_overflow(page)
    page.locator("#go-ranks").click()
    expect(page.locator("#ranks-table tbody tr")).to_have_count(10)
    expect(page.locator("#ranks-table tbody tr").last.locator("td")).to_have_text("2000 及以上")
    expect(page.locator("#ranks-you")).to_have_count(0)  # a visitor has no score
    page.select_option("#lang", "en")
    expect(page.locator("#ranks-table tbody tr").first.locator("th")).to_have_text(
        "Level 1 · Novice"
    )
    expect(page.locator("#ranks-score")).to_have_text("Score")
    no_overflow(page)

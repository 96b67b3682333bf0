"""An arena in the browser: four players are paired again as soon as their games end, the
winner goes on fire, and when the time is up the last games finish and the final standings
show. The server's clock is a test clock here, moved on by hand (an arena lasts minutes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, shoot
from tests.support.live import LiveServer, ManualTime, make_settings, running

NAMES = ("ariel", "bruno", "chloe", "dmitri")


@pytest.fixture(scope="module")
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, clock: ManualTime) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("arena-db")), clock) as live:
        yield live


def _sign_up(client: Client, username: str) -> Page:
    page = client.open("/")
    body = {"username": username, "password": "correct horse"}
    assert fetch_json(page, "/api/auth/register", "POST", body)["username"] == username
    page.reload()
    return page


def _banner_stays_through_refreshes(page: Page, tid: str) -> None:
    """The page redraws on every refresh; its "go to your game" link must stay the same
    element, or a click pressed on the old one and released on the new is lost (this test
    once failed so: the click gave no navigation)."""
    expect(page.locator("#tour-go")).to_be_visible()
    page.evaluate(
        """() => {
            window.bannerChanges = 0;
            new MutationObserver((records) => { window.bannerChanges += records.length; })
                .observe(document.querySelector('#tour-banner'),
                         { childList: true, subtree: true });
        }"""
    )
    # Two refreshes answered: the first one's redraw is surely done by the second's answer.
    for _ in (1, 2):
        with page.expect_response(lambda r: r.url.endswith(f"/api/tournaments/{tid}")):
            pass
    assert page.evaluate("window.bannerChanges") == 0


def _to_the_games(pages: dict[str, Page]) -> None:
    """Every player follows the banner to their game; it starts once both are at the board."""
    for page in pages.values():
        expect(page.locator("#tour-go")).to_be_visible()
        page.click("#tour-go")
        expect(page).to_have_url(re.compile(r"#/game/"))
    for page in pages.values():
        expect(page.locator("#resign")).to_be_visible()


def _resign_and_return(pages: dict[str, Page], tid: str) -> None:
    """In each game the player whose name comes later resigns; all go back to the arena by
    the game page's link to it."""
    order = list(pages)
    for name, page in pages.items():
        game = page.evaluate("window.gameView.game")
        opponent = next(p["username"] for p in game["players"] if p["username"] != name)
        if order.index(name) > order.index(opponent):
            page.click("#resign")
            page.click("#resign")
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("认输")
        page.click("#tournament-back")
        expect(page).to_have_url(re.compile(rf"#/tournament/{tid}$"))
        expect(page.locator("#tour-standings")).to_be_visible()


def test_an_arena_among_four_players_to_its_final_standings(
    browser: Browser, server: LiveServer, clock: ManualTime, artifacts: Path
) -> None:
    clients = {name: Client(browser, server) for name in NAMES}
    try:
        pages = {name: _sign_up(client, name) for name, client in clients.items()}
        host = pages["ariel"]
        body = {
            "kind": "arena",
            "name": "Evening arena",
            "time_control": "30+0",
            "duration_minutes": 10,
            "starts_in": 60,
        }
        tid = fetch_json(host, "/api/tournaments", "POST", body)["id"]
        for name, page in pages.items():
            page.goto(f"{server.url}/#/tournament/{tid}")
            if name != "ariel":
                page.click("#tour-join")
                expect(page.locator("#tour-withdraw")).to_be_visible()
        clock.advance(61)
        _banner_stays_through_refreshes(host, tid)
        for _ in (1, 2):
            _to_the_games(pages)
            _resign_and_return(pages, tid)
        # ariel won both: on fire, with two wins' points.
        fire = host.locator('#tour-standings tr[data-player="ariel"] .fire')
        expect(fire).to_be_visible()
        shoot(host, artifacts, "tournament-arena-running")
        # The time runs out during the third games: they are played out, nobody is paired again.
        _to_the_games(pages)
        clock.advance(600)
        _resign_and_return(pages, tid)
        for page in pages.values():
            expect(page.locator("#tour-results")).to_be_visible(timeout=20_000)
        final = fetch_json(host, f"/api/tournaments/{tid}")
        assert final["status"] == "finished" and len(final["pairings"]) == 6
        first = final["standings"][0]
        assert first["username"] == "ariel" and first["score"] == 8  # 2 + 2 + 4 on fire
        expect(host.locator("#tour-results .tour-podium li").first).to_contain_text("ariel")
        shoot(host, artifacts, "tournament-arena-results")
    finally:
        for client in clients.values():
            client.close()

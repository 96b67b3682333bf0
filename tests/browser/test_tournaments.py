"""Tournaments in the browser: four players join a Swiss, play its three rounds (each game
resigned by one side from its own page), and see the final standings; the list, the create
form and a tournament's page on a phone and a desktop."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, shoot
from tests.browser.test_accounts import forgive_http_errors
from tests.support.live import LiveServer, ManualTime, make_settings, running

NAMES = ("zhao", "qian", "sunq", "lisi")


@pytest.fixture(scope="module")
def clock() -> ManualTime:
    return ManualTime()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, clock: ManualTime) -> Iterator[LiveServer]:
    """The server's clock is a test clock: the Swiss starts when the test says so."""
    with running(make_settings(tmp_path_factory.mktemp("swiss-db")), clock) as live:
        yield live


def _sign_up(client: Client, username: str) -> Page:
    page = client.open("/")
    answer = fetch_json(
        page, "/api/auth/register", "POST", {"username": username, "password": "correct horse"}
    )
    assert answer["username"] == username, answer
    page.reload()
    return page


def _play_round(pages: dict[str, Page], round_number: int) -> None:
    """Every player follows the banner to their game; in each game Red resigns."""
    for page in pages.values():
        expect(page.locator("#tour-status")).to_contain_text(f"第 {round_number} 轮")
        expect(page.locator("#tour-go")).to_be_visible()
        page.click("#tour-go")
        expect(page).to_have_url(re.compile(r"#/game/"))
    for page in pages.values():
        expect(page.locator("#resign")).to_be_visible()
        expect(page.locator("#takeback")).to_have_count(0)  # tournament games allow none
    resigned = 0
    for page in pages.values():
        you = page.evaluate("window.gameView.seats")
        if you == [0]:
            page.click("#resign")
            page.click("#resign")
            resigned += 1
    assert resigned == 2
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("认输")
        expect(page.locator("#rematch")).to_have_count(0)  # the tournament pairs the next
        page.go_back()
        expect(page.locator("#tour-standings")).to_be_visible()


def test_four_players_play_a_swiss_to_its_final_standings(
    browser: Browser, server: LiveServer, clock: ManualTime, artifacts: Path
) -> None:
    clients = {name: Client(browser, server) for name in NAMES}
    try:
        pages = {name: _sign_up(client, name) for name, client in clients.items()}
        host = pages["zhao"]
        # The list, linked from home, and the create form.
        host.click("#go-tournaments")
        expect(host.locator('[data-group="upcoming"]')).to_be_visible()
        shoot(host, artifacts, "tournaments-list")
        host.click("#tour-create")
        expect(host.locator("#tour-form")).to_be_visible()
        host.select_option("#tour-kind", "arena")
        expect(host.locator("#tour-duration")).to_be_visible()
        expect(host.locator("#tour-rounds")).to_be_hidden()
        host.select_option("#tour-kind", "swiss")
        shoot(host, artifacts, "tournaments-create")
        host.fill("#tour-name", " ")
        host.click("#tour-submit")
        expect(host.locator("#tour-error")).to_contain_text("请为比赛取个名字")
        forgive_http_errors(clients["zhao"], 422)  # the refusal asked for on purpose
        # The real one, made through the API, starts when the test clock says so.
        made = fetch_json(
            host,
            "/api/tournaments",
            "POST",
            {
                "kind": "swiss",
                "name": "春季杯 <b>swiss</b>",
                "time_control": "5+3",
                "rounds": 3,
                "starts_in": 300,
            },
        )
        tid = made["id"]
        for name, page in pages.items():
            page.goto(f"{server.url}/#/tournament/{tid}")
            expect(page.locator("h1")).to_have_text("春季杯 <b>swiss</b>")  # text, never HTML
            if name != "zhao":
                page.click("#tour-join")
                expect(page.locator("#tour-withdraw")).to_be_visible()
        expect(host.locator("#tour-status")).to_contain_text("后开始")
        expect(host.locator("#tour-standings tbody tr")).to_have_count(4)
        shoot(host, artifacts, "tournament-before-start")
        clock.advance(301)
        for round_number in (1, 2, 3):
            _play_round(pages, round_number)
            if round_number == 1:
                shoot(pages["qian"], artifacts, "tournament-swiss-running")
        for page in pages.values():
            expect(page.locator("#tour-results")).to_be_visible(timeout=20_000)
        final = fetch_json(host, f"/api/tournaments/{tid}")
        assert final["status"] == "finished"
        scores = sorted((row["score"] for row in final["standings"]), reverse=True)
        assert sum(scores) == 6.0 and len(final["pairings"]) == 6
        pairs = {
            frozenset((p["red"]["account_id"], p["blue"]["account_id"])) for p in final["pairings"]
        }
        assert len(pairs) == 6  # nobody met anyone twice
        rows = host.locator("#tour-standings tbody tr")
        expect(rows).to_have_count(4)
        expect(rows.first.locator("td.score")).to_have_text(
            str(scores[0]).replace(".5", "½").replace(".0", "")
        )
        expect(host.locator("#tour-pairings [data-round]")).to_have_count(3)
        shoot(host, artifacts, "tournament-swiss-results")
        host.select_option("#lang", "en")
        expect(host.locator("#tour-results h2")).to_have_text("Final results")
        shoot(host, artifacts, "tournament-swiss-results-en")
    finally:
        for client in clients.values():
            client.close()

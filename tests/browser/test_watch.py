"""Live games in a real browser: the Watch page lists the games in progress with their
players, ratings and spectators, filtered by game, rules, speed and rated; TV shows the best
one (a quick-pairing game between two people within seconds), then the next when it ends."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, Route, expect
from tests.browser.support import Client, laid_out_size, no_overflow, shoot
from tests.support.live import GameSocket, LiveServer, move, start_online


def end(game: tuple[str, GameSocket, GameSocket]) -> None:
    """Resign a game started by ``start_online`` and close its sockets: the module's server
    lists it no more (a game whose players only left stays in progress for a grace period)."""
    game[1].send({"type": "resign"})
    game[1].wait_for("game_finished")
    game[1].close()
    game[2].close()


def test_the_watch_page_lists_a_game_in_progress(
    client: Client, server: LiveServer, artifacts: Path
) -> None:
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue, time_control="10+5")
    try:
        move(red_ws, "a3a4")
        page = client.open("/")
        page.click("#go-watch")
        entry = page.locator(f'.watch-game[data-game="{game_id}"]')
        expect(entry).to_be_visible()
        # A guest's default name in the reader's words ("Guest-1a2b3" → "游客 1a2b3").
        names = [f"游客 {p.me['name'].removeprefix('Guest-')}" for p in (red, blue)]
        expect(entry.locator(".watch-player strong")).to_have_text(names)
        expect(entry.locator(".watch-facts")).to_contain_text("10+5 · 1 步 · 0 人观战")
        expect(entry.locator(".watch-board .dsq-board")).to_be_visible()
        shoot(page, artifacts, "watch")
        # The page refreshes itself: a new spectator shows up in the count.
        with server.player().guest().socket(game_id) as watcher:
            watcher.wait_for("state")
            expect(entry.locator(".watch-facts")).to_contain_text("1 人观战", timeout=10_000)
        entry.locator("a").click()
        expect(page.locator("#status")).to_contain_text("观战中")
    finally:
        end((game_id, red_ws, blue_ws))


def quick_pair(browser: Browser, server: LiveServer) -> tuple[list[Client], str]:
    """Two people tap the same time control on the quick pairing page: their game's id."""
    players = [Client(browser, server), Client(browser, server)]
    pages: list[Page] = []
    for c in players:
        page = c.open("/play")  # the address without '#' is the page too
        expect(page.locator("#pairing-grid")).to_be_visible()
        pages.append(page)
    cell = '.pairing-cell[data-control="5+3"]'
    pages[0].click(cell)
    expect(pages[0].locator(cell)).to_have_attribute("aria-pressed", "true")
    expect(pages[1].locator(cell)).to_contain_text("1")  # someone waits
    pages[1].click(cell)
    for page in pages:
        expect(page).to_have_url(re.compile(r"#/game/[\w-]+$"))
        expect(page.locator("#resign")).to_be_visible()  # both at the board: it started
    return players, pages[0].url.split("/")[-1]


def test_tv_shows_a_quick_pairing_game_and_switches_when_it_ends(
    browser: Browser, client: Client, server: LiveServer, artifacts: Path
) -> None:
    page = client.open("/tv")
    players, game_id = quick_pair(browser, server)
    try:
        expect(page.locator("#tv-screen")).to_have_attribute("data-game", game_id, timeout=5000)
        expect(page.locator("#tv-screen .game-page")).to_be_visible()
        expect(page.locator("#watchers")).to_have_text("观战：1 人")
        shoot(page, artifacts, "tv")
        second = start_online(server, server.player().guest(), server.player().guest())
        try:
            for _ in range(2):  # resign, then confirm
                players[0].page.click("#resign")
            expect(page.locator("#tv-note")).to_have_text("本局已结束：马上切换到下一局。")
            expect(page.locator("#tv-screen")).to_have_attribute("data-game", second[0])
            second[1].wait_for("spectators", lambda m: m["count"] == 1, timeout=20)
        finally:
            end(second)
    finally:
        for c in players:
            c.close()


def test_the_watch_page_filters_by_game_rules_speed_and_rated(
    client: Client, server: LiveServer, artifacts: Path
) -> None:
    guests = [server.player().guest() for _ in range(4)]
    alice, bob = server.player().register("w_alice"), server.player().register("w_bob")
    blitz = start_online(server, guests[0], guests[1], time_control="5+3")
    slow = start_online(server, guests[2], guests[3], rules="classic", time_control="30+20")
    rated = start_online(server, alice, bob, rated=True, time_control="1+0")
    games = {"blitz": blitz[0], "slow": slow[0], "rated": rated[0]}

    def shown(page: Page, *names: str) -> None:
        expect(page.locator(".watch-game")).to_have_count(len(names))
        for name in names:
            expect(page.locator(f'.watch-game[data-game="{games[name]}"]')).to_be_visible()

    try:
        page = client.open("/watch")
        shown(page, "blitz", "slow", "rated")
        page.select_option("#watch-speed", "blitz")
        shown(page, "blitz")
        expect(page).to_have_url(re.compile(r"#/watch\?speed=blitz$"))
        page.select_option("#watch-speed", "")
        page.select_option("#watch-rated", "true")
        shown(page, "rated")
        page.select_option("#watch-rated", "false")
        page.select_option("#watch-rules", "classic")
        shown(page, "slow")
        shoot(page, artifacts, "watch-filters")
        page.reload()  # the filters are in the address
        expect(page.locator("#watch-rules")).to_have_value("classic")
        shown(page, "slow")
        page.select_option("#watch-speed", "bullet")
        expect(page.locator("#watch-empty")).to_have_text("没有符合这些条件的对局。")
        for select in page.locator(".watch-filter select").all():
            assert laid_out_size(select)[1] >= 44
        page.set_viewport_size({"width": 320, "height": 640})
        no_overflow(page)
    finally:
        for game in (blitz, slow, rated):
            end(game)


def test_an_older_answer_does_not_replace_the_filtered_list(
    client: Client, server: LiveServer
) -> None:
    """The list asked for with the filters before a change answers last: the list stays the
    one the filters now ask for."""
    blitz = start_online(server, server.player().guest(), server.player().guest(),
                         time_control="5+3")  # fmt: skip
    bullet = start_online(server, server.player().guest(), server.player().guest(),
                          time_control="1+0")  # fmt: skip
    held: list[Route] = []

    def hold_all_but_blitz(route: Route) -> None:
        if "speed=blitz" in route.request.url:
            route.continue_()
        else:
            held.append(route)  # answered later, by the test

    try:
        page = client.open("/watch")
        for game in (blitz, bullet):
            expect(page.locator(f'.watch-game[data-game="{game[0]}"]')).to_be_visible()
        page.route("**/api/games/live*", hold_all_but_blitz)
        page.select_option("#watch-speed", "bullet")  # asked, held
        page.select_option("#watch-speed", "blitz")  # asked, answered
        expect(page.locator(f'.watch-game[data-game="{bullet[0]}"]')).to_have_count(0)
        expect(page.locator(f'.watch-game[data-game="{blitz[0]}"]')).to_be_visible()
        assert held, "the bullet list was not asked for"
        for route in held:
            route.continue_()  # the older answer, now
        page.wait_for_timeout(500)  # a window for the old answer to be (wrongly) drawn
        # Read at once, not waited for: the page's own refresh would draw the blitz list again.
        shown = page.locator(".watch-game").evaluate_all("items => items.map(i => i.dataset.game)")
        assert blitz[0] in shown and bullet[0] not in shown, shown
    finally:
        end(blitz)
        end(bullet)

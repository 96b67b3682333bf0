"""Live games in a real browser: the Watch page lists the games in progress with their
players, ratings and spectators, and TV shows the best one, then the next when it ends."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect
from tests.browser.support import Client, shoot
from tests.support.live import LiveServer, move, start_online


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
        red_ws.close()
        blue_ws.close()


def test_tv_follows_the_best_game_then_the_next(
    client: Client, server: LiveServer, artifacts: Path
) -> None:
    first = start_online(server, server.player().guest(), server.player().guest())
    try:
        page = client.open("/#/tv")
        expect(page.locator("#tv-screen .game-page")).to_be_visible()
        first[1].wait_for("spectators", lambda m: m["count"] == 1)  # TV is watching it
        expect(page.locator("#watchers")).to_have_text("观战：1 人")
        shoot(page, artifacts, "tv")
        second = start_online(server, server.player().guest(), server.player().guest())
        try:
            first[2].send({"type": "resign"})
            expect(page.locator("#tv-note")).to_have_text("本局已结束：马上切换到下一局。")
            second[1].wait_for("spectators", lambda m: m["count"] == 1, timeout=20)
            expect(page.locator("#tv-note")).to_have_text("")
        finally:
            second[1].close()
            second[2].close()
    finally:
        first[1].close()
        first[2].close()

"""The game page's player bars: avatars, names linked to profiles, rating and level, whether an
online opponent is connected, the computer's bar, and the captured animals (see ``support.py``
for the set-up)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, plies, shoot
from tests.support.live import LiveServer

# Red's rat walks up the g-file while Blue's elephant walks down it; the rat takes it.
RAT_TAKES_ELEPHANT = ["a1b1", "g7g6", "g3g4", "g6g5", "g4g5"]


def register(page: Page, username: str, display_name: str, avatar: str) -> None:
    me = fetch_json(
        page,
        "/api/auth/register",
        "POST",
        {
            "username": username,
            "password": "long enough password",
            "display_name": display_name,
            "avatar": avatar,
        },
    )
    assert me.get("username") == username, me


def bar(page: Page, where: str) -> Any:
    return page.locator(f".player-bar.{where}")


def test_online_bars_link_accounts_show_rating_and_connection(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    red, blue = Client(browser, server), Client(browser, server, locale="en-US")
    blue_open = True
    try:
        page = red.open("/")
        register(page, "guan_yu", "关羽", "tiger")
        game = fetch_json(
            page, "/api/games", "POST", {"mode": "online", "rules": "wango", "color": "red"}
        )
        page.goto(f"{server.url}/#/game/{game['id']}")
        mine = bar(page, "bottom")
        expect(mine.locator(".player-name")).to_contain_text("关羽 (你)")
        expect(bar(page, "top")).to_contain_text("等待对手加入")

        other = blue.open(f"/#/game/{game['id']}?join=1")
        expect(other.locator("#status")).to_contain_text("Red to move")

        # Red's own bar: the tiger in red, the name linking to the profile, and the level (a
        # game without a clock has no speed, so no rating).
        avatar = mine.locator(".player-avatar")
        expect(avatar).to_have_attribute("data-avatar", "tiger")
        expect(avatar.locator(".dsq-piece.red svg")).to_have_count(1)
        expect(mine.locator("a.player-link")).to_have_attribute("href", "#/player/guan_yu")
        expect(mine.locator(".player-meta")).to_have_text("1级 新手")
        expect(mine.locator(".player-conn")).to_have_count(0)  # no marker for yourself
        # The guest at the top: an animal in blue, no link, no rating, connected.
        guest = fetch_json(other, "/api/auth/me")
        theirs = bar(page, "top")
        # A guest who chose no name ("Guest-1a2b3") in the reader's words.
        shown = guest["name"].replace("Guest-", "游客 ")
        expect(theirs.locator(".player-name strong")).to_contain_text(shown)
        expect(theirs.locator(".player-avatar")).to_have_attribute("data-avatar", guest["avatar"])
        expect(theirs.locator(".player-avatar .dsq-piece.blue svg")).to_have_count(1)
        expect(theirs.locator("a")).to_have_count(0)
        expect(theirs.locator(".player-meta")).to_have_text("游客")
        expect(theirs.locator(".player-conn")).to_have_text("在线")

        # Captured animals still show, on the bar of the side that took them; and the bars are
        # not rebuilt on every move, which would take the keyboard focus off the profile link.
        mine.locator("a.player-link").focus()
        for ply, move in enumerate(RAT_TAKES_ELEPHANT):
            mover = page if ply % 2 == 0 else other
            sent = fetch_json(
                mover, f"/api/games/{game['id']}/commands", "POST", {"type": "move", "move": move}
            )
            assert all(e["type"] not in ("rejected", "error") for e in sent["events"]), sent
        plies(page, len(RAT_TAKES_ELEPHANT))
        expect(mine.locator(".captured .cap.blue")).to_have_text(["象"])
        expect(theirs.locator(".captured .cap")).to_have_count(0)
        expect(mine.locator("a.player-link")).to_be_focused()
        shoot(page, artifacts, "players-online")

        # Blue's view, in English: Red's account at the top links to its profile.
        top = bar(other, "top")
        expect(top.locator(".player-meta")).to_have_text("Level 1 (Novice)")
        expect(top.locator(".player-conn")).to_have_text("connected")
        expect(bar(other, "bottom").locator(".player-name")).to_contain_text("(You)")
        expect(bar(other, "bottom").locator("a")).to_have_count(0)
        shoot(other, artifacts, "players-online-en")
        top.locator("a.player-link").click()
        expect(other).to_have_url(re.compile(r"#/player/guan_yu$"))
        expect(other.locator("#profile-name")).to_have_text("关羽")

        # Blue has left the game page: Red sees the opponent disconnected.
        blue.close()
        blue_open = False
        # With the time left to come back (the grace period), test_opponent_gone.py
        expect(theirs.locator(".player-conn")).to_have_text(re.compile(r"^已断线 \d:\d\d$"))
        expect(theirs.locator(".player-conn")).to_have_attribute("data-connected", "no")
    finally:
        if blue_open:
            blue.close()
        red.close()


def test_computer_bar_has_an_animal_and_no_link(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    fetch_json(page, "/api/auth/guest", "POST")  # a guest may create games
    game = fetch_json(
        page,
        "/api/games",
        "POST",
        {"mode": "vs_ai", "rules": "wango", "ai_level": 2, "color": "red"},
    )
    me = fetch_json(page, "/api/auth/me")
    page.goto(f"{client.server.url}/#/game/{game['id']}")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    computer = bar(page, "top")
    # The side in words comes first, for screen readers (sighted players see the colour).
    expect(computer.locator(".player-name")).to_have_text("蓝方：电脑 2 级")
    expect(computer.locator(".players-sr-only")).to_have_text("蓝方：")
    expect(computer.locator(".player-avatar")).to_have_attribute("data-avatar", "cat")
    expect(computer.locator(".player-avatar .dsq-piece.blue svg")).to_have_count(1)
    expect(computer.locator("a, .player-conn")).to_have_count(0)
    expect(computer.locator(".player-meta")).to_have_text("新手")  # level 2's name
    # A guest's own bar: their animal and name, no profile link, no rating off the ladder.
    own = bar(page, "bottom")
    shown = me["name"].replace("Guest-", "游客 ")  # a default guest name, in Chinese
    expect(own.locator(".player-name")).to_have_text(f"红方：{shown} (你)")
    expect(own.locator(".player-avatar")).to_have_attribute("data-avatar", me["avatar"])
    expect(own.locator("a")).to_have_count(0)
    expect(own.locator(".player-meta")).to_be_empty()
    # Flipping the board swaps the bars, clocks and all.
    page.click("#flip")
    expect(bar(page, "bottom").locator(".player-name")).to_have_text("蓝方：电脑 2 级")
    expect(bar(page, "bottom")).to_have_attribute("data-color", "blue")
    shoot(page, artifacts, "players-vs-ai")

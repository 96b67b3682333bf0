"""A profile shows ratings per game and per speed: a rated 老虎棋 blitz game moves the two
players' Tiger blitz ratings and nothing of their Jungle ones. The profile opens on the default
game with a game picker; choosing 老虎棋 shows its ratings, ladder score and record in place,
and the choice is in the address (a reload keeps it). On a phone, in English and Chinese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import PHONE, Client, no_overflow
from tests.support.helpers import played_out
from tests.support.live import LiveServer, move, start_online

#: Rounds played before the resignation: the fewest a rated result counts with (more than 10).
ROUNDS = 11


@pytest.fixture(scope="module")
def tiger_players(server: LiveServer) -> tuple[str, str]:
    """Two accounts after one rated 老虎棋 game at blitz (5+3) that the men won: the tiger
    resigned after eleven rounds (a game of ten or fewer moves no rating)."""
    tiger, men = server.player().register("tiger_li"), server.player().register("men_wang")
    _, tiger_ws, men_ws = start_online(
        server, tiger, men, game="tiger", rated=True, time_control="5+3"
    )
    for ply, text in enumerate(played_out([], 2 * ROUNDS, "tiger")):
        move(men_ws if ply % 2 else tiger_ws, text)
    tiger_ws.send({"type": "resign"})
    tiger_ws.wait_for("game_finished")
    tiger_ws.close()
    men_ws.close()
    return "tiger_li", "men_wang"


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-GB", {"blitz": "Blitz", "games": "1 rated game", "none": "0 rated games",
                   "wins": "Wins"}),
        ("zh-TW", {"blitz": "快棋", "games": "1 局計分對局", "none": "0 局計分對局",
                   "wins": "勝"}),
    ],
    ids=["en", "zh-Hant"],
)  # fmt: skip
def test_the_profile_shows_each_games_ratings_per_speed(
    browser: Browser, server: LiveServer, tiger_players: tuple[str, str], locale: str,
    words: dict[str, str],
) -> None:  # fmt: skip
    _, winner = tiger_players
    client = Client(browser, server, locale=locale, viewport=PHONE)
    page = client.open(f"/#/player/{winner}")
    card = page.locator("#profile")
    blitz = card.locator('#profile-ratings [data-speed="blitz"]')
    # Jungle first (the default game): nothing played there.
    expect(card).to_have_attribute("data-game", "jungle")
    expect(blitz.locator("dt")).to_have_text(words["blitz"])
    expect(blitz.locator("dd")).to_contain_text("1500?")
    expect(blitz.locator("dd")).to_contain_text(words["none"])
    picker = page.locator("#profile-game-picker")
    picker.locator('label[data-game="tiger"]').click()
    expect(card).to_have_attribute("data-game", "tiger")
    expect(card.locator("#profile-game-picker input[value=tiger]")).to_be_checked()
    expect(blitz.locator("dd")).to_contain_text(words["games"])
    expect(blitz.locator("dd")).not_to_contain_text("1500?")  # the win lifted it
    rapid = card.locator('#profile-ratings [data-speed="rapid"] dd')
    expect(rapid).to_contain_text(words["none"])  # the other speeds untouched
    expect(card.locator('#profile-stats [data-stat="wins"] dd')).to_have_text("1")
    expect(page.locator(".profile-more a")).to_have_attribute("href", "#/leaderboard?game=tiger")
    expect(page).to_have_url(re.compile(r"#/player/men_wang\?game=tiger$"))
    page.reload()
    expect(page.locator("#profile")).to_have_attribute("data-game", "tiger")
    expect(blitz.locator("dd")).to_contain_text(words["games"])
    no_overflow(page)
    client.close()

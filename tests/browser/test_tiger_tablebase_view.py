"""老虎棋's endgame tables on the pages, in a real browser: the analysis board opened on a
position of the tiger against four men says the tables' verdict in the game's side names and
lists every legal move with its effect (a tap plays it); the same in Chinese, both scripts. And
the profile's game list names a same-screen game's winner by the game's sides."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import PHONE, Client, shoot
from tests.support.live import LiveServer, move
from tests.support.tiger_moves import CAPTURE, ONE_CAPTURE_WINS

from doushouqi.tiger.board import Board
from doushouqi.tiger.tablebase.probe import probe, probe_moves

LONGEST_WIN = "3/3/9/9/9/9/9/4M4/1M1M5/9/T1M6 t"  # the tiger wins in 15 plies (docs)
CORNERED = "3/3/9/9/9/9/9/9/M8/1M7/TMM6 m"  # the men close the trap at once: b2a2


def plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


def analysis_link(fen: str) -> str:
    return "/#/analysis?" + urlencode({"game": "tiger", "fen": fen, "rules": "laohuqi"})


def test_the_analysis_board_shows_the_tigers_tables_and_each_moves_effect(
    browser: Browser, server: LiveServer, artifacts: Path
) -> None:
    board = Board(LONGEST_WIN)
    values = probe_moves(board)
    assert values is not None and probe(board) is not None
    client = Client(browser, server, locale="en-GB", viewport=PHONE)
    page = client.open(analysis_link(LONGEST_WIN))
    expect(page.locator("#analysis-board")).to_have_attribute("data-game", "tiger")
    line = page.locator("#ab-tb-line")
    expect(line).to_have_text("Tablebase: the tiger wins in 15 plies")
    expect(line).to_have_attribute("title", "The tables hold one tiger against four men. "
                                   "Plies count the moves of both sides until the tiger takes a "
                                   "man or a side has no move, with the fastest win against the "
                                   "longest defence.")  # fmt: skip
    rows = page.locator("#ab-tb-moves li")
    expect(rows).to_have_count(len(values))
    for i, value in enumerate(values):  # best first, each with its effect for the tiger
        category = "win" if value.value.wdl > 0 else "loss" if value.value.wdl < 0 else "draw"
        expect(rows.nth(i)).to_have_attribute("data-uci", str(value.move))
        expect(rows.nth(i)).to_have_attribute("data-category", category)
    expect(rows.first.locator(".tb-effect")).to_have_text("wins in 15 plies")
    expect(rows.first.locator(".tb-move-name")).to_have_text("Ta1-b1")
    expect(rows.last.locator(".tb-effect")).to_have_text("draws")
    shoot(page, artifacts, "tiger-tablebase-analysis")

    # A tap plays the move; the men to move have lost, the tiger now wins in 14.
    rows.first.locator("button").click()
    expect(page.locator("#analysis-board")).to_have_attribute("data-mode", "play")
    expect(line).to_have_text("Tablebase: the tiger wins in 14 plies")
    expect(page.locator("#ab-tb-moves li").first).to_have_attribute("data-category", "loss")
    client.close()


@pytest.mark.parametrize(
    ("locale", "men_win", "draw"),
    [
        ("zh-CN", "残局库：人方胜，双方共 1 步", "残局库：双方正确应对为和棋"),
        ("zh-TW", "殘局庫：人方勝，雙方共 1 步", "殘局庫：雙方正確應對為和棋"),
    ],
)
def test_the_verdict_in_chinese_by_the_games_side_names(
    browser: Browser, server: LiveServer, locale: str, men_win: str, draw: str
) -> None:
    client = Client(browser, server, locale=locale)
    page = client.open(analysis_link(CORNERED))
    expect(page.locator("#ab-tb-line")).to_have_text(men_win)
    first = page.locator("#ab-tb-moves li").first
    expect(first).to_have_attribute("data-uci", "b2a2")
    expect(first.locator(".tb-move-name")).to_contain_text("人")
    # Twelve men: no table holds it, and the board does not ask.
    drawn = "3/1T1/9/9/9/9/9/9/9/9/MMMM5 t"  # the men hold (a draw in the tables)
    page.goto(f"{server.url}{analysis_link(drawn)}")
    page.reload()
    expect(page.locator("#ab-tb-line")).to_have_text(draw)
    client.close()


@pytest.mark.parametrize(
    ("locale", "won"), [("en-GB", "Tiger won"), ("zh-CN", "虎方胜"), ("zh-TW", "虎方勝")]
)
def test_the_profile_names_a_same_screen_winner_by_the_games_sides(
    browser: Browser, server: LiveServer, locale: str, won: str
) -> None:
    player = server.player().register(f"wu_song_{locale[-2:].lower()}")
    game = player.create(mode="same_screen", game="tiger", rules=ONE_CAPTURE_WINS)
    with player.socket(game["id"]) as ws:
        ws.wait_for("game_started")
        for text in CAPTURE:  # the tiger takes a man, which wins under these rules
            move(ws, text)
        ws.wait_for("game_finished")
    client = Client(browser, server, locale=locale)
    page = client.open(f"/#/player/{player.me['username']}")
    row = page.locator(f'.history-game[data-game="{game["id"]}"]')
    expect(row).to_have_attribute("data-result", "red")  # the first seat's colour, for styles
    expect(row.locator(".history-result")).to_have_text(won)
    client.close()

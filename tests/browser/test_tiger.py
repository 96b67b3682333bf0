"""老虎棋 in the browser, at a phone's and a desktop's size: chosen with the game picker, a
rule option changed, played on one screen by tapping points (a step, a jump that takes a man),
to its result; and its words in Chinese, both scripts. No sleeps: every wait is for what the
page shows."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import (
    DESKTOP,
    PHONE,
    Client,
    choose_language,
    click_move,
    goto_route,
    no_overflow,
)
from tests.support.live import LiveServer, move, start_online
from tests.support.tiger_moves import CAPTURE


def start_tiger_game(page: Page, *, tiger_wins_below: int | None = None) -> None:
    """From the new-game page: the Tiger picked, an option changed if asked, the game started."""
    goto_route(page, page.url.split("#")[0] + "#/new/same_screen")
    picker = page.locator("#game-picker")
    expect(picker).to_be_visible()
    picker.locator("label[data-game=tiger]").click()
    expect(page.locator("form#settings[data-game=tiger]")).to_be_visible()
    if tiger_wins_below is not None:
        page.click("#rule-options-panel summary")
        page.fill("#ro-tiger_wins_below", str(tiger_wins_below))
        expect(page.locator("#ro-count")).not_to_be_empty()
    page.click("#start")
    # The board shows before the game starts ("Starting…", while the server seats both sides):
    # a tap then moves nothing. It takes moves once it is interactive.
    expect(page.locator(".dsq-board.dsq-tiger.dsq-interactive")).to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_tiger_game_on_one_screen_played_by_tapping_to_its_result(
    browser: Browser, server: LiveServer, viewport: dict[str, int]
) -> None:
    client = Client(browser, server, locale="en-GB", viewport=viewport)
    page = client.open("/")
    start_tiger_game(page, tiger_wins_below=12)
    expect(page.locator("#status")).to_have_text("Tiger to move")
    expect(page.locator("#game-rules")).to_contain_text("Tiger chess (12 men)")
    # 87 points to tap: the holes beside the nest are none of them.
    expect(page.locator(".dsq-squares [data-square]")).to_have_count(87)
    expect(page.locator('.dsq-squares [data-square="a10"]')).to_have_count(0)
    *steps, capture = CAPTURE
    for ply, text in enumerate(steps, 1):
        click_move(page, text)
        expect(page.locator("#moves li")).to_have_count(ply)
    expect(page.locator('.dsq-pieces [data-square="e5"]')).to_have_count(1)  # the man to take
    click_move(page, capture)
    expect(page.locator("#moves li")).to_have_count(len(CAPTURE))
    expect(page.locator("#moves li").last).to_contain_text("Te6xe4")
    expect(page.locator('.dsq-pieces [data-square="e5"]')).to_have_count(0)  # taken
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator(".result-title")).to_have_text("Tiger wins")
    expect(result.locator(".result-reason")).to_have_text("too few men left")
    no_overflow(page)
    client.close()


def test_the_computer_plays_the_tiger_against_a_phone_player(
    browser: Browser, server: LiveServer
) -> None:
    client = Client(browser, server, locale="en-GB", viewport=PHONE)
    page = client.open("/#/new/vs_ai")
    page.locator("#game-picker label[data-game=tiger]").click()
    expect(page.locator("form#settings[data-game=tiger]")).to_be_visible()
    page.locator("form#settings input[name=color][value=blue] + span").click()  # the men
    page.click("#start")
    expect(page.locator(".dsq-board.dsq-tiger")).to_be_visible()
    expect(page.locator("#moves li")).to_have_count(1)  # the computer's tiger moved first
    expect(page.locator(".player-bar.bottom")).to_contain_text("Men")
    click_move(page, "d2d3")
    expect(page.locator("#moves li")).to_have_count(3)  # ours, then the computer's answer
    expect(page.locator("#moves li").nth(1)).to_contain_text("Md2-d3")
    expect(page.locator("#hint")).to_be_visible()  # hints: the site has an engine for it
    no_overflow(page)
    client.close()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh", {"game": "老虎棋", "side": "虎方", "rules": "老虎棋（十二人）", "men": "人方"}),
        ("zh-Hant", {"game": "老虎棋", "side": "虎方", "rules": "老虎棋（十二人）", "men": "人方"}),
    ],
)
def test_the_tiger_in_chinese(
    browser: Browser, server: LiveServer, lang: str, words: dict[str, str]
) -> None:
    client = Client(browser, server, locale="zh-CN")
    page = client.open("/")
    choose_language(page, lang)
    goto_route(page, page.url.split("#")[0] + "#/new/online")
    picker = page.locator("#game-picker")
    expect(picker.locator("label[data-game=tiger]")).to_have_text(words["game"])
    picker.locator("label[data-game=tiger]").click()
    expect(page.locator("form#settings[data-game=tiger]")).to_be_visible()
    side = page.locator("form#settings input[name=color][value=red] + span")
    expect(side).to_have_text(words["side"])
    expect(page.locator("form#settings select[name=rules] option").first).to_have_text(
        words["rules"]
    )
    start_tiger_game(page)
    expect(page.locator("#status")).to_contain_text(words["side"])
    click_move(page, "e10e9")
    expect(page.locator("#status")).to_contain_text(words["men"])
    expect(page.locator("#moves li")).to_have_text(re.compile("虎e10-e9"))
    client.close()


def test_the_tigers_rules_page_with_its_diagrams_in_traditional_chinese(
    browser: Browser, server: LiveServer
) -> None:
    client = Client(browser, server, locale="zh-TW")
    page = client.open("/#/rules/laohuqi")
    rules = page.locator("section.rules[data-game=tiger]")
    expect(rules.locator("h1")).to_have_text("老虎棋規則")
    expect(rules.locator("#rules-game-picker label[data-game=tiger] input")).to_be_checked()
    diagrams = rules.locator(".rule-points .rule-diagram")
    expect(diagrams.first.locator(".dsq-board.dsq-tiger")).to_be_visible()
    expect(rules.locator('.rule-diagram[data-diagram="tiger-start"]')).to_have_count(1)
    expect(rules.locator("#rule-faq")).to_contain_text("人能吃老虎嗎")
    expect(rules.locator('[data-option="men"] td')).to_have_text("12人")
    page.select_option("#rules-select", "laohuqi-south")
    expect(rules.locator('.rule-diagram[data-diagram="tiger-start-south"]')).to_have_count(1)
    expect(rules.locator('[data-option="tigers"] td')).to_have_text("2隻老虎")
    expect(page.locator("#rules-play")).to_have_attribute("href", "#/new/vs_ai?game=tiger")
    rules.locator("#rules-game-picker label[data-game=jungle]").click()
    expect(page.locator("section.rules[data-game=jungle] h1")).to_have_text("鬥獸棋規則")
    no_overflow(page)
    client.close()


def test_a_finished_tiger_game_is_replayed_and_a_live_one_watched(
    browser: Browser, server: LiveServer
) -> None:
    # A Tiger game in progress between two guests, online and public: on the Watch page.
    tiger, men = server.player().guest(), server.player().guest()
    game_id, tiger_ws, men_ws = start_online(server, tiger, men, game="tiger")
    move(tiger_ws, "e10e9")
    client = Client(browser, server, locale="en-GB")
    page = client.open("/#/watch")
    entry = page.locator(f'.watch-game[data-game="{game_id}"]')
    expect(entry.locator(".dsq-board.dsq-tiger")).to_be_visible()
    expect(entry.locator(".watch-facts")).to_contain_text("Tiger chess")
    tiger_ws.close()
    men_ws.close()
    # One played to its end on one screen, then replayed.
    start_tiger_game(page, tiger_wins_below=12)
    for move_text in CAPTURE:
        click_move(page, move_text)
    expect(page.locator("#result .result-title")).to_have_text("Tiger wins")
    page.click("#replay-link")
    expect(page.locator("#rp-meta")).to_contain_text("Tiger won")
    expect(page.locator("#rp-moves li")).to_have_count(len(CAPTURE))
    expect(page.locator("#rp-analysis")).to_be_visible()  # the engine's view of the game
    expect(page.locator(".player-bar.bottom")).to_contain_text("Men")
    expect(page.locator('.dsq-pieces [data-square="e10"]')).to_have_count(1)  # the start
    page.click("#rp-last")
    expect(page.locator("#rp-counter")).to_have_text(f"{len(CAPTURE)} / {len(CAPTURE)}")
    expect(page.locator('.dsq-pieces [data-square="e4"]')).to_have_count(1)  # the tiger, there
    expect(page.locator('.dsq-pieces [data-square="e5"]')).to_have_count(0)  # the man taken
    client.close()


def test_an_online_tiger_game_by_invite_link(browser: Browser, server: LiveServer) -> None:
    """Created from the picker, joined by its invite link in another browser: each side sees
    its own pieces at the bottom, and the moves go across."""
    host = Client(browser, server, locale="en-GB")
    page = host.open("/#/new/online")
    page.locator("#game-picker label[data-game=tiger]").click()
    expect(page.locator("form#settings[data-game=tiger]")).to_be_visible()
    page.locator("form#settings input[name=color][value=red] + span").click()  # the tiger
    page.click("#start")
    link = page.locator("#invite-link")
    expect(link).to_have_value(re.compile(r"/game/[\w-]+\?join=1$"))  # no "#": previews
    guest = Client(browser, server, locale="zh-CN")
    other = guest.open("/")
    other.goto(link.input_value())
    expect(other.locator(".dsq-board.dsq-tiger")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Your move")
    # The tiger's side sees its nest at the bottom, the men's side their rank 1.
    expect(page.locator(".player-bar.bottom")).to_contain_text("Tiger")
    expect(other.locator(".player-bar.bottom")).to_contain_text("人方")
    expect(page.locator(".dsq-coords.dsq-bottom span").first).to_have_text("i")
    expect(other.locator(".dsq-coords.dsq-bottom span").first).to_have_text("a")
    click_move(page, "e10e9")
    expect(other.locator("#moves li")).to_have_count(1)
    expect(other.locator("#status")).to_have_text("轮到你走棋")
    click_move(other, "d2d3")
    expect(page.locator("#moves li")).to_have_count(2)
    expect(page.locator("#moves li").last).to_contain_text("Md2-d3")
    guest.close()
    host.close()


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", {"turn": "Tiger to move", "won": "Tiger wins", "reason": "too few men left",
                "replay": "Tiger won", "men": "Men"}),
        ("zh", {"turn": "虎方", "won": "虎方", "reason": "人数不足", "replay": "虎方胜",
                "men": "人方"}),
        ("zh-Hant", {"turn": "虎方", "won": "虎方", "reason": "人數不足", "replay": "虎方勝",
                     "men": "人方"}),
    ],
)  # fmt: skip
def test_a_whole_short_tiger_game_on_a_phone_in_each_language(
    browser: Browser, server: LiveServer, lang: str, words: dict[str, str]
) -> None:
    """Picked, a rule option changed, played by taps to the tiger's win, its result in the
    language chosen, then replayed to its last position, on a phone."""
    client = Client(browser, server, locale="en-GB", viewport=PHONE)
    page = client.open("/")
    choose_language(page, lang)
    start_tiger_game(page, tiger_wins_below=12)
    expect(page.locator("#status")).to_contain_text(words["turn"])
    for ply, text in enumerate(CAPTURE, 1):
        click_move(page, text)
        expect(page.locator("#moves li")).to_have_count(ply)
    result = page.locator("#result")
    expect(result.locator(".result-title")).to_contain_text(words["won"])
    expect(result.locator(".result-reason")).to_have_text(words["reason"])
    no_overflow(page)
    page.click("#replay-link")
    expect(page.locator("#rp-meta")).to_contain_text(words["replay"])
    expect(page.locator(".player-bar.bottom")).to_contain_text(words["men"])
    page.click("#rp-last")
    expect(page.locator("#rp-counter")).to_have_text(f"{len(CAPTURE)} / {len(CAPTURE)}")
    expect(page.locator('.dsq-pieces [data-square="e5"]')).to_have_count(0)  # the man taken
    no_overflow(page)
    client.close()


def test_an_open_tiger_game_in_the_lobby_marks_its_seat_with_the_games_token(
    browser: Browser, server: LiveServer
) -> None:
    """The seat a lobby entry offers is marked as the game names it: 人 for the men's seat
    (not Jungle's 蓝), in English too."""
    creator = server.player().guest()
    created = creator.create(mode="online", game="tiger", color="red", time_control="10+5")
    client = Client(browser, server, locale="en-GB", viewport=PHONE)
    page = client.open("/#/lobby")
    entry = page.locator(f'.lobby-game[data-game="{created["id"]}"]')
    expect(entry.locator(".token")).to_have_text("人")
    expect(entry.locator(".lobby-side")).to_contain_text("Men")
    client.close()

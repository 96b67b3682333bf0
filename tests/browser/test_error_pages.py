"""Error states are real pages, and the Chinese interface shows no English from the server.

A mistyped game code or a dead link gets "game not found" with a way home (not an empty board
reconnecting for ever); an unknown address a page of its own. Then a walk through the Chinese
interface's error paths and flows collects every visible text and checks that no English words
came through (the server sends codes, the client translates). See ``support.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect
from tests.browser.support import Client, click_move, goto_route, plies, shoot
from tests.support.live import DEN_GAME

#: Words that may stand in the Chinese interface: the game's name, the API link, the rule set
#: WANGO, units and file types in messages, and the keys the keyboard help names.
ALLOWED = {"Jungle", "API", "WANGO", "KB", "UTF", "txt", "pgn", "Enter", "Esc", "Dou", "Shou", "Qi"}
#: A word: two or more letters and nothing else (moves, squares and FEN strings have digits).
WORD = re.compile(r"(?<![\w/+#.])[A-Za-z]{2,}(?![\w/+#])")
#: A guest's default name, "游客" and the first letters of its random id ("游客 eafde"): data,
#: not English, even when the id happens to have no digit.
GUEST_NAME = re.compile(r"游客 [0-9A-Za-z_-]+")


def english_on(page: Page) -> list[str]:
    """The English words in the page's visible text (besides the allowed ones)."""
    text = page.locator("#view").inner_text()  # the page itself (the language menu names English)
    text = GUEST_NAME.sub("游客", text)
    return sorted({word for word in WORD.findall(text) if word not in ALLOWED})


def expect_no_english(page: Page) -> None:
    page.wait_for_timeout(200)  # late texts (a toast, an error) are drawn
    assert english_on(page) == [], page.locator("#view").inner_text()


def forgive(client: Client, status: int) -> None:
    """The browser logs the refusals the test asked for; those are expected."""
    client.errors[:] = [e for e in client.errors if f"status of {status}" not in e]


def test_english_words_are_found() -> None:
    assert WORD.findall("棋谱第 3 行有问题：not a valid record") == ["not", "valid", "record"]
    assert WORD.findall("猫 b2-a2 · 1. a3a4 · l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w") == []
    assert WORD.findall("创建者 Guest-1a2b3 (1500)") == ["Guest"]


def test_a_mistyped_game_code_shows_game_not_found(client: Client, artifacts: Path) -> None:
    page = client.open("/#/lobby")
    page.fill("input[name=code]", "nosuch9")
    page.click(".code button[type=submit]")
    error = page.locator("#error-page")
    expect(error).to_have_attribute("data-kind", "game")
    expect(error.locator("h1")).to_have_text("找不到这盘棋")
    expect(error).to_contain_text("对局码：nosuch9")
    expect(page.locator("#offline")).to_have_count(0)  # no board "reconnecting…"
    expect(page.locator("#board")).to_have_count(0)
    expect_no_english(page)
    shoot(page, artifacts, "error-game-not-found")
    page.click("#error-home")
    expect(page.locator("#go-vsai")).to_be_visible()
    forgive(client, 404)


def test_a_dead_invite_link_shows_game_not_found(client: Client) -> None:
    page = client.open("/#/game/deadlink1?join=1")  # an invite_url, for a game long gone
    expect(page.locator("#error-page")).to_have_attribute("data-kind", "game")
    expect(page.locator("#error-lobby")).to_have_attribute("href", "#/lobby")
    forgive(client, 404)


def test_an_unknown_address_has_a_page(client: Client, artifacts: Path) -> None:
    page = client.open("/#/no/such/page")
    expect(page.locator("#error-page")).to_have_attribute("data-kind", "notFound")
    expect(page.locator("#error-page h1")).to_have_text("页面不存在")
    expect_no_english(page)
    shoot(page, artifacts, "error-unknown-page")


def test_a_binary_file_is_refused_with_a_clear_message(client: Client, artifacts: Path) -> None:
    page = client.open("/#/replay")
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    page.set_input_files(
        "#record-file", files=[{"name": "photo.txt", "mimeType": "text/plain", "buffer": png}]
    )
    error = page.locator("#record-error")
    expect(error).to_contain_text("这个文件不是文本棋谱")
    assert page.locator("#record-text").input_value() == ""  # nothing poured into the box
    # Bytes that are not UTF-8 (no NUL) are refused too.
    latin = "Rouge «élan» déjà".encode("latin-1")
    page.set_input_files(
        "#record-file", files=[{"name": "old.txt", "mimeType": "text/plain", "buffer": latin}]
    )
    expect(error).to_contain_text("这个文件不是文本棋谱")
    assert page.locator("#record-text").input_value() == ""
    shoot(page, artifacts, "replay-binary-file")


def test_the_chinese_interface_shows_no_english_from_the_server(client: Client) -> None:
    page = client.open("/")
    expect(page.locator("#go-vsai")).to_contain_text("人机对战")
    expect_no_english(page)

    # A time control the server refuses, then one too long.
    goto_route(page, client.server.url + "/#/new/vs_ai")
    page.select_option("select[name=time]", "custom")
    for text in ("10+x", "600+0"):
        page.fill("#time-custom", text)
        page.click("#start")
        expect(page.locator("#settings-error")).to_be_visible()
        expect_no_english(page)
    forgive(client, 422)

    # Records the server cannot read: an illegal move, a broken tag line.
    goto_route(page, client.server.url + "/#/replay")
    for record, said in (
        ('[Red "A"]\n\n1. b2b5 *\n', "b2b5 这步不合规则"),
        ('[Red "A"\n\n1. a3a4 *\n', "棋谱第 1 行有问题"),
    ):
        page.fill("#record-text", record)
        page.click("#record-open")
        expect(page.locator("#record-error")).to_have_text(re.compile(f"^{said}|{said}$"))
        expect_no_english(page)
    forgive(client, 422)

    # Things that are not there.
    for address, text in (
        ("/#/replay/record/no-such-record", "找不到这份棋谱"),
        ("/#/player/nobody_here", "找不到玩家"),
    ):
        page.goto(client.server.url + address)
        expect(page.locator("#view")).to_contain_text(text)
        expect_no_english(page)
    forgive(client, 404)

    # A game on one screen to its end, and its replay: the record's own Event tag ("Casual
    # game") is shown in Chinese; a move out of turn is refused in Chinese.
    goto_route(page, client.server.url + "/#/new/same_screen")
    page.select_option("select[name=time]", "")  # untimed (the refused ones were remembered)
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("红方走棋")
    for i, move in enumerate(DEN_GAME):
        click_move(page, move)
        plies(page, i + 1)
    expect(page.locator("#result")).to_contain_text("红方获胜")
    expect_no_english(page)
    game_id = page.url.rsplit("/", 1)[-1]
    goto_route(page, client.server.url + f"/#/replay/game/{game_id}")
    expect(page.locator("#rp-meta")).to_contain_text("休闲对局")
    expect_no_english(page)

    # Someone else's open game, in the lobby and on its page: a guest who chose no name is
    # "Guest-…" to the server, and "游客 …" here.
    other = client.server.player().guest()
    open_game = other.create(mode="online", color="red", public=True)
    goto_route(page, client.server.url + "/#/lobby")
    entry = page.locator(f'.lobby-game[data-game="{open_game["id"]}"]')
    expect(entry).to_contain_text("游客")
    expect_no_english(page)
    goto_route(page, client.server.url + f"/#/game/{open_game['id']}")
    expect(page.locator(".player-bar").first).to_be_visible()
    expect(page.locator("#view")).to_contain_text("游客")
    expect_no_english(page)

    goto_route(page, client.server.url + "/#/new/vs_ai")
    page.select_option("select[name=time]", "")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("走棋")
    page.evaluate("window.gameView.send('move', { move: 'a3a5' })")  # illegal: refused
    expect(page.locator("#move-note")).to_contain_text("这步棋不合规则")  # why, in words that stay
    expect_no_english(page)

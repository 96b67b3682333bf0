"""The analysis board in a real browser: set up a position from the palette (taps and a
drag), see the server's clear error for a position the rules reject, then the engine's three
best lines with their scores, and play one out.

The module's engine is a stand-in that gives three lines: the first three legal moves in
alphabetical order, each two plies long, with falling scores (of any game: 老虎棋's positions
are set up and analysed on the same board).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import PHONE, Client, no_overflow, shoot
from tests.support.live import LiveServer, make_settings, running

from doushouqi.jungle.board import Board
from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi, position_for


class ThreeLines(RandomAi):
    async def analyse(self, request: AiRequest) -> Analysis:
        position = position_for(request)  # through the game interface: any game
        if position.outcome() is not None:
            return {"bestmove": None, "score": None, "depth": 0, "pv": [], "lines": []}
        lines = []
        for i, move in enumerate(sorted(position.legal_moves())[: request.multipv]):
            position.push(move)
            over = position.outcome() is not None
            reply = [] if over else sorted(position.legal_moves())[:1]
            position.pop()
            lines.append({"score": {"cp": 300 - 100 * i}, "depth": 4, "pv": [move, *reply]})
        return {"bestmove": lines[0]["pv"][0], **lines[0], "lines": lines}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("board-db")), ai=ThreeLines()) as live:
        yield live


#: 老虎棋's start placement (laohuqi).
TIGER_START = "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM"


def tap(page: Page, square: str) -> None:
    page.click(f'#board .dsq-squares [data-square="{square}"]')


def pick(page: Page, color: str, animal: str) -> None:
    page.click(f'.ab-piece[data-color="{color}"][data-animal="{animal}"]')


def drag(page: Page, source: str, target: str) -> None:
    page.locator(source).hover()
    page.mouse.down()
    page.locator(target).hover()
    page.mouse.up()


def placement(page: Page) -> str:
    return str(page.evaluate("window.analysisBoard.board.getState().position"))


def test_set_up_a_position_and_see_the_best_three_lines(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-analysis")
    expect(page.locator("h1")).to_have_text("分析棋盘")
    expect(page.locator("#ab-status")).to_contain_text("局面有效")  # the start position
    page.click("#ab-clear")
    expect(page.locator("#ab-status")).to_contain_text("棋盘是空的")

    # a lion in the water: the server says what is wrong, in words
    pick(page, "red", "lion")
    tap(page, "b4")
    pick(page, "blue", "elephant")
    tap(page, "a9")
    status = page.locator("#ab-status")
    expect(status).to_have_attribute("data-valid", "false")
    expect(status).to_contain_text("规则不允许这个局面")
    expect(status).to_contain_text("只有鼠可以待在水里")
    expect(page.locator("#ab-analyse")).to_be_disabled()
    shoot(page, artifacts, "analysis-board-invalid")

    # the eraser takes the lion away; a drag from the palette puts it on d7
    page.click("#ab-eraser")
    tap(page, "b4")
    drag(
        page,
        '.ab-piece[data-color="red"][data-animal="lion"]',
        '#board .dsq-squares [data-square="d7"]',
    )
    pick(page, "blue", "rat")
    tap(page, "g1")
    # an animal dragged on the board moves; dragged off it, it is taken away
    drag(page, '#board .dsq-squares [data-square="g1"]', '#board .dsq-squares [data-square="f2"]')
    expect(page.locator("#board")).to_have_attribute("data-pieces", "3")
    assert placement(page) == "e6/7/3L3/7/7/7/7/5r1/7"
    drag(page, '#board .dsq-squares [data-square="f2"]', "#ab-palette")
    expect(page.locator("#board")).to_have_attribute("data-pieces", "2")
    tap(page, "g1")  # the rat is still the chosen animal
    page.click("#ab-turn-blue")
    expect(status).to_have_attribute("data-valid", "true")
    expect(status).to_contain_text("局面有效")
    assert placement(page) == "e6/7/3L3/7/7/7/7/7/6r"
    fen = page.input_value("#ab-fen")
    assert fen.split()[:2] == ["e6/7/3L3/7/7/7/7/7/6r", "b"]

    # the engine's three best lines, best first, with scores; a tap plays one out
    page.click("#ab-analyse")
    lines = page.locator("#ab-lines li")
    expect(lines).to_have_count(3)
    board = Board(fen)
    expected = sorted(str(m) for m in board.legal_moves)[:3]
    assert [lines.nth(i).locator("button").get_attribute("data-move") for i in range(3)] == expected
    expect(lines.nth(0).locator(".ab-score")).to_have_text("−3.0")  # Blue to move, +300 for Blue
    expect(page.locator("#ab-engine")).to_contain_text("深度 4")
    shoot(page, artifacts, "analysis-board-lines")
    lines.nth(1).locator("button").click()
    expect(page.locator("#board")).to_have_attribute("data-ply", "2")
    expect(page.locator("#ab-moves")).not_to_contain_text("还没有")
    page.click("#ab-back")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.locator("#ab-lines li")).to_have_count(3)

    # back to the editor, English
    page.click("#ab-edit")
    expect(page.locator("#ab-edit-panel")).to_be_visible()
    page.select_option("#lang", "en")
    expect(page.locator("h1")).to_have_text("Analysis board")
    expect(page.locator("#ab-status")).to_contain_text("The position is valid")
    assert placement(page) == "e6/7/3L3/7/7/7/7/7/6r"  # kept in the address
    assert page.evaluate("window.analysisBoard.turn") == "blue"


def test_a_replay_position_opens_on_the_board(client: Client) -> None:
    fen = "7/3L3/7/7/7/7/7/3l3/7 w 0 1"
    page = client.open(f"/#/analysis?fen={fen.replace(' ', '%20')}&rules=classic")
    expect(page.locator("#ab-status")).to_contain_text("局面有效")
    assert placement(page) == fen.split()[0]
    expect(page.locator("#ab-rules")).to_have_value("classic")
    page.click("#ab-analyse")
    expect(page.locator("#ab-lines li")).to_have_count(3)
    # a position in which the game is over: no lines, and says so
    page.click("#ab-edit")
    page.click("#ab-eraser")
    tap(page, "d8")
    pick(page, "red", "lion")
    tap(page, "d9")
    page.click("#ab-turn-blue")
    expect(page.locator("#ab-status")).to_contain_text(re.compile("对局已经结束"))


def test_the_explorer_link_waits_for_the_position_it_opens(client: Client) -> None:
    """Until the server has told the position analysed, the link to the explorer has no
    address: it is not shown (a tap on it did nothing, and a test that tapped it at once on a
    loaded machine stayed on this page)."""
    fen = "7/3L3/7/7/7/7/7/3l3/7 w 0 1"
    page = client.open(f"/#/analysis?fen={fen.replace(' ', '%20')}&rules=classic")
    expect(page.locator("#ab-status")).to_contain_text("局面有效")
    held: list = []
    page.route("**/api/position", lambda route: held.append(route))  # the answer held back
    page.click("#ab-analyse")
    page.wait_for_function("() => document.querySelector('#ab-play-panel').hidden === false")
    expect(page.locator("#ab-explorer")).to_be_hidden()
    page.wait_for_timeout(200)  # the request leaves the page and reaches the route
    assert held, "the position was never asked for"
    for route in held:
        route.continue_()
    expect(page.locator("#ab-explorer")).to_be_visible()
    expect(page.locator("#ab-explorer")).to_have_attribute("href", re.compile("^#/explorer\\?"))


def paste(page: Page, text: str) -> None:
    """A paste into the position box: the browser's own paste event, with ``text`` on it."""
    page.locator("#ab-fen").evaluate(
        """(box, text) => {
            const data = new DataTransfer();
            data.setData('text/plain', text);
            box.focus();
            const options = { clipboardData: data, bubbles: true, cancelable: true };
            box.dispatchEvent(new ClipboardEvent('paste', options));
        }""",
        text,
    )


def test_a_pasted_position_string_is_set_up(client: Client, artifacts: Path) -> None:
    page = client.open("/#/analysis")
    status = page.locator("#ab-status")
    expect(status).to_contain_text("局面有效")
    # Blue to move, no counters, with the whitespace a copy brings along.
    paste(page, "\n  7/7/7/r6/7/3L3/7/7/7\tb  \n")
    expect(page.locator("#board")).to_have_attribute("data-pieces", "2")
    expect(page.locator("#ab-turn-blue")).to_be_checked()
    expect(status).to_have_attribute("data-valid", "true")
    assert placement(page) == "7/7/7/r6/7/3L3/7/7/7"
    expect(page.locator("#ab-fen")).to_have_value(re.compile(r"^7/7/7/r6/7/3L3/7/7/7 b"))
    assert "fen=7%2F7%2F7%2Fr6%2F7%2F3L3%2F7%2F7%2F7+b" in page.url
    # With its counters, typed and Enter: the same.
    page.fill("#ab-fen", "l6/7/7/7/7/7/7/7/6L w 4 12")
    page.press("#ab-fen", "Enter")
    expect(page.locator("#board")).to_have_attribute("data-pieces", "2")
    expect(page.locator("#ab-turn-red")).to_be_checked()
    assert placement(page) == "l6/7/7/7/7/7/7/7/6L"
    # A position the rules refuse is set up, and the check says why.
    paste(page, "7/7/7/1L5/7/7/7/7/e6 w")
    expect(status).to_have_attribute("data-valid", "false")
    expect(status).to_contain_text("只有鼠可以待在水里")
    # Not a position: refused in words, the board as it was.
    paste(page, "  hello world ")
    expect(status).to_contain_text("无法摆出这个局面")
    expect(status).to_contain_text("“hello world”不是局面字符串")
    expect(page.locator("#ab-fen")).to_have_attribute("aria-invalid", "true")
    assert placement(page) == "7/7/7/1L5/7/7/7/7/e6"
    shoot(page, artifacts, "analysis-pasted-bad")
    # Then a good one again: the error goes.
    paste(page, "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1")
    expect(status).to_contain_text("局面有效")
    expect(page.locator("#ab-fen")).not_to_have_attribute("aria-invalid", "true")
    page.select_option("#lang", "en")
    expect(page.locator("#ab-fen-help")).to_contain_text("Paste a position string")


# ---------------------------------------------------------------------- 老虎棋 on the same board


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-GB", {"help": "Pick the tiger or a man", "valid": "The position is valid",
                   "tigers": "The number of tigers", "depth": "the tiger's side", "men": "Men"}),
        ("zh-CN", {"help": "选老虎或人", "valid": "局面有效", "tigers": "老虎的数目",
                   "depth": "虎方为准", "men": "人方"}),
        ("zh-TW", {"help": "選老虎或人", "valid": "局面有效", "tigers": "老虎的數目",
                   "depth": "虎方為準", "men": "人方"}),
    ],
    ids=["en", "zh-Hans", "zh-Hant"],
)  # fmt: skip
def test_a_tiger_position_set_up_and_analysed_on_a_phone(
    browser: Browser, server: LiveServer, locale: str, words: dict[str, str]
) -> None:
    """Picked on the analysis board: its points, the tiger and a man in the palette, the
    server's check in the game's words, then the engine's lines from a jump."""
    client = Client(browser, server, locale=locale, viewport=PHONE)
    page = client.open("/#/analysis")
    page.locator('#ab-game-picker label[data-game="tiger"]').click()
    expect(page.locator("#analysis-board")).to_have_attribute("data-game", "tiger")
    expect(page.locator("#board .dsq-board.dsq-tiger")).to_be_visible()
    expect(page.locator("#board .dsq-squares [data-square]")).to_have_count(87)
    expect(page.locator(".ab-piece[data-animal]:not(#ab-eraser)")).to_have_count(2)
    expect(page.locator("#ab-edit-panel .ab-help")).to_contain_text(words["help"])
    status = page.locator("#ab-status")
    expect(status).to_contain_text(words["valid"])  # the start position
    assert placement(page) == TIGER_START
    page.click("#ab-clear")
    expect(status).to_have_attribute("data-valid", "false")
    expect(status).to_contain_text(words["tigers"])
    # The tiger on e5, a man on e4 it can jump, four more men so that the game goes on.
    pick(page, "red", "tiger")
    tap(page, "e5")
    pick(page, "blue", "man")
    for point in ("e4", "a1", "b1", "c1"):
        tap(page, point)
    expect(page.locator("#board")).to_have_attribute("data-pieces", "5")
    expect(status).to_have_attribute("data-valid", "true")
    expect(page.locator("#ab-fen")).to_have_value("3/3/9/9/9/9/4T4/4M4/9/9/MMM6 t 0 1")
    men_to_move = page.locator(".ab-radio", has=page.locator("#ab-turn-blue"))
    expect(men_to_move).to_contain_text(words["men"])
    page.click("#ab-analyse")
    lines = page.locator("#ab-lines li")
    expect(lines).to_have_count(3)
    expect(page.locator("#ab-engine")).to_contain_text(words["depth"])
    # The second line in alphabetical order (e5d5, e5e3 …) is the tiger's jump over e4.
    jump = lines.nth(1).locator(".ab-line")
    expect(jump).to_have_attribute("data-move", "e5e3")
    jump.click()
    # Three men left, fewer than four: the jump wins, the line ends there.
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    expect(page.locator('#board .dsq-pieces [data-square="e4"]')).to_have_count(0)  # taken
    expect(page.locator("#ab-engine")).to_contain_text("1-0")
    assert "game=tiger" in page.url
    page.reload()  # the game is in the address
    expect(page.locator("#analysis-board")).to_have_attribute("data-game", "tiger")
    no_overflow(page)
    client.close()


def test_a_pasted_tiger_position_opens_the_tigers_board(client: Client) -> None:
    page = client.open("/#/analysis")
    expect(page.locator("#analysis-board")).to_have_attribute("data-game", "jungle")
    paste(page, f"{TIGER_START} m 0 1")
    expect(page.locator("#analysis-board")).to_have_attribute("data-game", "tiger")
    expect(page.locator("#ab-turn-blue")).to_be_checked()  # the men to move
    expect(page.locator("#ab-status")).to_contain_text("局面有效")
    assert placement(page) == TIGER_START

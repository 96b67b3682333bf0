"""The analysis board in a real browser: set up a position from the palette (taps and a
drag), see the server's clear error for a position the rules reject, then the engine's three
best lines with their scores, and play one out.

The module's engine is a stand-in that gives three lines: the first three legal moves in
alphabetical order, each two plies long, with falling scores.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from tests.browser.support import Client, shoot
from tests.support.helpers import board_for
from tests.support.live import LiveServer, make_settings, running

from doushouqi.jungle.board import Board
from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi


class ThreeLines(RandomAi):
    async def analyse(self, request: AiRequest) -> Analysis:
        board = board_for(request)
        if board.is_game_over():
            return {"bestmove": None, "score": None, "depth": 0, "pv": [], "lines": []}
        lines = []
        for i, move in enumerate(sorted(str(m) for m in board.legal_moves)[: request.multipv]):
            board.push_move(move)
            reply = [] if board.is_game_over() else sorted(str(m) for m in board.legal_moves)[:1]
            board.pop()
            lines.append({"score": {"cp": 300 - 100 * i}, "depth": 4, "pv": [move, *reply]})
        return {"bestmove": lines[0]["pv"][0], **lines[0], "lines": lines}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running(make_settings(tmp_path_factory.mktemp("board-db")), ai=ThreeLines()) as live:
        yield live


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
    # 老虎棋's start position: named as the other game's.
    paste(page, "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1")
    expect(status).to_contain_text("这是老虎棋的局面")
    # Then a good one again: the error goes.
    paste(page, "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1")
    expect(status).to_contain_text("局面有效")
    expect(page.locator("#ab-fen")).not_to_have_attribute("aria-invalid", "true")
    page.select_option("#lang", "en")
    expect(page.locator("#ab-fen-help")).to_contain_text("Paste a position string")

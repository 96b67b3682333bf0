"""The endgame tables on the pages, in a real browser: the analysis board says "Tablebase: Red
wins in N plies" (N from the library's probe_dtm) and lists every legal move with its effect,
each one playable by a tap; a replay of a short covered game shows the value of the shown
position and marks with a "TB" badge each move that changed it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import expect
from tests.browser.support import Client, shoot
from tests.support.live import LiveServer

from doushouqi.jungle.board import Board
from doushouqi.jungle.record import GameRecord, write_record
from doushouqi.jungle.tablebase.probe import probe_dtm, probe_moves

RAT_AGAINST_LION = "7/7/7/r6/7/3L3/7/7/7 b"  # Blue's rat a6 against Red's lion d4
RAT_AGAINST_RAT = "7/7/7/3r3/7/7/3R3/7/7 w"  # Red to move wins (d3d4); d3c3 only draws


def plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


def test_the_analysis_board_shows_the_tables_value_and_each_moves_effect(
    browser: object, server: LiveServer, artifacts: Path
) -> None:
    board = Board(RAT_AGAINST_LION)
    dtm = probe_dtm(board)
    values = probe_moves(board)
    assert dtm is not None and dtm < 0 and values  # Blue to move loses: Red wins
    client = Client(browser, server, locale="en-US")  # type: ignore[arg-type]
    page = client.open("/#/analysis?" + urlencode({"fen": RAT_AGAINST_LION, "rules": "wango"}))
    line = page.locator("#ab-tb-line")
    expect(line).to_have_text(f"Tablebase: Red wins in {plies(-dtm)}")
    rows = page.locator("#ab-tb-moves li")
    expect(rows).to_have_count(len(values))
    for i, value in enumerate(values):  # best first, each with its effect for Blue
        row = rows.nth(i)
        category = "win" if value.value.wdl > 0 else "loss" if value.value.wdl < 0 else "draw"
        expect(row).to_have_attribute("data-uci", str(value.move))
        expect(row).to_have_attribute("data-category", category)
        if category == "loss":
            effect = f"loses in {plies(value.value.dtm or 0)}"
            expect(row.locator(".tb-effect")).to_have_text(effect)
    shoot(page, artifacts, "tablebase-analysis")

    # A tap plays the move: the board goes on to the position after it, with its own value.
    first = values[0]
    rows.first.locator("button").click()
    expect(page.locator("#analysis-board")).to_have_attribute("data-mode", "play")
    expect(page.locator("#board")).to_have_attribute("data-ply", "1")
    board.push(first.move)
    after = probe_dtm(board)
    assert after is not None and after > 0  # now Red to move wins
    expect(line).to_have_text(f"Tablebase: Red wins in {plies(after)}")
    shoot(page, artifacts, "tablebase-analysis-play")
    client.close()


def test_the_tables_value_is_worded_in_chinese_and_out_of_scope_rules_are_not_covered(
    browser: object, server: LiveServer
) -> None:
    client = Client(browser, server)  # zh-CN
    page = client.open("/#/analysis?" + urlencode({"fen": RAT_AGAINST_LION, "rules": "wango"}))
    expect(page.locator("#ab-tb-line")).to_have_text("残局库：红方胜，双方共 12 步")
    classic = urlencode({"fen": RAT_AGAINST_LION, "rules": "classic"})
    page.goto(f"{server.url}/#/analysis?{classic}")
    page.reload()
    expect(page.locator("#ab-tb-line")).to_have_text("残局库：此局面不在库中")
    expect(page.locator("#ab-tb-moves li")).to_have_count(0)
    client.close()


def test_a_replay_shows_the_value_and_marks_the_moves_that_changed_it(
    browser: object, server: LiveServer, artifacts: Path
) -> None:
    board = Board(RAT_AGAINST_RAT, rules="wango")
    for text in ("d3c3", "d6c6"):  # a win thrown into a draw, then the draw into a loss
        board.push(board.parse_move(text))
    dtm = probe_dtm(board)
    assert dtm is not None and dtm > 0  # Red to move wins again
    text = write_record(GameRecord.from_board(board, Red="Li", Blue="Wang"))
    response = server.player().post(
        "/api/records", content=text.encode(), headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    record = response.json()["id"]
    client = Client(browser, server, locale="en-US")  # type: ignore[arg-type]
    page = client.open(f"/#/replay/record/{record}?ply=2")
    expect(page.locator("#rp-tb-line")).to_have_text(f"Tablebase: Red wins in {plies(dtm)}")
    first = page.locator('#rp-moves li[data-ply="1"] .tb-badge')
    expect(first).to_have_attribute("data-change", "win.draw")
    expect(first).to_have_attribute("title", "Tablebase: this move turned a win into a draw")
    second = page.locator('#rp-moves li[data-ply="2"] .tb-badge')
    expect(second).to_have_attribute("data-change", "draw.loss")
    page.click("#rp-first")
    start = probe_dtm(Board(RAT_AGAINST_RAT, rules="wango"))
    assert start is not None
    expect(page.locator("#rp-tb-line")).to_have_text(f"Tablebase: Red wins in {plies(start)}")
    page.click("#rp-next")
    expect(page.locator("#rp-tb-line")).to_have_text("Tablebase: draw with best play")
    shoot(page, artifacts, "tablebase-replay")
    client.close()

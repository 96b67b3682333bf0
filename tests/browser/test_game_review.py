"""Game review in a real browser: analyse a replay, see each side's accuracy and the grades
?! ? ?? in the move list and on the graph, the better move and its line for a marked move,
and learn from the mistakes (a wrong try refused, a good one accepted; judged by the server).

The module's engine is a script: every position is level, except after Red's third move
(ply 5) as played in the game, from where Blue stands 8 pawns up; best moves are the first
legal move in alphabetical order. So ply 5 is Red's one blunder, any other move there is
good, and the hint is known.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from tests.browser.support import Client, fetch_json, shoot
from tests.browser.test_replay import den_game
from tests.support.helpers import board_for
from tests.support.live import DEN_GAME, LiveServer, make_settings, move, running, start_online

from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi

BLUNDER_PLY = 5
#: Seconds the script takes per position of a stored review (time enough to see it progress).
REVIEW_POSITION_S = 0.1
OPENING_BLUNDER = "a3a4"  # in a game of the server: Red's first move throws it away


class ScriptedAnalysis(RandomAi):
    async def analyse(self, request: AiRequest) -> Analysis:
        if request.kind == "review":
            await asyncio.sleep(REVIEW_POSITION_S)  # the progress of a stored review shows
        board = board_for(request)
        if board.is_game_over():
            return {"bestmove": None, "score": None, "depth": 0, "pv": [], "lines": []}
        moves = sorted(str(m) for m in board.legal_moves)
        played = list(request.moves)
        blundered = played[BLUNDER_PLY - 1 : BLUNDER_PLY] == DEN_GAME[BLUNDER_PLY - 1 : BLUNDER_PLY]
        opened = played[:1] == [OPENING_BLUNDER]  # the second test's game
        red_view = -800 if blundered or opened else 0
        cp = red_view if board.turn == 0 else -red_view
        line = {"score": {"cp": cp}, "depth": 3, "pv": moves[:1]}
        return {"bestmove": moves[0], **line, "lines": [line]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with running(
        make_settings(tmp_path_factory.mktemp("review-db")), ai=ScriptedAnalysis()
    ) as live:
        yield live


def test_analyse_a_game_see_accuracy_grades_and_learn(client: Client, artifacts: Path) -> None:
    text, fens = den_game()
    page = client.open("/")
    record = page.evaluate(
        """async (text) => (await fetch('/api/records', { method: 'POST', body: text,
             headers: { 'Content-Type': 'text/plain; charset=utf-8' } })).json()""",
        text,
    )
    page.goto(f"{client.server.url}/#/replay/record/{record['id']}")
    page.click("#analyse")
    expect(page.locator("#rp-progress")).to_contain_text("分析完成", timeout=60_000)

    # accuracy and counts per side: Red blundered once, Blue never
    table = page.locator("#rv-table")
    expect(table).to_be_visible()
    red, blue = table.locator("tr.rv-player.red"), table.locator("tr.rv-player.blue")
    expect(red.locator(".rv-blunders")).to_have_text("1")
    expect(blue.locator(".rv-blunders")).to_have_text("0")
    expect(blue.locator(".rv-accuracy")).to_have_text("100.0%")
    red_accuracy = float(red.locator(".rv-accuracy").get_attribute("data-accuracy") or "nan")
    assert 50 < red_accuracy < 100
    scores = page.evaluate("window.replayView.scores")
    review = fetch_json(page, "/api/review", "POST", {"scores": scores, "turn": 0})
    assert review["players"][0]["accuracy"] == red_accuracy  # the page shows the server's numbers

    # the grade in the move list and on the graph
    marked = page.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"]')
    expect(marked).to_have_attribute("data-grade", "blunder")
    expect(marked.locator(".rv-mark")).to_have_text("??")
    expect(page.locator("#rp-moves .rv-mark")).to_have_count(1)
    expect(page.locator("#eval-graph .eg-dot.graded.blunder")).to_have_count(1)

    # the better move and its line, on a tap of the marked move
    expect(page.locator("#rv-better")).to_be_hidden()
    marked.locator("button").click()
    better = page.locator("#rv-better")
    expect(better).to_be_visible()
    expect(better).to_contain_text("严重失误")
    expect(better).to_contain_text("更好的走法")
    expect(page.locator("#rv-line")).to_contain_text("变化")
    shoot(page, artifacts, "review-graded")

    # learn from Red's mistakes: the game's move is refused, another is accepted
    page.click("#rv-learn-red")
    expect(page.locator("#learn-mistakes")).to_be_visible()
    expect(page.locator("#lm-title")).to_contain_text("第 1 个失误")
    expect(page.locator("#learn-board")).to_have_attribute("data-ready", "true")
    state = page.evaluate("window.replayView.review.learn.board.getState()")
    assert state["position"] == fens[BLUNDER_PLY - 1].split()[0]
    page.click("#lm-hint")
    best = page.evaluate(f"window.replayView.analyses[{BLUNDER_PLY - 1}].bestmove")
    hint = page.evaluate("window.replayView.review.learn.board.getState().hint")
    assert hint == [best[:2], best[2:]]
    shoot(page, artifacts, "review-learn")
    learn_board = page.locator("#learn-board")
    mistake = DEN_GAME[BLUNDER_PLY - 1]
    learn_board.locator(f'.dsq-squares [data-square="{mistake[:2]}"]').click()
    learn_board.locator(f'.dsq-squares [data-square="{mistake[2:]}"]').click()
    expect(page.locator("#lm-feedback")).to_have_class(re.compile("bad"))
    expect(learn_board).to_have_attribute("data-ready", "true")  # offered again
    learn_board.locator(f'.dsq-squares [data-square="{best[:2]}"]').click()
    learn_board.locator(f'.dsq-squares [data-square="{best[2:]}"]').click()
    expect(page.locator("#lm-feedback")).to_have_class(re.compile("good"))
    expect(page.locator("#lm-feedback")).to_contain_text("正确")
    page.click("#lm-next")
    expect(page.locator("#lm-title")).to_contain_text("所有失误都练完了")
    page.click("#lm-close")
    expect(page.locator("#learn-mistakes")).to_have_count(0)
    expect(page.locator("#replay .replay-page")).to_be_visible()

    # "analyse this position" opens the analysis board on the replay's position
    page.locator('#rp-moves li[data-ply="4"] button').click()
    page.click("#rp-to-board")
    expect(page.locator("#ab-status")).to_contain_text("局面有效")
    assert page.evaluate("window.analysisBoard.turn") == "red"


def test_in_a_game_of_yours_your_mistakes_come_first(client: Client) -> None:
    server = client.server
    red, blue = server.player().guest(), server.player().guest()
    game_id, red_ws, blue_ws = start_online(server, red, blue)
    with red_ws, blue_ws:
        move(red_ws, OPENING_BLUNDER)
        move(blue_ws, "g7g6")
        red_ws.send({"type": "resign"})
        red_ws.wait_for("game_finished")
    # The browser is the red player (its guest cookie).
    client.context.add_cookies(
        [{"name": k, "value": v, "url": server.url} for k, v in red.cookies.items()]
    )
    page = client.open(f"/#/replay/game/{game_id}")
    page.click("#analyse")
    expect(page.locator("#rp-progress")).to_contain_text("电脑分析（标准）", timeout=30_000)
    learn = page.locator("#rv-learn-red")
    expect(learn).to_have_text("你的失误（1）")
    expect(learn).to_have_class(re.compile("primary"))
    expect(page.locator('#rp-moves li[data-ply="1"] .rv-mark')).to_have_text("??")


def finished_den_game(server: LiveServer) -> str:
    owner = server.player().guest()
    game_id = str(owner.create(mode="same_screen")["id"])
    with owner.socket(game_id) as ws:
        ws.wait_for("game_started")
        for text in DEN_GAME:
            move(ws, text)
        ws.wait_for("game_finished")
    return game_id


def review_numbers(page: Page) -> tuple[list[str], list[str], int]:
    """What the page shows of the review: each side's accuracy, each move's grade, and the
    points of the graph."""
    accuracies = page.eval_on_selector_all(
        "#rv-table .rv-accuracy", "els => els.map((e) => e.dataset.accuracy)"
    )
    grades = page.eval_on_selector_all("#rp-moves li", "els => els.map((e) => e.dataset.grade)")
    points = int(page.locator("#eval-graph").get_attribute("data-points") or 0)
    return accuracies, grades, points


def test_a_stored_review_is_asked_for_followed_and_the_same_for_every_viewer(
    client: Client, browser: Browser, artifacts: Path
) -> None:
    game_id = finished_den_game(client.server)
    page = client.open(f"/#/replay/game/{game_id}")
    expect(page.locator("#rp-progress")).to_contain_text("服务器的引擎对每个局面只分析一次")
    page.click("#analyse")
    # The server's progress, position by position, with a progress bar.
    expect(page.locator("#rp-progress")).to_contain_text("分析中")
    expect(page.locator("#rp-count")).to_have_text(re.compile(rf"^\d+ / {len(DEN_GAME) + 1}$"))
    expect(page.locator(".rp-progress-bar")).to_be_visible()
    expect(page.locator("#analyse")).to_be_disabled()
    shoot(page, artifacts, "review-progress")
    # Then the marks, the accuracies and the graph.
    expect(page.locator("#rp-progress")).to_contain_text("电脑分析（标准）", timeout=30_000)
    expect(page.locator(".rp-progress-bar")).to_be_hidden()
    blunder = page.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"] .rv-mark')
    expect(blunder).to_have_text("??")
    expect(page.locator("#rv-table")).to_be_visible()
    expect(page.locator("#analyse")).to_have_text("更深入的分析")
    seen = review_numbers(page)
    assert seen[2] == len(DEN_GAME) + 1 and seen[0][0] and seen[1][BLUNDER_PLY - 1] == "blunder"
    shoot(page, artifacts, "review-done")

    # A reload, and another viewer (another browser context, in English): the same numbers.
    page.reload()
    expect(page.locator("#rp-progress")).to_contain_text("电脑分析（标准）")
    expect(page.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"] .rv-mark')).to_have_text("??")
    assert review_numbers(page) == seen
    spectator = Client(browser, client.server, locale="en-US")
    try:
        other = spectator.open(f"/#/replay/game/{game_id}")
        expect(other.locator("#rp-progress")).to_contain_text("Computer analysis (standard)")
        expect(other.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"] .rv-mark')).to_have_text("??")
        assert review_numbers(other) == seen

        # A deeper re-analysis, asked for by the spectator: the first page follows it too.
        other.click("#analyse")
        expect(other.locator("#rp-progress")).to_contain_text("Analysing more deeply")
        expect(other.locator("#rp-progress")).to_contain_text("(deep)", timeout=30_000)
        expect(other.locator("#analyse")).to_have_text("Analysed in depth")
        expect(other.locator("#analyse")).to_be_disabled()
    finally:
        spectator.close()
    page.reload()
    expect(page.locator("#rp-progress")).to_contain_text("电脑分析（深入）")
    assert review_numbers(page)[0] == seen[0]  # the script scores alike at every budget

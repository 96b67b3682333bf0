"""A 老虎棋 game's review in the browser: the replay's analysis grades the moves, the summary
names the sides as the game does (虎方, 人方 and their tokens, not Jungle's red and blue), and
learning from the men's mistake offers the men's pieces on a board that asks the server about
this game (its moves, its side letters).

The module's engine is a script of any game: every position is level, except after the men's
first move as played (ply 2), from where the tiger stands 8 men up; the best move is the first
legal move in alphabetical order. So ply 2 is the men's one blunder.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from tests.browser.support import PHONE, Client
from tests.support.live import LiveServer, make_settings, move, running, start_online

from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi, position_for

GAME = ["e10e9", "d2d3", "e9e8", "e2e3"]
BLUNDER_PLY = 2


class ScriptedAnalysis(RandomAi):
    async def analyse(self, request: AiRequest) -> Analysis:
        position = position_for(request)
        if position.outcome() is not None:
            return {"bestmove": None, "score": None, "depth": 0, "pv": [], "lines": []}
        moves = sorted(position.legal_moves())
        blundered = list(request.moves[BLUNDER_PLY - 1 : BLUNDER_PLY]) == [GAME[BLUNDER_PLY - 1]]
        tiger_view = 800 if blundered else 0
        cp = tiger_view if position.turn == 0 else -tiger_view
        line = {"score": {"cp": cp}, "depth": 3, "pv": moves[:1]}
        return {"bestmove": moves[0], **line, "lines": [line]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("tiger-review"))
    with running(settings, ai=ScriptedAnalysis()) as live:
        yield live


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-GB", {"men": "Men", "token": "人"}), ("zh-TW", {"men": "人方", "token": "人"})],
    ids=["en", "zh-Hant"],
)
def test_a_tiger_games_review_names_its_sides_and_teaches_the_men(
    browser: Browser, server: LiveServer, locale: str, words: dict[str, str]
) -> None:
    tiger, men = server.player().guest(), server.player().guest()
    game_id, tiger_ws, men_ws = start_online(server, tiger, men, game="tiger")
    for ply, text in enumerate(GAME):
        move(men_ws if ply % 2 else tiger_ws, text)
    tiger_ws.send({"type": "resign"})
    tiger_ws.wait_for("game_finished")
    tiger_ws.close()
    men_ws.close()
    client = Client(browser, server, locale=locale, viewport=PHONE)
    page = client.open(f"/#/replay/game/{game_id}")
    page.click("#analyse")
    table = page.locator("#rv-table")
    expect(table).to_be_visible(timeout=60_000)
    men_row = table.locator("tr.rv-player.blue")
    expect(men_row.locator("th")).to_contain_text(words["men"])
    expect(men_row.locator(".token")).to_have_text(words["token"])
    expect(men_row.locator(".rv-blunders")).to_have_text("1")
    expect(page.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"]')).to_have_attribute(
        "data-grade", "blunder"
    )
    # Learning from the men's mistake: their pieces to move, their rank 1 at the bottom.
    page.click("#rv-learn-blue")
    expect(page.locator("#lm-task")).to_contain_text(words["men"])
    learn = page.locator("#learn-board")
    expect(learn).to_have_attribute("data-ready", "true")
    state = page.evaluate("window.replayView.review.learn.board.getState()")
    assert state["movableColor"] == "blue" and "d2" in state["dests"]
    assert state["orientation"] == "red"  # the men's view (老虎棋's tiger sees its nest below)
    page.click("#lm-hint")  # the engine's move as an arrow, split into points by the game
    best = page.evaluate(f"window.replayView.analyses[{BLUNDER_PLY - 1}].bestmove")
    hint = page.evaluate("window.replayView.review.learn.board.getState().hint")
    assert hint == [best[:2], best[2:]]
    learn.locator('.dsq-squares [data-square="d2"]').click()
    learn.locator('.dsq-squares [data-square="d3"]').click()  # the game's move again
    expect(page.locator("#lm-feedback")).to_have_class(re.compile("bad"))
    client.close()

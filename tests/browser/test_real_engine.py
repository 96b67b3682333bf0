"""The web client against the real engine (worker processes running the numba search), not the
random stand-in of the other browser tests: a game against the computer at level 1, played to
its end by pressing the hint button (the engine at full strength) for every move, and the
stored review of that game in the replay viewer (at a small node budget: a test machine).

The module starts its own server. Its engine worker loads numba's compiled cache when it
starts, and compiles first if the cache is missing or stale (up to ~30 s, more on a busy
machine); the fixture waits for that once, so that no request of the tests meets a cold engine.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.support import Client, click_move, shoot
from tests.support.live import LiveServer, make_settings, running

from doushouqi.jungle.rules import BUILTIN_RULE_SETS
from doushouqi.server.ai.pool import AiRequest, ProcessPoolAi

RULES = "wango"
MAX_PLIES = 150  # a bound, so that a game that goes wrong cannot run on for ever
ENGINE_START_S = 240  # a cold start compiles the engine; generous for a machine under load
TERMINATIONS = {"den_entered": "攻入兽穴", "all_captured": "吃光对方棋子"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server with the real engine (replaces conftest's, which uses random moves)."""
    ai = ProcessPoolAi(1)
    warm_up = AiRequest(
        rules=BUILTIN_RULE_SETS[RULES].to_mapping(), start_fen=None, moves=(), level=10,
        movetime=0.05,
    )  # fmt: skip
    try:
        # In a thread of its own: Playwright's sync API may already run an event loop here.
        with ThreadPoolExecutor(1) as thread:
            first = thread.submit(asyncio.run, ai.analyse(warm_up)).result(ENGINE_START_S)
    except BaseException:
        ai.close()
        raise
    assert first["bestmove"], first
    # The server closes the engine when it stops.
    settings = make_settings(tmp_path_factory.mktemp("engine-db"), review_nodes=20_000)
    with running(settings, ai=ai) as live:
        yield live


def game_state(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const g = window.gameView.game;
                       return { fen: g.fen, ply: g.ply, status: g.status_id, turn: g.turn }; }"""
        )
    )


def play_hinted_move(page: Page, ply: int) -> str:
    """Press the hint button and play the move it suggests; return the move."""
    state = game_state(page)
    assert state["ply"] == ply and state["turn"] == 0, state
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("提示：", timeout=30_000)
    move = page.evaluate(
        """(fen) => { const h = window.gameView.hintTool.hint;
                      return h && h.fen === fen ? h.move : null; }""",
        state["fen"],
    )
    assert move and re.fullmatch(r"[a-g][1-9][a-g][1-9]", move), move
    click_move(page, move)
    return str(move)


def wait_for_reply_or_end(page: Page, ply: int) -> None:
    """Until the computer has answered the move of ``ply`` (it is Red's turn again) or the
    game is over."""
    page.wait_for_function(
        """(ply) => { const v = window.gameView, g = v && v.game;
                      return g && (g.status_id >= 25 || (g.ply >= ply + 2 && v.canMoveNow())); }""",
        arg=ply,
        timeout=30_000,
    )


def test_hints_beat_level_one_and_the_replay_is_analysed(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-vsai")
    page.select_option("select[name=rules]", RULES)
    page.eval_on_selector(
        "input[name=level]",
        "(el) => { el.value = '1'; el.dispatchEvent(new Event('input', { bubbles: true })); }",
    )
    expect(page.locator("output[name=levelOut]")).to_have_text("1")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    expect(page.locator(".player-bar.top .player-name")).to_contain_text("电脑 1 级")
    found = re.search(r"#/game/([\w-]+)", page.url)
    assert found is not None
    game_id = found[1]

    played: list[str] = []
    ply = 0
    while game_state(page)["status"] < 25:
        assert ply < MAX_PLIES, f"no result after {ply} plies: {played}"
        played.append(play_hinted_move(page, ply))
        wait_for_reply_or_end(page, ply)
        ply = game_state(page)["ply"]
        if len(played) == 3:
            shoot(page, artifacts, "engine-game")

    outcome = page.evaluate("window.gameView.game.outcome")
    assert outcome["winner"] == 0, (outcome, played)
    assert outcome["termination"] in TERMINATIONS, (outcome, played)
    result = page.locator("#result")
    expect(result.locator(".result-title")).to_have_text("红方获胜")
    expect(result.locator(".result-reason")).to_have_text(TERMINATIONS[outcome["termination"]])
    expect(result.locator(".result-you")).to_have_text("你赢了！")
    shoot(page, artifacts, "engine-won")

    # The finished game in the replay viewer: the server reviews it, position by position.
    page.click("#replay-link")
    expect(page).to_have_url(re.compile(rf"#/replay/game/{game_id}$"))
    expect(page.locator("#rp-counter")).to_have_text(f"0 / {ply}")
    page.click("#analyse")
    expect(page.locator("#rp-progress")).to_contain_text("电脑分析", timeout=60_000)
    graph = page.locator("#eval-graph")
    expect(graph).to_have_attribute("data-points", str(ply + 1))
    expect(page.locator("#rp-graph")).to_be_visible()
    # At the start Red is to move: the best move is a move of Red's, in words.
    expect(page.locator("#rp-best")).to_contain_text("最佳着法：")
    best = page.evaluate("window.replayView.analyses[0].bestmove")
    assert re.fullmatch(r"[a-g][1-9][a-g][1-9]", best), best
    shoot(page, artifacts, "engine-replay")
    # Leave while a deeper review runs: the page stops asking, and nothing fails.
    page.click("#analyse")
    page.click("#home-link")
    expect(page.locator("#go-vsai")).to_be_visible()
    assert page.evaluate("window.replayView") is None

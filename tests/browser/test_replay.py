"""The replay viewer in a real browser: upload a record, step through it, analyse it, replay a
game of the server, and a broken record's error (see ``support.py`` for the set-up).

The module's server answers analyses with a script instead of the random stand-in's material
count: level until ply 5, then Blue 8 pawns up. So Red's third move (ply 5) is the one and only
mistake, and every best move is still a random legal move to check against the rules library.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.browser.support import Client, click_move, goto_route, shoot, toggle_language
from tests.support.helpers import board_for
from tests.support.live import DEN_GAME, LiveServer, make_settings, move, running

from doushouqi.jungle.board import Board, Move
from doushouqi.jungle.record import GameRecord, write_record
from doushouqi.server.ai.pool import AiRequest, Analysis, RandomAi

BLUNDER_PLY = 5  # from here on Blue stands 8 pawns better
THINK = 0.08  # seconds per analysis: long enough to stop a run in the middle
COMMENT = "the rat heads for the water"


class ScriptedAnalysis(RandomAi):
    """Random moves, with scores from a script: Red threw the game away at ply BLUNDER_PLY."""

    async def analyse(self, request: AiRequest) -> Analysis:
        await asyncio.sleep(THINK)
        found = await super().analyse(request)
        if found["score"] is None:  # game over
            return found
        red_view = -800 if len(request.moves) >= BLUNDER_PLY else 0
        to_move = board_for(request).turn
        return {**found, "score": {"cp": red_view if to_move == 0 else -red_view}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("replay-db"))
    with running(settings, ai=ScriptedAnalysis()) as live:
        yield live


def den_game() -> tuple[str, list[str]]:
    """The record text of DEN_GAME (Red enters Blue's den at ply 33) and its positions."""
    board = Board(rules="wango")
    fens = [board.fen()]
    for text in DEN_GAME:
        board.push(Move.from_str(text))
        fens.append(board.fen())
    record = GameRecord.from_board(
        board,
        comments={3: COMMENT},
        Event="Club night",
        Date="2024.05.01",
        Red="Li",
        Blue="Wang",
    )
    return write_record(record), fens


def placement(fen: str) -> str:
    return fen.split()[0]


def board_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.replayView.board.getState()")
    return state


def at_ply(page: Page, ply: int, fens: list[str]) -> None:
    """The viewer shows position `ply`: counter, board, last move and the move list agree."""
    expect(page.locator("#rp-counter")).to_have_text(f"{ply} / {len(fens) - 1}")
    expect(page.locator("#board")).to_have_attribute("data-ply", str(ply))
    state = board_state(page)
    assert state["position"] == placement(fens[ply])
    last = DEN_GAME[ply - 1] if ply else None
    assert state["lastMove"] == ([last[:2], last[2:]] if last else None)
    current = page.locator("#rp-moves li.current")
    if ply:
        expect(current).to_have_attribute("data-ply", str(ply))
        expect(current.locator("button")).to_have_attribute("aria-current", "step")
    else:
        expect(current).to_have_count(0)


def drop_errors(client: Client, status: int) -> None:
    """A refused request is logged by the browser itself; the test expects this one."""
    expected = [e for e in client.errors if f"status of {status}" in e]
    assert expected, client.errors
    client.errors[:] = [e for e in client.errors if e not in expected]


def test_upload_step_through_and_analyse(client: Client, artifacts: Path) -> None:
    text, fens = den_game()
    last = len(DEN_GAME)
    page = client.open("/")
    page.click("#go-replay")
    expect(page.locator("h1")).to_have_text("导入棋谱")
    page.fill("#record-text", text)
    shoot(page, artifacts, "replay-upload")
    page.click("#record-open")
    expect(page).to_have_url(re.compile(r"#/replay/record/[\w-]+$"))

    # the header: tags, result, how it ended; the players beside the board
    meta = page.locator("#rp-meta")
    for words in ("Club night", "2024.05.01", "WANGO 规则", "红方胜", "攻入兽穴"):
        expect(meta).to_contain_text(words)
    expect(page.locator(".player-bar.bottom")).to_contain_text("Li")
    expect(page.locator(".player-bar.top")).to_contain_text("Wang")
    expect(page.locator("#rp-moves li")).to_have_count(last)
    expect(page.locator('#rp-moves li[data-ply="1"]')).to_contain_text("猫 b2-a2")
    at_ply(page, 0, fens)
    expect(page.locator("#rp-prev")).to_be_disabled()

    # buttons
    page.click("#rp-next")
    at_ply(page, 1, fens)
    page.click("#rp-next")
    page.click("#rp-next")
    at_ply(page, 3, fens)
    expect(page.locator("#rp-comment")).to_contain_text(COMMENT)
    page.click("#rp-prev")
    at_ply(page, 2, fens)
    expect(page.locator("#rp-comment")).to_be_hidden()
    page.click("#rp-last")
    at_ply(page, last, fens)
    expect(page.locator("#rp-next")).to_be_disabled()
    page.click("#rp-first")
    at_ply(page, 0, fens)

    # keys: ← → Home End anywhere on the page, the slider steps by itself
    page.locator("h1").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at_ply(page, 2, fens)
    page.keyboard.press("End")
    at_ply(page, last, fens)
    page.keyboard.press("ArrowLeft")
    at_ply(page, last - 1, fens)
    page.keyboard.press("Home")
    at_ply(page, 0, fens)
    page.keyboard.press("ArrowLeft")
    at_ply(page, 0, fens)
    page.locator('#rp-moves li[data-ply="10"] button').click()
    at_ply(page, 10, fens)
    page.focus("#rp-slider")
    page.keyboard.press("ArrowRight")
    at_ply(page, 11, fens)
    expect(page).to_have_url(re.compile(r"\?ply=11$"))

    # flip
    page.click("#rp-flip")
    assert board_state(page)["orientation"] == "blue"
    expect(page.locator(".player-bar.bottom")).to_contain_text("Wang")
    page.click("#rp-flip")
    assert board_state(page)["orientation"] == "red"

    # analysis: every position in turn, the graph, the best move, the mistake
    page.click("#analyse")
    expect(page.locator("#rp-progress")).to_contain_text("分析完成", timeout=60_000)
    expect(page.locator("#rp-progress")).to_contain_text("失误 1 处")
    graph = page.locator("#eval-graph")
    expect(graph).to_have_attribute("data-points", str(last + 1))
    expect(page.locator("#eval-graph .eg-dot.mistake")).to_have_count(1)
    expect(page.locator("#rp-moves li.mistake")).to_have_count(1)
    blunder = page.locator(f'#rp-moves li[data-ply="{BLUNDER_PLY}"]')
    expect(blunder).to_have_class(re.compile("mistake"))
    expect(page.locator("#analyse")).to_be_disabled()
    expect(page.locator("#rp-best")).to_contain_text("最佳着法：")
    expect(page.locator("#rp-best")).to_contain_text("蓝方 +8.0")  # ply 11: after the blunder
    best = page.evaluate("window.replayView.analyses[11].bestmove")
    legal = {str(m) for m in Board(fens[11], "wango").generate_legal_moves()}
    assert best in legal
    assert board_state(page)["hint"] == [best[:2], best[2:]]
    hinted = page.locator(f'.dsq-squares [data-square="{best[:2]}"]')
    expect(hinted).to_have_class(re.compile("hint-from"))
    page.locator('#rp-moves li[data-ply="2"] button').click()
    expect(page.locator("#rp-best")).to_contain_text("双方均势")
    shoot(page, artifacts, "replay-analysed")
    page.keyboard.press("End")
    expect(page.locator("#rp-best")).to_have_text("对局已结束")
    assert board_state(page)["hint"] is None

    # a click on the graph goes to the ply under it
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": 2, "y": box["height"] / 2})
    at_ply(page, 0, fens)
    graph.click(position={"x": box["width"] * 0.75, "y": 5})
    expect(page.locator("#board")).to_have_attribute("data-ply", re.compile(r"^(24|25|26)$"))
    graph.click(position={"x": box["width"] - 2, "y": 5})
    at_ply(page, last, fens)

    # English: readable moves in English, the ply and the analyses kept
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    toggle_language(page)
    expect(page.locator('#rp-moves li[data-ply="1"]')).to_contain_text("Cb2-a2")
    expect(page.locator("#rp-meta")).to_contain_text("Red won")
    at_ply(page, 1, fens)
    expect(page.locator("#eval-graph")).to_have_attribute("data-points", str(last + 1))
    expect(page.locator("#rp-best")).to_contain_text("Best move:")
    shoot(page, artifacts, "replay-en")

    # the download is the record as uploaded
    with page.expect_download() as download:
        page.click("#rp-download")
    assert Path(download.value.path()).read_text("utf-8") == text


def test_analysis_stops_and_ends_with_the_page(client: Client) -> None:
    text, _ = den_game()
    page = client.open("/#/replay")
    page.fill("#record-text", text)
    page.click("#record-open")
    expect(page.locator("#rp-moves li")).to_have_count(len(DEN_GAME))
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/analysis") else None)

    # Stop, then continue where it stopped
    page.click("#analyse")
    expect(page.locator("#analyse")).to_have_text("停止分析")
    expect(page.locator("#rp-count")).to_have_text(re.compile(r"^[1-9]\d* / 34$"))
    page.click("#analyse")
    expect(page.locator("#rp-progress")).to_have_text(re.compile(r"^已分析 \d+ / 34$"))
    expect(page.locator("#analyse")).to_have_text("继续分析")
    page.wait_for_timeout(300)
    stopped_at = len(asked)
    page.wait_for_timeout(300)
    assert len(asked) == stopped_at < 34
    page.click("#analyse")
    expect(page.locator("#rp-count")).to_have_text(re.compile(r" / 34$"))

    # leaving the page ends the run: no more requests
    page.click("#home-link")
    expect(page.locator("#go-replay")).to_be_visible()
    page.wait_for_timeout(300)
    left_at = len(asked)
    page.wait_for_timeout(500)
    assert len(asked) == left_at < 34


def test_broken_or_missing_record(client: Client, artifacts: Path) -> None:
    text, _ = den_game()
    page = client.open("/#/replay")
    page.click("#record-open")
    expect(page.locator("#record-error")).to_have_text("请先粘贴棋谱，或选择一个棋谱文件。")

    lines = text.splitlines()
    bad_line = next(i for i, line in enumerate(lines, 1) if line.startswith("1. "))
    lines[bad_line - 1] = lines[bad_line - 1].replace("b2a2", "b2b5", 1)
    page.fill("#record-text", "\n".join(lines))
    page.click("#record-open")
    error = page.locator("#record-error")
    expect(error).to_contain_text(f"棋谱第 {bad_line} 行有问题")
    expect(error).to_contain_text("b2b5")
    expect(page).to_have_url(re.compile(r"#/replay$"))
    selected = page.evaluate(
        "(() => { const t = document.querySelector('#record-text');"
        " return t.value.slice(t.selectionStart, t.selectionEnd); })()"
    )
    assert selected == lines[bad_line - 1]
    drop_errors(client, 422)
    shoot(page, artifacts, "replay-bad-record")

    # a good file opens at once
    chosen = {"name": "den.txt", "mimeType": "text/plain", "buffer": text.encode()}
    page.set_input_files("#record-file", files=[chosen])
    expect(page).to_have_url(re.compile(r"#/replay/record/[\w-]+$"))
    expect(page.locator("#rp-moves li")).to_have_count(len(DEN_GAME))

    goto_route(page, client.server.url + "/#/replay/record/no-such-record")
    expect(page.locator(".error")).to_have_text("找不到这份棋谱")
    drop_errors(client, 404)


def test_replay_of_a_server_game(client: Client, server: LiveServer, artifacts: Path) -> None:
    owner = server.player().guest()
    finished = owner.create(mode="same_screen")["id"]
    with owner.socket(finished) as ws:
        ws.wait_for("game_started")
        for text in DEN_GAME:
            move(ws, text)
        ws.wait_for("game_finished")
    replay = owner.get(f"/api/games/{finished}/replay").json()
    fens = [replay["start_fen"], *(p["fen"] for p in replay["plies"])]
    assert len(fens) == len(DEN_GAME) + 1

    page = client.open(f"/#/replay/game/{finished}")
    expect(page.locator("#rp-meta")).to_contain_text("红方胜")
    expect(page.locator("#rp-meta")).to_contain_text("攻入兽穴")
    expect(page.locator("#rp-download")).to_have_attribute("href", f"/api/games/{finished}/record")
    expect(page.locator("#rp-to-game")).to_have_attribute("href", f"#/game/{finished}")
    # one guest played both sides on one screen: the bars name the sides, not the guest twice
    expect(page.locator(".player-bar.bottom strong")).to_have_text("红方")
    expect(page.locator(".player-bar.top strong")).to_have_text("蓝方")
    expect(page.locator("#rp-progress")).to_contain_text("服务器的引擎对每个局面只分析一次")
    expect(page.locator("#analyse")).to_have_text("请求电脑分析")
    at_ply(page, 0, fens)
    page.locator("h1").click()
    for ply in range(1, len(fens)):
        page.keyboard.press("ArrowRight")
        at_ply(page, ply, fens)
    shoot(page, artifacts, "replay-game")

    # a game still going: its moves so far
    going = owner.create(mode="same_screen")["id"]
    with owner.socket(going) as ws:
        ws.wait_for("game_started")
        move(ws, "a3a4")
        move(ws, "a7a6")
    goto_route(page, client.server.url + f"/#/replay/game/{going}?ply=1")
    expect(page.locator("#rp-meta")).to_contain_text("对局未结束")
    expect(page.locator("#rp-progress")).to_contain_text("对局结束后才能进行电脑分析")
    expect(page.locator("#analyse")).to_be_disabled()
    expect(page.locator("#rp-counter")).to_have_text("1 / 2")
    expect(page.locator("#rp-moves li")).to_have_count(2)


# ----- the replay viewer names the computer ---------------------------------------------------


def upload(server: LiveServer, **tags: str) -> str:
    """A two-ply record with `tags`, uploaded; its id."""
    board = Board(rules="wango")
    for text in ("a3a4", "a7a6"):
        board.push(Move.from_str(text))
    player = server.player()
    text = write_record(GameRecord.from_board(board, **tags))
    response = player.post(
        "/api/records", content=text.encode(), headers={"Content-Type": "text/plain"}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def test_replay_names_the_computer_in_the_readers_language(client: Client, artifacts: Path) -> None:
    page = client.open("/")
    page.click("#go-vsai")
    page.click("#start")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")  # the pieces can move now
    click_move(page, "a3a4")
    expect(page.locator("#moves li")).to_have_count(2)  # the computer replied
    found = re.search(r"#/game/([\w-]+)", page.url)
    assert found is not None
    goto_route(page, client.server.url + f"/#/replay/game/{found[1]}")
    blue = page.locator(".player-bar.top")
    expect(blue).to_contain_text("电脑 3 级")
    expect(blue).not_to_contain_text("AI level")
    shoot(page, artifacts, "replay-names-the-computer")
    toggle_language(page)
    expect(page.locator(".player-bar.top")).to_contain_text("Computer level 3")


def test_replay_of_records_names_the_computer_only_in_its_games(
    client: Client, server: LiveServer
) -> None:
    page = client.open(f"/#/replay/record/{upload(server, Red='AI level 5', Blue='Li')}")
    expect(page.locator(".player-bar.bottom")).to_contain_text("电脑 5 级")
    expect(page.locator(".player-bar.top")).to_contain_text("Li")
    # Someone called "AI level 2" in an online game is a person with an odd name.
    online = upload(server, Red="Wang", Blue="AI level 2", Mode="online")
    goto_route(page, server.url + f"/#/replay/record/{online}")
    expect(page.locator(".player-bar.top")).to_contain_text("AI level 2")

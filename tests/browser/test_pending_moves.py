"""The player's own moves when the connection fails them: a move made while the server is down is
shown pending and played once it is back, even when the page was reloaded meanwhile (the move
is kept in the tab); a move whose answer is lost on the way is sent again
and played once; a move the game no longer wants when it gets through is taken back and the
player told why; premoves in a timed game are played when the turn comes, or dropped with a
note when they are no longer legal.

The server is really stopped (a process killed, ``tests/support/server_process.py``) and the
network really cut (a TCP proxy between the browser and the server,
``tests/support/tcp_proxy.py``). Every wait is for a condition, never for a time.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from tests.browser.support import PHONE, click_move, click_premove, fetch_json, plies, shoot
from tests.support.live import LiveServer, move
from tests.support.ports import free_port
from tests.support.server_process import ServerProcess
from tests.support.tcp_proxy import SeverableProxy

#: What a browser logs by itself while the server is away (not the page's faults).
NETWORK_NOISE = ("WebSocket connection to", "Failed to load resource", "net::ERR_")
RECOVERY_MS = 60_000  # the server's restart and the page's reconnect (its back-off is ≤ 5 s)


class Frames:
    """Every websocket message the page sends and receives, parsed."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("websocket", self._follow)

    def _follow(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def moves_sent(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "move"]


class RecordingPage:
    """A browser context in English that records the page's errors, except network noise."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.context = browser.new_context(locale="en-US", viewport=PHONE)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames = Frames(self.page)
        self.page.goto(url + "/")

    def _console(self, message: Any) -> None:
        if message.type == "error" and not any(n in message.text for n in NETWORK_NOISE):
            self.errors.append(message.text)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def opened(browser: Browser) -> Iterator[Callable[[str], RecordingPage]]:
    pages: list[RecordingPage] = []

    def open_at(url: str) -> RecordingPage:
        pages.append(RecordingPage(browser, url))
        return pages[-1]

    yield open_at
    for p in pages:
        p.close()


def wait_until(condition: Callable[[], Any], what: str, timeout: float = 30) -> Any:
    """Poll ``condition`` until it is true; its value (a condition, not a fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
    return value


def computer_game(page: Page, **options: Any) -> str:
    fetch_json(page, "/api/auth/guest", "POST")
    body = {"mode": "vs_ai", "ai_level": 1, "color": "red", **options}
    game = fetch_json(page, "/api/games", "POST", body)
    page.goto(page.url.split("#")[0] + f"#/game/{game['id']}")
    expect(page.locator("#status")).to_have_text("Your move")
    return str(game["id"])


def server_moves(page: Page, game_id: str) -> list[str]:
    state = fetch_json(page, f"/api/games/{game_id}")
    return [m[0] for m in state["game"]["moves"]]


def square(page: Page, name: str) -> Any:
    return page.locator(f'.dsq-squares [data-square="{name}"]')


PENDING = re.compile(r"\bpending\b")
SENDING = re.compile(r"\bsending\b")


def expect_pending(page: Page, move: str, status: str) -> None:
    """The move drawn as made, its squares and piece marked pending, the status saying so."""
    expect(square(page, move[:2])).to_have_class(PENDING)
    expect(square(page, move[2:])).to_have_class(PENDING)
    expect(page.locator(f'.dsq-piece.pending[data-square="{move[2:]}"]')).to_have_count(1)
    expect(page.locator("#status")).to_have_text(status)
    expect(page.locator("#status")).to_have_class(SENDING)


def expect_settled(page: Page) -> None:
    """Nothing pending any more."""
    expect(page.locator(".dsq-squares .pending")).to_have_count(0)
    expect(page.locator(".dsq-piece.pending")).to_have_count(0)
    expect(page.locator("#status")).not_to_have_class(SENDING)


def test_a_move_made_while_the_server_is_down_is_played_once_it_is_back(
    opened: Callable[[str], RecordingPage], tmp_path: Path, artifacts: Path
) -> None:
    port = free_port()
    server = ServerProcess(tmp_path, port).start()
    try:
        player = opened(server.url)
        page = player.page
        game_id = computer_game(page)
        click_move(page, "a3a4")
        plies(page, 2)  # the computer answered

        server.kill()
        expect(page.locator("#offline")).to_be_visible()
        click_move(page, "g3g4")
        # On the board at once, marked pending; the status says it has not gone yet.
        expect_pending(page, "g3g4", "Your move g3–g4 will be sent when the connection is back")
        shoot(page, artifacts, "pending-move-offline")
        plies(page, 2)  # not in the move list: the server has not played it

        server = ServerProcess(tmp_path, port).start()  # the same database and port
        expect(page.locator("#offline")).to_be_hidden(timeout=RECOVERY_MS)
        plies(page, 4)  # played, and the computer answered
        expect_settled(page)
        expect(page.locator("#status")).to_have_text("Your move")
        expect(page.locator("#move-note")).to_be_hidden()
        moves = server_moves(page, game_id)
        assert moves[:3] == ["a3a4", moves[1], "g3g4"], moves
        assert len(moves) == 4, moves
        ids = {m["id"] for m in player.frames.moves_sent() if m["move"] == "g3g4"}
        assert len(ids) == 1, player.frames.moves_sent()  # one move, one id, however often sent
    finally:
        server.kill()


def test_a_move_whose_answer_is_lost_is_sent_again_and_played_once(
    opened: Callable[[str], RecordingPage], server: LiveServer
) -> None:
    with SeverableProxy(server.port) as proxy:
        player = opened(proxy.url)
        page = player.page
        game_id = computer_game(page)
        click_move(page, "a3a4")
        plies(page, 2)

        assert proxy.hold() == 1  # the game's socket: what the server sends stays in the proxy
        click_move(page, "g3g4")
        sent = wait_until(
            lambda: [m for m in player.frames.moves_sent() if m["move"] == "g3g4"], "the move sent"
        )
        assert sent[0]["id"].startswith("m-") and isinstance(sent[0]["version"], int), sent
        # The server plays it (and the computer answers), but the page hears nothing of it.
        viewer = server.player()
        wait_until(
            lambda: len(viewer.get(f"/api/games/{game_id}").json()["game"]["moves"]) >= 3,
            "the server to play the move",
        )
        expect_pending(page, "g3g4", "Sending your move g3–g4…")

        assert proxy.sever() == 1  # the answer is lost with the connection
        plies(page, 4)
        expect_settled(page)
        expect(page.locator("#status")).to_have_text("Your move")
        move_id = sent[0]["id"]
        ack = wait_until(
            lambda: [
                m
                for m in player.frames.received
                if m.get("type") == "ack" and m.get("id") == move_id
            ],
            "the server's answer to the move sent again",
        )
        assert ack[0].get("duplicate") is True, ack
        again = [m for m in player.frames.moves_sent() if m["id"] == move_id]
        assert len(again) == 2 and again[0] == again[1], again  # the same id, move and version
        assert not [m for m in player.frames.received if m.get("type") == "rejected"]
        moves = server_moves(page, game_id)
        assert moves.count("g3g4") == 1 and len(moves) == 4, moves
        expect(page.locator("#moves li")).to_have_count(4)
        expect(page.locator("#move-note")).to_be_hidden()


def test_premoves_are_played_when_the_turn_comes_or_dropped_when_no_longer_legal(
    opened: Callable[[str], RecordingPage], server: LiveServer, artifacts: Path
) -> None:
    opponent = server.player().guest()
    game = opponent.create(mode="online", color="blue", time_control="5+3")
    with opponent.socket(game["id"]) as blue:
        blue.wait_for("state")
        player = opened(server.url)
        page = player.page
        page.goto(f"{server.url}/#/game/{game['id']}?join=1")
        expect(page.locator("#status")).to_have_text("Your move")
        blue.wait_for("game_started")
        click_move(page, "a3a4")
        blue.wait_for("move_made", lambda m: m["move"] == "a3a4")
        expect_settled(page)

        # Blue to move: Red chooses a premove, shown apart from moves.
        click_premove(page, "a4a5")
        expect(square(page, "a4")).to_have_class(re.compile(r"\bpremove-from\b"))
        expect(square(page, "a5")).to_have_class(re.compile(r"\bpremove-to\b"))
        expect(page.locator("#premove-line")).to_have_text(re.compile("Premove: a4–a5"))
        expect(page.locator('.dsq-piece[data-square="a4"]')).to_have_count(1)  # not moved
        shoot(page, artifacts, "premove-set")
        # A tap elsewhere cancels it; the cancel button does too.
        square(page, "d5").click()
        expect(page.locator("#premove-line")).to_be_hidden()
        click_premove(page, "a4a5")
        page.click("#cancel-premove")
        expect(page.locator(".dsq-squares .premove-from")).to_have_count(0)
        square(page, "a4").click()
        expect(square(page, "b4")).not_to_have_class(re.compile(r"\bpremove-dest\b"))
        square(page, "b4").click()  # not offered: the elephant does not swim
        expect(page.locator("#premove-line")).to_be_hidden()
        click_premove(page, "a4a5")
        expect(page.locator("#premove-line")).to_be_visible()

        # Blue moves; the premove is legal now and goes at once.
        move(blue, "a7a6")
        played = blue.wait_for("move_made", lambda m: m["move"] == "a4a5")
        assert played["color"] == 0 and played["ply"] == 3
        plies(page, 3)
        expect(page.locator("#premove-line")).to_be_hidden()
        expect_settled(page)

        # Blue's rat can take the elephant: Red premoves a retreat, and the rat takes first.
        click_premove(page, "a5a4")
        expect(page.locator("#premove-line")).to_have_text(re.compile("Premove: a5–a4"))
        move(blue, "a6a5")
        plies(page, 4)
        note = page.locator("#move-note")
        expect(note).to_have_text(re.compile("Premove a5–a4 dropped: it is not a legal move now"))
        expect(page.locator("#premove-line")).to_be_hidden()
        expect(page.locator("#status")).to_have_text("Your move")
        shoot(page, artifacts, "premove-dropped")
        assert [m for m in player.frames.moves_sent() if m["move"] == "a5a4"] == []
        assert server_moves(page, game["id"]) == ["a3a4", "a7a6", "a4a5", "a6a5"]
        # The note stays until the player moves or closes it.
        page.click("#move-note-close")
        expect(note).to_be_hidden()


def test_a_move_the_game_no_longer_wants_is_taken_back_and_the_player_told_why(
    opened: Callable[[str], RecordingPage], server: LiveServer, artifacts: Path
) -> None:
    """The case that matters in a timed game: the player moves while the connection is down,
    and their time for the move runs out before it gets through."""
    opponent = server.player().guest()
    game = opponent.create(mode="online", color="blue", time_control="5+0/6s")
    with SeverableProxy(server.port) as proxy, opponent.socket(game["id"]) as blue:
        blue.wait_for("state")
        player = opened(proxy.url)
        page = player.page
        page.goto(f"{proxy.url}/#/game/{game['id']}?join=1")
        expect(page.locator("#status")).to_have_text("Your move")
        blue.wait_for("game_started")

        assert proxy.block() == 1  # the network is down, and stays down
        expect(page.locator("#offline")).to_be_visible()
        click_move(page, "a3a4")
        expect_pending(page, "a3a4", "Your move a3–a4 will be sent when the connection is back")
        # Red's time for the move runs out meanwhile: the server passes Red's turn.
        blue.wait_for("timeout_passed", lambda m: m["color"] == 0, timeout=30)

        proxy.unblock()
        note = page.locator("#move-note")
        expect(note).to_have_text(
            re.compile("Your move a3–a4 was not played: the game had moved on"), timeout=RECOVERY_MS
        )
        expect_settled(page)
        # The board is the server's again: the elephant back where it stood.
        expect(page.locator('.dsq-piece[data-square="a3"]')).to_have_count(1)
        expect(page.locator('.dsq-piece[data-square="a4"]')).to_have_count(0)
        shoot(page, artifacts, "pending-move-refused")
        refusals = [m for m in player.frames.received if m.get("type") == "rejected"]
        assert [m["code"] for m in refusals] == ["stale_version"], refusals
        assert "a3a4" not in server_moves(page, game["id"])
        # The note stays (not a toast) until the player moves again or closes it.
        expect(note).to_be_visible()


def test_a_pending_move_survives_a_reload_and_is_played_once(
    opened: Callable[[str], RecordingPage], server: LiveServer, artifacts: Path
) -> None:
    """The player moves while the network is down, then reloads the page (as people do when a
    game seems stuck): the move is still there, pending, and goes once the network is back,
    under the id it was given before the reload."""
    with SeverableProxy(server.port) as proxy:
        player = opened(proxy.url)
        page = player.page
        game_id = computer_game(page)
        click_move(page, "a3a4")
        plies(page, 2)

        assert proxy.block() == 1  # the game's socket is cut, and no new one gets through
        expect(page.locator("#offline")).to_be_visible()
        click_move(page, "g3g4")
        expect_pending(page, "g3g4", "Your move g3–g4 will be sent when the connection is back")
        kept = json.loads(
            page.evaluate(f"sessionStorage.getItem('doushouqi.pendingMoves.{game_id}')")
        )
        assert [(m["move"], m["ply"]) for m in kept] == [("g3g4", 3)], kept

        # The page comes again (HTTP passes); the game's socket still does not, so the page
        # has no game to draw yet: the move waits in the tab.
        page.reload()
        expect(page.locator("#offline")).to_be_visible(timeout=RECOVERY_MS)
        assert (
            json.loads(page.evaluate(f"sessionStorage.getItem('doushouqi.pendingMoves.{game_id}')"))
            == kept
        )
        assert not [m for m in player.frames.moves_sent() if m["move"] == "g3g4"]

        proxy.unblock()
        expect(page.locator("#offline")).to_be_hidden(timeout=RECOVERY_MS)
        plies(page, 4)  # played, and the computer answered
        expect_settled(page)
        expect(page.locator("#status")).to_have_text("Your move")
        shoot(page, artifacts, "pending-move-after-reload")
        sent = [m for m in player.frames.moves_sent() if m["move"] == "g3g4"]
        assert {m["id"] for m in sent} == {kept[0]["id"]}, sent  # the id from before the reload
        moves = server_moves(page, game_id)
        assert moves.count("g3g4") == 1 and len(moves) == 4, moves
        stored = f"sessionStorage.getItem('doushouqi.pendingMoves.{game_id}')"
        wait_until(lambda: page.evaluate(stored) is None, "the answered move to leave the tab")

"""Game sounds (``app/sounds.js``) in a real browser.

An init script wraps ``AudioContext`` and ``OscillatorNode.start`` to record what the page
plays: how many audio contexts it made, and the frequency of every oscillator started, in
order. Each sound's first note has a frequency of its own (``SOUNDS`` in sounds.js, read from
the page), which tells the sounds apart.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from tests.browser.support import (
    Client,
    click_move,
    create_online_game,
    plies,
    shoot,
    toggle_language,
)
from tests.support.live import DEN_GAME, LiveServer, move

RECORDER = """
(() => {
  const log = { contexts: 0, started: [] };
  window.soundLog = log;
  const Original = window.AudioContext;
  if (!Original) return;
  class RecordingContext extends Original {
    constructor(...args) { super(...args); log.contexts += 1; }
  }
  window.AudioContext = RecordingContext;
  window.webkitAudioContext = RecordingContext;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    log.started.push(Math.round(this.frequency.value * 100) / 100);
    return start.apply(this, args);
  };
})();
"""

NO_AUDIO = "delete window.AudioContext; delete window.webkitAudioContext;"


def recording(client: Client) -> Page:
    client.context.add_init_script(RECORDER)
    return client.page


def sounds(page: Page) -> dict[str, list[float]]:
    """Every sound's note frequencies, as the page's sounds.js has them."""
    table: dict[str, list[dict[str, Any]]] = page.evaluate(
        "import('/app/shell/sounds.js').then((m) => m.SOUNDS)"
    )
    return {name: [note["freq"] for note in notes] for name, notes in table.items()}


def started(page: Page) -> list[float]:
    return list(page.evaluate("window.soundLog.started"))


def contexts(page: Page) -> int:
    return int(page.evaluate("window.soundLog.contexts"))


def wait_for_notes(page: Page, count: int) -> None:
    # A function, not a string: Playwright evals a string on every poll, which the CSP refuses.
    page.wait_for_function(
        "(count) => window.soundLog.started.length >= count", arg=count, timeout=20_000
    )


def start_game(page: Page, card: str, time_control: str | None = None) -> None:
    page.click(card)
    if time_control:
        page.select_option("select[name=time]", "custom")
        page.fill("#time-custom", time_control)
    page.click("#start")
    # "轮到你走棋", "红方走棋", "Your move": the board takes moves
    expect(page.locator("#status")).to_contain_text(re.compile("走棋|move"))


def test_a_move_and_the_computers_reply_are_heard(client: Client, artifacts: Path) -> None:
    page = recording(client)
    client.open("/")
    start_game(page, "#go-vsai")
    expect(page.locator("#status")).to_contain_text("轮到你走棋")
    toggle = page.locator("#sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # on unless switched off
    expect(toggle).to_have_attribute("aria-label", "音效")
    assert contexts(page) == 0  # nothing played yet, nothing made
    table = sounds(page)
    click_move(page, "a3a4")
    plies(page, 2)
    wait_for_notes(page, 2)
    assert started(page) == table["move"] + table["opponent"]
    assert contexts(page) == 1
    shoot(page, artifacts, "sounds-vs-ai")
    toggle_language(page)
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-label", "Sound")
    expect(page.locator("#sound-toggle")).to_have_attribute("title", "Sound: on")


def test_captures_and_the_den_win_on_one_screen(client: Client) -> None:
    page = recording(client)
    client.open("/")
    start_game(page, "#go-local")
    table = sounds(page)
    for i, text in enumerate(DEN_GAME):
        click_move(page, text)
        plies(page, i + 1)
    expect(page.locator("#result")).to_contain_text("攻入兽穴")
    expected: list[float] = []
    for i in range(len(DEN_GAME)):
        # ply 27 (c7d7) takes an animal; on one screen every other move is "a move"
        expected += table["capture"] if i + 1 == 27 else table["move"]
    expected += table["win"]
    wait_for_notes(page, len(expected))
    page.wait_for_timeout(300)  # nothing more comes
    assert started(page) == expected


def test_online_opponent_move_and_a_draw(client: Client, server: LiveServer) -> None:
    page = recording(client)
    client.open("/")
    game_id = create_online_game(page)  # the creator plays Red
    table = sounds(page)
    opponent = server.player().guest()
    with opponent.socket(game_id) as sock:
        sock.wait_for("state")
        sock.send({"type": "join"})
        sock.wait_for("game_started")
        expect(page.locator("#status")).to_contain_text("轮到你走棋")
        click_move(page, "a3a4")
        sock.wait_for("move_made", lambda m: m["move"] == "a3a4")
        move(sock, "a7a6")
        plies(page, 2)
        wait_for_notes(page, 2)
        assert started(page) == table["move"] + table["opponent"]
        page.click("#offer-draw")
        sock.wait_for("draw_offered")
        sock.send({"type": "accept_draw"})
        sock.wait_for("game_finished")
    expect(page.locator("#result")).to_contain_text("和棋")
    wait_for_notes(page, 2 + len(table["draw"]))
    assert started(page) == table["move"] + table["opponent"] + table["draw"]


def test_one_low_time_warning_then_the_lost_game(client: Client) -> None:
    page = recording(client)
    client.open("/")
    start_game(page, "#go-vsai", time_control="13s")
    table = sounds(page)
    click_move(page, "a3a4")
    plies(page, 2)
    wait_for_notes(page, 2)
    # Our clock runs down from about 13 s: one warning at 10 s, then the game is lost on time.
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    expect(page.locator("#result")).to_contain_text("走棋时间用完")
    wait_for_notes(page, 2 + len(table["lowTime"]) + len(table["lose"]))
    page.wait_for_timeout(300)
    assert started(page) == table["move"] + table["opponent"] + table["lowTime"] + table["lose"]


def test_the_switch_off_makes_no_sound_and_is_remembered(client: Client, artifacts: Path) -> None:
    page = recording(client)
    client.open("/")
    start_game(page, "#go-vsai")
    table = sounds(page)
    toggle = page.locator("#sound-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_attribute("title", "音效：关")
    click_move(page, "a3a4")
    plies(page, 2)
    page.wait_for_timeout(300)
    assert (contexts(page), started(page)) == (0, [])
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    click_move(page, "a4a5")
    plies(page, 4)
    page.wait_for_timeout(300)
    assert (contexts(page), started(page)) == (0, [])
    shoot(page, artifacts, "sounds-off")
    # On again: with a note at once, so that the player hears it works.
    page.locator("#sound-toggle").press("Enter")
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    wait_for_notes(page, 1)
    assert (contexts(page), started(page)) == (1, table["move"])
    page.reload()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")


def test_without_web_audio_the_game_goes_on(browser: Browser, server: LiveServer) -> None:
    client = Client(browser, server, locale="en-US")
    try:
        client.context.add_init_script(NO_AUDIO)
        page = client.open("/")
        start_game(page, "#go-vsai")
        click_move(page, "a3a4")
        plies(page, 2)
        page.click("#sound-toggle")
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
        page.click("#sound-toggle")
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    finally:
        client.close()  # fails on any console error

"""Helpers shared by the browser tests: a recording browser context, screenshots, board clicks.

A real server (``tests/support/live.py``: uvicorn on a free loopback port, its own SQLite file,
the random AI) serves the static client; the tests click through it as people would. Every
page fails the test on a console error or an uncaught exception. Screenshots at phone
(390×844) and desktop (1440×900) sizes go to ``$DOUSHOUQI_ARTIFACTS`` (default: a temp dir),
and no page may scroll sideways.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from tests.support.live import LiveServer

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
expect.set_options(timeout=15_000)


class Client:
    """One browser context (its own cookies and storage) with one page that records errors."""

    def __init__(self, browser: Browser, server: LiveServer, locale: str = "zh-CN", **options: Any):
        self.server = server
        self.context: BrowserContext = browser.new_context(
            locale=locale, viewport=options.pop("viewport", PHONE), **options
        )
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str = "/") -> Page:
        goto_route(self.page, self.server.url + path)
        return self.page

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def goto_route(page: Page, url: str) -> None:
    """Go to ``url``; when it only changes the hash of the app's page, wait until the router
    has put the new page in place of the old one.

    Going to another hash route is no page load: the old page stays on screen until the new
    one is drawn (after its data arrives), and a locator meant for the new page that the old
    one also matches (``#start``, a board, ``form#settings``) would act on the old one.
    """
    same_document = url != page.url and url.split("#")[0] == page.url.split("#")[0]
    shown = page.query_selector("#view > *") if same_document else None
    page.goto(url)
    if shown is not None:
        page.wait_for_function("(el) => !el.isConnected", arg=shown)


def after_frames(page: Page) -> None:
    """Wait until the page has drawn two more frames: what it does on a resize (its `resize`
    handlers, media queries) is done by then, however busy the machine (no fixed sleep)."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


#: Chromium lays boxes out in sixty-fourths of a pixel (its LayoutUnit).
LAYOUT_UNIT = 1 / 64


def laid_out_size(locator: Locator) -> tuple[float, float]:
    """The element's width and height as laid out, for a touch target's size: measured once
    its animations (an entrance's slide, a fade) have finished, and to the layout's own
    sixty-fourth of a pixel. A 44 px button of a pop-up that slides in read 43.99994 px
    high at y = 726, one single-precision step short: a box's edges, where a transform maps
    them, are likely computed in floats, and such a step says nothing of its size."""
    locator.evaluate(
        "(el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished))"
    )
    box = locator.bounding_box()
    assert box is not None, "not shown"
    width, height = (round(box[k] / LAYOUT_UNIT) * LAYOUT_UNIT for k in ("width", "height"))
    return width, height


def no_overflow(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"horizontal overflow: {width}"


def shoot(page: Page, artifacts: Path, name: str) -> None:
    """Screenshots at both sizes, each checked for horizontal overflow."""
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        after_frames(page)
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def choose_language(page: Page, lang: str) -> None:
    """Pick ``lang`` (``zh``, ``zh-Hant``, ``en``) in the top bar's language menu, once the app
    has started (the page's ``lang`` is Simplified Chinese before it has: not yet the reader's)."""
    page.wait_for_function("() => window.appLang !== undefined")
    page.select_option("#lang", lang)
    expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[lang])


def toggle_language(page: Page) -> None:
    """Simplified Chinese → English, anything else → Simplified Chinese (the menu, as a person)."""
    shown = page.locator("html").get_attribute("lang")
    choose_language(page, "en" if shown == HTML_LANG["zh"] else "zh")


HTML_LANG = {"zh": "zh-CN", "zh-Hant": "zh-Hant", "en": "en"}


SQUARE_NAME = re.compile(r"[a-z]\d+")
MOVABLE = re.compile(r"\bmovable\b")
DEST_OR_CAPTURE = re.compile(r"\b(dest|capture)\b")
PREMOVABLE = re.compile(r"\bpremovable\b")
PREMOVE_DEST = re.compile(r"\bpremove-dest\b")


def board_square(page: Page, name: str) -> Locator:
    """A square (a point on 老虎棋's board) of the page's board, by its name."""
    return page.locator(f'.dsq-squares [data-square="{name}"]')


def click_move(page: Page, move: str) -> None:
    """Play ``move`` (``a3a4``, 老虎棋's ``e10e9``; a jump by its first and last points) by
    clicking its squares, each once the board takes it.

    The board is drawn before it takes moves (a game still starting, the page just reloaded,
    the computer or the opponent to move, our last move still on its way), and a click then
    does nothing: the from-square is waited for until its piece is movable, and the landing
    square until it is offered. A move the board never offers fails here, not later.
    """
    _click_when_offered(page, move, MOVABLE, DEST_OR_CAPTURE)


def click_premove(page: Page, move: str) -> None:
    """Choose ``move`` as a premove (the opponent to move), as ``click_move`` plays one: each
    square clicked once the board offers it for a premove."""
    _click_when_offered(page, move, PREMOVABLE, PREMOVE_DEST)


def _click_when_offered(
    page: Page, move: str, start: re.Pattern[str], end: re.Pattern[str]
) -> None:
    """Click ``move``'s first square once it has the class ``start``, then its last square once
    it has ``end``."""
    first, *_, last = SQUARE_NAME.findall(move)
    expect(board_square(page, first)).to_have_class(start)
    board_square(page, first).click()
    expect(board_square(page, last)).to_have_class(end)
    board_square(page, last).click()


def plies(page: Page, n: int) -> None:
    expect(page.locator("#moves li")).to_have_count(n)


def position(page: Page) -> str:
    return str(page.evaluate("window.gameView.board.getState().position"))


def fetch_json(page: Page, path: str, method: str = "GET", body: Any = None) -> Any:
    """Call the API from the page, with its cookies (as the web client does)."""
    return page.evaluate(
        """async ([path, method, body]) => {
            const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json' },
                                          body: body === null ? undefined : JSON.stringify(body) });
            return r.json();
        }""",
        [path, method, body],
    )


def create_online_game(page: Page) -> str:
    """Create an online game from the settings page; its id."""
    goto_route(page, page.url.split("#")[0] + "#/new/online")
    page.click("#start")
    expect(page.locator("#invite-link")).to_have_value(re.compile(r"/game/[\w-]+\?join=1$"))
    found = re.search(r"#/game/([\w-]+)", page.url)
    assert found is not None
    return found[1]
